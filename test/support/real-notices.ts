// The real published notices of ../shared/real-notices/ (index.tsv) and the releases of
// ../shared/eforms-sdk/ they declare; and locations compared as nodes, whatever prefixes a report uses.
// Reads ../shared only.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED_DIR } from './shared-data';

export const REAL_DIR = join(SHARED_DIR, 'real-notices');
export const SDKS_DIR = join(SHARED_DIR, 'eforms-sdk');
/** The day the reference run fixed `current-dateTime()` on (2026-11-24T12:00:00Z). */
export const REFERENCE_TODAY = '2026-11-24';
/** The instant the reference run fixed `current-dateTime()` at. */
export const REFERENCE_NOW = '2026-11-24T12:00:00Z';

export interface RealNotice {
  pubno: string;
  /** `1.8` */
  minor: string;
  subtype: string;
  path: string;
}

export function realNotices(): RealNotice[] {
  const lines = readFileSync(join(REAL_DIR, 'index.tsv'), 'utf8').trim().split('\n').slice(1);
  return lines.map((l) => {
    const [pubno, cid, subtype] = l.split('\t');
    return {
      pubno,
      minor: cid.replace(/^eforms-sdk-/, ''),
      subtype,
      path: join(REAL_DIR, 'notices', `${pubno}.xml`),
    };
  });
}

/** The newest patch of a minor version among the releases of ../shared/eforms-sdk. */
export function releaseFor(minor: string): { version: string; dir: string } | undefined {
  const patches = readdirSync(SDKS_DIR)
    .filter((v) => v.startsWith(`${minor}.`) && /^\d+\.\d+\.\d+$/.test(v))
    .sort((a, b) => Number(b.split('.')[2]) - Number(a.split('.')[2]));
  return patches[0] ? { version: patches[0], dir: join(SDKS_DIR, patches[0]) } : undefined;
}

/** `/a:X/a:Y[2]/@b` or `/Q{u}X[1]/Q{u}Y[2]/@b` as `{u}X[1]/{u}Y[2]/@{}b`. */
export function canonicalLocation(location: string, prefixes: ReadonlyMap<string, string>): string {
  const steps: string[] = [];
  // Steps are split on `/` outside `{…}` (namespace URIs hold slashes).
  let depth = 0;
  let cur = '';
  for (const c of location) {
    if (c === '{') depth++;
    else if (c === '}') depth--;
    if (c === '/' && depth === 0) {
      if (cur) steps.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur) steps.push(cur);
  return steps
    .map((s) => {
      const attr = s.startsWith('@');
      const body = attr ? s.slice(1) : s;
      const m = /^(?:Q\{([^}]*)\}|([\w.-]+):)?([\w.-]+|text\(\))(?:\[(\d+)\])?$/.exec(body);
      if (!m) return s;
      const uri = m[1] ?? (m[2] !== undefined ? (prefixes.get(m[2]) ?? `?${m[2]}`) : '');
      return attr ? `@{${uri}}${m[3]}` : `{${uri}}${m[3]}[${m[4] ?? '1'}]`;
    })
    .join('/');
}
