// `eforms validate NOTICE.xml...`: sends each notice, byte for byte, to the Central Validation Service
// and prints its findings placed on the text (plus the local checks), as text, JSON or SARIF. The key
// comes from EFORMS_API_KEY only; it is never printed and never sent over plain http except to loopback.

import { normalizeSdkVersion } from '../../core/customization-id';
import { CvsError, validateNotice } from '../../core/cvs-client';
import { type Finding, sortByPosition } from '../../core/finding';
import { localFindings } from '../../core/local-checks';
import { noticeKindOf } from '../../core/notice-kind';
import {
  formatFindings,
  isOutputFormat,
  OUTPUT_FORMATS,
  type OutputFormat,
  summarize,
} from '../../core/output-formats';
import { rejectionFinding } from '../../core/service-rejection';
import { DEFAULT_SETTINGS, REPORT_LANGUAGES } from '../../core/settings';
import { parseSvrl } from '../../core/svrl';
import { mapSvrl } from '../../core/svrl-mapping';
import { indexXml } from '../../core/xml-index';
import { serviceUrlsOf } from '../environment';
import { describeFailure, isKeyProblem } from '../failure-wording';
import { decodeInputText, InputFileError, readInputFile } from '../input-files';
import { type CliIo, EXIT_FAILURE, EXIT_FINDINGS, EXIT_OK, parseCommandLine, UsageError } from '../io';

const USAGE = `Usage: eforms validate NOTICE.xml... [options]

Validates each notice with the Central Validation Service (CVS) and prints every finding at its line
and column (columns count UTF-16 units, as editors do), together with the local checks (well-formedness,
cbc:CustomizationID). The API key is read from the environment variable EFORMS_API_KEY.

Options:
  --env ENV        preview (default, or $EFORMS_ENV), production, sandbox (http://127.0.0.1:8723,
                   'eforms sandbox') or custom (with --cvs-url)
  --cvs-url URL    base URL of the CVS (paths start with /v1); overrides --env (or $EFORMS_CVS_URL)
  --sdk VERSION    eForms SDK version of the rules, 1.15 or eforms-sdk-1.15 (default: not sent, so the
                   service uses the notice's cbc:CustomizationID)
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
  const urls = serviceUrlsOf(values, io);
  if (urls.env === 'custom' && !values['cvs-url'] && !io.env.EFORMS_CVS_URL?.trim())
    throw new UsageError(`--env custom needs --cvs-url URL. ${HINT}`);
  const mode = values.mode ?? DEFAULT_SETTINGS.validation.mode;
  if (mode !== 'static' && mode !== 'dynamic')
    throw new UsageError(`unknown mode '${mode}': choose static or dynamic`);
  const lang = values.lang ?? DEFAULT_SETTINGS.validation.language;
  if (!(REPORT_LANGUAGES as readonly string[]).includes(lang))
    throw new UsageError(`unknown language '${lang}': choose one of ${REPORT_LANGUAGES.join(', ')}`);
  const sdk = values.sdk === undefined ? undefined : normalizeSdkVersion(values.sdk);
  if (values.sdk !== undefined && !sdk)
    throw new UsageError(
      `--sdk takes MAJOR.MINOR, e.g. 1.15 or eforms-sdk-1.15 (got '${values.sdk.slice(0, 40)}')`,
    );
  const timeoutSec =
    values.timeout === undefined ? DEFAULT_SETTINGS.validation.timeoutMs / 1000 : Number(values.timeout);
  if (!Number.isFinite(timeoutSec) || timeoutSec <= 0 || timeoutSec > 3600)
    throw new UsageError('--timeout takes a number of seconds between 1 and 3600');
  const baseUrl = urls.cvs;
  const apiKey = io.env.EFORMS_API_KEY?.trim();
  if (!apiKey) {
    io.err(
      'eforms validate: EFORMS_API_KEY is not set: export EFORMS_API_KEY=<your API key> (from your TED developer account; for --env sandbox, the key that eforms sandbox prints).',
    );
    return EXIT_FAILURE;
  }

  const results: FileResult[] = [];
  let failed = false;
  const many = positionals.length > 1;
  for (const file of positionals) {
    if (many && format === 'text') io.err(`Validating ${file} at ${baseUrl}…`);
    const r = await validateOne(file, io, {
      baseUrl,
      apiKey,
      mode,
      lang,
      sdk,
      timeoutMs: timeoutSec * 1000,
    });
    if (typeof r === 'string' || r instanceof CvsError) {
      io.err(`eforms validate: ${file}: ${typeof r === 'string' ? r : describeFailure(r)}`);
      failed = true;
      // A refused key fails every file the same way: say it once.
      if (r instanceof CvsError && isKeyProblem(r)) break;
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
  o: { baseUrl: string; apiKey: string; mode: string; lang: string; sdk?: string; timeoutMs: number },
): Promise<FileResult | CvsError | string> {
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
  const index = indexXml(text);
  const root = index.elements[0];
  if (root && !noticeKindOf(index))
    return `not an eForms notice (its root is <${root.qname}>${root.ns ? ` in ${root.ns}` : ''}, not ContractNotice, ContractAwardNotice, PriorInformationNotice or BusinessRegistrationInformationNotice in the eForms namespaces)`;
  const local = localFindings(index);
  if (index.errors.length > 0) {
    io.err(`${file}: not sent to the service: the XML is not well-formed (fix the error shown first).`);
    return { file, findings: local };
  }
  try {
    const { svrl } = await validateNotice({
      baseUrl: o.baseUrl,
      apiKey: o.apiKey,
      notice: bytes,
      language: o.lang,
      validationMode: o.mode,
      // Unpinned: left out, and the service reads the notice's own cbc:CustomizationID.
      eFormsSdkVersion: o.sdk,
      timeoutMs: o.timeoutMs,
    });
    return {
      file,
      findings: sortByPosition([...local, ...mapSvrl(index, parseSvrl(svrl), { language: o.lang })]),
    };
  } catch (e) {
    if (!(e instanceof CvsError)) return `the answer could not be read: ${(e as Error).message}`;
    // A notice the service refused as such (400 with an explanation) is a finding on the notice,
    // placed on the element the explanation names.
    if (e.kind === 'notice-rejected' && e.fields.serviceMessage)
      return { file, findings: sortByPosition([...local, rejectionFinding(index, e.fields.serviceMessage)]) };
    return e;
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
