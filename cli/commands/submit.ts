// `eforms submit NOTICE.xml --email X --locale en`: submits a notice to eNotices2. First it validates the
// notice through the one pipeline (the CVS of the same environment, and the official SDK rules here
// with --sdk-dir) and refuses a notice with errors (exit EXIT_SUBMIT_REFUSED) unless --force is given:
// eNotices2 would create it but not submit it, and a business id would be spent on it. eNotices2
// validates again and creates the notice whether or not validation succeeds; only a valid one is
// submitted for publication. Never retried (a retry could submit twice). Publishing to production always
// asks first, naming the notice and the environment: yes/no on a terminal (No unless answered yes);
// without a terminal it refuses (exit EXIT_NOT_CONFIRMED) unless --yes was given. It never asks when
// --yes was given, and never sends to production without a yes.

import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Finding } from '../../core/findings';
import { serviceUrls } from '../../core/http';
import { readNoticeIdentity } from '../../core/notice';
import { defaultSdkCacheRoot } from '../../core/sdk';
import { terminalName } from '../../core/text';
import {
  cvsPipeline,
  type EngineRun,
  LocalSdkValidator,
  mergeEngineFindings,
  prepareNotice,
  servicePreflight,
  ValidationPipeline,
  validateOnce,
} from '../../core/validation';
import { serviceUrlsOf } from '../environment';
import { describeRefusal } from '../failure-wording';
import { decodeInputText } from '../input-files';
import { type CliIo, EXIT_FAILURE, EXIT_FINDINGS, EXIT_OK, parseCommandLine, UsageError } from '../io';
import { formatFindings } from '../output-formats';
import {
  CONNECTION_OPTIONS,
  CONNECTION_USAGE,
  connect,
  readInput,
  reportFailure,
} from './enotices-connection';

/** The exit status of a submission refused before sending, because the notice has errors. */
export const EXIT_SUBMIT_REFUSED = 3;
/** The exit status of a submission to production not sent, because nobody confirmed it. */
export const EXIT_NOT_CONFIRMED = 4;
/** Errors listed before the refusal; the rest are counted. */
const ERRORS_SHOWN = 20;

const USAGE = `Usage: eforms submit NOTICE.xml --email AUTHOR@EXAMPLE.ORG [--locale en] [--format text|json] [--force] [--yes]

Validates the notice first (the CVS of the environment, with EFORMS_API_KEY; and the official eForms SDK
rules on this machine with --sdk-dir), and refuses it when it has errors, unless --force is given. Then
submits it to eNotices2, which validates it again: when validation succeeds the notice is SUBMITTED for
publication; otherwise it is created but not submitted, and 'eforms report' shows why.

Options:
  --email ADDRESS   e-mail of the person responsible for the notice (or $EFORMS_AUTHOR_EMAIL)
  --locale CODE     language of that person (default en)
  --format FORMAT   text (default) or json
  --force           submit even when the check finds errors, or cannot run
  --yes             publish to production without asking (it asks on a terminal, and refuses without one)
  --cvs-url URL     base URL of the CVS for the check (default: the environment's, or $EFORMS_CVS_URL)
  --sdk-dir DIR     also check with the official SDK rules of this release (or folder of releases)
${CONNECTION_USAGE}

Exit status: 0 submitted, 1 created but not submitted or refused by eNotices2, 2 usage error, service
failure or a check that could not run, ${EXIT_SUBMIT_REFUSED} not sent: the notice has errors (--force sends it anyway),
${EXIT_NOT_CONFIRMED} not sent: publishing to production was not confirmed (answer y on a terminal, or give --yes).`;

