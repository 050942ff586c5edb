// Emulated Central Validation Service, mounted under /cvs: POST /v1/notices/validation, to the letter of
// /work/shared/specs/notice-validation-api.md, and GET /v1/version-range (not in the spec; TED's shape:
// {"minVersion": "1.0.0", "maxVersion": "1.15.0"}, the versions the sandbox's eNotices2 accepts; no key
// needed, a key that is sent must be valid). Key check first (missing 401, unknown 403), then the
// request body, then runCvsValidation (and, when the sandbox has an SDK, the official rules' report).
// Every error is an ErrorResponse {errorCode, message, timestamp}.
// It never echoes the API key and never lets bad input crash the sandbox.
//
// Fault switches (POST /_sandbox/faults {"on": [...]}), checked after the key:
//   cvs.error-500  answers 500 with an ErrorResponse (the service is down);
//   cvs.slow       holds the answer CVS_SLOW_MS milliseconds (timeout and cancellation tests);
//   cvs.non-xml    answers 200 with an HTML page instead of SVRL (a proxy or maintenance page).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { INPUT_LIMITS } from '../../core/notice';
import type { SandboxContext, SandboxService } from '../context';
import { BodyTooLargeError, readBody, sendJson, sendText } from '../http-kit';
import { SandboxBudgetError } from '../sdk-rules';
import { runCvsValidation, SDK_MAJOR, SDK_MAX_MINOR } from './validator';

export const VALIDATION_PATH = '/v1/notices/validation';
export const VERSION_RANGE_PATH = '/v1/version-range';
/** What the version range answers: the SDK versions the sandbox accepts for publication. */
export const ACCEPTED_SDK_RANGE = {
  minVersion: `${SDK_MAJOR}.0.0`,
  maxVersion: `${SDK_MAJOR}.${SDK_MAX_MINOR}.0`,
};
/** Delay of the cvs.slow fault: longer than a client's short test timeout, short enough for a test run. */
export const CVS_SLOW_MS = 4000;
/** Largest request body accepted: the base64 of a notice at the notice limit, and the options. */
const MAX_BODY = INPUT_LIMITS.cvsRequestBytes.max;

export function createCvsService(ctx: SandboxContext): SandboxService {
  const timers = new Set<NodeJS.Timeout>();
  return {
    prefix: '/cvs',
    async handle(req, res, path) {
      if (path === VERSION_RANGE_PATH) return versionRange(req, res, ctx);
      if (path !== VALIDATION_PATH)
        return sendError(res, 404, `No resource at ${path}: the endpoint is POST ${VALIDATION_PATH}.`);
      if (req.method !== 'POST') {
        return sendError(res, 405, `Method ${req.method} is not allowed on ${VALIDATION_PATH}: use POST.`, {
          allow: 'POST',
        });
      }
      const key = req.headers['x-api-key'];
      if (key === undefined || (typeof key === 'string' && key.trim() === '')) {
        return sendError(res, 401, 'The X-API-Key header is missing: send your TED developer API key in it.');
      }
      if (typeof key !== 'string' || !ctx.apiKeys.has(key)) {
        return sendError(
          res,
          403,
          'The API key in X-API-Key is not valid: check the key in your TED developer account.',
        );
      }
      if (ctx.faults.has('cvs.error-500')) {
        return sendError(res, 500, 'Internal server error (sandbox fault cvs.error-500): try again later.');
      }
      if (ctx.faults.has('cvs.slow')) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(() => {
            timers.delete(t);
            resolve();
          }, CVS_SLOW_MS);
          timers.add(t);
          res.once('close', () => {
            clearTimeout(t);
            timers.delete(t);
            resolve();
          });
        });
        if (res.destroyed || res.writableEnded) return;
      }
      if (ctx.faults.has('cvs.non-xml')) {
        await readBody(req, MAX_BODY).catch(() => undefined);
        return sendText(
          res,
          200,
          // Deliberately HTML, not XHTML (void <meta> and <br>), as a real gateway page: not well-formed XML.
          '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Service unavailable</title></head>\n<body><h1>Maintenance</h1><p>The service is temporarily unavailable.<br>Please try again later.</p></body></html>\n',
          'text/html; charset=UTF-8',
        );
      }
      await validate(req, res, ctx);
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

