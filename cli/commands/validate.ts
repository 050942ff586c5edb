// `eforms validate NOTICE.xml...`: validates each notice through core/validation's pipeline, with the
// Central Validation Service (the key from EFORMS_API_KEY only; never printed, never sent over plain
// http except to loopback) or, with --local, with the official SDK rules run here across worker
// threads. Prints the findings placed on the text (plus the local checks) as text, JSON, SARIF, or
// the SVRL report itself. SDK errors are worded here, naming this command's flags.

import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { completeFindings, type SdkKnowledge, sdkKnowledge } from '../../core/authoring';
import { type Finding, sortByPosition } from '../../core/findings';
import { isTransient } from '../../core/http';
import { declaredSdkVersion, findCustomizationId } from '../../core/notice';
import { describeNotEvaluated } from '../../core/schematron';
import {
  defaultSdkCacheRoot,
  formatBudget,
  minorOf,
  resolveSdk,
  SdkError,
  type SdkSources,
} from '../../core/sdk';
import { CvsError } from '../../core/services';
import {
  DEFAULT_SETTINGS,
  REPORT_LANGUAGES,
  SDK_REPOSITORY_URL,
  type ValidationMode,
} from '../../core/settings';
import { terminalName } from '../../core/text';
import {
  affinityOf,
  type EngineReport,
  type EngineRun,
  inputFor,
  LocalSdkValidator,
  cvsPipeline as newCvsPipeline,
  type PreparedNotice,
  prepareNotice,
  servicePreflight,
  ValidationPipeline,
  validateOnce,
  WorkerPool,
  WorkerValidator,
} from '../../core/validation';
import { CODE_CACHE_COVERS } from '../code-cache-loader';
import { serviceUrlsOf } from '../environment';
import { describeFailure, describeRefusal, isKeyProblem, SET_API_KEY } from '../failure-wording';
import {
  aboutFile,
  checkSdkDir,
  decodeInputText,
  expandInputPaths,
  InputFileError,
  readInputFile,
} from '../input-files';
import { type CliIo, EXIT_FAILURE, EXIT_FINDINGS, EXIT_OK, parseCommandLine, UsageError } from '../io';
import {
  type FileOutcome,
  formatFindings,
  formatOutcomes,
  JSON_DOCUMENT_TAIL,
  jsonDocumentHead,
  jsonEntry,
  OUTPUT_FORMATS,
  type OutputFormat,
  summarize,
} from '../output-formats';

const FORMATS = [...OUTPUT_FORMATS, 'svrl'] as const;
type Format = OutputFormat | 'svrl';

const USAGE = `Usage: eforms validate NOTICE.xml... [options]

Validates each notice and prints every finding at its line and column (columns count UTF-16 units, as
editors do), together with the local checks (well-formedness, cbc:CustomizationID). By default the
Central Validation Service (CVS) validates, with the API key from the environment variable
EFORMS_API_KEY; with --local, the official eForms SDK rules run on this machine: no key, no network.

Options:
  --local          run the eForms SDK's own schematron rules here instead of asking the CVS
  --sdk-dir DIR    (--local) a folder holding one SDK release, or a folder of releases named by version;
                   releases downloaded before are found in $EFORMS_SDK_CACHE or ~/.cache/eforms/sdk
  --download       (--local) allow downloading a missing release (the eu.europa.ted.eforms:eforms-sdk jar,
                   checked against its published SHA-1) from $EFORMS_SDK_REPOSITORY or Maven Central
  --today DATE     (--local) the date current-date() answers, YYYY-MM-DD (default: today), for
                   reproducible runs
  --jobs N         (--local) worker threads at most (default 1; never more than the cores, the rule
                   sets the notices need, or the work pays for: each further worker compiles the
                   shared rules again, so a batch of small notices may run in one)
  --time-budget SEC (--local) how long the rules may take on one notice (default ${DEFAULT_SETTINGS.validation.timeBudgetMs / 1000}):
                   a run past it is stopped and the notice fails, naming the budget
  --sdk VERSION    SDK version of the rules: 1.15, 1.15.1 or eforms-sdk-1.15 (default: the notice's
                   cbc:CustomizationID; a notice that declares none gets the only SDK available). The
                   CVS gets it only when given, as eforms-sdk-MAJOR.MINOR
  --mode MODE      static (default) or dynamic
  --lang LANG      language of the messages (default en): ${REPORT_LANGUAGES.join(', ')}
  --format FORMAT  text (default); json ({"files": [...]}: every notice given with its outcome,
                   "validated" with its findings or "failed" with the reason); sarif (SARIF 2.1.0, one
                   run: rules with descriptions and help links, the tool and SDK versions, a notice
                   that could not be validated as a tool execution notification); or svrl (the
                   report itself; with several notices, one file per notice in -o DIR)
  -o, --output DIR with --format svrl: write NOTICE.svrl files into DIR
  --env ENV        preview (default, or $EFORMS_ENV), production, sandbox (http://127.0.0.1:8723,
                   'eforms sandbox') or custom (with --cvs-url)
  --cvs-url URL    base URL of the CVS (paths start with /v1); overrides --env (or $EFORMS_CVS_URL)
  --timeout SEC    give up on an answer after SEC seconds (default ${DEFAULT_SETTINGS.validation.timeoutMs / 1000})
  -h, --help       show this help

Exit status: 0 when no finding is an error, 1 when some are, 2 on a usage error, an unreadable file, a
file that is not an eForms notice, a failure of the service, or no usable SDK.`;

