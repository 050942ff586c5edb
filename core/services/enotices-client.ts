// Client of eNotices2, the notice publication service: submit, convert, validation report, search and
// stop publication, in the /api/v2 family and the earlier /api/notice family. Every failure becomes an
// EnoticesError whose message says what to do (core/enotices-messages.ts). Editor-free: used by the
// extension and the command-line tool. It never logs, never puts the API key in a message, never sends
// the key over plain http except to loopback, and never retries anything that could submit twice.

import type { Dispatcher } from 'undici';
import {
  describeNetworkReason,
  type FailureFields,
  httpRequest,
  isLoopbackUrl,
  keyTransportProblem,
  ServiceError,
  sanitizeServiceText,
  TransportError,
  undici,
  xmlAnswerText,
} from '../http';
import { businessIdProblem, isBusinessId, isNoticeId, parseBusinessId, readNoticeIdentity } from '../notice';
import {
  type ApiFamily,
  type EnoticesErrorKind,
  type EnoticesOperation,
  explainStatus,
  OPERATION_LABELS,
} from './enotices-messages';

export const NOTICE_STATUSES = [
  'DRAFT',
  'SUBMITTED',
  // TED's lifecycle: "If CVS reports errors, validation fails and the notice reaches the final status
  // VALIDATION_FAILED". Final: it never moves on, and cannot be stopped.
  'VALIDATION_FAILED',
  'STOPPED',
  'PUBLISHED',
  'PUBLISHING',
  'DELETED',
  'NOT_PUBLISHED',
  'ARCHIVED',
] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];

export function isNoticeStatus(s: unknown): s is NoticeStatus {
  return typeof s === 'string' && (NOTICE_STATUSES as readonly string[]).includes(s);
}

/** A notice as search returns it (the spec's Notice; the earlier family lacks the last two fields). */
export interface Notice {
  id: string;
  versionId: string;
  procedureId?: string;
  /**
   * A NoticeStatus, or the sanitized value the service sent when it is not one; '' when it sent none
   * (the front ends word that: `UNKNOWN` read as one of TED's statuses).
   */
  status: string;
  updatedAt?: string;
  submittedAt?: string;
  publicationId?: string;
  publicationDate?: string;
  noticeType?: string;
  legalBasis?: string;
  languages: string[];
  noticeAuthor?: string;
  expectedPublicationDate?: string;
}

export interface SearchCriteria {
  id?: string;
  versionId?: string;
  submittedAfter?: string;
  submittedBefore?: string;
  publishedAfter?: string;
  publishedBefore?: string;
  statuses?: string[];
  /** Not sent in the earlier family, whose criteria lack it. */
  noticeAuthor?: string;
}

export interface SearchPaging {
  /** Default 0. */
  page?: number;
  /** Default 20. */
  size?: number;
  sortProperty?: string;
  sortDirection?: 'ASC' | 'DESC';
}

export interface SearchResult {
  totalSize: number;
  content: Notice[];
}

export interface SubmitMetadata {
  noticeAuthorEmail: string;
  noticeAuthorLocale: string;
}

export interface SubmitResult {
  /** True when validation succeeded and the notice was submitted for publication. */
  success: boolean;
  /** Where the report lives (validationReportUrl, or cvsLink in the earlier family). */
  validationReportUrl?: string;
  /** `{noticeId}-{versionId}` read from the notice, when it has well-formed ids. */
  businessId?: string;
}

export class EnoticesError extends ServiceError<EnoticesErrorKind> {
  override readonly name = 'EnoticesError';
  constructor(
    readonly operation: EnoticesOperation,
    kind: EnoticesErrorKind,
    message: string,
    status?: number,
    code?: string,
    /** The service's own message, sanitized; also quoted at the end of `message`. */
    serviceMessage?: string,
    fields: FailureFields = {},
  ) {
    super('enotices', kind, message, { ...fields, status, code, serviceMessage });
  }

  get code(): string | undefined {
    return this.fields.code;
  }
}

export interface EnoticesClientOptions {
  /** Base URL ending in /esenders (paths start with /api). */
  baseUrl: string;
  /** Absent: requests go without Authorization (the service then answers "header missing"). */
  apiKey?: string;
  family?: ApiFamily;
  /** Per request: time to the answer's headers and between body chunks. Default 60 s; submit 180 s. */
  timeoutMs?: number;
  /** undici dispatcher (tests, proxies). */
  dispatcher?: Dispatcher;
  /** Refuse malformed business ids before sending (default true). */
  checkIdsLocally?: boolean;
}

export interface CallOptions {
  signal?: AbortSignal;
}

