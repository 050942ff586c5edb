// `eforms validate NOTICE.xml...`: sends each notice, byte for byte, to the Central Validation Service
// and prints its findings placed on the text (plus the local checks), as text, JSON or SARIF. The key
// comes from EFORMS_API_KEY only; it is never printed and never sent over plain http except to loopback.

import { CvsError } from '../../core/cvs-client';
import { type EnvironmentName, isEnvironmentName, serviceUrls } from '../../core/environments';
import type { Finding } from '../../core/finding';
import {
  formatFindings,
  isOutputFormat,
  OUTPUT_FORMATS,
  type OutputFormat,
  summarize,
} from '../../core/output-formats';
import { DEFAULT_SETTINGS, REPORT_LANGUAGES, type ValidationMode } from '../../core/settings';
import { CvsValidator, inputFor, prepareNotice, ValidationPipeline } from '../../core/validation';
import { decodeInputText, InputFileError, readInputFile } from '../input-files';
import { type CliIo, EXIT_FAILURE, EXIT_FINDINGS, EXIT_OK, parseCommandLine, UsageError } from '../io';

const USAGE = `Usage: eforms validate NOTICE.xml... [options]

Validates each notice with the Central Validation Service (CVS) and prints every finding at its line
and column (columns count UTF-16 units, as editors do), together with the local checks (well-formedness,
cbc:CustomizationID). The API key is read from the environment variable EFORMS_API_KEY.

Options:
  --env ENV        preview (default), production, sandbox (http://127.0.0.1:8723, 'eforms sandbox')
                   or custom (with --cvs-url)
  --cvs-url URL    base URL of the CVS (paths start with /v1); overrides --env
  --sdk X.Y        eForms SDK version of the rules (default: the notice's cbc:CustomizationID)
  --mode MODE      static (default) or dynamic
  --lang LANG      language of the messages (default en): ${REPORT_LANGUAGES.join(', ')}
  --format FORMAT  text (default), json (one array, a "file" field per finding) or sarif
  --timeout SEC    give up on an answer after SEC seconds (default ${DEFAULT_SETTINGS.validation.timeoutMs / 1000})
  -h, --help       show this help

Exit status: 0 when no finding is an error, 1 when some are, 2 on a usage error, an unreadable file, a
file that is not an eForms notice, or a failure of the service.`;

const HINT = "Run 'eforms validate --help' for usage.";

interface FileResult {
  file: string;
  findings: Finding[];
}

export async function validate(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args);
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (positionals.length === 0) throw new UsageError(`give at least one notice file. ${HINT}`);
  const format = values.format ?? 'text';
  if (!isOutputFormat(format))
    throw new UsageError(`unknown format '${format}': choose ${OUTPUT_FORMATS.join(', ')}`);
  const env = values.env ?? 'preview';
  if (!isEnvironmentName(env))
    throw new UsageError(`unknown environment '${env}': choose preview, production, sandbox or custom`);
  if (env === 'custom' && !values['cvs-url'])
    throw new UsageError(`--env custom needs --cvs-url URL. ${HINT}`);
  const mode = values.mode ?? DEFAULT_SETTINGS.validation.mode;
  if (mode !== 'static' && mode !== 'dynamic')
    throw new UsageError(`unknown mode '${mode}': choose static or dynamic`);
  const lang = values.lang ?? DEFAULT_SETTINGS.validation.language;
  if (!(REPORT_LANGUAGES as readonly string[]).includes(lang))
    throw new UsageError(`unknown language '${lang}': choose one of ${REPORT_LANGUAGES.join(', ')}`);
  if (values.sdk !== undefined && !/^\d+\.\d+$/.test(values.sdk))
    throw new UsageError(`--sdk takes MAJOR.MINOR, e.g. 1.15 (got '${values.sdk}')`);
  const timeoutSec =
    values.timeout === undefined ? DEFAULT_SETTINGS.validation.timeoutMs / 1000 : Number(values.timeout);
  if (!Number.isFinite(timeoutSec) || timeoutSec <= 0 || timeoutSec > 3600)
    throw new UsageError('--timeout takes a number of seconds between 1 and 3600');
  let baseUrl: string;
  try {
    baseUrl = values['cvs-url']
      ? new URL(values['cvs-url']).href.replace(/\/+$/, '')
      : serviceUrls(env as EnvironmentName).cvs;
  } catch {
    throw new UsageError(`--cvs-url '${values['cvs-url']}' is not a URL`);
  }
  const apiKey = io.env.EFORMS_API_KEY?.trim();
  if (!apiKey) {
    io.err(
      'eforms validate: EFORMS_API_KEY is not set: export EFORMS_API_KEY=<your API key> (from your TED developer account; for --env sandbox, the key that eforms sandbox prints).',
    );
    return EXIT_FAILURE;
  }

  const pipeline = new ValidationPipeline(new CvsValidator({ baseUrl, apiKey }), baseUrl);
  const results: FileResult[] = [];
  let failed = false;
  const many = positionals.length > 1;
  for (const file of positionals) {
    if (many && format === 'text') io.err(`Validating ${file} at ${baseUrl}…`);
    const r = await validateOne(file, io, {
      pipeline,
      mode,
      lang,
      sdk: values.sdk,
      timeoutMs: timeoutSec * 1000,
    });
    if (typeof r === 'string') {
      io.err(`eforms validate: ${file}: ${r}`);
      failed = true;
      // A refused key fails every file the same way: say it once.
      if (/\((401|403)\)/.test(r)) break;
      continue;
    }
    results.push(r);
  }
  print(results, format, io);
  if (failed) return EXIT_FAILURE;
  return results.some((r) => r.findings.some((f) => f.severity === 'error')) ? EXIT_FINDINGS : EXIT_OK;
}