const HINT = "Run 'eforms validate --help' for usage.";

interface FileResult {
  file: string;
  findings: Finding[];
  report?: EngineReport;
}

interface Run {
  format: Format;
  mode: ValidationMode;
  lang: string;
  sdk?: string;
  timeoutMs: number;
  today?: string;
}

export async function validate(args: string[], io: CliIo): Promise<number> {
  const parsed = parse(args);
  const { values } = parsed;
  // A folder stands for the notices in it.
  const positionals = expandInputPaths(io.cwd, parsed.positionals, (s) => io.err(`eforms validate: ${s}.`));
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (positionals.length === 0) throw new UsageError(`give at least one notice file. ${HINT}`);
  const format = values.format ?? 'text';
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`unknown format '${format}': choose ${FORMATS.join(', ')}`);
  if (values.output !== undefined && format !== 'svrl')
    throw new UsageError(`-o DIR goes with --format svrl. ${HINT}`);
  if (format === 'svrl' && positionals.length > 1 && values.output === undefined)
    throw new UsageError(
      `--format svrl with several notices writes one file per notice: add -o DIR. ${HINT}`,
    );
  const mode = values.mode ?? DEFAULT_SETTINGS.validation.mode;
  if (mode !== 'static' && mode !== 'dynamic')
    throw new UsageError(`unknown mode '${mode}': choose static or dynamic`);
  const lang = values.lang ?? DEFAULT_SETTINGS.validation.language;
  if (!(REPORT_LANGUAGES as readonly string[]).includes(lang))
    throw new UsageError(`unknown language '${lang}': choose one of ${REPORT_LANGUAGES.join(', ')}`);
  if (values.sdk !== undefined && !minorOf(values.sdk))
    throw new UsageError(
      `--sdk takes a version such as 1.15, 1.15.1 or eforms-sdk-1.15 (got '${values.sdk}')`,
    );
  const timeoutSec =
    values.timeout === undefined ? DEFAULT_SETTINGS.validation.timeoutMs / 1000 : Number(values.timeout);
  if (!Number.isFinite(timeoutSec) || timeoutSec <= 0 || timeoutSec > 3600)
    throw new UsageError('--timeout takes a number of seconds between 1 and 3600');
  const localOnly = (['sdk-dir', 'download', 'today', 'jobs', 'time-budget'] as const).filter(
    (k) => values[k] !== undefined,
  );
  if (!values.local && localOnly.length > 0)
    throw new UsageError(`--${localOnly[0]} goes with --local. ${HINT}`);
  if (values.local && (values.env !== undefined || values['cvs-url'] !== undefined))
    throw new UsageError(`--local runs the rules here: --env and --cvs-url do not apply. ${HINT}`);
  if (values['sdk-dir'] !== undefined) checkSdkDir(io.cwd, values['sdk-dir']);
  if (values.today !== undefined && !isDate(values.today))
    throw new UsageError(`--today takes a date YYYY-MM-DD (got '${values.today}')`);
  const jobs = values.jobs === undefined ? 1 : Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64)
    throw new UsageError('--jobs takes a number from 1 to 64');
  const budgetSec =
    values['time-budget'] === undefined
      ? DEFAULT_SETTINGS.validation.timeBudgetMs / 1000
      : Number(values['time-budget']);
  if (!Number.isFinite(budgetSec) || budgetSec < 1 || budgetSec > 3600)
    throw new UsageError('--time-budget takes a number of seconds between 1 and 3600');
  const run: Run = {
    format: format as Format,
    mode,
    lang,
    sdk: values.sdk,
    timeoutMs: timeoutSec * 1000,
    today: values.today,
  };

  // A batch's JSON entries are made as its notices are done, while the workers still run, and written
  // at the end as bytes: making and encoding the 14 MB document of 102 notices after the last one took
  // 80 ms while nothing else ran. One entry per file, in the order given (the workers finish in another).
  const entries: (Uint8Array | undefined)[] | undefined =
    values.local && format === 'json' && io.outBytes && positionals.length > 1 ? [] : undefined;
  const entryDone =
    entries &&
    ((i: number, r: FileResult | string): void => {
      const text = jsonEntry(outcomeFor(positionals[i] as string, r, true), i === positionals.length - 1);
      entries[i] = Buffer.from(`${text}\n`, 'utf8');
    });

  let results: (FileResult | CvsError | string)[];
  // The failures that concern a release rather than one notice (missing, not downloadable), as their
  // notices were given them: a release missing for several notices is one problem, named once.
  let releaseProblems: ReadonlySet<string> = new Set();
  if (values.local) {
    const outcome = await validateLocally(positionals, io, run, entryDone, {
      sdkDir: values['sdk-dir'],
      download: values.download === true,
      jobs,
      budgetMs: budgetSec * 1000,
      budgetGiven: values['time-budget'] !== undefined,
    });
    if (typeof outcome === 'string') {
      io.err(`eforms validate: ${outcome}`);
      return EXIT_FAILURE;
    }
    results = outcome.results;
    releaseProblems = outcome.releaseProblems;
  } else {
    const cvs = cvsPipeline(values, io);
    if (typeof cvs === 'string') {
      io.err(`eforms validate: ${cvs}`);
      return EXIT_FAILURE;
    }
    results = [];
    for (const file of positionals) {
      if (positionals.length > 1 && format === 'text')
        io.err(`Validating ${terminalName(file)} at ${cvs.baseUrl}…`);
      const r = await validateOne(file, io, run, cvs.pipeline);
      results.push(r);
      // A refused key fails every file the same way: say it once.
      if (r instanceof CvsError && isKeyProblem(r)) break;
    }
  }

  let failed = false;
  const ok: FileResult[] = [];
  // Every file given, in order, with its outcome: JSON and SARIF list the ones that failed too.
  const outcomes: FileOutcome[] = [];
  // A release missing for several notices is one problem: named once, with the notices it stops.
  const sdkShared = new Map<string, string[]>();
  results.forEach((r, i) => {
    if (typeof r === 'string' && releaseProblems.has(r))
      sdkShared.set(r, [...(sdkShared.get(r) ?? []), positionals[i] as string]);
  });
  results.forEach((r, i) => {
    if (typeof r === 'string' || r instanceof CvsError) {
      failed = true;
      const group = typeof r === 'string' ? sdkShared.get(r) : undefined;
      if (group && group.length > 1) {
        if (group[0] === positionals[i])
          io.err(`eforms validate: ${group.length} notices (${group.map(terminalName).join(', ')}): ${r}`);
        return;
      }
      // A sentence that names the file already ("cannot read the notice x.xml") is not prefixed again.
      const shown = terminalName(positionals[i] ?? '');
      io.err(`eforms validate: ${aboutFile(shown, typeof r === 'string' ? r : describeFailure(r))}`);
    } else {
      const sorted = { ...r, findings: sortByPosition(r.findings) };
      ok.push(sorted);
      results[i] = sorted;
    }
  });
  // Sorted by position above.
  for (const [i, r] of results.entries()) outcomes.push(outcomeFor(positionals[i] as string, r, false));
  // A file the loop never reached (a refused key stops it) is listed as not validated either.
  for (const file of positionals.slice(results.length))
    outcomes.push({
      file,
      outcome: 'failed',
      findings: [],
      error: 'not validated: an earlier failure stopped the run',
    });
  if (
    entries &&
    io.outBytes &&
    outcomes.length > 0 &&
    entries.length === outcomes.length &&
    !entries.includes(undefined)
  ) {
    io.outBytes(Buffer.from(`${jsonDocumentHead(outcomes.length)}\n`, 'utf8'));
    for (const e of entries) io.outBytes(e as Uint8Array);
    io.outBytes(Buffer.from(`${JSON_DOCUMENT_TAIL}\n`, 'utf8'));
  } else if (run.format === 'json' || run.format === 'sarif') io.out(formatOutcomes(outcomes, run.format));
  else print(ok, run.format, io, values.output === undefined ? undefined : resolve(io.cwd, values.output));
  if (failed) return EXIT_FAILURE;
  return ok.some((r) => r.findings.some((f) => f.severity === 'error')) ? EXIT_FINDINGS : EXIT_OK;
}