const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export { sanitizeServiceText } from '../http';

export class EnoticesClient {
  readonly baseUrl: string;
  readonly family: ApiFamily;
  private readonly apiKey?: string;
  private readonly timeoutMs: number;
  private readonly dispatcher?: Dispatcher;
  private readonly checkIds: boolean;

  constructor(opts: EnoticesClientOptions) {
    this.baseUrl = opts.baseUrl.trim().replace(/\/+$/, '');
    this.apiKey = opts.apiKey?.trim() || undefined;
    this.family = opts.family ?? 'v2';
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.dispatcher = opts.dispatcher;
    this.checkIds = opts.checkIdsLocally ?? true;
  }

  /**
   * Submits a notice (multipart: `notice` file + `metadata` JSON). Resolves for 201 whether or not
   * validation succeeded; `success` tells which. Never retried: a retry could submit twice.
   */
  async submit(
    notice: Uint8Array | string,
    metadata: SubmitMetadata,
    o: CallOptions = {},
  ): Promise<SubmitResult> {
    return this.submitParts({ notice, metadata }, o);
  }

  /**
   * Submit with the parts as given: a part left undefined is not sent, metadata that is a string is
   * sent as is. For callers (and contract tests) that must send what a user typed, even if incomplete.
   */
  async submitParts(
    parts: { notice?: Uint8Array | string; metadata?: SubmitMetadata | string },
    o: CallOptions = {},
  ): Promise<SubmitResult> {
    const bytes =
      parts.notice === undefined
        ? undefined
        : typeof parts.notice === 'string'
          ? Buffer.from(parts.notice, 'utf8')
          : Buffer.from(parts.notice);
    // undici's own FormData and Response, loaded with undici on the first request (core/http/undici.ts).
    const { FormData, Response } = undici();
    const form = new FormData();
    if (bytes) form.append('notice', new Blob([bytes], { type: 'application/xml' }), 'notice.xml');
    if (parts.metadata !== undefined) {
      // A plain form field carrying the JSON text, no filename: what known working clients send.
      const meta = typeof parts.metadata === 'string' ? parts.metadata : JSON.stringify(parts.metadata);
      form.append('metadata', meta);
    }
    const path = this.family === 'legacy' ? '/api/notice/notices/submit' : '/api/v2/notice/notices/submit';
    // undici encodes the multipart body; it is sent as bytes with a known length, since a streamed
    // FormData body was cut off inside the editor's extension host (UND_ERR_SOCKET).
    const encoded = new Response(form);
    const body = Buffer.from(await encoded.arrayBuffer());
    const res = await this.call('submit', 'POST', path, {
      body,
      contentType: encoded.headers.get('content-type') ?? undefined,
      retry: false,
      signal: o.signal,
      timeoutMs: Math.max(this.timeoutMs, 180_000),
    });
    const json = this.json('submit', res);
    const id = bytes ? readNoticeIdentity(bytes) : undefined;
    const businessId = id?.ok ? id.identity.businessId : undefined;
    const link = json.validationReportUrl ?? json.cvsLink;
    const url =
      typeof link === 'string' && /^https?:\/\//i.test(link)
        ? sanitizeServiceText(link, 2000, { secret: this.apiKey })
        : undefined;
    // An answer that does not say whether the notice was submitted is not "validation failed": the
    // buyer, told so, would submit a new version of a notice that may be on its way to publication.
    if (this.family !== 'legacy' && typeof json.success !== 'boolean')
      throw this.protocol('submit', `HTTP ${res.status} without saying whether the notice was submitted`);
    const success = typeof json.success === 'boolean' ? json.success : link === undefined;
    return { success, validationReportUrl: url, businessId };
  }

