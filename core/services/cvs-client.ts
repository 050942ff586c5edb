// Client of the Central Validation Service (POST {cvs}/v1/notices/validation, see
// /work/shared/specs/notice-validation-api.md): sends the exact bytes of a notice, returns the SVRL
// report, and turns every way the call can fail into one CvsError whose message tells the user what to
// do. The API key goes only into the X-API-Key header: never into a message, a log or an error, and
// never over plain http except to loopback. No `vscode` import here.

import type { Dispatcher } from 'undici';
import {
  describeNetworkReason,
  type FailureFields,
  httpRequest,
  isTransient,
  keyTransportProblem,
  originOf,
  ServiceError,
  sanitizeServiceText,
  TransportError,
  type TransportKind,
  xmlAnswerText,
} from '../http';
import { INPUT_LIMITS, sdkVersionParameter } from '../notice';

export { sanitizeServiceText } from '../http';

export type CvsErrorKind =
  /** 400 about the request (language, mode, SDK version); the service's words in fields.serviceMessage. */
  | 'bad-request'
  /**
   * 400 whose explanation names elements of the notice (`cbc:CustomizationID`…): the notice itself was
   * refused. Front ends put fields.serviceMessage on the notice where it points (core/service-rejection.ts).
   */
  | 'notice-rejected'
  /** No key set, or 401. */
  | 'missing-key'
  | 'forbidden'
  | 'server'
  | 'bad-answer'
  /** The key would travel over plain http to a non-loopback host: nothing was sent. */
  | 'insecure'
  | TransportKind;

