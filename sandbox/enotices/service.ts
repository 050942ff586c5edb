// Emulated eNotices2, mounted under /esenders, to the letter of
// /work/shared/specs/notice-publication-api.md: both path families (/api/v2/notice/... and the earlier
// /api/notice/...), every status of both error tables reachable, errors as ExceptionBody {code, message}
// with the codes of core/enotices-messages.ts. Decisions where the spec says "not shown":
//  - Authorization is `Bearer <key>` (a bare key is accepted too). Keys in ctx.apiKeys have an account;
//    a key starting with `noaccount-` is valid without one (403; convert needs no account); anything
//    else is invalid (401). The earlier family answers 500 for all key and account problems.
//  - A submission whose validation fails ends in VALIDATION_FAILED (TED: "If CVS reports errors,
//    validation fails and the notice reaches the final status VALIDATION_FAILED") with its report;
//    its noticeId+versionId is taken, as for any stored notice, and it can never be stopped.
//  - The metadata part is read whether it comes as a file part (metadata.json) or as a plain form field
//    carrying the JSON text, as known clients send it.
//  - Submit validates with the sandbox CVS in static mode (EFORMS_SANDBOX_SUBMIT_VALIDATION_MODE=dynamic
//    changes it). SDK versions outside 1.0–1.15 (the CVS rules) are 404 "no compatible SDK version".
//  - "Procedure not found and cannot be created for this notice type": a change notice (efac:Changes)
//    whose cbc:ContractFolderID names no stored procedure, or a notice without cbc:NoticeTypeCode.
//  - Publication clock: SUBMITTED -> PUBLISHING -> PUBLISHED, one step each (the publishStepSeconds
//    option, `eforms sandbox --publish-delay`, default 120 there; else EFORMS_SANDBOX_PUBLISH_STEP_SECONDS,
//    else 5 for embedded use), derived from ctx.now() at read time; only SUBMITTED can be stopped.
//  - Search criteria are flat query parameters (`statuses` comma-separated or repeated); an unknown
//    status or a bad date is 400 CRITERIA_INVALID. Only the key's own notices are searched.
//  - The earlier family identifies a notice by its notice id in stop-publication; a notice id with
//    several stored versions is 500 SEVERAL_VERSIONS. The v2 validation-report path given a bare
//    notice id answers with the earlier family's semantics (the spec lists that path for both families).
//  - Convert takes the legacy XML as the raw request body (or as the first part of a multipart body) and
//    answers a JSON list of base64 byte arrays.
// Fault switches (POST /_sandbox/faults): enotices.key-unverifiable, enotices.cvs-unavailable,
// enotices.cvs-failed, enotices.lock-held, enotices.concurrent-update, enotices.internal-error,
// enotices.no-sdk. It never echoes an API key and never lets bad input crash the sandbox.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { INPUT_LIMITS, isBusinessId, isNoticeId, readNoticeIdentity } from '../../core/notice';
import { EnoticesCodes as C, type EnoticesCode, NOTICE_STATUSES } from '../../core/services';
import type { SandboxContext, SandboxService } from '../context';
import { parseSdkVersion, runCvsValidation, SDK_MAJOR, SDK_MAX_MINOR } from '../cvs/validator';
import { BodyTooLargeError, readBody, sendJson } from '../http-kit';
import { officialVerdict } from '../sdk-rules';
import { convertLegacyNotice } from './convert';
import { MultipartError, readMultipart } from './multipart';
import { accountOf, type NoticeStatusName, NoticeStore, type StoredNotice } from './store';

export interface EnoticesServiceOptions {
  /** Seconds per publication clock step; default from EFORMS_SANDBOX_PUBLISH_STEP_SECONDS, else 5. */
  publishStepSeconds?: number;
  /** Validation mode of submissions; default from EFORMS_SANDBOX_SUBMIT_VALIDATION_MODE, else static. */
  validationMode?: 'static' | 'dynamic';
}

type Family = 'v2' | 'legacy';
type Op = 'submit' | 'convert' | 'validation-report' | 'search' | 'stop-publication';