function cvsPipeline(
  values: ReturnType<typeof parse>['values'],
  io: CliIo,
): { pipeline: ValidationPipeline; baseUrl: string } | string {
  const urls = serviceUrlsOf(values, io);
  if (urls.env === 'custom' && !values['cvs-url'] && !io.env.EFORMS_CVS_URL?.trim())
    throw new UsageError(`--env custom needs --cvs-url URL. ${HINT}`);
  const baseUrl = urls.cvs;
  const apiKey = io.env.EFORMS_API_KEY?.trim();
  const verdict = servicePreflight({ apiKey, baseUrl });
  if (!verdict.ok && verdict.reason === 'needs-key')
    return `EFORMS_API_KEY is not set: ${SET_API_KEY}, or validate offline with --local.`;
  if (!verdict.ok) return describeRefusal(verdict);
  return { pipeline: newCvsPipeline({ baseUrl, apiKey }), baseUrl };
}

/** Reads and indexes a notice; a string says why it cannot be validated. */
function readNotice(file: string, io: CliIo, local = false): PreparedNotice | string {
  let bytes: Buffer;
  let text: string;
  try {
    // The services refuse notices above 30 MB; the rules run here take up to the local limit.
    bytes = readInputFile(io.cwd, file, 'notice', local ? 'localNoticeBytes' : 'noticeBytes');
    // Positions are counted as editors show them, without the byte-order mark; the bytes sent keep it.
    text = decodeInputText(bytes, file, 'notice');
  } catch (e) {
    if (e instanceof InputFileError) return e.message;
    throw e;
  }
  const notice = prepareNotice(text, bytes);
  const root = notice.index.element(0);
  if (root && !notice.kind)
    return `not an eForms notice (its root is <${root.qname}>${root.ns ? ` in ${root.ns}` : ''}, not ContractNotice, ContractAwardNotice, PriorInformationNotice or BusinessRegistrationInformationNotice in the eForms namespaces)`;
  return notice;
}

