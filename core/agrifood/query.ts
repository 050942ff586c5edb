// Checks a query against the spec before anything is sent and writes it the way the service reads it:
// one parameter per list, its values joined by commas, integers where the spec says I[], dates as
// dd/mm/yyyy. Whatever the spec forbids becomes an AgrifoodError('invalid-query') naming the fix.

import { ENDPOINTS, type ParamSpec } from './endpoints';
import { AgrifoodError } from './errors';
import type { SectorId } from './records';
import { parseDmy } from './weeks';

export type ParamValue = string | number | readonly (string | number)[] | undefined | null;
export type QueryParams = Readonly<Record<string, ParamValue>>;

/** Parameter name -> its checked values (a date or single string is a one-element list). */
export type NormalizedQuery = Record<string, string[]>;

function invalid(message: string): AgrifoodError {
  return new AgrifoodError('invalid-query', message);
}

function elements(name: string, v: ParamValue): string[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) {
    return (v as (string | number)[]).map((e) => {
      const t = String(e).trim();
      if (t.includes(',')) {
        throw invalid(`${name}: "${t}" contains a comma, which the service reads as a list separator.`);
      }
      return t;
    });
  }
  // A single string may itself be a comma-separated list (as typed on the command line).
  return String(v)
    .split(',')
    .map((e) => e.trim());
}

/** Checks every parameter; returns them in the spec's order with empty ones dropped. */
export function normalizeQuery(sector: SectorId, params: QueryParams): NormalizedQuery {
  const spec = ENDPOINTS[sector];
  const known = new Map((spec.params as readonly ParamSpec[]).map((p) => [p.name, p]));
  for (const name of Object.keys(params)) {
    if (!known.has(name) && params[name] !== undefined && params[name] !== null && params[name] !== '') {
      throw invalid(`${spec.label} has no parameter "${name}". Allowed: ${[...known.keys()].join(', ')}.`);
    }
  }
  const out: NormalizedQuery = {};
  for (const p of spec.params as readonly ParamSpec[]) {
    const values = elements(p.name, params[p.name]).filter((e) => e !== '');
    if (values.length === 0) continue;
    out[p.name] = values.map((v) => checkValue(spec.label, p, v));
    if ((p.kind === 'date' || p.kind === 'S') && values.length > 1) {
      throw invalid(`${p.name} takes one value, not a list (got ${values.length}).`);
    }
  }
  const begin = out.beginDate?.[0];
  const end = out.endDate?.[0];
  if (begin && end && (parseDmy(begin) as number) > (parseDmy(end) as number)) {
    throw invalid(`beginDate ${begin} is after endDate ${end}: swap them.`);
  }
  if (spec.requireOneOf && !spec.requireOneOf.some((n) => out[n]?.length)) {
    throw invalid(
      `${spec.label} needs at least one of ${spec.requireOneOf.join(' or ')} (the service refuses trade queries without them).`,
    );
  }
  return out;
}

function checkValue(label: string, p: ParamSpec, v: string): string {
  switch (p.kind) {
    case 'I[]': {
      if (!/^-?\d+$/.test(v)) throw invalid(`${p.name} takes integers; "${v}" is not one.`);
      const n = Number(v);
      if (p.range && (n < p.range[0] || n > p.range[1])) {
        throw invalid(`${p.name}: ${v} is outside ${p.range[0]}..${p.range[1]}.`);
      }
      return String(n);
    }
    case 'date':
      if (parseDmy(v) === undefined) {
        throw invalid(`${p.name} must be a date written dd/mm/yyyy (e.g. 31/01/2024); got "${v}".`);
      }
      return v;
    default:
      if (p.allowed && !p.allowed.includes(v)) {
        throw invalid(`${label}: ${p.name} allows only ${p.allowed.join(', ')}; got "${v}".`);
      }
      if (p.format && !p.format.re.test(v)) {
        throw invalid(`${p.name} values are written ${p.format.text}; got "${v}".`);
      }
      return v;
  }
}

/** The query string (without "?") in the service's form: `name=a,b` with each element URL-encoded. */
export function queryString(q: NormalizedQuery): string {
  return Object.entries(q)
    .map(([k, vs]) => `${k}=${vs.map(encodeValue).join(',')}`)
    .join('&');
}

/** Path plus query string for a checked query, e.g. `/api/pigmeat/prices?pigClasses=E`. */
export function requestPath(sector: SectorId, params: QueryParams): string {
  const qs = queryString(normalizeQuery(sector, params));
  return qs ? `${ENDPOINTS[sector].path}?${qs}` : ENDPOINTS[sector].path;
}

/** URL-encodes a value but keeps "/" (legal in a query) so dates read 22/01/2019 as in the spec's samples. */
function encodeValue(v: string): string {
  return encodeURIComponent(v).replace(/%2F/gi, '/');
}