  /**
   * Converts a legacy TED XML notice into eForms XML. The answer may be XML, or the documented
   * JSON list of byte arrays (each base64 text or an array of numbers), concatenated in order.
   */
  async convert(legacy: Uint8Array | string, o: CallOptions = {}): Promise<string> {
    const bytes = typeof legacy === 'string' ? Buffer.from(legacy, 'utf8') : Buffer.from(legacy);
    const res = await this.call('convert', 'POST', '/api/v2/notice/notices/convert', {
      body: bytes,
      contentType: 'application/xml',
      accept: 'application/json, application/xml',
      retry: false,
      signal: o.signal,
    });
    const text = res.body.toString('utf8').replace(/^\uFEFF/, '');
    let xml: string;
    if (text.trimStart().startsWith('<')) xml = text;
    else {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw this.protocol('convert', 'the answer is neither XML nor JSON');
      }
      xml = decodeByteArrays(parsed, () =>
        this.protocol('convert', 'the answer is not a list of byte arrays'),
      );
    }
    if (!xml.trimStart().startsWith('<')) throw this.protocol('convert', 'the converted notice is not XML');
    return xml;
  }

  /**
   * The SVRL validation report of a notice. In the earlier family a bare notice id (no version) is
   * accepted too, as that family identifies notices by notice id.
   */
  async validationReport(businessId: string, o: CallOptions = {}): Promise<string> {
    const id = businessId.trim();
    const legacyById = this.family === 'legacy' && isNoticeId(id);
    if (!legacyById) this.checkBusinessId('validation-report', id);
    const res = await this.call(
      'validation-report',
      'GET',
      `/api/v2/notice/notices/${encodeURIComponent(id)}/validation-report`,
      {
        accept: 'application/xml, text/xml, */*',
        retry: true,
        signal: o.signal,
        // The path is the v2 one in both families; a bare notice id is the earlier family's form.
        explainFamily: legacyById ? 'legacy' : 'v2',
      },
    );
    // Read as the CVS's reports are: the encoding from the first bytes, a byte-order mark dropped.
    const text = xmlAnswerText(res.body);
    if (!text.trimStart().startsWith('<'))
      throw this.protocol('validation-report', 'the answer is not an SVRL (XML) report');
    return text;
  }

  /** One page of the account's notices matching the criteria, sent as flat query parameters. */
  async search(
    criteria: SearchCriteria = {},
    paging: SearchPaging = {},
    o: CallOptions = {},
  ): Promise<SearchResult> {
    const q = new URLSearchParams();
    q.set('page', String(paging.page ?? 0));
    q.set('size', String(paging.size ?? 20));
    if (paging.sortProperty) q.set('sortProperty', paging.sortProperty);
    if (paging.sortDirection) q.set('sortDirection', paging.sortDirection);
    const put = (k: string, v: string | undefined) => {
      if (v?.trim()) q.set(k, v.trim());
    };
    put('id', criteria.id);
    put('versionId', criteria.versionId);
    put('submittedAfter', criteria.submittedAfter);
    put('submittedBefore', criteria.submittedBefore);
    put('publishedAfter', criteria.publishedAfter);
    put('publishedBefore', criteria.publishedBefore);
    if (criteria.statuses?.length) q.set('statuses', criteria.statuses.join(','));
    if (this.family === 'v2') put('noticeAuthor', criteria.noticeAuthor);
    const path =
      this.family === 'legacy'
        ? '/api/notice/notices/search-esentool'
        : '/api/v2/notice/notices/search-esentool';
    const res = await this.call('search', 'GET', `${path}?${q}`, { retry: true, signal: o.signal });
    const json = this.json('search', res);
    if (!Array.isArray(json.content)) throw this.protocol('search', 'the answer has no "content" list');
    // A page at most, read from twice a page of entries (an answer of 100,000 entries to a page of 20
    // was listed whole), and a total that is a count at least as large as the page (`null` read as 0
    // said "0 notices" beside the rows; 1e23 is no count): otherwise the page is all that is known.
    const size = paging.size ?? 20;
    const content = (json.content as unknown[])
      .slice(0, Math.max(size, 1) * 2)
      .map((v) => toNotice(v, this.apiKey))
      .filter((n): n is Notice => n !== undefined)
      .slice(0, Math.max(size, 1));
    const total = typeof json.totalSize === 'number' ? json.totalSize : Number.NaN;
    const counted = Number.isSafeInteger(total) && total >= content.length;
    return { totalSize: counted ? total : content.length, content };
  }

  /** Asks to stop publication (only a SUBMITTED notice can be stopped). Not retried. */
  async stopPublication(businessId: string, o: CallOptions = {}): Promise<void> {
    const id = businessId.trim();
    let path: string;
    if (this.family === 'legacy') {
      // The earlier family names the notice by its id without version.
      const noticeId = parseBusinessId(id)?.noticeId ?? id;
      if (this.checkIds && !isNoticeId(noticeId)) this.checkBusinessId('stop-publication', id);
      path = `/api/notice/notices/${encodeURIComponent(noticeId)}/stop-publication-esentool`;
    } else {
      this.checkBusinessId('stop-publication', id);
      path = `/api/v2/notice/notices/${encodeURIComponent(id)}/stop-publication-esentool`;
    }
    const res = await this.call('stop-publication', 'POST', path, { retry: false, signal: o.signal });
    // The only answer that means "stopped" is 200 (its body is not described). Another 2xx, or a page of
    // HTML (a proxy's, a sign-in page) is no proof that anything stopped: the buyer must not be told so.
    if (res.status !== 200) throw this.protocol('stop-publication', `HTTP ${res.status} instead of 200`);
    if (res.body.toString('utf8', 0, 256).trimStart().startsWith('<'))
      throw this.protocol('stop-publication', 'HTTP 200 with a web page instead of an answer of eNotices2');
  }

  private checkBusinessId(op: EnoticesOperation, id: string): void {
    if (!this.checkIds || isBusinessId(id)) return;
    throw new EnoticesError(op, 'local', `${OPERATION_LABELS[op]} failed: ${businessIdProblem(id)}`);
  }

  private protocol(op: EnoticesOperation, what: string): EnoticesError {
    return new EnoticesError(
      op,
      'protocol',
      `${OPERATION_LABELS[op]} failed: eNotices2 gave an unexpected answer (${what}). Check that the eNotices2 URL (${this.baseUrl}) is right and ends in /esenders.`,
    );
  }

  private json(op: EnoticesOperation, res: Answer): Record<string, unknown> {
    try {
      const v = JSON.parse(res.body.toString('utf8'));
      if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // reported below
    }
    throw this.protocol(op, `HTTP ${res.status} without the expected JSON body`);
  }

  private async call(
    op: EnoticesOperation,
    method: 'GET' | 'POST',
    path: string,
    o: {
      body?: Buffer;
      contentType?: string;
      accept?: string;
      retry: boolean;
      signal?: AbortSignal;
      timeoutMs?: number;
      explainFamily?: ApiFamily;
    },
  ): Promise<Answer> {
    const label = OPERATION_LABELS[op];
    const url = `${this.baseUrl}${path}`;
    const insecure = keyTransportProblem(this.baseUrl);
    if (insecure) throw new EnoticesError(op, 'local', `${label} failed: ${insecure}`);
    const headers: Record<string, string> = { accept: o.accept ?? 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    if (o.contentType) headers['content-type'] = o.contentType;
    const timeout = o.timeoutMs ?? this.timeoutMs;
    let attempt = 0;
    for (;;) {
      attempt++;
      try {
        const res = await httpRequest(url, {
          method,
          headers,
          body: o.body,
          signal: o.signal,
          dispatcher: this.dispatcher,
          timeoutMs: timeout,
          maxBytes: MAX_ANSWER_BYTES,
        });
        if (res.status >= 200 && res.status < 300) return { status: res.status, body: res.body };
        throw this.httpError(op, o.explainFamily ?? this.family, res.status, res.body);
      } catch (err) {
        if (err instanceof EnoticesError) throw err;
        const reason =
          err instanceof TransportError && err.kind === 'network' ? err.fields.reason : undefined;
        // A kept-alive socket the server closed meanwhile: the same request on a new one is safe for a GET.
        const reset = reason === 'reset' || reason === 'closed';
        if (o.retry && reset && attempt === 1) continue;
        throw this.transportError(op, err, timeout);
      }
    }
  }

  private httpError(op: EnoticesOperation, family: ApiFamily, status: number, body: Buffer): EnoticesError {
    let code: string | undefined;
    let serviceMessage: string | undefined;
    // A gateway that echoes the Authorization header must not get the key shown on screen or logged:
    // every field read below is sanitised with the key as its secret.
    const text = body.toString('utf8');
    try {
      const j = JSON.parse(text) as Record<string, unknown>;
      if (j && typeof j === 'object') {
        const c = sanitizeServiceText(j.code, 60, { secret: this.apiKey });
        code = /^[A-Z0-9_.-]+$/i.test(c) ? c : undefined;
        serviceMessage = sanitizeServiceText(j.message ?? j.error, 300, { secret: this.apiKey }) || undefined;
      }
    } catch {
      const t = sanitizeServiceText(text, 200, { stripMarkup: true, secret: this.apiKey });
      serviceMessage = t || undefined;
    }
    const e = explainStatus(family, op, status, code);
    const said = serviceMessage ? ` (eNotices2 said: "${serviceMessage}")` : '';
    return new EnoticesError(
      op,
      e.kind,
      `${OPERATION_LABELS[op]} failed: ${e.message}${said}`,
      status,
      code,
      serviceMessage,
    );
  }

  private transportError(op: EnoticesOperation, err: unknown, timeoutMs: number): EnoticesError {
    const label = OPERATION_LABELS[op];
    if (!(err instanceof TransportError))
      return new EnoticesError(op, 'network', `${label} failed: ${sanitizeServiceText(String(err), 200)}`);
    const f = err.fields;
    const origin = f.origin ?? this.baseUrl;
    const unsure =
      op === 'submit' || op === 'stop-publication'
        ? ' The request may have reached eNotices2: check My Notices before trying again.'
        : '';
    const make = (kind: EnoticesErrorKind, text: string) =>
      new EnoticesError(op, kind, `${label} ${text}`, f.status, undefined, undefined, f);
    switch (err.kind) {
      case 'cancelled':
        return make('cancelled', 'was cancelled.');
      case 'timeout':
        return make(
          'timeout',
          `failed: eNotices2 at ${origin} gave no answer within ${Math.round(timeoutMs / 1000)} s.${unsure || ' Try again later.'}`,
        );
      case 'too-large':
        return make(
          'too-large',
          `failed: the answer of ${origin} is larger than ${MAX_ANSWER_BYTES / 1048576} MB.`,
        );
      case 'redirect':
        return make(
          'redirect',
          `failed: eNotices2 at ${origin} has moved to ${f.location}. Check the environment and the eNotices2 URL.`,
        );
      case 'proxy':
        return make(
          'proxy',
          `failed: the proxy ${f.proxy} ${f.status ? `refused the connection to ${origin} (${f.status})` : `cannot be reached (${describeNetworkReason(f.reason)})`}. Check the proxy settings.${unsure}`,
        );
      default: {
        if (f.reason === 'not-http')
          return make(
            'network',
            `failed: eNotices2 at ${origin} sent an answer that is not valid HTTP: something else may be listening there. Check the environment and the eNotices2 URL.${unsure}`,
          );
        const sandboxHint = isLoopbackUrl(this.baseUrl) ? ' Is the sandbox running (`eforms sandbox`)?' : '';
        return make(
          'network',
          `failed: could not reach eNotices2 at ${origin} (${describeNetworkReason(f.reason)}). Check the network and the environment.${sandboxHint}${unsure}`,
        );
      }
    }
  }
}