const MAX_NOTICE_BYTES = INPUT_LIMITS.noticeBytes.max;
/** A language tag as BCP 47 shapes it (`en`, `fr-BE`); anything else in noticeAuthorLocale is refused. */
const LOCALE = /^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*$/;
const SUBMIT_PARTS: ReadonlySet<string> = new Set(['metadata', 'notice']);
const STATUSES: readonly NoticeStatusName[] = NOTICE_STATUSES;
const SORTABLE = new Set([
  'id',
  'versionId',
  'procedureId',
  'status',
  'updatedAt',
  'submittedAt',
  'publicationDate',
  'publicationId',
  'noticeType',
  'expectedPublicationDate',
  'noticeAuthor',
]);
const EMAIL =
  /^[^\s@<>()[\]\\,;:"]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+$/;

/** Thrown inside handlers: answered as an ExceptionBody, remapped for the earlier family. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: EnoticesCode,
    message: string,
  ) {
    super(message);
  }
}

export function createEnoticesService(
  ctx: SandboxContext,
  options: EnoticesServiceOptions = {},
): SandboxService {
  const envStep = Number(process.env.EFORMS_SANDBOX_PUBLISH_STEP_SECONDS);
  const stepSeconds = options.publishStepSeconds ?? (Number.isFinite(envStep) && envStep > 0 ? envStep : 5);
  const mode =
    options.validationMode ??
    (process.env.EFORMS_SANDBOX_SUBMIT_VALIDATION_MODE === 'dynamic' ? 'dynamic' : 'static');
  const store = new NoticeStore(ctx.dataDir, Math.round(stepSeconds * 1000));
  /** Notices whose status is being changed: a second change meanwhile is 423. */
  const locks = new Set<string>();
  /** Business ids whose submission is under way: a concurrent one for the same id is 409. */
  const inFlight = new Set<string>();

  function authenticate(req: IncomingMessage, op: Op): string {
    const raw = req.headers.authorization;
    if (raw === undefined || raw.trim() === '')
      throw new Refusal(400, C.authHeaderMissing, 'Required request header Authorization is missing.');
    if (ctx.faults.has('enotices.key-unverifiable'))
      throw new Refusal(500, C.apiKeyUnverifiable, 'API key cannot currently be validated.');
    const key = raw.trim().replace(/^Bearer\s+/i, '');
    if (ctx.apiKeys.has(key)) return accountOf(key);
    if (key.startsWith('noaccount-') && key.length > 'noaccount-'.length) {
      // Converting needs no notice-system account; the other operations do.
      if (op === 'convert') return accountOf(key);
      throw new Refusal(
        403,
        C.noAccount,
        'No notice-system account exists for the identity account of this API key.',
      );
    }
    throw new Refusal(401, C.apiKeyInvalid, 'API key does not exist or is invalid.');
  }

  function reply(res: ServerResponse, family: Family, op: Op, err: Refusal): void {
    sendJson(res, legacyStatus(family, op, err.status, err.code), { code: err.code, message: err.message });
  }

  async function submit(req: IncomingMessage, res: ServerResponse, family: Family): Promise<void> {
    const account = authenticate(req, 'submit');
    let parts: Map<string, Buffer>;
    try {
      parts = await readMultipart(req, {
        partBytes: MAX_NOTICE_BYTES,
        totalBytes: INPUT_LIMITS.multipartBytes.max,
        parts: 10,
        keep: SUBMIT_PARTS,
      });
    } catch (err) {
      if (err instanceof MultipartError) {
        if (err.tooLarge) throw new Refusal(400, C.noticeInvalid, `The request was refused: ${err.message}.`);
        throw new Refusal(400, C.metadataMissing, `Metadata and notice parts are missing: ${err.message}.`);
      }
      throw err;
    }
    const metaRaw = parts.get('metadata');
    if (metaRaw === undefined)
      throw new Refusal(400, C.metadataMissing, 'Required part "metadata" is missing.');
    if (metaRaw.length > INPUT_LIMITS.metadataBytes.max)
      throw new Refusal(
        400,
        C.metadataMissing,
        `The "metadata" part is larger than ${INPUT_LIMITS.metadataBytes.max} bytes.`,
      );
    const noticeBytes = parts.get('notice');
    if (noticeBytes === undefined)
      throw new Refusal(400, C.noticeMissing, 'Required part "notice" is missing.');
    let meta: Record<string, unknown>;
    try {
      const m = JSON.parse(metaRaw.toString('utf8'));
      if (!m || typeof m !== 'object' || Array.isArray(m)) throw new Error('not an object');
      meta = m as Record<string, unknown>;
    } catch {
      throw new Refusal(400, C.metadataMissing, 'The "metadata" part is not a JSON object.');
    }
    const email = typeof meta.noticeAuthorEmail === 'string' ? meta.noticeAuthorEmail.trim() : '';
    const locale = typeof meta.noticeAuthorLocale === 'string' ? meta.noticeAuthorLocale.trim() : '';
    if (!email)
      throw new Refusal(400, C.authorEmailMissing, 'noticeAuthorEmail is missing from the metadata.');
    if (!locale)
      throw new Refusal(400, C.authorLocaleMissing, 'noticeAuthorLocale is missing from the metadata.');
    if (locale.length > INPUT_LIMITS.localeChars.max || !LOCALE.test(locale))
      throw new Refusal(
        400,
        C.authorLocaleMissing,
        `noticeAuthorLocale "${printable(locale)}" is not a language code such as en or fr-BE (at most ${INPUT_LIMITS.localeChars.max} characters).`,
      );
    if (email.length > INPUT_LIMITS.emailChars.max || !EMAIL.test(email))
      throw new Refusal(400, C.authorEmailInvalid, 'noticeAuthorEmail is not a valid e-mail address.');
    if (noticeBytes.length === 0 || noticeBytes.toString('utf8').trim() === '')
      throw new Refusal(400, C.noticeEmpty, 'The notice is empty.');
    const read = readNoticeIdentity(noticeBytes);
    if (!read.ok)
      throw new Refusal(400, read.reason === 'empty' ? C.noticeEmpty : C.noticeInvalid, read.problem);
    const id = read.identity;
    const sdk = parseSdkVersion(id.customizationId);
    if (ctx.faults.has('enotices.no-sdk') || !sdk || sdk.major !== SDK_MAJOR || sdk.minor > SDK_MAX_MINOR)
      throw new Refusal(
        404,
        C.sdkNotSupported,
        `No compatible SDK version found for "${printable(id.customizationId)}": supported are eforms-sdk-${SDK_MAJOR}.0 to eforms-sdk-${SDK_MAJOR}.${SDK_MAX_MINOR}.`,
      );
    if (!id.businessId)
      throw new Refusal(400, C.noticeInvalid, `The notice is invalid: ${id.businessIdProblem}`);
    if (!id.procedureId)
      throw new Refusal(400, C.procedureIdMissing, 'The procedure id (cbc:ContractFolderID) is missing.');
    if (!id.noticeType || (id.isChange && !store.hasProcedure(id.procedureId)))
      throw new Refusal(
        400,
        C.procedureNotFound,
        `Procedure ${printable(id.procedureId)} was not found and cannot be created for notice type "${printable(id.noticeType)}".`,
      );
    const bid = id.businessId.toLowerCase();
    if (store.has(bid))
      throw new Refusal(
        400,
        C.noticeAlreadyExists,
        `A notice with noticeId ${id.noticeId} and versionId ${id.versionId} already exists.`,
      );
    if (ctx.faults.has('enotices.concurrent-update') || inFlight.has(bid))
      throw new Refusal(
        409,
        C.concurrentUpdate,
        'Multiple objects were created or updated at the same time.',
      );
    if (ctx.faults.has('enotices.cvs-unavailable'))
      throw new Refusal(500, C.cvsUnavailable, 'CVS service is unavailable.');
    if (ctx.faults.has('enotices.cvs-failed'))
      throw new Refusal(500, C.cvsFailed, 'CVS could not execute validation.');
    inFlight.add(bid);
    try {
      const own = runCvsValidation(noticeBytes, { validationMode: mode, now: ctx.now() });
      if (!own.ok) throw new Refusal(400, C.noticeInvalid, `The notice is invalid: ${own.message}`);
      // With an SDK, the official rules judge, as the real eNotices2's CVS does.
      const official = await officialVerdict(
        ctx,
        noticeBytes,
        mode === 'dynamic' ? 'dynamic' : 'static',
      ).catch(() => {
        // The rules did not finish (the sandbox's time budget): as the real service says it.
        throw new Refusal(500, C.cvsFailed, 'CVS could not execute validation.');
      });
      const cvs = official ?? own;
      const now = ctx.now();
      const success = cvs.errors === 0;
      const rec: StoredNotice = {
        businessId: bid,
        id: id.noticeId.toLowerCase(),
        versionId: id.versionId,
        procedureId: id.procedureId,
        account,
        noticeAuthor: email,
        noticeAuthorLocale: locale,
        noticeType: id.noticeType,
        legalBasis: id.legalBasis,
        languages: id.languages,
        stored: success ? 'SUBMITTED' : 'VALIDATION_FAILED',
        submittedAt: now,
        updatedAt: now,
        seq: store.nextSeq(),
        errors: cvs.errors,
        warnings: cvs.warnings,
      };
      await store.create(rec, noticeBytes, cvs.svrl);
      const reportUrl = `${ctx.origin}/esenders/api/v2/notice/notices/${bid}/validation-report`;
      sendJson(
        res,
        201,
        family === 'legacy' ? { cvsLink: reportUrl, success } : { validationReportUrl: reportUrl, success },
      );
    } finally {
      inFlight.delete(bid);
    }
  }

  async function convert(req: IncomingMessage, res: ServerResponse): Promise<void> {
    authenticate(req, 'convert');
    let body: Buffer;
    if (/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) {
      let parts: Map<string, Buffer>;
      try {
        parts = await readMultipart(req, {
          partBytes: MAX_NOTICE_BYTES,
          totalBytes: INPUT_LIMITS.multipartBytes.max,
          parts: 4,
        });
      } catch (err) {
        if (err instanceof MultipartError)
          throw new Refusal(400, C.requestInvalid, `The request is invalid: ${err.message}.`);
        throw err;
      }
      body = parts.get('notice') ?? parts.get('file') ?? [...parts.values()][0] ?? Buffer.alloc(0);
    } else {
      try {
        body = await readBody(req, MAX_NOTICE_BYTES);
      } catch (err) {
        if (err instanceof BodyTooLargeError)
          throw new Refusal(400, C.requestInvalid, 'The legacy notice is too large.');
        throw err;
      }
    }
    const r = convertLegacyNotice(body, { now: ctx.now() });
    if (!r.ok)
      throw new Refusal(400, C.requestInvalid, `The request body is incomplete or invalid: ${r.problem}`);
    // A list of byte arrays, as Jackson writes byte[]: base64 strings. Split so clients must join them.
    const bytes = Buffer.from(r.xml, 'utf8');
    const chunks: string[] = [];
    for (let i = 0; i < bytes.length; i += 4096) chunks.push(bytes.subarray(i, i + 4096).toString('base64'));
    sendJson(res, 200, chunks);
  }

  /** A stored notice of this account by business id, or (earlier family) by notice id. */
  function find(account: string, id: string, byNoticeId: boolean): StoredNotice {
    if (byNoticeId && isNoticeId(id)) {
      const versions = store.versionsOf(id).filter((n) => n.account === account);
      if (versions.length === 0) throw new Refusal(404, C.noticeNotFound, `Notice ${id} not found.`);
      if (versions.length > 1)
        throw new Refusal(500, C.severalVersions, `Several versions of notice ${id} exist.`);
      return versions[0];
    }
    const rec = store.get(id.toLowerCase());
    if (!rec || rec.account !== account)
      throw new Refusal(404, C.noticeNotFound, `Notice ${printable(id)} not found.`);
    return rec;
  }

  async function report(
    req: IncomingMessage,
    res: ServerResponse,
    id: string,
    family: Family,
  ): Promise<void> {
    const account = authenticate(req, 'validation-report');
    if (family === 'v2' && !isBusinessId(id))
      throw new Refusal(400, C.invalidBusinessId, `Invalid business id "${printable(id)}".`);
    const rec = find(account, id, family === 'legacy');
    const svrl = await store.svrl(rec.businessId);
    if (svrl === undefined)
      throw new Refusal(404, C.reportNotFound, `No validation report found for notice ${rec.businessId}.`);
    const data = Buffer.from(svrl, 'utf8');
    res.writeHead(200, {
      'content-type': 'application/xml; charset=UTF-8',
      'content-length': String(data.length),
    });
    res.end(data);
  }

  async function stop(req: IncomingMessage, res: ServerResponse, id: string, family: Family): Promise<void> {
    const account = authenticate(req, 'stop-publication');
    if (family === 'v2' && !isBusinessId(id))
      throw new Refusal(400, C.invalidBusinessId, `Invalid business id "${printable(id)}".`);
    if (family === 'legacy' && !isBusinessId(id) && !isNoticeId(id))
      throw new Refusal(404, C.noticeNotFound, `Notice ${printable(id)} not found.`);
    const rec = find(account, id, family === 'legacy');
    if (locks.has(rec.businessId) || ctx.faults.has('enotices.lock-held'))
      throw new Refusal(423, C.noticeLocked, 'Notice is already locked, lock cannot be acquired.');
    const status = store.statusAt(rec, ctx.now());
    if (status !== 'SUBMITTED')
      throw new Refusal(
        403,
        C.noticeNotSubmitted,
        `Notice is in ${status} status, not SUBMITTED: publication cannot be stopped.`,
      );
    locks.add(rec.businessId);
    try {
      if (ctx.faults.has('enotices.internal-error'))
        throw new Refusal(500, C.statusUpdateFailed, 'Internal error while updating the notice status.');
      const now = ctx.now();
      try {
        await store.update(rec, { stored: 'STOPPED', stoppedAt: now, updatedAt: now });
      } catch {
        throw new Refusal(500, C.statusUpdateFailed, 'Internal error while updating the notice status.');
      }
    } finally {
      locks.delete(rec.businessId);
    }
    sendJson(res, 200, { id: rec.id, versionId: rec.versionId, status: 'STOPPED' });
  }

  async function search(req: IncomingMessage, res: ServerResponse, url: URL, family: Family): Promise<void> {
    const account = authenticate(req, 'search');
    const q = url.searchParams;
    const get = (k: string) => (q.get(k) ?? q.get(`searchNoticesEsentool.${k}`) ?? '').trim();
    const int = (k: string, d: number, min: number) => {
      const v = get(k);
      if (v === '') return d;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min)
        throw new Refusal(400, C.criteriaInvalid, `${k} must be an integer ≥ ${min}.`);
      return n;
    };
    const page = int('page', 0, 0);
    const size = Math.min(int('size', 20, 1), 1000);
    const date = (k: string) => {
      const v = get(k);
      if (v === '') return undefined;
      const t = Date.parse(v);
      if (Number.isNaN(t))
        throw new Refusal(400, C.criteriaInvalid, `${k} "${printable(v)}" is not an ISO 8601 date-time.`);
      return t;
    };
    const statusList = [...q.getAll('statuses'), ...q.getAll('searchNoticesEsentool.statuses')]
      .flatMap((s) => s.split(','))
      .map((s) => s.trim().toUpperCase())
      .filter(Boolean);
    for (const s of statusList)
      if (!(STATUSES as readonly string[]).includes(s))
        throw new Refusal(400, C.criteriaInvalid, `statuses: "${printable(s)}" is not a notice status.`);
    const dir = get('sortDirection').toUpperCase();
    if (dir && dir !== 'ASC' && dir !== 'DESC')
      throw new Refusal(400, C.criteriaInvalid, 'sortDirection must be ASC or DESC.');
    const crit = {
      id: get('id').toLowerCase(),
      versionId: get('versionId'),
      submittedAfter: date('submittedAfter'),
      submittedBefore: date('submittedBefore'),
      publishedAfter: date('publishedAfter'),
      publishedBefore: date('publishedBefore'),
      author: family === 'v2' ? get('noticeAuthor').toLowerCase() : '',
    };
    const now = ctx.now();
    const hits = store.all().filter((n) => {
      if (n.account !== account) return false;
      if (crit.id && n.id !== crit.id) return false;
      if (crit.versionId && n.versionId !== crit.versionId) return false;
      if (crit.submittedAfter !== undefined && n.submittedAt < crit.submittedAfter) return false;
      if (crit.submittedBefore !== undefined && n.submittedAt > crit.submittedBefore) return false;
      if (crit.publishedAfter !== undefined || crit.publishedBefore !== undefined) {
        const p = store.publishedAt(n, now);
        if (p === undefined) return false;
        if (crit.publishedAfter !== undefined && p < crit.publishedAfter) return false;
        if (crit.publishedBefore !== undefined && p > crit.publishedBefore) return false;
      }
      if (crit.author && n.noticeAuthor.toLowerCase() !== crit.author) return false;
      if (statusList.length && !statusList.includes(store.statusAt(n, now))) return false;
      return true;
    });
    const views = hits.map((n) => ({
      bid: n.businessId,
      v: store.view(n, now, family) as Record<string, unknown>,
    }));
    const prop = get('sortProperty');
    const key = SORTABLE.has(prop) ? prop : 'submittedAt';
    const sign = (dir || (SORTABLE.has(prop) ? 'ASC' : 'DESC')) === 'ASC' ? 1 : -1;
    views.sort((a, b) => {
      const x = String(a.v[key] ?? '');
      const y = String(b.v[key] ?? '');
      return (x < y ? -1 : x > y ? 1 : 0) * sign || a.bid.localeCompare(b.bid);
    });
    sendJson(res, 200, {
      totalSize: views.length,
      content: views.slice(page * size, page * size + size).map((x) => x.v),
    });
  }

  return {
    prefix: '/esenders',
    async handle(req, res, path, url) {
      const route = routeOf(req.method ?? 'GET', path);
      if (!route)
        return sendJson(res, 404, {
          code: 'NOT_FOUND',
          message: `No eNotices2 resource at ${printable(path)}.`,
        });
      if ('allow' in route)
        return sendJson(
          res,
          405,
          { code: 'METHOD_NOT_ALLOWED', message: `Use ${route.allow} on ${printable(path)}.` },
          { allow: route.allow },
        );
      try {
        switch (route.op) {
          case 'submit':
            return await submit(req, res, route.family);
          case 'convert':
            return await convert(req, res);
          case 'validation-report':
            return await report(req, res, route.id, route.family);
          case 'search':
            return await search(req, res, url, route.family);
          case 'stop-publication':
            return await stop(req, res, route.id, route.family);
        }
      } catch (err) {
        if (!(err instanceof Refusal)) throw err;
        if (!req.complete) req.resume();
        reply(res, route.family, route.op, err);
      }
    },
  };
}