export class CvsError extends ServiceError<CvsErrorKind> {
  constructor(
    kind: CvsErrorKind,
    message: string,
    /** True when the same request may succeed later without the user changing anything. */
    readonly retryable: boolean,
    status?: number,
    fields: FailureFields = {},
  ) {
    super('cvs', kind, message, { ...fields, status: status ?? fields.status });
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
  /**
   * `MAJOR.MINOR` the user pinned; sent as `eforms-sdk-MAJOR.MINOR`. Omitted from the request when
   * empty, so that the service uses the notice's own cbc:CustomizationID, as known clients do.
   */
  eFormsSdkVersion?: string;
  timeoutMs: number;
  /** Aborting it gives a CvsError of kind `cancelled` (a newer edit took over). */
  signal?: AbortSignal;
  /** Default: the process's dispatcher (proxy from the environment). */
  dispatcher?: Dispatcher;
}

export interface ValidateNoticeResult {
  svrl: string;
}

/** The SVRL limit of every report this tool reads (core/notice/limits.ts): a larger answer is not read. */
const MAX_ANSWER_BYTES = INPUT_LIMITS.svrlBytes.max;

export const SET_KEY_HINT = "set one with 'eForms: Set API Key'";

export function validationUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/v1/notices/validation`;
}

/** The request body the service receives (exported for contract tests). */
export function validationRequestBody(o: ValidateNoticeOptions): Record<string, string> {
  const body: Record<string, string> = { notice: Buffer.from(o.notice).toString('base64') };
  if (o.language) body.language = o.language;
  if (o.validationMode) body.validationMode = o.validationMode;
  if (o.eFormsSdkVersion) body.eFormsSdkVersion = sdkVersionParameter(o.eFormsSdkVersion);
  return body;
}

export async function validateNotice(o: ValidateNoticeOptions): Promise<ValidateNoticeResult> {
  const url = validationUrl(o.baseUrl);
  const origin = originOf(url);
  const transport = keyTransportProblem(url);
  if (transport)
    throw new CvsError(
      'insecure',
      `${transport} Check eforms.environment and eforms.customUrls.cvs.`,
      false,
      undefined,
      {
        origin,
      },
    );
  if (!o.apiKey) throw new CvsError('missing-key', `No API key is set: ${SET_KEY_HINT}.`, false);
  if (o.signal?.aborted) throw cancelled(origin);

  let answer: Awaited<ReturnType<typeof httpRequest>>;
  try {
    answer = await httpRequest(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/xml, text/xml, application/json;q=0.5, */*;q=0.1',
        'x-api-key': o.apiKey,
      },
      body: JSON.stringify(validationRequestBody(o)),
      signal: o.signal,
      timeoutMs: o.timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
      dispatcher: o.dispatcher,
    });
  } catch (err) {
    throw fromTransport(err, origin, o.timeoutMs);
  }
  return interpret(answer.status, answer.contentType, xmlAnswerText(answer.body), origin, o.apiKey);
}

/** A transport failure as a CvsError, with the default wording the editor shows. */
export function fromTransport(err: unknown, origin: string, timeoutMs: number): CvsError {
  if (!(err instanceof TransportError)) return new CvsError('network', `${origin} cannot be reached.`, true);
  const f = err.fields;
  const retry = isTransient(err.kind);
  switch (err.kind) {
    case 'cancelled':
      return cancelled(origin);
    case 'timeout':
      return new CvsError(
        'timeout',
        `The validation service at ${origin} did not answer within ${Math.round(timeoutMs / 1000)} s: retrying later (eforms.validation.timeoutMs sets the limit).`,
        true,
        undefined,
        f,
      );
    case 'too-large':
      return new CvsError(
        'too-large',
        `The validation service at ${origin} sent an answer larger than ${MAX_ANSWER_BYTES / 1048576} MB: check eforms.environment and the CVS URL.`,
        false,
        undefined,
        f,
      );
    case 'redirect':
      return new CvsError(
        'redirect',
        `The validation service at ${origin} has moved to ${f.location}: check eforms.environment and eforms.customUrls.cvs.`,
        false,
        undefined,
        f,
      );
    case 'proxy':
      return new CvsError(
        'proxy',
        `The proxy ${f.proxy} ${f.status ? `refused the connection to ${origin} (${f.status})` : `cannot be reached (${describeNetworkReason(f.reason)})`}: check http.proxy (or HTTPS_PROXY) and http.noProxy; retrying later.`,
        retry,
        undefined,
        f,
      );
    default:
      return new CvsError(
        'network',
        `The validation service at ${origin} cannot be reached (${describeNetworkReason(f.reason)}): check the network connection and eforms.environment; retrying later.`,
        retry,
        undefined,
        f,
      );
  }
}

function interpret(
  status: number,
  contentType: string,
  text: string,
  origin: string,
  apiKey: string,
): ValidateNoticeResult {
  const said = serviceMessage(text, apiKey);
  const with_ = said ? `: ${said}` : '';
  const fields: FailureFields = { origin, status, serviceMessage: said || undefined };
  if (status === 200) {
    if (!looksLikeSvrl(text))
      throw new CvsError(
        'bad-answer',
        `The validation service at ${origin} answered with something that is not a validation report (${describeContent(contentType, text)}): check eforms.environment and the CVS URL; retrying later.`,
        true,
        status,
        fields,
      );
    return { svrl: text };
  }
  if (status === 400 && elementsNamedIn(said).length > 0)
    throw new CvsError(
      'notice-rejected',
      `The validation service refused the notice (400)${with_}.`,
      false,
      status,
      fields,
    );
  if (status === 400)
    throw new CvsError(
      'bad-request',
      `The validation service rejected the request (400)${said ? with_ : ' without saying why'}. Check eforms.validation.language, eforms.validation.mode and eforms.validation.sdkVersion (or the notice's cbc:CustomizationID).`,
      false,
      status,
      fields,
    );
  if (status === 401)
    throw new CvsError(
      'missing-key',
      `The validation service asked for an API key (401): ${SET_KEY_HINT}.`,
      false,
      status,
      fields,
    );
  if (status === 403)
    throw new CvsError(
      'forbidden',
      "The API key was refused (403): set a valid key with 'eForms: Set API Key'.",
      false,
      status,
      fields,
    );
  if (status === 408 || status === 429 || status >= 500)
    throw new CvsError(
      'server',
      `The validation service at ${origin} failed (HTTP ${status})${with_}; retrying later.`,
      true,
      status,
      fields,
    );
  throw new CvsError(
    'bad-answer',
    `The validation service at ${origin} answered HTTP ${status}${with_}: check eforms.environment and the CVS URL.`,
    false,
    status,
    fields,
  );
}

/**
 * Qualified element names (`cbc:ID`, `efac:Company`) that a service explanation mentions, in order
 * of appearance, without repeats: where a 400's explanation can be put on the notice.
 */
export function elementsNamedIn(explanation: string | undefined): string[] {
  const out: string[] = [];
  for (const m of (explanation ?? '').matchAll(/(?<![\w:.-])([A-Za-z][\w-]*:[A-Za-z_][\w.-]*)/g)) {
    const name = m[1] ?? '';
    // URLs and URNs are not element names.
    if (/^(https?|urn|file|mailto):/i.test(name)) continue;
    if (!out.includes(name)) out.push(name);
  }
  return out;
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
  return sanitizeServiceText(msg, 300, { secret: apiKey }).replace(/[.\s]+$/, '');
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

function cancelled(origin: string): CvsError {
  return new CvsError('cancelled', 'The validation request was cancelled by a newer one.', false, undefined, {
    origin,
  });
}