interface Answer {
  status: number;
  body: Buffer;
}

/** Concatenates a JSON list of byte arrays (base64 strings or arrays of 0..255) into UTF-8 text. */
export function decodeByteArrays(v: unknown, bad: () => Error): string {
  const parts: Buffer[] = [];
  const one = (x: unknown) => {
    if (typeof x === 'string') {
      if (!/^[A-Za-z0-9+/=\s_-]*$/.test(x)) throw bad();
      parts.push(Buffer.from(x, 'base64'));
    } else if (Array.isArray(x)) {
      if (!x.every((n) => Number.isInteger(n) && n >= -128 && n <= 255)) throw bad();
      // Java bytes are signed: -1 is 0xff.
      parts.push(Buffer.from(x.map((n: number) => n & 0xff)));
    } else throw bad();
  };
  if (typeof v === 'string') one(v);
  else if (Array.isArray(v)) {
    // A flat array of numbers is one byte array, not a list of them.
    if (v.length > 0 && v.every((n) => typeof n === 'number')) one(v);
    else for (const x of v) one(x);
  } else throw bad();
  return Buffer.concat(parts)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
}

/** A notice of a search answer; `secret`, the API key, is never shown (a field may echo it). */
function toNotice(v: unknown, secret: string | undefined): Notice | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  const s = (k: string) => {
    const t = sanitizeServiceText(o[k], 200, { secret });
    return t === '' ? undefined : t;
  };
  const id = s('id');
  if (!id) return undefined;
  return {
    id,
    versionId: versionOf(s('versionId')),
    procedureId: s('procedureId'),
    status: s('status') ?? '',
    updatedAt: s('updatedAt'),
    submittedAt: s('submittedAt'),
    publicationId: s('publicationId'),
    publicationDate: s('publicationDate'),
    noticeType: s('noticeType'),
    legalBasis: s('legalBasis'),
    languages: Array.isArray(o.languages)
      ? o.languages
          .slice(0, 30)
          .map((l) => sanitizeServiceText(l, 10))
          .filter(Boolean)
      : [],
    noticeAuthor: s('noticeAuthor'),
    expectedPublicationDate: s('expectedPublicationDate'),
  };
}

/**
 * A version as the business id writes it, two digits: an answer that gives it as a number (1) or
 * unpadded ('1') made the business id `…-1`, which stop and report then refused.
 */
function versionOf(v: string | undefined): string {
  return v === undefined ? '' : /^\d$/.test(v) ? `0${v}` : v;
}

/** The business id of a notice returned by search. */
export function businessIdOfNotice(n: Pick<Notice, 'id' | 'versionId'>): string {
  return n.versionId ? `${n.id}-${n.versionId}` : n.id;
}
