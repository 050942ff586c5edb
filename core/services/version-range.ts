// The SDK versions the Central Validation Service currently accepts for publication
// (GET {cvs}/v1/version-range), a cache that asks at most once a day per service, and the comparison
// of a notice's declared version with that range. The answer's shape is not in the CVS spec: we read
// TED's documented shape, a JSON object with the lowest and highest accepted versions
// (`minVersion`/`maxVersion`, also accepting `min`/`max`, `minimumVersion`/`maximumVersion`), each
// `MAJOR.MINOR[.PATCH]`, optionally prefixed `eforms-sdk-`. No `vscode` import, no logging, and the API
// key only ever in the X-API-Key header.

import type { Dispatcher } from 'undici';
import { httpRequest, keyTransportProblem, originOf, sanitizeServiceText } from '../http';
import { CvsError, fromTransport } from './cvs-client';

export interface SdkVersionRange {
  /** Lowest accepted version, as the service wrote it without any `eforms-sdk-` prefix (e.g. `1.10.0`). */
  min: string;
  /** Highest accepted version (e.g. `1.15.1`). */
  max: string;
  /**
   * When each version is accepted, when the answer says (the switch dates). Absent from min/max-only
   * answers: then nothing is known of dates, and nothing is invented.
   */
  windows?: AcceptanceWindow[];
}

/** One version's acceptance period as the service states it; either end may be open. */
export interface AcceptanceWindow {
  /** `MAJOR.MINOR[.PATCH]`, without `eforms-sdk-`. */
  version: string;
  /** First day accepted, `YYYY-MM-DD`. */
  from?: string;
  /** Last day accepted, `YYYY-MM-DD`. */
  until?: string;
}

export interface VersionRangeOptions {
  /** CVS base URL (paths start with /v1). */
  baseUrl: string;
  /** Sent when present; the range is public information, so a missing key is not an error here. */
  apiKey?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
}

