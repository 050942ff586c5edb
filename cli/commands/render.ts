// `eforms render NOTICE.xml... [--lang en] [--sdk-dir DIR] [--format html|text] [-o FILE|DIR]`: the
// notice as TED publishes it, rendered here from the SDK's view templates (core/preview), or with
// --remote by a render service (TED's Visualisation API, POST /v3/notices/render, or the sandbox's).
// The SDK release is chosen per notice as `validate --local` chooses it; a release without view
// templates gives way to the newest that has them, said on stderr. Writes through a temporary file,
// never over an input. The API key (--remote) comes from EFORMS_API_KEY only and is never printed.

import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { httpRequest, keyTransportProblem, sanitizeServiceText, TransportError } from '../../core/http';
import { declaredSdkVersion, indexXml } from '../../core/notice';
import { previewSdkFor, renderHtml, renderNotice, renderText } from '../../core/preview';
import { defaultSdkCacheRoot, minorOf, SdkError } from '../../core/sdk';
import { environmentOf } from '../environment';
import { decodeInputText, InputFileError, readInputFile } from '../input-files';
import { type CliIo, EXIT_FAILURE, EXIT_OK, parseCommandLine, UsageError } from '../io';
import { sdkProblemForCli } from './validate';

const USAGE = `Usage: eforms render NOTICE.xml... [options]

Renders each notice as TED publishes it: the numbered sections of its SDK's view template
(view-templates/<subtype>.efx), with labels and code names in the chosen language, offline.

Options:
  --lang LANG        language of the labels (default en); the notice's own text is shown in it where
                     the notice has it, else in the notice's language
  --format FORMAT    html (default: a standalone document) or text (an indented outline)
  -o, --output PATH  write to FILE (one notice) or into DIR (one NOTICE.html/.txt per notice);
                     default: standard output (one notice only)
  --sdk-dir DIR      a folder holding one SDK release, or a folder of releases named by version;
                     releases downloaded before are found in $EFORMS_SDK_CACHE or ~/.cache/eforms/sdk
  --sdk VERSION      the release to render with (default: the notice's cbc:CustomizationID); a release
                     without view templates gives way to the newest one that has them
  --remote           ask a render service instead (TED's Visualisation API, POST /v3/notices/render),
                     with the API key from EFORMS_API_KEY; HTML only
  --render-url URL   base URL of the render service (or $EFORMS_RENDER_URL; default by --env:
                     production https://api.ted.europa.eu, preview https://api.preview.ted.europa.eu,
                     sandbox $EFORMS_SANDBOX_URL/ted)
  --env ENV          preview (default, or $EFORMS_ENV), production, sandbox or custom
  --timeout SEC      (--remote) give up after SEC seconds (default 60)
  -h, --help         show this help

Exit status: 0 rendered, 2 on a usage error, an unreadable file, a notice that cannot be rendered,
no SDK with view templates, or a failure of the render service.`;

const HINT = "Run 'eforms render --help' for usage.";

const REMOTE_DEFAULTS: Record<string, string> = {
  production: 'https://api.ted.europa.eu',
  preview: 'https://api.preview.ted.europa.eu',
  custom: 'https://api.preview.ted.europa.eu',
};