async function validateOne(
  file: string,
  io: CliIo,
  o: { pipeline: ValidationPipeline; mode: ValidationMode; lang: string; sdk?: string; timeoutMs: number },
): Promise<FileResult | string> {
  let bytes: Buffer;
  let text: string;
  try {
    bytes = readInputFile(io.cwd, file, 'notice');
    // Positions are counted as editors show them, without the byte-order mark; the bytes sent keep it.
    text = decodeInputText(bytes, file, 'notice');
  } catch (e) {
    if (e instanceof InputFileError) return e.message;
    throw e;
  }
  const notice = prepareNotice(text, bytes);
  const root = notice.index.elements[0];
  if (root && !notice.kind)
    return `not an eForms notice (its root is <${root.qname}>${root.ns ? ` in ${root.ns}` : ''}, not ContractNotice, ContractAwardNotice, PriorInformationNotice or BusinessRegistrationInformationNotice in the eForms namespaces)`;
  if (notice.index.errors.length > 0) {
    io.err(`${file}: not sent to the service: the XML is not well-formed (fix the error shown first).`);
    return { file, findings: notice.local };
  }
  try {
    const r = await o.pipeline.validate(
      inputFor(notice, { language: o.lang, mode: o.mode, sdkVersion: o.sdk ?? '', timeoutMs: o.timeoutMs }),
    );
    return { file, findings: [...notice.local, ...r.findings] };
  } catch (e) {
    if (!(e instanceof CvsError)) return `the answer could not be read: ${(e as Error).message}`;
    // The editor's command does not exist here: say what to do on the command line.
    if (e.kind === 'forbidden') return 'the API key was refused (403): set EFORMS_API_KEY to a valid key.';
    if (e.kind === 'missing-key') return 'the service asked for an API key (401): set EFORMS_API_KEY.';
    return e.message.replace(/; retrying later\.?$/, '.').replace(/: retrying later \(/, ' (');
  }
}

function print(results: FileResult[], format: OutputFormat, io: CliIo): void {
  if (format === 'json') {
    const all = results.flatMap((r) =>
      (JSON.parse(formatFindings(r.findings, r.file, 'json')) as object[]).map((f) => ({
        file: r.file,
        ...f,
      })),
    );
    io.out(JSON.stringify(all, null, 2));
    return;
  }
  if (format === 'sarif') {
    // One SARIF log, one run per notice: each run keeps its own rule table.
    const runs = results.flatMap(
      (r) => (JSON.parse(formatFindings(r.findings, r.file, 'sarif')) as { runs: object[] }).runs,
    );
    const log = JSON.parse(formatFindings([], '', 'sarif')) as { runs: object[] };
    log.runs = runs;
    io.out(JSON.stringify(log, null, 2));
    return;
  }
  for (const r of results) {
    const out = formatFindings(r.findings, r.file, 'text');
    if (out) io.out(out);
    io.out(`${r.file}: ${r.findings.length === 0 ? 'no findings' : summarize(r.findings)}`);
  }
}

function parse(args: string[]) {
  return parseCommandLine('validate', {
    args,
    allowPositionals: true,
    strict: true,
    options: {
      env: { type: 'string' },
      'cvs-url': { type: 'string' },
      sdk: { type: 'string' },
      mode: { type: 'string' },
      lang: { type: 'string' },
      format: { type: 'string', short: 'f' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
