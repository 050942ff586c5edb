// The message table of eNotices2 errors: one row per (API family, operation, HTTP status, ExceptionBody
// code) of the publication spec's error tables, each telling the user what to do, plus a fallback per
// (operation, status) that covers every condition sharing that status when the answer has no code.
// The `code` values are the ones the sandbox returns (the real service's codes are not published).
// Pure data and lookup: no I/O, no `vscode` import.

import type { TransportKind } from '../http';

export type ApiFamily = 'v2' | 'legacy';

export type EnoticesOperation = 'submit' | 'convert' | 'validation-report' | 'search' | 'stop-publication';

/** What kind of failure, so callers can react (offer to set a key, refresh the tree, retry later). */
export type EnoticesErrorKind =
  /** Key missing, invalid or without an eNotices2 account: the user must act on the key. */
  | 'auth'
  /** The request was refused because of what it carried (notice, metadata, id): fix and retry. */
  | 'invalid'
  | 'not-found'
  /** The notice is not in a state that allows the operation (not SUBMITTED). */
  | 'state'
  /** Submit: a notice with the same notice id and version exists (it may be this very submission, sent before). */
  | 'already-exists'
  /** Locked or concurrently updated: try again shortly. */
  | 'busy'
  | 'rate-limited'
  /** The service failed (5xx): try again later. */
  | 'service'
  /** No connection: refused, DNS, reset. */
  | 'network'
  /** Cancelled, timed out, failed at the proxy, redirected elsewhere, answer too large (core/http). */
  | Exclude<TransportKind, 'network'>
  /** An answer that is not what the contract promises. */
  | 'protocol'
  /** Refused locally before sending (insecure URL, malformed business id). */
  | 'local';

/** ExceptionBody `code` values the sandbox sends (and the client understands). */
export const EnoticesCodes = {
  authHeaderMissing: 'AUTH_HEADER_MISSING',
  apiKeyInvalid: 'API_KEY_INVALID',
  apiKeyUnverifiable: 'API_KEY_UNVERIFIABLE',
  noAccount: 'NO_ACCOUNT',
  invalidBusinessId: 'INVALID_BUSINESS_ID',
  noticeNotFound: 'NOTICE_NOT_FOUND',
  reportNotFound: 'REPORT_NOT_FOUND',
  severalVersions: 'SEVERAL_VERSIONS',
  noticeNotSubmitted: 'NOTICE_NOT_SUBMITTED',
  noticeLocked: 'NOTICE_LOCKED',
  statusUpdateFailed: 'STATUS_UPDATE_FAILED',
  metadataMissing: 'METADATA_MISSING',
  noticeMissing: 'NOTICE_MISSING',
  authorEmailMissing: 'AUTHOR_EMAIL_MISSING',
  authorLocaleMissing: 'AUTHOR_LOCALE_MISSING',
  noticeAlreadyExists: 'NOTICE_ALREADY_EXISTS',
  authorEmailInvalid: 'AUTHOR_EMAIL_INVALID',
  noticeEmpty: 'NOTICE_EMPTY',
  noticeInvalid: 'NOTICE_INVALID',
  procedureNotFound: 'PROCEDURE_NOT_FOUND',
  procedureIdMissing: 'PROCEDURE_ID_MISSING',
  sdkNotSupported: 'SDK_NOT_SUPPORTED',
  concurrentUpdate: 'CONCURRENT_UPDATE',
  cvsUnavailable: 'CVS_UNAVAILABLE',
  cvsFailed: 'CVS_FAILED',
  requestInvalid: 'REQUEST_INVALID',
  criteriaInvalid: 'CRITERIA_INVALID',
} as const;
export type EnoticesCode = (typeof EnoticesCodes)[keyof typeof EnoticesCodes];

export interface MessageRow {
  family: ApiFamily;
  operation: EnoticesOperation;
  status: number;
  /** Absent: the fallback for this status, covering all its conditions. */
  code?: EnoticesCode;
  kind: EnoticesErrorKind;
  message: string;
}

const C = EnoticesCodes;

