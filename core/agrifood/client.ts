// The agri-food data client: checked queries (query.ts) sent with undici, answers cached on disk
// (cache.ts), the service's 404/500 bodies turned into results or AgrifoodErrors, 429 and gateway
// errors retried a bounded number of times honouring Retry-After. Editor-free: no vscode import.

import type { Dispatcher } from 'undici';
import { describeNetworkReason, httpRequest, sanitizeServiceText, TransportError } from '../http';
import { ResponseCache } from './cache';
import { LISTINGS } from './endpoints';
import { AgrifoodError } from './errors';
import { type QueryParams, requestPath } from './query';
import type { RecordTypes, SectorId } from './records';

export interface AgrifoodClientOptions {
  /** e.g. https://api.tech.ec.europa.eu/agrifood or http://127.0.0.1:8723/agrifood */
  baseUrl: string;
  /** Per attempt, headers and body together. */
  timeoutMs?: number;
  /** Folder for the on-disk cache; none: no cache. */
  cacheDir?: string;
  cacheTtlHours?: number;
  /** Further attempts after a 429/502/503/504. */
  maxRetries?: number;
  /** Longest wait between attempts, whatever Retry-After asks. */
  maxRetryDelayMs?: number;
  /** Injected by tests to observe the waits instead of sleeping. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  dispatcher?: Dispatcher;
  /** Largest answer accepted, in bytes. */
  maxBytes?: number;
}

export interface FetchOptions {
  signal?: AbortSignal;
  /** Skip the cache (the answer is still stored). */
  fresh?: boolean;
  /** Bytes received so far, for progress reports on large answers. */
  onProgress?: (bytes: number) => void;
  /** A busy service's answer (429, 502, 503, 504) and the wait before the query is sent again. */
  onRetry?: (retry: { status: number; waitMs: number }) => void;
}

export interface QueryResult<R> {
  /** The answer's records: its entries that are objects (the others are counted in `dropped`). */
  records: R[];
  /** Entries of the answer that are not records (null, a number, a list), left out. */
  dropped: number;
  url: string;
  fromCache: boolean;
  /** When the answer left the service (ms). */
  fetchedAt: number;
}

/** Agri-food error bodies may be HTML pages: their markup is dropped. */
const STRIP = { stripMarkup: true };
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/**
 * The largest answer read: a broad query's 100,000 records are some tens of MB. Below V8's longest
 * string (about 512 MB), which a 1 GB limit let an answer pass, so that a valid 700 MB answer failed as
 * "cannot reach the service"; and its parsed records already take several times its size.
 */