export function versionRangeUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/v1/version-range`;
}

const VERSION = /^(?:eforms-sdk-)?(\d{1,4})\.(\d{1,4})(?:\.(\d{1,4}))?$/;
const MIN_KEYS = ['minVersion', 'min', 'minimumVersion', 'minimum'];
const MAX_KEYS = ['maxVersion', 'max', 'maximumVersion', 'maximum'];
// The dated form is not in any spec we hold: these are the names such an answer would plausibly use.
const LIST_KEYS = ['versions', 'acceptedVersions', 'sdkVersions', 'schedule'];
const ITEM_VERSION_KEYS = ['version', 'sdkVersion', 'eFormsSdkVersion', 'name'];
const ITEM_FROM_KEYS = ['from', 'validFrom', 'acceptedFrom', 'startDate', 'start'];
const ITEM_UNTIL_KEYS = ['until', 'validTo', 'validUntil', 'acceptedUntil', 'endDate', 'end'];
const DAY = /^(\d{4}-\d{2}-\d{2})(?:$|T)/;

/** Asks the service which SDK versions it accepts. Failures are CvsErrors, as for validation. */
export async function fetchVersionRange(o: VersionRangeOptions): Promise<SdkVersionRange> {
  const url = versionRangeUrl(o.baseUrl);
  const origin = originOf(url);
  const timeoutMs = o.timeoutMs ?? 30_000;
  if (o.apiKey) {
    const insecure = keyTransportProblem(url);
    if (insecure) throw new CvsError('insecure', insecure, false, undefined, { origin });
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (o.apiKey) headers['x-api-key'] = o.apiKey;
  let answer: Awaited<ReturnType<typeof httpRequest>>;
  try {
    answer = await httpRequest(url, {
      method: 'GET',
      headers,
      signal: o.signal,
      timeoutMs,
      maxBytes: 64 * 1024,
      dispatcher: o.dispatcher,
    });
  } catch (err) {
    const e = fromTransport(err, origin, timeoutMs);
    throw new CvsError(e.kind, e.message, e.retryable, e.fields.status, {
      ...e.fields,
      request: 'version-range',
    });
  }
  const text = answer.body.toString('utf8');
  if (answer.status === 401 || answer.status === 403)
    throw new CvsError(
      answer.status === 401 ? 'missing-key' : 'forbidden',
      `The validation service refused to give its version range (${answer.status}).`,
      false,
      answer.status,
      { origin, request: 'version-range' },
    );
  if (answer.status !== 200)
    throw new CvsError(
      answer.status >= 500 ? 'server' : 'bad-answer',
      `The validation service at ${origin} answered HTTP ${answer.status} for its version range.`,
      answer.status >= 500,
      answer.status,
      { origin, request: 'version-range' },
    );
  const range = parseVersionRange(text);
  if (!range)
    throw new CvsError(
      'bad-answer',
      `The validation service at ${origin} answered its version range with something other than a minimum and a maximum version.`,
      false,
      200,
      { origin, serviceMessage: sanitizeServiceText(text, 120) || undefined, request: 'version-range' },
    );
  return range;
}

/** The range in a version-range answer, or undefined when it holds no valid min and max. */
export function parseVersionRange(text: string): SdkVersionRange | undefined {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!j || typeof j !== 'object' || Array.isArray(j)) return undefined;
  const o = j as Record<string, unknown>;
  const pick = (keys: string[]) => {
    for (const k of keys) {
      const v = o[k];
      if (typeof v === 'string' && VERSION.test(v.trim())) return v.trim().replace(/^eforms-sdk-/, '');
    }
    return undefined;
  };
  const min = pick(MIN_KEYS);
  const max = pick(MAX_KEYS);
  if (!min || !max || compareSdkVersions(min, max) > 0) return undefined;
  const windows = parseAcceptanceWindows(o);
  return windows.length > 0 ? { min, max, windows } : { min, max };
}

/** Per-version acceptance periods in the answer, if it lists any; malformed items are left out. */
export function parseAcceptanceWindows(o: Record<string, unknown>): AcceptanceWindow[] {
  const out: AcceptanceWindow[] = [];
  for (const k of LIST_KEYS) {
    const list = o[k];
    if (!Array.isArray(list)) continue;
    for (const item of list.slice(0, 200)) {
      if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
      const r = item as Record<string, unknown>;
      const first = (keys: string[], ok: (v: string) => string | undefined) => {
        for (const key of keys) {
          const v = r[key];
          if (typeof v === 'string') {
            const got = ok(v.trim());
            if (got) return got;
          }
        }
        return undefined;
      };
      const version = first(ITEM_VERSION_KEYS, (v) =>
        VERSION.test(v) ? v.replace(/^eforms-sdk-/, '') : undefined,
      );
      if (!version) continue;
      const day = (v: string) => DAY.exec(v)?.[1];
      const w: AcceptanceWindow = { version };
      const from = first(ITEM_FROM_KEYS, day);
      const until = first(ITEM_UNTIL_KEYS, day);
      if (from) w.from = from;
      if (until) w.until = until;
      if (from && until && from > until) continue;
      out.push(w);
    }
    break;
  }
  return out;
}

/** Orders `MAJOR.MINOR[.PATCH]` versions numerically (a missing patch counts as 0). */
export function compareSdkVersions(a: string, b: string): number {
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

function parts(v: string): number[] {
  const m = VERSION.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : [Number.NaN];
}

/**
 * Where a notice's `MAJOR.MINOR` stands: a CustomizationID names no patch, so `1.15` is inside a
 * range whose max is `1.15.1` and whose min is `1.10.0` alike.
 */
export function placeInRange(majorMinor: string, range: SdkVersionRange): 'below' | 'inside' | 'above' {
  const [maj, min] = parts(majorMinor);
  const [loMaj, loMin] = parts(range.min);
  const [hiMaj, hiMin] = parts(range.max);
  const v = (maj ?? 0) * 10000 + (min ?? 0);
  if (v < (loMaj ?? 0) * 10000 + (loMin ?? 0)) return 'below';
  if (v > (hiMaj ?? 0) * 10000 + (hiMin ?? 0)) return 'above';
  return 'inside';
}

export const VERSION_RANGE_TTL_MS = 24 * 60 * 60 * 1000;
/** After a failure, wait this long before asking again (the warning is advisory: never hammer). */
const FAILURE_TTL_MS = 10 * 60 * 1000;

/**
 * The range per service, asked at most once a day (once per ten minutes after a failure), with one
 * request in flight per service however many notices want it.
 */
export class VersionRangeCache {
  private readonly entries = new Map<
    string,
    { at: number; ttl: number; value: Promise<SdkVersionRange | undefined> }
  >();

  constructor(
    private readonly fetch: (o: VersionRangeOptions) => Promise<SdkVersionRange> = fetchVersionRange,
    private readonly now: () => number = Date.now,
  ) {}

  /** The range, or undefined when the service could not say (the failure is not the caller's problem). */
  get(o: VersionRangeOptions): Promise<SdkVersionRange | undefined> {
    const key = o.baseUrl.replace(/\/+$/, '');
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.at < hit.ttl) return hit.value;
    const entry = {
      at: this.now(),
      ttl: VERSION_RANGE_TTL_MS,
      value: Promise.resolve<SdkVersionRange | undefined>(undefined),
    };
    entry.value = this.fetch(o).then(
      (r) => r,
      () => {
        entry.ttl = FAILURE_TTL_MS;
        return undefined;
      },
    );
    this.entries.set(key, entry);
    return entry.value;
  }
}
