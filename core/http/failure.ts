// The one error model of the three service clients (CVS, eNotices2, agri-food) and of the SDK download: every failure is a
// ServiceError with a `service`, a `kind` and fields. Its `message` is a default English wording for
// logs and tests; front ends (CLI, VS Code client, language server) word failures from kind and
// fields and must never branch on the message. No field may hold an API key or proxy credentials.

/** Which service failed. */
export type ServiceName = 'cvs' | 'enotices' | 'agrifood' | 'sdk';

/**
 * Failures of the transport, the same for every service: the request was cancelled by the caller,
 * got no answer in time, could not reach the host, failed at the proxy, was redirected elsewhere, or
 * got an answer larger than the client accepts.
 */
export type TransportKind = 'cancelled' | 'timeout' | 'network' | 'proxy' | 'redirect' | 'too-large';

export const TRANSPORT_KINDS: readonly TransportKind[] = [
  'cancelled',
  'timeout',
  'network',
  'proxy',
  'redirect',
  'too-large',
];

export function isTransportKind(k: unknown): k is TransportKind {
  return typeof k === 'string' && (TRANSPORT_KINDS as readonly string[]).includes(k);
}

/** Why a connection failed, as a code front ends can word. */
export type NetworkReason =
  | 'refused'
  | 'unknown-host'
  | 'reset'
  | 'unreachable'
  | 'closed'
  | 'certificate'
  /** Something answered, but not in HTTP (a broken status line or header, a length past any number). */
  | 'not-http'
  | 'other';

/** The facts a front end may use to word a failure. Every string is sanitized service text or ours. */
export interface FailureFields {
  /** `scheme://host:port` of the service (never credentials, path or query). */
  origin?: string;
  /** HTTP status of the answer, when there was one. */
  status?: number;
  /** The service's own explanation, sanitized (never the API key). */
  serviceMessage?: string;
  /** The service's error code (ExceptionBody.code), sanitized. */
  code?: string;
  /** Where a redirect pointed (kind `redirect`), sanitized. */
  location?: string;
  /** The proxy in use, `scheme://host:port` without credentials (kind `proxy`). */
  proxy?: string;
  /** What went wrong on the connection (kinds `network` and `proxy`). */
  reason?: NetworkReason;
  /** The raw error code (ECONNREFUSED…), sanitized, for logs. */
  errorCode?: string;
  /** The limit that was reached (kind `timeout`). */
  timeoutMs?: number;
  /** Kind `timeout` of a long download: `timeoutMs` is the silence allowed, not the whole time. */
  stalled?: boolean;
  /** The limit that was reached (kind `too-large`). */
  maxBytes?: number;
  /** Which request failed, when it is not the service's main one (the CVS's version range). */
  request?: 'version-range';
}

export class ServiceError<K extends string = string> extends Error {
  constructor(
    readonly service: ServiceName,
    readonly kind: K,
    message: string,
    readonly fields: FailureFields = {},
  ) {
    super(message);
    this.name = 'ServiceError';
  }

  get status(): number | undefined {
    return this.fields.status;
  }

  get serviceMessage(): string | undefined {
    return this.fields.serviceMessage;
  }
}

/** A failure of the transport, before the service client has given it a service meaning. */
export class TransportError extends Error {
  constructor(
    readonly kind: TransportKind,
    message: string,
    readonly fields: FailureFields,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** Plain English for a NetworkReason: the default wording, which front ends may replace. */
export function describeNetworkReason(reason: NetworkReason | string | undefined): string {
  switch (reason) {
    case 'refused':
      return 'connection refused';
    case 'unknown-host':
      return 'host name not found';
    case 'reset':
      return 'connection reset';
    case 'unreachable':
      return 'network unreachable';
    case 'certificate':
      return 'its certificate is not trusted; NODE_EXTRA_CA_CERTS can add your CA';
    case 'closed':
      return 'connection closed';
    case 'not-http':
      return 'its answer is not valid HTTP';
    default:
      return 'network error';
  }
}

/** `1 KB`, `200 MB`: a byte limit as a sentence states it. */
export function describeBytes(bytes: number): string {
  if (bytes >= 1048576) return `${Math.round(bytes / 1048576)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
