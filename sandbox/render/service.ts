// Emulated TED Visualisation API, mounted under /ted: POST /ted/v3/notices/render, as TED's developer
// documentation describes it (https://docs.ted.europa.eu/api/latest/visualise.html): a JSON body
// {"file": "<base64 of the notice XML>", "language": "en", "format": "HTML" | "PDF", "summary": false},
// the key as a bearer token (`Authorization: Bearer KEY`) or, as the sandbox's other services take it,
// in X-API-Key. HTML is rendered with core/preview (the view templates of the SDK release the notice
// declares, or the newest one that has them); PDF answers 501, said in words, as no PDF path is built.
// Errors are ErrorResponse {errorCode, message, timestamp}, as the sandbox's CVS answers them. It never
// echoes the key and never lets bad input crash the sandbox.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { declaredSdkVersion, indexXml } from '../../core/notice';
import { previewSdkFor, renderHtml, renderNotice } from '../../core/preview';
import { SdkError, type SdkSources } from '../../core/sdk';
import type { SandboxContext, SandboxService } from '../context';
import { decodeBase64, readJsonObject, sendError } from '../cvs/service';
import { sendText } from '../http-kit';

export const RENDER_PATH = '/v3/notices/render';

/** The render service over the SDK releases in `sources` (`eforms sandbox --sdk-dir`, the cache). */
export function createRenderService(
  ctx: SandboxContext,
  sources: Pick<SdkSources, 'path' | 'cacheRoot'>,
): SandboxService {
  return {
    prefix: '/ted',
    async handle(req, res, path) {
      if (path !== RENDER_PATH)
        return sendError(res, 404, `No resource at ${path}: the endpoint is POST ${RENDER_PATH}.`);
      if (req.method !== 'POST')
        return sendError(res, 405, `Method ${req.method} is not allowed on ${RENDER_PATH}: use POST.`, {
          allow: 'POST',
        });
      const key = keyOf(req);
      if (key === undefined)
        return sendError(
          res,
          401,
          'No API key: send your TED developer API key as "Authorization: Bearer KEY" (or in X-API-Key).',
        );
      if (!ctx.apiKeys.has(key))
        return sendError(res, 403, 'The API key is not valid: check the key in your TED developer account.');
      await render(req, res, sources);
    },
  };
}

function keyOf(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1];
  }
  const k = req.headers['x-api-key'];
  return typeof k === 'string' && k.trim() !== '' ? k : undefined;
}

async function render(
  req: IncomingMessage,
  res: ServerResponse,
  sources: Pick<SdkSources, 'path' | 'cacheRoot'>,
): Promise<void> {
  const input = await readJsonObject(req, res, {
    shape: '{"file": "<base64 of the notice XML>", "language": "en", "format": "HTML"}',
    objectNeeded: 'The request body must be a JSON object with a "file" field.',
  });
  if (!input) return;
  if (input.file === undefined || input.file === null || input.file === '')
    return sendError(res, 400, 'The field "file" is missing: send the notice XML encoded in base64.');
  const bytes = decodeBase64(input.file);
  if (!bytes)
    return sendError(
      res,
      400,
      'The field "file" is not valid base64: encode the notice XML bytes in base64.',
    );
  const format = input.format === undefined || input.format === null ? 'PDF' : input.format;
  if (format !== 'HTML' && format !== 'PDF')
    return sendError(res, 400, 'The field "format" must be "HTML" or "PDF".');
  const language = input.language === undefined || input.language === null ? 'en' : input.language;
  if (typeof language !== 'string' || !/^[A-Za-z]{2}$/.test(language))
    return sendError(res, 400, 'The field "language" must be a two-letter language code such as "en".');
  if (input.summary !== undefined && input.summary !== null && typeof input.summary !== 'boolean')
    return sendError(res, 400, 'The field "summary" must be true or false.');
  if (format === 'PDF')
    return sendError(
      res,
      501,
      'The sandbox renders HTML only: ask for "format": "HTML" (PDF is rendered by the real TED Visualisation API).',
    );
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return sendError(res, 400, 'The notice is not UTF-8 text.');
  }
  const index = indexXml(text);
  if (index.errors.length > 0 || !index.elements[0])
    return sendError(
      res,
      400,
      `The notice is not well-formed XML: ${index.errors[0]?.message ?? 'it has no root element'}.`,
    );
  let chosen: Awaited<ReturnType<typeof previewSdkFor>>;
  try {
    chosen = await previewSdkFor(sources, { declared: declaredSdkVersion(index) });
  } catch (e) {
    if (!(e instanceof SdkError)) throw e;
    return sendError(
      res,
      500,
      'The sandbox has no eForms SDK with view templates: start it with --sdk-dir DIR.',
    );
  }
  const lang = language.toLowerCase();
  if (!chosen.sdk.languages.includes(lang))
    return sendError(
      res,
      400,
      `The language "${lang}" is not one of the SDK's: ${chosen.sdk.languages.join(', ')}.`,
    );
  const doc = renderNotice(index, chosen.sdk, {
    language: lang,
    ...(input.summary === true ? { subtype: 'summary' } : {}),
  });
  if (doc.lines.length === 0 && doc.problems.length > 0)
    return sendError(res, 400, `The notice cannot be rendered: ${doc.problems[0].message}.`);
  sendText(res, 200, renderHtml(doc), 'text/html; charset=UTF-8');
}