export const OPERATION_LABELS: Record<EnoticesOperation, string> = {
  submit: 'Submitting the notice',
  convert: 'Converting the legacy notice',
  'validation-report': 'Fetching the validation report',
  search: 'Searching notices',
  'stop-publication': 'Stopping publication',
};

const M = {
  headerMissing:
    'no API key was sent (Authorization header missing): set your eNotices2 API key ("eForms: Set API Key", or EFORMS_API_KEY for the command line).',
  keyInvalid:
    'the API key does not exist or is invalid: check that you copied the whole key and that it belongs to this environment (preview keys do not work in production), or create a new one in the TED Developer Portal.',
  keyUnverifiable: 'eNotices2 cannot validate API keys at the moment: try again in a few minutes.',
  noAccount:
    'this API key has no eNotices2 account: log in once to eNotices2 with the same EU Login, then try again.',
  invalidBusinessId:
    'the business id is not valid: it is the notice id followed by - and the two-digit version, e.g. 52fe3748-f475-4381-9dbf-31ebb08889e8-01.',
  noticeNotFound:
    'no notice with this id was found for your account: check the id and its version, and that the environment is the one you submitted to.',
  reportNotFound:
    'the notice exists but its validation report was not found: try again in a moment; if it stays missing, submit a new version of the notice.',
} as const;