const MAX_ANSWER_BYTES = 256 * 1024 * 1024;
const NO_RESULTS = /no results found/i;

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AgrifoodError('cancelled', 'Cancelled.'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new AgrifoodError('cancelled', 'Cancelled.'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), undefined when absent or bad. */
export function retryAfterMs(header: string | string[] | undefined, now: number): number | undefined {
  const v = Array.isArray(header) ? header[0] : header;
  if (!v) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

export class AgrifoodClient {
  readonly baseUrl: string;
  private readonly cache: ResponseCache | undefined;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly maxRetryDelayMs: number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  private readonly maxBytes: number;

  constructor(private readonly options: AgrifoodClientOptions) {
    let u: URL;
    try {
      u = new URL(options.baseUrl);
    } catch {
      throw new AgrifoodError('invalid-query', `"${options.baseUrl}" is not a valid agri-food base URL.`);
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') {
      throw new AgrifoodError('invalid-query', `The agri-food base URL must be http(s); got ${u.protocol}`);
    }
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.now = options.now ?? Date.now;
    const ttl = options.cacheTtlHours ?? 12;
    this.cache =
      options.cacheDir && ttl > 0
        ? new ResponseCache(options.cacheDir, ttl * 3_600_000, this.now)
        : undefined;
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.maxRetries = options.maxRetries ?? 4;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.sleep = options.sleep ?? abortableSleep;
    this.maxBytes = options.maxBytes ?? MAX_ANSWER_BYTES;
  }

  /** Records of one data endpoint. An empty result (the service's 404 "No results found") is []. */
  async query<K extends SectorId>(
    sector: K,
    params: QueryParams = {},
    opts: FetchOptions = {},
  ): Promise<QueryResult<RecordTypes[K]>> {
    const path = requestPath(sector, params);
    const r = await this.getJson(path, opts);
    // Only objects are records: an entry that is null or a number made every reader fail on it.
    const records = r.body.filter((x) => typeof x === 'object' && x !== null && !Array.isArray(x));
    return { ...r, records: records as RecordTypes[K][], dropped: r.body.length - records.length };
  }

  /** Values of a listing endpoint as strings (the wine descriptions' objects are unwrapped). */
  async listing(path: string, opts: FetchOptions = {}): Promise<string[]> {
    const spec = LISTINGS.find((l) => l.path === path);
    const r = await this.getJson(path, opts);
    const out: string[] = [];
    for (const e of r.body) {
      if (typeof e === 'string') out.push(e);
      else if (typeof e === 'number') out.push(String(e));
      else if (e && typeof e === 'object') {
        const o = e as Record<string, unknown>;
        const v =
          spec?.field !== undefined ? o[spec.field] : Object.values(o).find((x) => typeof x === 'string');
        if (typeof v === 'string') out.push(v);
      }
    }
    return out;
  }

  /** Forgets cached answers. */
  async clearCache(): Promise<void> {
    await this.cache?.clear();
  }

  private async getJson(
    pathAndQuery: string,
    opts: FetchOptions,
  ): Promise<{ body: unknown[]; url: string; fromCache: boolean; fetchedAt: number }> {
    const url = `${this.baseUrl}${pathAndQuery}`;
    if (this.cache && !opts.fresh) {
      const hit = await this.cache.get(url);
      if (hit) {
        const body = parseArray(hit.body, url);
        if (body) return { body, url, fromCache: true, fetchedAt: hit.storedAt };
      }
    }
    const text = await this.fetchText(url, pathAndQuery.split('?')[0] ?? pathAndQuery, opts);
    const body = parseArray(text, url);
    if (!body) {
      throw new AgrifoodError(
        'bad-answer',
        `The agri-food service answered ${pathAndQuery.split('?')[0]} with something other than a JSON list; try again later.`,
      );
    }
    await this.cache?.set(url, text);
    return { body, url, fromCache: false, fetchedAt: this.now() };
  }

  /**
   * The body of a 200 answer, '[]' for "No results found"; retries, timeouts and errors handled. The
   * time-out bounds the whole call, waits between retries included: a busy service that asks for a
   * minute between four retries made a command wait four minutes without a word past its --timeout-ms.
   */
  private async fetchText(url: string, path: string, opts: FetchOptions): Promise<string> {
    const deadline = this.now() + this.timeoutMs;
    for (let attempt = 0; ; attempt++) {
      if (opts.signal?.aborted) throw new AgrifoodError('cancelled', 'Cancelled.');
      let status: number;
      let headers: Record<string, string | string[] | undefined>;
      let text: string;
      try {
        const res = await httpRequest(url, {
          method: 'GET',
          headers: { accept: 'application/json' },
          signal: opts.signal,
          dispatcher: this.options.dispatcher,
          timeoutMs: Math.max(1, deadline - this.now()),
          maxBytes: this.maxBytes,
          onProgress: opts.onProgress,
        });
        status = res.status;
        headers = res.headers;
        text = res.body.toString('utf8');
      } catch (err) {
        throw this.transportError(err, path);
      }
      if (status === 200) return text;
      if (RETRY_STATUSES.has(status) && attempt < this.maxRetries) {
        const asked = retryAfterMs(headers['retry-after'], this.now());
        const delay = Math.min(this.maxRetryDelayMs, asked ?? 500 * 2 ** attempt);
        // A wait that would end past the time-out is not waited: the service's own answer is the error.
        if (this.now() + delay < deadline) {
          opts.onRetry?.({ status, waitMs: delay });
          await this.sleep(delay, opts.signal);
          continue;
        }
      }
      const problem = this.statusError(status, text, path);
      if (problem === 'empty') return '[]';
      throw problem;
    }
  }

  private transportError(err: unknown, path: string): AgrifoodError {
    if (!(err instanceof TransportError))
      return new AgrifoodError('network', `Cannot reach the agri-food service.`);
    const f = err.fields;
    switch (err.kind) {
      case 'cancelled':
        return new AgrifoodError('cancelled', 'Cancelled.', undefined, f);
      case 'timeout':
        return new AgrifoodError(
          'timeout',
          `The agri-food service did not answer ${path} within ${Math.round(this.timeoutMs / 1000)} s. Narrow the query (fewer years or Member States) or raise eforms.agrifood.timeoutMs.`,
          undefined,
          f,
        );
      case 'too-large':
        return new AgrifoodError(
          'too-large',
          `The answer is larger than ${Math.round(this.maxBytes / 1048576)} MB: narrow the query.`,
          undefined,
          f,
        );
      case 'redirect':
        return new AgrifoodError(
          'redirect',
          `The agri-food service at ${f.origin} has moved to ${f.location}: check the agri-food base URL.`,
          undefined,
          f,
        );
      case 'proxy':
        return new AgrifoodError(
          'proxy',
          `The proxy ${f.proxy} ${f.status ? `refused the connection to ${f.origin} (${f.status})` : `cannot be reached (${describeNetworkReason(f.reason)})`}: check the proxy settings.`,
          undefined,
          f,
        );
      default:
        return new AgrifoodError(
          'network',
          `Cannot reach the agri-food service at ${f.origin} (${describeNetworkReason(f.reason)}). Check the connection, or the eforms.environment setting (run \`eforms sandbox\` for the sandbox).`,
          undefined,
          f,
        );
    }
  }

  private statusError(status: number, text: string, path: string): AgrifoodError | 'empty' {
    let body: Record<string, unknown> = {};
    try {
      const j = JSON.parse(text) as unknown;
      if (j && typeof j === 'object' && !Array.isArray(j)) body = j as Record<string, unknown>;
    } catch {
      // not the APIError body: the status alone speaks
    }
    const message = sanitizeServiceText(body.message, 300, STRIP);
    if (status === 404) {
      if (
        NO_RESULTS.test(message) ||
        NO_RESULTS.test(sanitizeServiceText(body.technicalErrorMessage, 300, STRIP))
      ) {
        return 'empty';
      }
      return new AgrifoodError(
        'unknown-path',
        `The agri-food service has no ${path} (404 Not Found). Check the base URL in eforms.customUrls.agrifood / --agrifood-url.`,
        404,
      );
    }
    if (status === 500) {
      const tech = sanitizeServiceText(body.technicalErrorMessage, 200, STRIP);
      return new AgrifoodError(
        'server',
        `The agri-food service failed on ${path} (500): ${message || 'no message'}${tech ? ` (${tech})` : ''}. Try again later or narrow the query.`,
        500,
      );
    }
    if (RETRY_STATUSES.has(status)) {
      return new AgrifoodError(
        'unavailable',
        `The agri-food service is busy or unavailable (${status}) after ${this.maxRetries + 1} attempts on ${path}. Try again in a few minutes.`,
        status,
      );
    }
    return new AgrifoodError(
      'http',
      `The agri-food service answered ${status} on ${path}${message ? `: ${message}` : ''}.`,
      status,
    );
  }
}

function parseArray(text: string, _url: string): unknown[] | undefined {
  try {
    const j = JSON.parse(text) as unknown;
    return Array.isArray(j) ? j : undefined;
  } catch {
    return undefined;
  }
}
