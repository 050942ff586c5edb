// The agri-food data client: checked queries (query.ts) sent with undici, answers cached on disk
// (cache.ts), the service's 404/500 bodies turned into results or AgrifoodErrors, 429 and gateway
// errors retried a bounded number of times honouring Retry-After. Editor-free: no vscode import.

import { type Dispatcher, request } from 'undici';
import { ResponseCache } from './cache';
import { LISTINGS } from './endpoints';
import { AgrifoodError, sanitizeServiceText } from './errors';
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
}

export interface QueryResult<R> {
  records: R[];
  url: string;
  fromCache: boolean;
  /** When the answer left the service (ms). */
  fetchedAt: number;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
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
    this.maxBytes = options.maxBytes ?? 1024 * 1024 * 1024;
  }

  /** Records of one data endpoint. An empty result (the service's 404 "No results found") is []. */
  async query<K extends SectorId>(
    sector: K,
    params: QueryParams = {},
    opts: FetchOptions = {},
  ): Promise<QueryResult<RecordTypes[K]>> {
    const path = requestPath(sector, params);
    const r = await this.getJson(path, opts);
    return { ...r, records: r.body as RecordTypes[K][] };
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

  /** The body of a 200 answer, '[]' for "No results found"; retries, timeouts and errors handled. */
  private async fetchText(url: string, path: string, opts: FetchOptions): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      if (opts.signal?.aborted) throw new AgrifoodError('cancelled', 'Cancelled.');
      const timeout = AbortSignal.timeout(this.timeoutMs);
      const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
      let status: number;
      let headers: Record<string, string | string[] | undefined>;
      let text: string;
      try {
        const res = await request(url, {
          method: 'GET',
          headers: { accept: 'application/json' },
          signal,
          dispatcher: this.options.dispatcher,
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
        });
        status = res.statusCode;
        headers = res.headers;
        text = await this.readBody(res.body, opts);
      } catch (err) {
        if (opts.signal?.aborted) throw new AgrifoodError('cancelled', 'Cancelled.');
        if (err instanceof AgrifoodError) throw err;
        if (timeout.aborted || isTimeout(err)) {
          throw new AgrifoodError(
            'timeout',
            `The agri-food service did not answer ${path} within ${Math.round(this.timeoutMs / 1000)} s. Narrow the query (fewer years or Member States) or raise eforms.agrifood.timeoutMs.`,
          );
        }
        throw new AgrifoodError(
          'network',
          `Cannot reach the agri-food service at ${new URL(url).origin} (${networkCode(err)}). Check the connection, or the eforms.environment setting (run \`eforms sandbox\` for the sandbox).`,
        );
      }
      if (status === 200) return text;
      if (RETRY_STATUSES.has(status) && attempt < this.maxRetries) {
        const asked = retryAfterMs(headers['retry-after'], this.now());
        const delay = Math.min(this.maxRetryDelayMs, asked ?? 500 * 2 ** attempt);
        await this.sleep(delay, opts.signal);
        continue;
      }
      const problem = this.statusError(status, text, path);
      if (problem === 'empty') return '[]';
      throw problem;
    }
  }

  private async readBody(body: AsyncIterable<Buffer>, opts: FetchOptions): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > this.maxBytes) {
        throw new AgrifoodError(
          'bad-answer',
          `The answer is larger than ${Math.round(this.maxBytes / 1048576)} MB: narrow the query.`,
        );
      }
      chunks.push(chunk);
      opts.onProgress?.(size);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  private statusError(status: number, text: string, path: string): AgrifoodError | 'empty' {
    let body: Record<string, unknown> = {};
    try {
      const j = JSON.parse(text) as unknown;
      if (j && typeof j === 'object' && !Array.isArray(j)) body = j as Record<string, unknown>;
    } catch {
      // not the APIError body: the status alone speaks
    }
    const message = sanitizeServiceText(body.message);
    if (status === 404) {
      if (NO_RESULTS.test(message) || NO_RESULTS.test(sanitizeServiceText(body.technicalErrorMessage))) {
        return 'empty';
      }
      return new AgrifoodError(
        'unknown-path',
        `The agri-food service has no ${path} (404 Not Found). Check the base URL in eforms.customUrls.agrifood / --agrifood-url.`,
        404,
      );
    }
    if (status === 500) {
      const tech = sanitizeServiceText(body.technicalErrorMessage, 200);
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

function isTimeout(err: unknown): boolean {
  const e = err as { name?: string; code?: string };
  return (
    e?.name === 'TimeoutError' ||
    e?.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e?.code === 'UND_ERR_BODY_TIMEOUT' ||
    e?.code === 'UND_ERR_CONNECT_TIMEOUT'
  );
}

function networkCode(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string }; message?: string };
  return sanitizeServiceText(e?.code ?? e?.cause?.code ?? e?.message ?? 'network error', 80);
}