function rows(): MessageRow[] {
  const r: MessageRow[] = [];
  const add = (
    family: ApiFamily,
    operation: EnoticesOperation,
    status: number,
    code: EnoticesCode | undefined,
    kind: EnoticesErrorKind,
    message: string,
  ) => r.push({ family, operation, status, code, kind, message });

  // --- /api/v2 family: authentication rows, per operation as the error table lists them.
  const all: EnoticesOperation[] = ['submit', 'convert', 'validation-report', 'search', 'stop-publication'];
  for (const op of all) {
    add('v2', op, 400, C.authHeaderMissing, 'auth', M.headerMissing);
    add('v2', op, 401, C.apiKeyInvalid, 'auth', M.keyInvalid);
    add('v2', op, 401, undefined, 'auth', M.keyInvalid);
    add('v2', op, 500, C.apiKeyUnverifiable, 'service', M.keyUnverifiable);
    if (op !== 'convert') add('v2', op, 403, C.noAccount, 'auth', M.noAccount);
  }

  // convert
  add(
    'v2',
    'convert',
    400,
    C.requestInvalid,
    'invalid',
    'the legacy notice is incomplete or invalid: give a complete TED XML notice (TED_EXPORT or an F01–F25 form) and convert again.',
  );
  add(
    'v2',
    'convert',
    400,
    undefined,
    'invalid',
    'eNotices2 refused the request (400): either no API key was sent (set it with "eForms: Set API Key" or EFORMS_API_KEY) or the legacy notice is incomplete or invalid (give a complete TED XML notice).',
  );
  add('v2', 'convert', 500, undefined, 'service', M.keyUnverifiable);

  // validation-report
  add('v2', 'validation-report', 400, C.invalidBusinessId, 'invalid', M.invalidBusinessId);
  add(
    'v2',
    'validation-report',
    400,
    undefined,
    'invalid',
    'eNotices2 refused the request (400): either no API key was sent (set it with "eForms: Set API Key", or EFORMS_API_KEY for the command line) or the business id is not valid (notice id, -, two-digit version).',
  );
  add('v2', 'validation-report', 403, undefined, 'auth', M.noAccount);
  add('v2', 'validation-report', 404, C.noticeNotFound, 'not-found', M.noticeNotFound);
  add('v2', 'validation-report', 404, C.reportNotFound, 'not-found', M.reportNotFound);
  add(
    'v2',
    'validation-report',
    404,
    undefined,
    'not-found',
    'the notice or its validation report was not found: check the business id and the environment; the report of a notice submitted seconds ago may need a moment.',
  );
  add('v2', 'validation-report', 500, undefined, 'service', M.keyUnverifiable);

  // search
  add(
    'v2',
    'search',
    400,
    C.criteriaInvalid,
    'invalid',
    'the search criteria are invalid: statuses must be NoticeStatus values (SUBMITTED, PUBLISHED…), dates ISO 8601 date-times, page ≥ 0 and size ≥ 1.',
  );
  add(
    'v2',
    'search',
    400,
    undefined,
    'auth',
    'eNotices2 refused the search (400): no API key was sent (set it with "eForms: Set API Key" or EFORMS_API_KEY), or a criterion is invalid.',
  );
  add('v2', 'search', 403, undefined, 'auth', M.noAccount);
  add('v2', 'search', 500, undefined, 'service', M.keyUnverifiable);

  // stop-publication
  add('v2', 'stop-publication', 400, C.invalidBusinessId, 'invalid', M.invalidBusinessId);
  add(
    'v2',
    'stop-publication',
    400,
    undefined,
    'invalid',
    'eNotices2 refused the request (400): either no API key was sent (set it with "eForms: Set API Key", or EFORMS_API_KEY for the command line) or the business id is not valid (notice id, -, two-digit version).',
  );
  const notSubmitted =
    'publication can be stopped only while the notice is SUBMITTED: this one is already publishing, published or stopped. Refresh My Notices to see its status.';
  add('v2', 'stop-publication', 403, C.noticeNotSubmitted, 'state', notSubmitted);
  add(
    'v2',
    'stop-publication',
    403,
    undefined,
    'state',
    'eNotices2 refused to stop it (403): either the notice is no longer SUBMITTED (refresh My Notices) or this API key has no eNotices2 account (log in once to eNotices2 with the same EU Login).',
  );
  add('v2', 'stop-publication', 404, C.noticeNotFound, 'not-found', M.noticeNotFound);
  add('v2', 'stop-publication', 404, undefined, 'not-found', M.noticeNotFound);
  const locked = 'the notice is locked by another change in progress: try again in a few seconds.';
  add('v2', 'stop-publication', 423, C.noticeLocked, 'busy', locked);
  add('v2', 'stop-publication', 423, undefined, 'busy', locked);
  const updateFailed =
    'eNotices2 had an internal error while updating the notice status: refresh My Notices to see whether it was stopped, and try again if it was not.';
  add('v2', 'stop-publication', 500, C.statusUpdateFailed, 'service', updateFailed);
  add(
    'v2',
    'stop-publication',
    500,
    undefined,
    'service',
    'eNotices2 failed (500): either it cannot validate API keys at the moment or it failed while updating the notice status. Refresh My Notices to see whether the notice was stopped, and try again in a few minutes if not.',
  );

  // submit
  const submit400: [EnoticesCode, string][] = [
    [
      C.metadataMissing,
      'the submission carried no metadata: give the author e-mail and locale (--email, --locale) and submit again.',
    ],
    [C.noticeMissing, 'the submission carried no notice file: submit again with the notice XML.'],
    [
      C.authorEmailMissing,
      'the notice author e-mail is missing: give the e-mail of the person responsible for the notice (--email) and submit again.',
    ],
    [
      C.authorLocaleMissing,
      'the notice author locale is missing: give a language code such as en (--locale) and submit again.',
    ],
    [
      C.noticeAlreadyExists,
      'a notice with the same notice id and version already exists: increase cbc:VersionID (e.g. 01 -> 02), or give a new notice a new cbc:ID, then submit again.',
    ],
    [
      C.authorEmailInvalid,
      'the notice author e-mail is not valid: correct it (name@example.org) and submit again.',
    ],
    [C.noticeEmpty, 'the notice is empty: save the file with its content and submit again.'],
    [
      C.noticeInvalid,
      'the notice cannot be parsed or is invalid: fix the XML errors that validation shows, then submit again.',
    ],
    [
      C.procedureNotFound,
      'the procedure in cbc:ContractFolderID was not found and cannot be created for this notice type: use the procedure id of the earlier notice this one changes, or check cbc:NoticeTypeCode.',
    ],
    [
      C.procedureIdMissing,
      'the notice has no procedure id: fill cbc:ContractFolderID (a UUID identifying the procedure) and submit again.',
    ],
  ];
  // NOTICE_ALREADY_EXISTS is about what the service holds, not about the request's shape.
  const submitKind = (code: EnoticesCode) => (code === C.noticeAlreadyExists ? 'already-exists' : 'invalid');
  for (const [code, msg] of submit400) add('v2', 'submit', 400, code, submitKind(code), msg);
  add(
    'v2',
    'submit',
    400,
    undefined,
    'invalid',
    'eNotices2 refused the submission (400): check that the API key is set, the author e-mail and locale are given and valid, the notice is well-formed and has cbc:ContractFolderID, and that its cbc:ID/cbc:VersionID pair is new (else increase cbc:VersionID); then submit again.',
  );
  add('v2', 'submit', 403, undefined, 'auth', M.noAccount);
  const noSdk =
    'no compatible SDK version found: eNotices2 does not accept the eForms SDK version in cbc:CustomizationID; change it to a supported eforms-sdk-1.x version and submit again.';
  add('v2', 'submit', 404, C.sdkNotSupported, 'invalid', noSdk);
  add('v2', 'submit', 404, undefined, 'invalid', noSdk);
  const concurrent =
    'several changes were made to this notice at the same time: wait a few seconds, check My Notices, and submit again only if the notice is not there.';
  add('v2', 'submit', 409, C.concurrentUpdate, 'busy', concurrent);
  add('v2', 'submit', 409, undefined, 'busy', concurrent);
  add(
    'v2',
    'submit',
    500,
    C.cvsUnavailable,
    'service',
    'the validation service (CVS) behind eNotices2 is unavailable, so the notice was not submitted: try again later.',
  );
  add(
    'v2',
    'submit',
    500,
    C.cvsFailed,
    'service',
    'the validation service (CVS) could not execute validation of this notice, so it was not submitted: validate it locally first, then try again later.',
  );
  add(
    'v2',
    'submit',
    500,
    undefined,
    'service',
    'eNotices2 failed (500): it cannot validate API keys at the moment, or its validation service (CVS) is unavailable or could not validate the notice. Check My Notices before submitting again, in a few minutes.',
  );

  // --- Earlier family /api/notice: key and account problems are 500.
  const legacyOps: EnoticesOperation[] = ['submit', 'validation-report', 'search', 'stop-publication'];
  for (const op of legacyOps) {
    add('legacy', op, 500, C.authHeaderMissing, 'auth', M.headerMissing);
    add('legacy', op, 500, C.apiKeyInvalid, 'auth', M.keyInvalid);
    add('legacy', op, 500, C.noAccount, 'auth', M.noAccount);
    add('legacy', op, 500, C.apiKeyUnverifiable, 'service', M.keyUnverifiable);
  }
  add('legacy', 'validation-report', 404, C.noticeNotFound, 'not-found', M.noticeNotFound);
  add('legacy', 'validation-report', 404, C.reportNotFound, 'not-found', M.reportNotFound);
  add(
    'legacy',
    'validation-report',
    404,
    undefined,
    'not-found',
    'the notice or its validation report was not found: check the notice id and the environment.',
  );
  const severalVersions =
    'several versions of this notice id exist and the earlier API cannot tell them apart: set eforms.publication.apiFamily to v2 (or drop --legacy) and use the full business id.';
  add('legacy', 'validation-report', 500, C.severalVersions, 'invalid', severalVersions);
  const legacy500 =
    'eNotices2 (earlier API) failed (500): the API key is missing or invalid, or has no eNotices2 account (log in once to eNotices2 with the same EU Login), or several versions of the notice id exist (use the v2 API family). Check the key, then try again.';
  add('legacy', 'validation-report', 500, undefined, 'service', legacy500);
  add('legacy', 'search', 500, undefined, 'service', legacy500);
  add(
    'legacy',
    'stop-publication',
    403,
    C.noticeNotSubmitted,
    'state',
    'the notice publication cannot be stopped: only a SUBMITTED notice can be, and this one is already publishing, published or stopped. Refresh My Notices.',
  );
  add(
    'legacy',
    'stop-publication',
    403,
    C.noticeLocked,
    'busy',
    `publication cannot be stopped now: ${locked}`,
  );
  add(
    'legacy',
    'stop-publication',
    403,
    undefined,
    'state',
    'the notice publication cannot be stopped: it is no longer SUBMITTED or another change holds it. Refresh My Notices and try again if it is still SUBMITTED.',
  );
  add('legacy', 'stop-publication', 404, C.noticeNotFound, 'not-found', M.noticeNotFound);
  add('legacy', 'stop-publication', 404, undefined, 'not-found', M.noticeNotFound);
  add('legacy', 'stop-publication', 500, C.severalVersions, 'invalid', severalVersions);
  add('legacy', 'stop-publication', 500, C.statusUpdateFailed, 'service', updateFailed);
  add('legacy', 'stop-publication', 500, undefined, 'service', legacy500);
  add('legacy', 'submit', 404, C.sdkNotSupported, 'invalid', noSdk);
  add('legacy', 'submit', 404, undefined, 'invalid', noSdk);
  // The earlier family reports every refused submission as 500; the code still tells them apart.
  for (const [code, msg] of submit400) add('legacy', 'submit', 500, code, submitKind(code), msg);
  add('legacy', 'submit', 500, C.concurrentUpdate, 'busy', concurrent);
  add(
    'legacy',
    'submit',
    500,
    C.cvsUnavailable,
    'service',
    'the validation service (CVS) is unavailable, so the notice was not submitted: try again later.',
  );
  add(
    'legacy',
    'submit',
    500,
    C.cvsFailed,
    'service',
    'the validation service (CVS) could not validate the notice, so it was not submitted: try again later.',
  );
  add(
    'legacy',
    'submit',
    500,
    undefined,
    'service',
    'eNotices2 (earlier API) failed (500): the API key is missing or invalid or has no eNotices2 account (log in once to eNotices2 with the same EU Login), or the notice cannot be created (XML errors), or a notice with the same cbc:ID and cbc:VersionID exists (increase cbc:VersionID). Check these, then try again.',
  );
  // The earlier family has no convert; the client sends convert to the v2 path in both families.
  return r;
}