function versionRange(req: IncomingMessage, res: ServerResponse, ctx: SandboxContext): void {
  const key = req.headers['x-api-key'];
  if (req.method !== 'GET')
    sendError(res, 405, `Method ${req.method} is not allowed on ${VERSION_RANGE_PATH}: use GET.`, {
      allow: 'GET',
    });
  else if (typeof key === 'string' && key.trim() !== '' && !ctx.apiKeys.has(key))
    sendError(
      res,
      403,
      'The API key in X-API-Key is not valid: check the key in your TED developer account.',
    );
  else if (ctx.faults.has('cvs.error-500'))
    sendError(res, 500, 'Internal server error (sandbox fault cvs.error-500): try again later.');
  else sendJson(res, 200, ACCEPTED_SDK_RANGE);
}

/**
 * The request body as a JSON object (the CVS's and the render service's requests both are), or undefined
 * once the error is sent: 413 over the body limit, 400 when it is not JSON (`shape` says what to send) or
 * not an object (`objectNeeded` says which).
 */
export async function readJsonObject(
  req: IncomingMessage,
  res: ServerResponse,
  words: { shape: string; objectNeeded: string },
): Promise<Record<string, unknown> | undefined> {
  let raw: Buffer;
  try {
    raw = await readBody(req, MAX_BODY);
  } catch (err) {
    if (err instanceof BodyTooLargeError) {
      sendError(res, 413, `The request body is larger than ${MAX_BODY} bytes: the notice is too large.`);
      return undefined;
    }
    throw err;
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    sendError(res, 400, `The request body is not JSON: send ${words.shape}.`);
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    sendError(res, 400, words.objectNeeded);
    return undefined;
  }
  return body as Record<string, unknown>;
}

async function validate(req: IncomingMessage, res: ServerResponse, ctx: SandboxContext): Promise<void> {
  const input = await readJsonObject(req, res, {
    shape: '{"notice": "<base64 of the notice XML>", "language": "en", "validationMode": "static"}',
    objectNeeded: 'The request body must be a JSON object InputNoticeValidation with a "notice" field.',
  });
  if (!input) return;
  if (input.notice === undefined || input.notice === null || input.notice === '') {
    return sendError(res, 400, 'The field "notice" is missing: send the notice XML encoded in base64.');
  }
  const notice = decodeBase64(input.notice);
  if (!notice) {
    return sendError(
      res,
      400,
      'The field "notice" is not valid base64: encode the notice XML bytes in base64.',
    );
  }
  const result = runCvsValidation(notice, {
    language: optional(input.language),
    validationMode: optional(input.validationMode),
    eFormsSdkVersion: optional(input.eFormsSdkVersion),
    now: ctx.now(),
  });
  if (!result.ok) return sendError(res, 400, result.message);
  // With an SDK, the answer is what the real service answers: the official rules' report.
  let official: string | undefined;
  try {
    official = await ctx.sdkRules?.(notice, {
      language: typeof input.language === 'string' ? input.language : 'en',
      mode: input.validationMode === 'dynamic' ? 'dynamic' : 'static',
      sdkVersion: typeof input.eFormsSdkVersion === 'string' ? input.eFormsSdkVersion : undefined,
    });
  } catch (err) {
    // A run stopped at its time budget: one clear error naming the notice and the budget.
    if (err instanceof SandboxBudgetError) return sendError(res, 500, err.message);
    throw err;
  }
  sendText(res, 200, official ?? result.svrl, 'application/xml; charset=UTF-8');
}

/** null counts as absent; any other non-string is passed on so the validator rejects it by name. */
function optional(v: unknown): string | undefined {
  return v === null || v === undefined ? undefined : (v as string);
}

/** Strict base64 (standard alphabet, padding optional, line breaks allowed, as Java's MIME decoder). */
export function decodeBase64(v: unknown): Buffer | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.replace(/[\r\n]/g, '');
  if (s.length === 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 === 1) return undefined;
  return Buffer.from(s, 'base64');
}

export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { errorCode: status, message, timestamp: new Date().toISOString() }, headers);
}