/** The earlier family knows fewer statuses: anything its table does not list for the operation is 500. */
function legacyStatus(family: Family, op: Op, status: number, code: EnoticesCode): number {
  if (family === 'v2') return status;
  // Key and account problems are 500 whatever the operation; "cannot be stopped" is 403, locked included.
  if (code === C.authHeaderMissing || code === C.apiKeyInvalid || code === C.noAccount) return 500;
  if (op === 'stop-publication' && status === 423) return 403;
  const allowed: Record<Op, number[]> = {
    submit: [404],
    'stop-publication': [403, 404],
    'validation-report': [404],
    search: [],
    convert: [400, 401],
  };
  return allowed[op].includes(status) ? status : 500;
}

type Route = { op: Op; family: Family; id: string } | { allow: string };

function routeOf(method: string, path: string): Route | undefined {
  const m =
    /^\/api\/(v2\/)?notice\/notices\/(submit|convert|search-esentool|([^/]+)\/(validation-report|stop-publication-esentool))$/.exec(
      path,
    );
  if (!m) return undefined;
  const v2 = m[1] !== undefined;
  let id = '';
  try {
    id = m[3] ? decodeURIComponent(m[3]) : '';
  } catch {
    id = m[3] ?? '';
  }
  const want = (op: Op, verb: string, family: Family): Route =>
    method === verb ? { op, family, id } : { allow: verb };
  switch (m[2]) {
    case 'submit':
      return want('submit', 'POST', v2 ? 'v2' : 'legacy');
    case 'convert':
      return v2 ? want('convert', 'POST', 'v2') : undefined;
    case 'search-esentool':
      return want('search', 'GET', v2 ? 'v2' : 'legacy');
  }
  if (m[4] === 'validation-report') {
    // The spec lists this path (v2) for both families; a bare notice id is the earlier family's form.
    if (!v2) return undefined;
    return want('validation-report', 'GET', isNoticeId(id) ? 'legacy' : 'v2');
  }
  return want('stop-publication', 'POST', v2 ? 'v2' : 'legacy');
}

function printable(v: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must go.
  const clean = v.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return clean.length > 80 ? `${clean.slice(0, 77)}...` : clean;
}