export async function render(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine('render', {
    args,
    allowPositionals: true,
    options: {
      lang: { type: 'string' },
      format: { type: 'string' },
      output: { type: 'string', short: 'o' },
      'sdk-dir': { type: 'string' },
      sdk: { type: 'string' },
      remote: { type: 'boolean' },
      'render-url': { type: 'string' },
      env: { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (positionals.length === 0) throw new UsageError(`give at least one notice file. ${HINT}`);
  const format = values.format ?? 'html';
  if (format !== 'html' && format !== 'text')
    throw new UsageError(`unknown format '${format}': choose html or text`);
  const lang = (values.lang ?? 'en').toLowerCase();
  if (!/^[a-z]{2}$/.test(lang))
    throw new UsageError(
      `--lang takes a two-letter language code such as en or fr (got '${lang.slice(0, 20)}')`,
    );
  if (values.sdk !== undefined && !minorOf(values.sdk))
    throw new UsageError(`--sdk takes a version such as 1.15 or 1.15.1 (got '${values.sdk.slice(0, 40)}')`);
  if (values.remote && format !== 'html') throw new UsageError(`--remote renders HTML only. ${HINT}`);
  if (!values.remote && (values['render-url'] !== undefined || values.timeout !== undefined))
    throw new UsageError(
      `--${values['render-url'] !== undefined ? 'render-url' : 'timeout'} goes with --remote. ${HINT}`,
    );
  if (values.remote && (values['sdk-dir'] !== undefined || values.sdk !== undefined))
    throw new UsageError(`--remote renders on the service: --sdk-dir and --sdk do not apply. ${HINT}`);
  const timeoutSec = values.timeout === undefined ? 60 : Number(values.timeout);
  if (!Number.isFinite(timeoutSec) || timeoutSec <= 0 || timeoutSec > 3600)
    throw new UsageError('--timeout takes a number of seconds between 1 and 3600');

  const out = values.output === undefined ? undefined : resolve(io.cwd, values.output);
  let outIsDir = false;
  if (out !== undefined) {
    try {
      outIsDir = statSync(out).isDirectory();
    } catch {
      outIsDir = positionals.length > 1 || values.output?.endsWith('/') === true;
    }
  }
  if (positionals.length > 1 && !outIsDir)
    throw new UsageError(`several notices are written one file each: add -o DIR. ${HINT}`);
  for (const p of positionals)
    if (out !== undefined && !outIsDir && resolve(io.cwd, p) === out)
      throw new UsageError('-o must not be the input file: the notice would be lost.');

  const remote = values.remote ? remoteTarget(values, io) : undefined;
  const sources = {
    path: values['sdk-dir'] ? resolve(io.cwd, values['sdk-dir']) : '',
    cacheRoot: io.env.EFORMS_SDK_CACHE?.trim() || defaultSdkCacheRoot(io.env),
  };
  const ext = format === 'html' ? '.html' : '.txt';
  let failures = 0;
  const used = new Set<string>();
  for (const file of positionals) {
    let result: string;
    try {
      const bytes = readInputFile(io.cwd, file, 'notice');
      if (remote) result = await renderRemotely(bytes, lang, remote, timeoutSec * 1000);
      else {
        const text = decodeInputText(bytes, file, 'notice');
        const index = indexXml(text);
        if (index.errors.length > 0 || !index.elements[0])
          throw new InputFileError(
            `the notice ${file} is not well-formed XML (${index.errors[0]?.message ?? 'no root element'}): fix it, then render`,
          );
        let chosen: Awaited<ReturnType<typeof previewSdkFor>>;
        try {
          chosen = await previewSdkFor(sources, {
            pinned: values.sdk,
            declared: declaredSdkVersion(index),
          });
        } catch (e) {
          if (!(e instanceof SdkError)) throw e;
          throw new InputFileError(`${file}: ${sdkProblemForCli(e, values['sdk-dir'])}`);
        }
        if (chosen.note) io.err(`eforms render: ${file}: ${chosen.note}`);
        if (!chosen.sdk.languages.includes(lang))
          throw new UsageError(
            `eForms SDK ${chosen.sdk.version} has no labels in '${lang}': choose one of ${chosen.sdk.languages.join(', ')}`,
          );
        const doc = renderNotice(index, chosen.sdk, { language: lang });
        if (doc.lines.length === 0 && doc.problems.length > 0)
          throw new InputFileError(`cannot render ${file}: ${doc.problems[0].message}`);
        if (doc.problems.length > 0)
          io.err(
            `eforms render: ${file}: ${doc.problems.length} template line(s) not rendered (listed at the end of the output)`,
          );
        result = format === 'html' ? renderHtml(doc) : renderText(doc);
      }
    } catch (e) {
      if (e instanceof UsageError && !(e instanceof InputFileError)) throw e;
      if (e instanceof InputFileError || e instanceof RemoteError) {
        io.err(`eforms render: ${e.message}`);
        failures++;
        continue;
      }
      throw e;
    }
    if (out === undefined) {
      io.out(result.replace(/\n$/, ''));
      continue;
    }
    let target = out;
    if (outIsDir) {
      let name = basename(file, extname(file));
      while (used.has(name)) name = `${name}-1`;
      used.add(name);
      target = join(out, `${name}${ext}`);
    }
    try {
      if (outIsDir) mkdirSync(out, { recursive: true });
      // Through a temporary file, so that a failed write never leaves half a document behind.
      const tmp = `${target}.tmp-${process.pid}`;
      writeFileSync(tmp, result, 'utf8');
      renameSync(tmp, target);
    } catch (e) {
      io.err(`eforms render: cannot write ${target}: ${(e as Error).message}`);
      failures++;
      continue;
    }
    io.err(`Wrote ${target}`);
  }
  return failures > 0 ? EXIT_FAILURE : EXIT_OK;
}

class RemoteError extends Error {}

interface RemoteTarget {
  url: string;
  key: string;
}

function remoteTarget(values: { 'render-url'?: string; env?: string }, io: CliIo): RemoteTarget {
  const env = environmentOf(values, io);
  let base = values['render-url']?.trim() || io.env.EFORMS_RENDER_URL?.trim();
  if (!base)
    base =
      env === 'sandbox'
        ? `${(io.env.EFORMS_SANDBOX_URL?.trim() || 'http://127.0.0.1:8723').replace(/\/+$/, '')}/ted`
        : REMOTE_DEFAULTS[env];
  try {
    base = new URL(base).href.replace(/\/+$/, '');
  } catch {
    throw new UsageError(`"${base.slice(0, 80)}" is not a URL`);
  }
  const key = io.env.EFORMS_API_KEY?.trim();
  if (!key) throw new UsageError('--remote needs the API key in the environment variable EFORMS_API_KEY');
  const url = `${base}/v3/notices/render`;
  const problem = keyTransportProblem(url);
  if (problem) throw new UsageError(problem);
  return { url, key };
}

async function renderRemotely(
  bytes: Buffer,
  language: string,
  t: RemoteTarget,
  timeoutMs: number,
): Promise<string> {
  let answer: Awaited<ReturnType<typeof httpRequest>>;
  try {
    answer = await httpRequest(t.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${t.key}`,
        'content-type': 'application/json',
        accept: 'text/html',
      },
      body: JSON.stringify({ file: bytes.toString('base64'), language, format: 'HTML', summary: false }),
      timeoutMs,
      maxBytes: 64 * 1024 * 1024,
    });
  } catch (e) {
    if (e instanceof TransportError) throw new RemoteError(`the render service failed: ${e.message}`);
    throw e;
  }
  if (answer.status === 200) return answer.body.toString('utf8');
  let said = '';
  try {
    const j = JSON.parse(answer.body.toString('utf8')) as { message?: unknown };
    said = sanitizeServiceText(j.message);
  } catch {
    said = sanitizeServiceText(answer.body.toString('utf8').slice(0, 300));
  }
  const what =
    answer.status === 401 || answer.status === 403
      ? 'refused the API key (check EFORMS_API_KEY)'
      : `answered ${answer.status}`;
  throw new RemoteError(`the render service ${what}${said ? `: ${said}` : ''}`);
}