export async function submit(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args);
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (positionals.length !== 1)
    throw new UsageError("give one notice file. Run 'eforms submit --help' for usage.");
  const email = values.email?.trim() || io.env.EFORMS_AUTHOR_EMAIL?.trim();
  if (!email)
    throw new UsageError('give the notice author e-mail with --email (or set EFORMS_AUTHOR_EMAIL).');
  const locale = values.locale?.trim() || 'en';
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError('--format must be text or json');
  const client = connect(values, io);
  const file = positionals[0];
  const bytes = readInput(io, file, 'notice');
  const id = readNoticeIdentity(bytes);
  if (!values.force) {
    const check = await checkBeforeSubmit(file, bytes, values, io);
    if (typeof check === 'string') {
      io.err(`${terminalName(file)}: not submitted: ${check}. Submit without the check with --force.`);
      return EXIT_FAILURE;
    }
    const errors = check.filter((f) => f.severity === 'error');
    if (errors.length > 0) {
      if (format === 'json')
        io.out(
          JSON.stringify(
            {
              submitted: false,
              reason: 'errors',
              errors: errors.length,
              findings: JSON.parse(formatFindings(errors, file, 'json')),
            },
            null,
            2,
          ),
        );
      else {
        io.out(formatFindings(errors.slice(0, ERRORS_SHOWN), file, 'text'));
        if (errors.length > ERRORS_SHOWN) io.out(`… and ${errors.length - ERRORS_SHOWN} more errors.`);
      }
      io.err(
        `${terminalName(file)}: NOT submitted: the notice has ${errors.length} error${errors.length === 1 ? '' : 's'}. Fix ${errors.length === 1 ? 'it' : 'them'}, or submit anyway with --force (eNotices2 would create the notice but not submit it for publication).`,
      );
      return EXIT_SUBMIT_REFUSED;
    }
  }
  const env = serviceUrlsOf(values, io).env;
  if (isProduction(env, client.baseUrl) && !values.yes) {
    const bid = id.ok ? (id.identity.businessId ?? id.identity.noticeId) : '';
    const what = `${terminalName(file)}${bid ? ` (notice ${bid})` : ''}`;
    const answer = await confirm(
      `Publish ${what} to PRODUCTION (${client.baseUrl})? A submitted notice is published on TED. [y/N] `,
    );
    if (answer !== true) {
      const why =
        answer === undefined
          ? 'publishing to production asks first, and there is no terminal to ask on. Run it in a terminal, or give --yes'
          : 'publishing to production was not confirmed';
      if (format === 'json')
        io.out(
          JSON.stringify({ submitted: false, reason: 'not-confirmed', environment: 'production' }, null, 2),
        );
      io.err(`${terminalName(file)}: NOT submitted to production (${client.baseUrl}): ${why}.`);
      return EXIT_NOT_CONFIRMED;
    }
  }
  io.err(`Submitting ${terminalName(file)} to ${client.baseUrl}…`);
  let result: Awaited<ReturnType<typeof client.submit>>;
  try {
    result = await client.submit(bytes, { noticeAuthorEmail: email, noticeAuthorLocale: locale });
  } catch (e) {
    return reportFailure(io, 'submit', e);
  }
  const bid = result.businessId ?? (id.ok ? id.identity.businessId : undefined) ?? '(unknown business id)';
  if (format === 'json') io.out(JSON.stringify({ businessId: bid, ...result }, null, 2));
  else if (result.success)
    io.out(
      `Submitted ${bid}: validation passed and the notice is SUBMITTED for publication.\nFollow it with: eforms search --id ${bid.slice(0, 36)}`,
    );
  else
    io.out(
      `Created ${bid} but NOT submitted: validation failed.\nSee why with: eforms report ${bid} --notice ${terminalName(file)}\nFix the notice, increase cbc:VersionID, and submit again.`,
    );
  return result.success ? EXIT_OK : EXIT_FINDINGS;
}

/** Production: named so (--env, EFORMS_ENV), or its eNotices2 address given as a custom URL. */
function isProduction(env: string, baseUrl: string): boolean {
  const norm = (u: string) => u.trim().replace(/\/+$/, '').toLowerCase();
  return env === 'production' || norm(baseUrl) === norm(serviceUrls('production').enotices);
}