async function validateOne(
  file: string,
  io: CliIo,
  o: Run,
  pipeline: ValidationPipeline,
): Promise<FileResult | CvsError | string> {
  const notice = readNotice(file, io);
  if (typeof notice === 'string') return notice;
  const r = await validateOnce(notice, pipeline, {
    language: o.lang,
    mode: o.mode,
    sdkVersion: o.sdk ?? '',
    timeoutMs: o.timeoutMs,
  });
  return resultOf(file, notice, r, io, 'not sent to the service');
}

/**
 * One engine run in this command's words. A notice the service refused as such (400 with an
 * explanation) is already a finding on the notice, placed on the element the explanation names.
 */
function resultOf(
  file: string,
  notice: PreparedNotice,
  r: EngineRun,
  io: CliIo,
  notRun: string,
  sdk?: { knowledge: () => SdkKnowledge; language: string },
): FileResult | CvsError | string {
  // Completed in core like the editor's diagnostics: rule links, nodes, and with an SDK related places.
  // The SDK's field knowledge (reading fields.json, ~0.1 s) only when there is a finding to complete.
  const complete = (findings: Finding[]) =>
    findings.length === 0
      ? []
      : completeFindings(findings, {
          index: notice.index,
          sdk: sdk?.knowledge(),
          language: sdk?.language,
        });
  switch (r.outcome) {
    case 'validated':
      return { file, findings: complete(r.findings), report: r.report };
    case 'notice-refused':
      return { file, findings: complete(r.findings) };
    case 'not-sent':
      // Not well-formed: the syntax errors are the findings, and the file's result.
      if (r.verdict.reason === 'malformed') {
        io.err(`${terminalName(file)}: ${notRun}: ${describeRefusal(r.verdict)}`);
        return { file, findings: complete(r.findings) };
      }
      return `${notRun}: ${describeRefusal(r.verdict)}`;
    case 'failed': {
      const f = r.failure;
      if (f.class === 'cancelled') return 'cancelled.';
      if (f.cause.service === 'sdk') return sdkProblemForCli(f.cause.error);
      // Not an answer of the service (no status): something failed on this side while reading it.
      if (f.cause.error.kind === 'server' && f.cause.error.status === undefined)
        return `the answer could not be read: ${f.cause.error.message}`;
      return f.cause.error;
    }
  }
}

/**
 * What --local gives each file, in the order given, and which of those failures concern the release a
 * notice asks for rather than the notice (the same text for every notice that asks for it).
 */