export const MESSAGE_TABLE: readonly MessageRow[] = rows();

/** Advice for statuses no table row names (429, 502, 503…). */
function generic(status: number): { kind: EnoticesErrorKind; message: string } {
  if (status === 429)
    return {
      kind: 'rate-limited',
      message: 'eNotices2 received too many requests: wait a minute, then try again.',
    };
  if (status === 502 || status === 503 || status === 504)
    return {
      kind: 'service',
      message: `eNotices2 is unavailable right now (HTTP ${status}): try again in a few minutes.`,
    };
  if (status >= 500)
    return { kind: 'service', message: `eNotices2 failed (HTTP ${status}): try again in a few minutes.` };
  if (status === 401 || status === 403)
    return {
      kind: 'auth',
      message: `eNotices2 refused the API key (HTTP ${status}): check the key and the environment ("eForms: Set API Key").`,
    };
  if (status === 404)
    return {
      kind: 'not-found',
      message: 'eNotices2 answered 404: check the eNotices2 URL (it ends in /esenders) and the id.',
    };
  return {
    kind: 'invalid',
    message: `eNotices2 refused the request (HTTP ${status}): check what you sent and try again.`,
  };
}

/**
 * The row for an error answer: exact code first, then the same code at another status of this
 * operation (a service that moves a condition between statuses still gets the right advice), then the
 * status fallback, then the generic advice for the status.
 */
export function explainStatus(
  family: ApiFamily,
  operation: EnoticesOperation,
  status: number,
  code?: string,
): { kind: EnoticesErrorKind; message: string; row?: MessageRow } {
  const mine = MESSAGE_TABLE.filter((r) => r.family === family && r.operation === operation);
  const exact = code ? mine.find((r) => r.status === status && r.code === code) : undefined;
  if (exact) return { kind: exact.kind, message: exact.message, row: exact };
  const byStatus = mine.find((r) => r.status === status && r.code === undefined);
  const byCode = code ? mine.find((r) => r.code === code) : undefined;
  const pick = byCode ?? byStatus;
  if (pick) return { kind: pick.kind, message: pick.message, row: pick };
  return generic(status);
}
