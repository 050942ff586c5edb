// Client of the Central Validation Service (POST {cvs}/v1/notices/validation, see
// /work/shared/specs/notice-validation-api.md): sends the exact bytes of a notice, returns the SVRL
// report, and turns every way the call can fail into one CvsError whose message tells the user what to
// do. The API key goes only into the X-API-Key header: never into a message, a log or an error, and
// never over plain http except to loopback. No `vscode` import here.

import { errors, request } from 'undici';
import { keyTransportProblem } from './environments';

export type CvsErrorKind =
  | 'bad-request'
  | 'missing-key'
  | 'forbidden'
  | 'timeout'
  | 'offline'
  | 'server'
  | 'bad-answer'
  | 'aborted'
  | 'insecure';

export class CvsError extends Error {
  constructor(
    readonly kind: CvsErrorKind,
    message: string,
    /** True when the same request may succeed later without the user changing anything. */
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CvsError';
  }
}

export interface ValidateNoticeOptions {
  /** Base URL of the service, e.g. https://cvs.preview.ted.europa.eu (paths start with /v1). */
  baseUrl: string;
  apiKey: string | undefined;
  /** The exact bytes of the notice: they are sent as they are, base64-encoded. */
  notice: Uint8Array;
  language?: string;
  validationMode?: string;
  /** `MAJOR.MINOR`; omitted from the request when empty. */
  eFormsSdkVersion?: string;
  timeoutMs: number;
  /** Aborting it gives a CvsError of kind `aborted` (a newer edit took over). */
  signal?: AbortSignal;
}

export interface ValidateNoticeResult {
  svrl: string;
}

/** Reports of the 100-lot SDK sample stay far below this; anything larger is not a report. */
const MAX_ANSWER_BYTES = 256 * 1024 * 1024;
/** Service messages are shown in a status item and a notification: one short paragraph at most. */
const MAX_SERVICE_MESSAGE = 300;

export const SET_KEY_HINT = "set one with 'eForms: Set API Key'";

export function validationUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/v1/notices/validation`;
}

export async function validateNotice(o: ValidateNoticeOptions): Promise<ValidateNoticeResult> {
  const url = validationUrl(o.baseUrl);
  const transport = keyTransportProblem(url);
  if (transport)
    throw new CvsError('insecure', `${transport} Check eforms.environment and eforms.customUrls.cvs.`, false);
  if (!o.apiKey) throw new CvsError('missing-key', `No API key is set: ${SET_KEY_HINT}.`, false);
  if (o.signal?.aborted) throw aborted();

  const body: Record<string, string> = { notice: Buffer.from(o.notice).toString('base64') };
  if (o.language) body.language = o.language;
  if (o.validationMode) body.validationMode = o.validationMode;
  if (o.eFormsSdkVersion) body.eFormsSdkVersion = o.eFormsSdkVersion;

  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  const host = hostOf(url);
  let status: number;
  let contentType: string;
  let text: string;
  try {
    const res = await request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/xml, text/xml, application/json;q=0.5, */*;q=0.1',
        'x-api-key': o.apiKey,
      },
      body: JSON.stringify(body),
      signal,
      headersTimeout: o.timeoutMs,
      bodyTimeout: o.timeoutMs,
    });
    status = res.statusCode;
    const ct = res.headers['content-type'];
    contentType = (Array.isArray(ct) ? ct[0] : ct) ?? '';
    text = await readCapped(res.body, MAX_ANSWER_BYTES);
  } catch (err) {
    if (o.signal?.aborted) throw aborted();
    if (timeout.aborted || isTimeout(err))
      throw new CvsError(
        'timeout',
        `The validation service at ${host} did not answer within ${Math.round(o.timeoutMs / 1000)} s: retrying later (eforms.validation.timeoutMs sets the limit).`,
        true,
      );
    if (err instanceof AnswerTooLargeError)
      throw new CvsError(
        'bad-answer',
        `The validation service at ${host} sent an answer larger than ${MAX_ANSWER_BYTES / 1048576} MB: check eforms.environment and the CVS URL.`,
        true,
      );
    throw new CvsError(
      'offline',
      `The validation service at ${host} cannot be reached (${networkReason(err)}): check the network connection and eforms.environment; retrying later.`,
      true,
    );
  }
  return interpret(status, contentType, text, host, o.apiKey);
}

function interpret(
  status: number,
  contentType: string,
  text: string,
  host: string,
  apiKey: string,
): ValidateNoticeResult {
  const said = serviceMessage(text, apiKey);
  const with_ = said ? `: ${said}` : '';
  if (status === 200) {
    if (!looksLikeSvrl(text))
      throw new CvsError(
        'bad-answer',
        `The validation service at ${host} answered with something that is not a validation report (${describeContent(contentType, text)}): check eforms.environment and the CVS URL; retrying later.`,
        true,
        status,
      );
    return { svrl: text };
  }
  if (status === 400)
    throw new CvsError(
      'bad-request',
      `The validation service rejected the request (400)${with_}. Check eforms.validation.language, eforms.validation.mode and eforms.validation.sdkVersion (or the notice's cbc:CustomizationID).`,
      false,
      status,
    );
  if (status === 401)
    throw new CvsError(
      'missing-key',
      `The validation service asked for an API key (401): ${SET_KEY_HINT}.`,
      false,
      status,
    );
  if (status === 403)
    throw new CvsError(
      'forbidden',
      "The API key was refused (403): set a valid key with 'eForms: Set API Key'.",
      false,
      status,
    );
  if (status === 408 || status === 429 || status >= 500)
    throw new CvsError(
      'server',
      `The validation service at ${host} failed (HTTP ${status})${with_}; retrying later.`,
      true,
      status,
    );
  throw new CvsError(
    'bad-answer',
    `The validation service at ${host} answered HTTP ${status}${with_}: check eforms.environment and the CVS URL.`,
    false,
    status,
  );
}

