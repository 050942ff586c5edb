// The one way the service clients (and the SDK download) send a request: through the routing
// dispatcher (proxy or direct), with one time limit (overall, or on silence for long downloads), one
// capped body reader (into memory, or streamed to a sink), redirects turned into an error that names the
// new address, and every transport failure turned into a TransportError with a kind and fields. It
// never follows a redirect (the API key would travel to another host), never retries, and never puts
// headers (API keys) or proxy credentials in an error.

import type { Dispatcher } from 'undici';
import {
  describeBytes,
  describeNetworkReason,
  type FailureFields,
  type NetworkReason,
  TransportError,
} from './failure';
import { defaultDispatcher, describeProxy, RoutingDispatcher } from './proxy';
import { originOf, sanitizeServiceText } from './service-text';
import { undici } from './undici';

export interface HttpRequest {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The caller's cancellation: gives kind `cancelled`. */
  signal?: AbortSignal;
  /** From sending to the last byte of the answer. Required unless `stallMs` is given. */
  timeoutMs?: number;
  /**
   * Instead of `timeoutMs`: the longest silence (no header, no byte of the body) before kind
   * `timeout` with `stalled: true`. For downloads whose length is unbounded in time but not in size.
   */
  stallMs?: number;
  /** Larger answers give kind `too-large`. */
  maxBytes: number;
  /**
   * Receives the body chunk by chunk instead of memory (the answer's `body` is then empty); awaited,
   * so a file stream's back-pressure holds the download. What it throws ends the request and is
   * rethrown as is.
   */
  sink?: (chunk: Buffer) => void | Promise<void>;
  /** Default: this process's dispatcher (the environment's proxy settings). */
  dispatcher?: Dispatcher;
  /** Bytes received so far, and the size the answer announced (content-length), if any. */
  onProgress?: (bytes: number, total?: number) => void;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The first value of the content-type header, or ''. */
  contentType: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Sends one request. Any answer that is not a redirect resolves, whatever its status. */
export async function httpRequest(url: string, o: HttpRequest): Promise<HttpAnswer> {
  const origin = originOf(url);
  if (o.signal?.aborted) throw cancelled(origin);
  const dispatcher = o.dispatcher ?? defaultDispatcher();
  const limitMs = o.stallMs ?? o.timeoutMs;
  if (limitMs === undefined) throw new TypeError('httpRequest needs timeoutMs or stallMs');
  const clock = o.stallMs !== undefined ? new StallTimer(o.stallMs) : undefined;
  const timeout = clock?.signal ?? AbortSignal.timeout(limitMs);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  let sinkFailure: { err: unknown } | undefined;
  try {
    const res = await undici().request(url, {
      method: o.method,
      headers: o.headers,
      body: o.body,
      signal,
      dispatcher,
      headersTimeout: limitMs,
      bodyTimeout: limitMs,
    });
    clock?.touch();
    const status = res.statusCode;
    if (REDIRECTS.has(status)) {
      discard(res.body);
      throw new TransportError(
        'redirect',
        `${origin} answered ${status}: the service moved to ${locationOf(res.headers.location, url)}.`,
        { origin, status, location: locationOf(res.headers.location, url) },
      );
    }
    const sink = o.sink;
    const announced = Number(res.headers['content-length']);
    const total = Number.isSafeInteger(announced) && announced >= 0 ? announced : undefined;
    if (total !== undefined && total > o.maxBytes) {
      discard(res.body);
      throw new TooLarge();
    }
    const body = await readCapped(
      res.body,
      o.maxBytes,
      (n) => {
        clock?.touch();
        o.onProgress?.(n, total);
      },
      sink &&
        (async (chunk) => {
          try {
            await sink(chunk);
          } catch (err) {
            sinkFailure = { err };
            throw err;
          }
        }),
    );
    const ct = res.headers['content-type'];
    return { status, headers: res.headers, body, contentType: (Array.isArray(ct) ? ct[0] : ct) ?? '' };
  } catch (err) {
    if (sinkFailure) throw sinkFailure.err;
    if (err instanceof TransportError) throw err;
    if (o.signal?.aborted) throw cancelled(origin);
    if (err instanceof TooLarge)
      throw new TransportError(
        'too-large',
        `${origin} sent an answer larger than ${describeBytes(o.maxBytes)}.`,
        {
          origin,
          maxBytes: o.maxBytes,
        },
      );
    if (timeout.aborted || isTimeout(err))
      throw new TransportError(
        'timeout',
        clock
          ? `${origin} sent nothing for ${Math.round(limitMs / 1000)} s.`
          : `${origin} did not answer within ${Math.round(limitMs / 1000)} s.`,
        clock ? { origin, timeoutMs: limitMs, stalled: true } : { origin, timeoutMs: limitMs },
      );
    const proxy = dispatcher instanceof RoutingDispatcher ? dispatcher.proxyFor(url) : undefined;
    const fields = networkFields(err);
    if (proxy && proxyFailed(err)) {
      const named = describeProxy(proxy);
      const status = proxyStatus(err);
      throw new TransportError(
        'proxy',
        `The proxy ${named} ${status ? `refused the connection to ${origin} (${status})` : `cannot be reached (${describeNetworkReason(fields.reason)})`}.`,
        { origin, proxy: named, ...fields, status },
      );
    }
    throw new TransportError(
      'network',
      `${origin} cannot be reached (${describeNetworkReason(fields.reason)}).`,
      {
        origin,
        ...fields,
        proxy: proxy ? describeProxy(proxy) : undefined,
      },
    );
  } finally {
    clock?.stop();
  }
}

/** True when a transport failure may go away by itself (worth retrying later). */
export function isTransient(kind: string): boolean {
  return kind === 'timeout' || kind === 'network' || kind === 'proxy';
}

function cancelled(origin: string): TransportError {
  return new TransportError('cancelled', 'The request was cancelled.', { origin });
}

function locationOf(header: string | string[] | undefined, base: string): string {
  const raw = Array.isArray(header) ? header[0] : header;
  if (!raw) return 'an address it did not give';
  try {
    const u = new URL(raw, base);
    // Never repeat credentials or a query (it could carry a token) back to the user.
    return sanitizeServiceText(`${u.protocol}//${u.host}${u.pathname}`, 300);
  } catch {
    return sanitizeServiceText(raw, 300);
  }
}

class TooLarge extends Error {}

/** An abort signal that fires after `ms` without a touch: the stall limit of long downloads. */
class StallTimer {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  readonly signal = this.controller.signal;