interface LocalOutcome {
  results: (FileResult | string)[];
  releaseProblems: ReadonlySet<string>;
}

/**
 * --local: every notice through the SDK rules in `jobs` worker threads. Releases are resolved (and,
 * with --download, fetched with a progress line) here first, once per version wanted, so the workers
 * only read the cache. A string return is a failure that concerns every notice.
 */
async function validateLocally(
  files: string[],
  io: CliIo,
  o: Run,
  onDone: ((i: number, r: FileResult | string) => void) | undefined,
  l: { sdkDir?: string; download: boolean; jobs: number; budgetMs?: number; budgetGiven?: boolean },
): Promise<LocalOutcome | string> {
  const sources: SdkSources = {
    path: l.sdkDir ? resolve(io.cwd, l.sdkDir) : '',
    cacheRoot: defaultSdkCacheRoot(io.env),
    download: {
      allowed: l.download,
      repositoryUrl: (io.env.EFORMS_SDK_REPOSITORY?.trim() || SDK_REPOSITORY_URL).replace(/\/+$/, ''),
    },
  };
  // One notice runs in this thread: a worker would cost its start and a second copy of the rules. Not
  // with --time-budget given: only a worker can be stopped for real when a run exceeds it.
  // EFORMS_RULES_PER_PHASE=1 (the bench's side by side): as before, per-phase rules, always in workers.
  const perPhase = io.env.EFORMS_RULES_PER_PHASE === '1';
  const pool =
    files.length > 1 || perPhase || l.budgetGiven
      ? // prefetch: each worker gets its next notice while it runs one, never waiting for this thread.
        new WorkerPool(perPhase ? l.jobs : Math.min(l.jobs, files.length), undefined, 0, false, true)
      : undefined;
  // The first worker loads its bundle while this thread reads the notices.
  pool?.prestart();
  try {
    return await validateWith(pool, files, io, o, l, sources, perPhase, onDone);
  } finally {
    await pool?.close();
  }
}