/** The service's own words: ErrorResponse.message when the body is one, else nothing (HTML pages are noise). */
function serviceMessage(text: string, apiKey: string): string {
  let msg: unknown;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object') msg = (parsed as Record<string, unknown>).message;
  } catch {
    return '';
  }
  if (typeof msg !== 'string') return '';
  // A service that echoes the key back must not get it shown on screen.
  const redacted = apiKey ? msg.split(apiKey).join('***') : msg;
  return sanitizeServiceText(redacted).replace(/[.\s]+$/, '');
}

/**
 * Text from a service, made safe to show: control, bidi-override and zero-width characters removed,
 * whitespace collapsed, length capped.
 */
export function sanitizeServiceText(s: string, max = MAX_SERVICE_MESSAGE): string {
  const clean = s
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point.
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (clean.length <= max) return clean;
  // Never cut a surrogate pair in half.
  let cut = max - 1;
  if (/[\ud800-\udbff]/.test(clean[cut - 1] ?? '')) cut--;
  return `${clean.slice(0, cut)}…`;
}

const SVRL_NS = 'http://purl.oclc.org/dsdl/svrl';

/**
 * Cheap check that a 200 answer is an SVRL report: its first element is `schematron-output` and the SVRL
 * namespace is declared. The full parse happens where the report is used.
 */
export function looksLikeSvrl(text: string): boolean {
  let i = 0;
  const head = text.slice(0, 64 * 1024);
  for (;;) {
    while (i < head.length && /[\s\ufeff]/.test(head[i] ?? '')) i++;
    if (head.startsWith('<?', i)) {
      const e = head.indexOf('?>', i);
      if (e < 0) return false;
      i = e + 2;
    } else if (head.startsWith('<!--', i)) {
      const e = head.indexOf('-->', i);
      if (e < 0) return false;
      i = e + 3;
    } else if (head.startsWith('<!DOCTYPE', i)) {
      const e = head.indexOf('>', i);
      if (e < 0) return false;
      i = e + 1;
    } else break;
  }
  const m = /^<(?:[A-Za-z_][\w.-]*:)?schematron-output[\s/>]/.exec(head.slice(i, i + 200));
  if (!m) return false;
  const tagEnd = head.indexOf('>', i);
  return head.slice(i, tagEnd < 0 ? head.length : tagEnd).includes(SVRL_NS);
}

function describeContent(contentType: string, text: string): string {
  const type = sanitizeServiceText(contentType.split(';')[0] ?? '', 60) || 'no content type';
  if (text.trim() === '') return `an empty ${type} answer`;
  return `a ${type} answer`;
}

class AnswerTooLargeError extends Error {}

async function readCapped(body: AsyncIterable<Buffer | Uint8Array>, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) throw new AnswerTooLargeError();
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

function aborted(): CvsError {
  return new CvsError('aborted', 'The validation request was cancelled by a newer one.', false);
}

function isTimeout(err: unknown): boolean {
  return (
    err instanceof errors.HeadersTimeoutError ||
    err instanceof errors.BodyTimeoutError ||
    err instanceof errors.ConnectTimeoutError ||
    codeOf(err) === 'ETIMEDOUT' ||
    (err instanceof Error && err.name === 'TimeoutError')
  );
}

function codeOf(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && !code.startsWith('UND_ERR')) return code;
  }
  return undefined;
}

function networkReason(err: unknown): string {
  const code = codeOf(err);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection reset';
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return 'network unreachable';
    case undefined:
      return err instanceof errors.SocketError ? 'connection closed' : 'network error';
    default:
      return sanitizeServiceText(code, 40);
  }
}

function hostOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'the configured URL';
  }
}