  constructor(private readonly ms: number) {
    this.touch();
  }

  touch(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.controller.abort(), this.ms);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}

/** Stops reading an answer; the abort error undici then emits is expected, not a crash. */
function discard(body: {
  destroy?: () => unknown;
  on?: (event: 'error', listener: () => void) => unknown;
}): void {
  body.on?.('error', () => undefined);
  body.destroy?.();
}

async function readCapped(
  body: AsyncIterable<Buffer | Uint8Array> & {
    destroy?: () => unknown;
    on?: (event: 'error', listener: () => void) => unknown;
  },
  max: number,
  onProgress?: (bytes: number) => void,
  sink?: (chunk: Buffer) => Promise<void>,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) {
      discard(body);
      throw new TooLarge();
    }
    if (sink) {
      try {
        await sink(Buffer.from(chunk));
      } catch (err) {
        discard(body);
        throw err;
      }
    } else chunks.push(Buffer.from(chunk));
    onProgress?.(size);
  }
  return Buffer.concat(chunks);
}

function isTimeout(err: unknown): boolean {
  return (
    err instanceof undici().errors.HeadersTimeoutError ||
    err instanceof undici().errors.BodyTimeoutError ||
    err instanceof undici().errors.ConnectTimeoutError ||
    codeOf(err) === 'ETIMEDOUT' ||
    (err instanceof Error && err.name === 'TimeoutError')
  );
}

/** The first system error code in the cause chain (undici's own UND_ERR codes are skipped). */
function codeOf(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && !code.startsWith('UND_ERR')) return code;
  }
  return undefined;
}

/**
 * The answer broke HTTP itself: undici's parser refused a status line or a header, or the body's
 * length header is past any number. Something is listening there, so "cannot reach" would mislead.
 */
function notHttp(err: unknown): boolean {
  const errors = undici().errors;
  return err instanceof errors.HTTPParserError || err instanceof errors.ResponseContentLengthMismatchError;
}

function networkFields(err: unknown): Pick<FailureFields, 'reason' | 'errorCode'> {
  const code = codeOf(err);
  const reason: NetworkReason =
    code === 'ECONNREFUSED'
      ? 'refused'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'unknown-host'
        : code === 'ECONNRESET' || code === 'EPIPE'
          ? 'reset'
          : code === 'ENETUNREACH' || code === 'EHOSTUNREACH'
            ? 'unreachable'
            : code && /CERT|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)
              ? 'certificate'
              : notHttp(err)
                ? 'not-http'
                : err instanceof undici().errors.SocketError || code === undefined
                  ? 'closed'
                  : 'other';
  return { reason, errorCode: code ? sanitizeServiceText(code, 40) : undefined };
}

/**
 * The failure happened at the proxy: it refused the tunnel (undici reports its status in a
 * RequestAbortedError), its TLS failed, or it could not be reached.
 */
function proxyFailed(err: unknown): boolean {
  if (proxyStatus(err) !== undefined) return true;
  if (err instanceof undici().errors.SecureProxyConnectionError) return true;
  const code = codeOf(err);
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ECONNRESET';
}

function proxyStatus(err: unknown): number | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    // undici words a refused CONNECT as "Proxy response (407) !== 200 when HTTP Tunneling".
    const m = /Proxy response \((\d{3})\)/.exec((e as { message?: unknown }).message as string);
    if (m) return Number(m[1]);
  }
  return undefined;
}