async function validateWith(
  pool: WorkerPool | undefined,
  files: string[],
  io: CliIo,
  o: Run,
  l: { sdkDir?: string; jobs: number; budgetMs?: number },
  sources: SdkSources,
  perPhase: boolean,
  onDone?: (i: number, r: FileResult | string) => void,
): Promise<LocalOutcome | string> {
  // Each entry is let go once its notice is done: a batch keeps findings, not every notice's index.
  const notices: (PreparedNotice | string | undefined)[] = files.map((f) => readNotice(f, io, true));
  const wanted = new Set<string>();
  for (const n of notices) {
    if (n === undefined || typeof n === 'string' || n.index.errors.length > 0) continue;
    wanted.add(
      inputFor(n, { language: o.lang, mode: o.mode, sdkVersion: o.sdk ?? '', timeoutMs: 0 }).sdkVersion,
    );
  }
  const sdkFailure = new Map<string, string>();
  const releaseProblems = new Set<string>();
  let noSdk = false;
  // The release each wanted version resolved to: its fields and labels complete the findings.
  const releases = new Map<string, { dir: string; version: string }>();
  for (const v of wanted) {
    try {
      await resolveSdk(
        {
          ...sources,
          download: sources.download && {
            ...sources.download,
            onProgress: (p) =>
              io.progress?.(
                `Downloading eForms SDK ${v}: ${(p.received / 1048576).toFixed(1)}${p.total ? ` of ${(p.total / 1048576).toFixed(1)}` : ''} MB${p.phase === 'unpack' ? ', unpacking' : ''}`,
              ),
          },
        },
        o.sdk ? { pinned: o.sdk } : { declared: v || undefined },
      ).then((r) => {
        releases.set(v, { dir: r.release.dir, version: r.release.version });
        if (r.downloaded) {
          io.progress?.('');
          io.err(`Downloaded eForms SDK ${r.release.version} into ${r.release.dir}`);
        }
      });
    } catch (e) {
      io.progress?.('');
      if (!(e instanceof SdkError)) throw e;
      const problem = sdkProblemForCli(e, l.sdkDir);
      sdkFailure.set(v, problem);
      if (isReleaseProblem(e)) releaseProblems.add(problem);
      if (e.kind === 'no-sdk') noSdk = true;
    }
  }
  // No SDK at all stops every notice: said once. A failure about the release some notices ask for is
  // each notice's outcome (in the JSON and SARIF too), even when it is the only notice.
  if (noSdk) return sdkFailure.values().next().value as string;

  const ruleCacheDir = join(dirname(sources.cacheRoot), 'rules');
  const workerSources = { path: sources.path, cacheRoot: sources.cacheRoot };
  // As many workers as help: the cores, the rule sets, and (with the release table) the work each
  // further worker would take over, against what it costs to start (EFORMS_JOBS_AS_GIVEN=1: no estimate,
  // for tests that compare workers).
  pool?.resize(
    usefulJobs(
      pool.size,
      notices.map((n) => affinityKey(n, o)),
      availableParallelism(),
      perPhase || io.env.EFORMS_JOBS_AS_GIVEN === '1'
        ? undefined
        : notices.map((n) => (n === undefined || typeof n === 'string' ? 0 : n.bytes.length)),
    ),
  );
  const validator = pool
    ? new WorkerValidator(pool, workerSources, ruleCacheDir, l.budgetMs ?? 0)
    : new LocalSdkValidator({ sources: workerSources, ruleCacheDir });
  const pipeline = new ValidationPipeline(validator, sources.path, 0);
  const results: (FileResult | string)[] = new Array(files.length);
  // Notices that need the same rule set go out together, so each worker compiles as few phases as it can.
  const order = files
    .map((_, i) => i)
    .sort((a, b) => affinityKey(notices[a], o).localeCompare(affinityKey(notices[b], o)) || a - b);
  let done = 0;
  try {
    // Every notice is queued at once (they are read already): the pool sees them all, and gives each
    // worker the notices of the rule sets it compiled.
    const all = Promise.all(
      order.map(async (i) => {
        const r = await validateLocalOne(
          files[i] as string,
          notices[i] as PreparedNotice | string,
          io,
          o,
          pipeline,
          sdkFailure,
          releases,
        );
        notices[i] = undefined;
        // What is printed later needs the report's release, phase and SVRL text, not its assertions
        // (placed as findings already): a batch keeps one copy of each failure, not two.
        results[i] =
          typeof r === 'string' || !r.report
            ? r
            : { ...r, report: { ...r.report, report: { ...r.report.report, assertions: [] } } };
        onDone?.(i, results[i] as FileResult | string);
        done++;
        io.progress?.(`Validated ${done} of ${files.length} notices with the SDK rules…`);
      }),
    );
    // While a worker loads its first rules this thread only waits: it reads the SDK's fields and labels
    // now, which completing the first findings needs, instead of then, while the worker waits for its
    // next notice (60 ms of a 102-notice run). A release that cannot be read says so where it did.
    if (pool)
      setImmediate(() => {
        for (const r of releases.values()) {
          try {
            sdkKnowledge(r.dir, r.version);
          } catch {
            // read again, and reported, by the first notice that needs it
          }
        }
      });
    await all;
  } finally {
    io.progress?.('');
  }
  // The rules ran in this thread: V8's code cache of the CLI should hold them (a batch's cache does not).
  if (!pool) {
    const covers = (globalThis as Record<symbol, unknown>)[CODE_CACHE_COVERS];
    if (typeof covers === 'function') covers('rules');
  }
  return { results, releaseProblems };
}

function affinityKey(n: PreparedNotice | string | undefined, o: Run): string {
  if (n === undefined || typeof n === 'string') return '';
  return affinityOf(inputFor(n, { language: o.lang, mode: o.mode, sdkVersion: o.sdk ?? '', timeoutMs: 0 }));
}

async function validateLocalOne(
  file: string,
  notice: PreparedNotice | string,
  io: CliIo,
  o: Run,
  pipeline: ValidationPipeline,
  sdkFailure: Map<string, string>,
  releases: Map<string, { dir: string; version: string }>,
): Promise<FileResult | string> {
  if (typeof notice === 'string') return notice;
  const request = {
    language: o.lang,
    mode: o.mode,
    sdkVersion: o.sdk ?? '',
    timeoutMs: o.timeoutMs,
    today: o.today,
    // Only --format svrl prints the report's text: the other formats are made from the findings.
    svrl: o.format === 'svrl',
  };
  if (notice.index.errors.length === 0) {
    const failure = sdkFailure.get(inputFor(notice, request).sdkVersion);
    // A cbc:CustomizationID that is there but names no release (`eforms-sdk-1.15.1`): its located error
    // among the local checks says what to write, where "declares no SDK version" was not true.
    if (failure && !o.sdk && findCustomizationId(notice.index) && !declaredSdkVersion(notice.index)) {
      io.err(
        `${terminalName(file)}: the SDK rules did not run: its cbc:CustomizationID names no SDK release: correct it (see the error), or choose a release with --sdk X.Y.`,
      );
      return { file, findings: completeFindings(notice.local, { index: notice.index }) };
    }
    if (failure) return failure;
  }
  const run = await validateOnce(notice, pipeline, request);
  const release =
    run.outcome === 'validated' ? releases.get(inputFor(notice, request).sdkVersion) : undefined;
  const sdk = release
    ? { knowledge: () => sdkKnowledge(release.dir, release.version), language: o.lang }
    : undefined;
  const out = resultOf(file, notice, run, io, 'the SDK rules did not run', sdk);
  if (run.outcome === 'validated') {
    const r = run.report;
    if (r.because === 'only')
      io.err(
        `${terminalName(file)}: the notice declares no SDK version: validated with eForms SDK ${r.sdkVersion}, the only one available.`,
      );
    const notEvaluated = describeNotEvaluated(r.notEvaluated);
    if (notEvaluated) io.err(`${terminalName(file)}: ${notEvaluated}`);
  }
  // The SDK engine throws no CvsError: any failure here is an SdkError, already worded.
  return out instanceof CvsError ? `the SDK rules failed: ${out.message}` : out;
}