/**
 * Asks a yes/no question on the terminal (the question on stderr, so that stdout stays the result):
 * true only for `y` or `yes`; false for anything else, Enter included; undefined when stdin is not a
 * terminal (a pipe, CI), where nobody can answer.
 */
export function confirm(
  question: string,
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WritableStream = process.stderr,
): Promise<boolean | undefined> {
  if (!input.isTTY) return Promise.resolve(undefined);
  return new Promise((done) => {
    const rl = createInterface({ input, output, terminal: true });
    let answered = false;
    rl.on('close', () => {
      // Ctrl+D or Ctrl+C: no answer is a no.
      if (!answered) done(false);
    });
    rl.question(question, (a) => {
      answered = true;
      rl.close();
      done(/^\s*y(es)?\s*$/i.test(a));
    });
  });
}

/**
 * The notice's findings through every engine asked for (the CVS of the environment; the SDK rules with
 * --sdk-dir), merged as the editor merges them; a string says why the check could not run.
 */
async function checkBeforeSubmit(
  file: string,
  bytes: Buffer,
  values: ReturnType<typeof parse>['values'],
  io: CliIo,
): Promise<Finding[] | string> {
  const notice = prepareNotice(decodeInputText(bytes, file, 'notice'), bytes);
  const request = { language: 'en', mode: 'static' as const, sdkVersion: '', timeoutMs: 60_000 };
  const runs: EngineRun[] = [];
  if (values['sdk-dir']) {
    const sources = { path: resolve(io.cwd, values['sdk-dir']), cacheRoot: defaultSdkCacheRoot(io.env) };
    const local = new ValidationPipeline(new LocalSdkValidator({ sources }), JSON.stringify(sources));
    runs.push(await validateOnce(notice, local, request));
  }
  const baseUrl = serviceUrlsOf(values, io).cvs;
  const apiKey = io.env.EFORMS_API_KEY?.trim();
  const verdict = servicePreflight({ apiKey, baseUrl });
  if (!verdict.ok) return `the validation service cannot be asked: ${describeRefusal(verdict)}`;
  io.err(`Validating ${terminalName(file)} with ${baseUrl} before submitting…`);
  runs.push(await validateOnce(notice, cvsPipeline({ baseUrl, apiKey }), request));
  const failed = runs.map(why).find((w) => w !== undefined);
  if (failed !== undefined) return failed;
  // The local checks come with each run: kept once, then the engines' findings merged.
  const local = notice.local;
  const engine = (r: EngineRun) => r.findings.slice(local.length);
  const merged = runs.length === 2 ? mergeEngineFindings(engine(runs[0]), engine(runs[1])) : engine(runs[0]);
  return [...local, ...merged];
}

/** Why a run did not validate, or undefined when it did (a refused notice is a finding, not a failure). */
function why(r: EngineRun): string | undefined {
  switch (r.outcome) {
    case 'validated':
    case 'notice-refused':
      return undefined;
    case 'not-sent':
      // Not well-formed: the syntax errors are the findings (errors), so the notice is refused for them.
      return r.verdict.reason === 'malformed'
        ? undefined
        : `it was not validated: ${describeRefusal(r.verdict)}`;
    case 'failed':
      return r.failure.class === 'cancelled'
        ? 'the check was cancelled'
        : `the check failed: ${r.failure.cause.error.message}`;
  }
}

function parse(args: string[]) {
  return parseCommandLine('submit', {
    args,
    allowPositionals: true,
    options: {
      ...CONNECTION_OPTIONS,
      email: { type: 'string' },
      locale: { type: 'string' },
      format: { type: 'string' },
      force: { type: 'boolean' },
      yes: { type: 'boolean' },
      'cvs-url': { type: 'string' },
      'sdk-dir': { type: 'string' },
    },
  });
}