/** Whether an SDK error concerns a release rather than one notice: missing, not downloadable, corrupt. */
function isReleaseProblem(e: SdkError): boolean {
  if (e.failure) return true;
  return (
    e.kind === 'version-missing' ||
    e.kind === 'consent-needed' ||
    e.kind === 'offline' ||
    e.kind === 'not-found' ||
    e.kind === 'corrupt'
  );
}

/** SDK errors in this command's words: its flags, never the editor's settings. */
export function sdkProblemForCli(e: SdkError, sdkDir?: string): string {
  const f = e.fields;
  const where = sdkDir ? `--sdk-dir ${sdkDir}` : 'no --sdk-dir';
  // The repository failed at the transport: worded like any service's failure (failure-wording.ts).
  if (e.failure && e.kind !== 'cancelled')
    return `eForms SDK cannot be downloaded from the repository: ${describeFailure(e.failure)} Name a folder that holds it with --sdk-dir DIR${isTransient(e.failure.kind) ? ', or connect' : ''}.`;
  switch (e.kind) {
    case 'no-sdk':
      return `no eForms SDK is available (${where}, nothing in the cache): name a folder with --sdk-dir DIR, or add --download to fetch it (needs a connection).`;
    case 'version-missing':
      return `eForms SDK ${f.wanted} is not available (found ${(f.available ?? []).join(', ') || 'none'}): name a folder that holds it with --sdk-dir DIR, add --download, or choose another with --sdk.`;
    case 'no-version':
      return `the notice declares no SDK version and several are available (${(f.available ?? []).join(', ')}): choose one with --sdk X.Y.`;
    case 'consent-needed':
      return `eForms SDK ${f.wanted} is not on this machine: name a folder that holds it with --sdk-dir DIR, or add --download to fetch it from the official Maven repository.`;
    case 'offline':
      return `eForms SDK cannot be downloaded from ${f.url ?? 'the repository'} (${f.reason ?? 'no connection'}): name a folder that holds it with --sdk-dir DIR, or connect.`;
    case 'not-found':
      return `the SDK repository has no release ${f.wanted ?? ''} (HTTP ${f.status ?? '?'} at ${f.url ?? ''}): choose another version with --sdk.`;
    case 'corrupt':
      return `the downloaded eForms SDK was corrupt (${f.reason ?? 'checksum mismatch'}) and nothing was kept: try again, or use --sdk-dir DIR.`;
    case 'cancelled':
      return 'the SDK download was cancelled.';
    case 'engine':
      return `the SDK rules could not run (${f.reason ?? 'unknown reason'}).`;
    case 'time-budget':
      return `the SDK rules ran longer than their time budget of ${formatBudget(f.budgetMs ?? 0)} and were stopped, so they did not check this notice: give them longer with --time-budget SECONDS.`;
  }
}

/** What the JSON and SARIF outputs say of one file; `sort`: its findings are not yet by position. */
function outcomeFor(file: string, r: FileResult | CvsError | string, sort: boolean): FileOutcome {
  if (typeof r === 'string' || r instanceof CvsError)
    return { file, outcome: 'failed', findings: [], error: typeof r === 'string' ? r : describeFailure(r) };
  const o: FileOutcome = {
    file: r.file,
    outcome: 'validated',
    findings: sort ? sortByPosition(r.findings) : r.findings,
  };
  if (r.report?.sdkVersion) o.sdkVersion = r.report.sdkVersion;
  if (r.report) o.engine = r.report.engine === 'cvs' ? 'cvs' : 'local';
  return o;
}

function print(results: FileResult[], format: Format, io: CliIo, outDir?: string): void {
  if (format === 'svrl') {
    if (outDir) mkdirSync(outDir, { recursive: true });
    const used = new Set<string>();
    for (const r of results) {
      const svrl = r.report?.svrl;
      if (!svrl) {
        io.err(`${terminalName(r.file)}: no report (the notice was not validated).`);
        continue;
      }
      if (!outDir) {
        io.out(svrl.replace(/\n$/, ''));
        continue;
      }
      let name = `${basename(r.file).replace(/\.xml$/i, '')}.svrl`;
      for (let n = 2; used.has(name); n++) name = `${basename(r.file).replace(/\.xml$/i, '')}-${n}.svrl`;
      used.add(name);
      writeFileSync(join(outDir, name), svrl);
      io.out(
        `${terminalName(r.file)}: ${terminalName(join(outDir, name))} (${r.findings.length === 0 ? 'no findings' : summarize(r.findings)})`,
      );
    }
    return;
  }
  for (const r of results) {
    const out = formatFindings(r.findings, r.file, 'text');
    if (out) io.out(out);
    io.out(
      `${terminalName(r.file)}: ${r.findings.length === 0 ? 'no findings' : summarize(r.findings)}${releaseNote(r.report)}`,
    );
  }
}

/** The release whose rules gave the report: a mixed folder of notices meets several. */
function releaseNote(report: EngineReport | undefined): string {
  if (!report?.sdkVersion) return '';
  // The CVS picks the patch itself: only the MAJOR.MINOR asked for (or declared) is known.
  if (report.engine === 'cvs')
    return ` (eforms-sdk-${minorOf(report.sdkVersion) ?? report.sdkVersion}, by the CVS)`;
  return ` (eForms SDK ${report.sdkVersion} rules)`;
}

function isDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

/**
 * Workers that help: never more than the cores, nor than the rule sets the notices need (each worker
 * compiles the phases it runs, so two workers on one phase double the memory and save little). Given
 * the notices' sizes in bytes, also never more than the work pays for: each worker beyond the first
 * starts, reads the release and compiles again the patterns the phases share (1.3 to 1.6 s of CPU on
 * SDK 1.15.1), while this thread and V8's compiler and collector threads already keep about one of two
 * cores busy. So a worker is added only while its share of the evaluation is at least twice its start.
 * Measured on two cores (issue 19): 102 notices over 51 phases, 520 small notices over 8 phases and 24
 * notices of 1.7 MB over 2 phases were no faster with two workers than with one, and took 20 to 40 %
 * more CPU and 100 to 180 MB more memory.
 */
export function usefulJobs(
  jobs: number,
  affinities: readonly string[],
  cores = availableParallelism(),
  sizes?: readonly number[],
): number {
  const most = Math.max(1, Math.min(jobs, cores, new Set(affinities.filter(Boolean)).size));
  if (!sizes) return most;
  const work = estimatedRuleMs(sizes);
  let n = 1;
  while (n < most && work / (n + 1) >= 2 * WORKER_START_MS) n++;
  return n;
}

/** CPU a worker costs before its first notice: start, read the release, compile the shared patterns. */
export const WORKER_START_MS = 1500;

/**
 * Milliseconds of CPU a worker spends on notices of these sizes once their rules are compiled: about
 * 3 ms a notice (indexing, the model, the report) and 0.1 ms a kilobyte (SDK 1.15.1: 8 ms for the 73 KB
 * cn_24_maximal, 3 ms for a 12 KB notice, 100 to 170 ms for the 1.7 MB 100-lot one). An estimate, only
 * to choose how many workers.
 */
export function estimatedRuleMs(sizes: readonly number[]): number {
  let ms = 0;
  for (const b of sizes) if (b > 0) ms += 3 + (0.1 * b) / 1024;
  return ms;
}

function parse(args: string[]) {
  return parseCommandLine('validate', {
    args,
    allowPositionals: true,
    strict: true,
    options: {
      local: { type: 'boolean' },
      'sdk-dir': { type: 'string' },
      download: { type: 'boolean' },
      today: { type: 'string' },
      jobs: { type: 'string', short: 'j' },
      output: { type: 'string', short: 'o' },
      env: { type: 'string' },
      'cvs-url': { type: 'string' },
      sdk: { type: 'string' },
      mode: { type: 'string' },
      lang: { type: 'string' },
      format: { type: 'string', short: 'f' },
      timeout: { type: 'string' },
      'time-budget': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
