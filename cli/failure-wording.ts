// How the command line words a service failure, for all three services (CVS, eNotices2, agri-food):
// from the error's kind and fields only, never from the text of another front end's sentence. It names
// what a terminal user can change (--env, --cvs-url, EFORMS_API_KEY, HTTPS_PROXY…), never a VS Code
// setting or command. It never prints an API key or a proxy's credentials (fields hold neither).

import {
  describeBytes,
  describeNetworkReason,
  type FailureFields,
  isLoopbackUrl,
  ServiceError,
} from '../core/http';
import { overLimitMessage } from '../core/notice';
import type { CvsError } from '../core/services';
import { EnoticesCodes, EnoticesError, OPERATION_LABELS } from '../core/services';
import type { PreflightRefusal } from '../core/validation';
import { type CliIo, EXIT_FAILURE, EXIT_FINDINGS } from './io';

const SERVICE_NAMES = {
  cvs: 'the validation service',
  enotices: 'eNotices2',
  agrifood: 'the agri-food service',
  sdk: 'the SDK repository',
} as const;

const URL_OPTIONS = {
  cvs: '--cvs-url',
  enotices: '--enotices-url',
  agrifood: '--agrifood-url',
  sdk: 'EFORMS_SDK_REPOSITORY',
} as const;

/** One sentence (or two) for a service failure, as a terminal user should read it. */
export function describeFailure(err: ServiceError): string {
  if (err.service === 'sdk') return describeSdkRepository(err);
  const f = err.fields;
  const name = SERVICE_NAMES[err.service];
  const at = f.origin ? ` at ${f.origin}` : '';
  const unsure =
    err instanceof EnoticesError && (err.operation === 'submit' || err.operation === 'stop-publication')
      ? ` The request may have reached eNotices2: check with 'eforms search' before trying again.`
      : '';
  switch (err.kind) {
    case 'cancelled':
      return 'cancelled.';
    case 'timeout':
      return `${name}${at} gave no answer within ${seconds(f)} s.${timeoutAdvice(err)}${unsure}`;
    case 'network': {
      if (f.reason === 'not-http')
        return `${name}${at} sent an answer that is not valid HTTP: something else may be listening there. Check ${URL_OPTIONS[err.service]} and --env.${unsure}`;
      const sandbox =
        f.origin && isLoopbackUrl(f.origin) ? " Is the sandbox running ('eforms sandbox')?" : '';
      const proxy = f.proxy ? ` (through the proxy ${f.proxy})` : '';
      return `cannot reach ${name}${at}${proxy} (${describeNetworkReason(f.reason)}). Check the network and --env.${sandbox}${unsure}`;
    }
    case 'proxy':
      return `the proxy ${f.proxy} ${
        f.status
          ? `refused the connection to ${f.origin} (${f.status})`
          : `cannot be reached (${describeNetworkReason(f.reason)})`
      }. Check HTTPS_PROXY, HTTP_PROXY and NO_PROXY (hosts listed in NO_PROXY are reached directly).${unsure}`;
    case 'redirect':
      return `${name}${at} has moved to ${f.location}: give the new address with ${URL_OPTIONS[err.service]}, or check --env.`;
    case 'too-large':
      return `${name}${at} sent an answer larger than ${describeBytes(f.maxBytes ?? 0)}.${err.service === 'agrifood' ? ' Narrow the query.' : ''}`;
  }
  if (err.service === 'cvs') return describeCvs(err as CvsError);
  if (err instanceof EnoticesError && err.kind === 'auth' && err.code !== EnoticesCodes.noAccount) {
    const said = f.serviceMessage ? ` (eNotices2 said: "${f.serviceMessage}")` : '';
    return `eNotices2 refused the API key${f.status ? ` (HTTP ${f.status})` : ''}: set EFORMS_API_KEY to a valid key for this environment (--env; preview keys do not work in production).${said}`;
  }
  if (err instanceof EnoticesError) {
    // The editor's table words these with My Notices; a terminal user checks with `eforms search`.
    const label = OPERATION_LABELS[err.operation];
    const said = f.serviceMessage ? ` (eNotices2 said: "${f.serviceMessage}")` : '';
    switch (err.kind) {
      case 'state':
        return `${label} failed: publication can be stopped only while the notice is SUBMITTED, and this one is not (any more): check its status with 'eforms search --id NOTICE_ID'.${said}`;
      case 'busy':
        return `${label} failed: another change holds this notice at the moment: check with 'eforms search' in a few seconds, and try again only if nothing changed.${said}`;
      case 'already-exists':
        return `${label} failed: a notice with the same notice id and version already exists: increase cbc:VersionID (e.g. 01 -> 02), or give a new notice a new cbc:ID, then submit again.${said}`;
    }
  }
  // The other eNotices2 and agri-food messages are neutral, or name the command-line options too. An
  // answer that could not be read may hide a submission or a stop that happened.
  return `${err.message.replace(/^[A-Z]/, (c) => c.toLowerCase())}${err.kind === 'protocol' ? unsure : ''}`;
}

/** The SDK download's transport failures: the repository is set with EFORMS_SDK_REPOSITORY. */
function describeSdkRepository(err: ServiceError): string {
  const f = err.fields;
  const at = f.origin ? ` at ${f.origin}` : '';
  switch (err.kind) {
    case 'cancelled':
      return 'cancelled.';
    case 'timeout':
      return f.stalled
        ? `the SDK repository${at} sent nothing for ${seconds(f)} s. Try again later.`
        : `the SDK repository${at} gave no answer within ${seconds(f)} s. Try again later.`;
    case 'network':
      return `cannot reach the SDK repository${at}${f.proxy ? ` (through the proxy ${f.proxy})` : ''} (${describeNetworkReason(f.reason)}). Check the network and EFORMS_SDK_REPOSITORY.`;
    case 'proxy':
      return `the proxy ${f.proxy} ${
        f.status
          ? `refused the connection to ${f.origin} (${f.status})`
          : `cannot be reached (${describeNetworkReason(f.reason)})`
      }. Check HTTPS_PROXY, HTTP_PROXY and NO_PROXY.`;
    case 'redirect':
      return `the SDK repository${at} has moved to ${f.location}: set EFORMS_SDK_REPOSITORY to the new address.`;
    case 'too-large':
      return `the SDK repository${at} sent an answer larger than ${describeBytes(f.maxBytes ?? 0)}, the most this tool accepts.`;
    case 'insecure':
      return `refusing plain http to the SDK repository${at}: set EFORMS_SDK_REPOSITORY to an https address (plain http only to loopback).`;
    default:
      return err.message.replace(/^[A-Z]/, (c) => c.toLowerCase());
  }
}

function describeCvs(err: CvsError): string {
  const f = err.fields;
  const said = f.serviceMessage ? `: ${f.serviceMessage}` : '';
  switch (err.kind) {
    case 'notice-rejected':
      return `the validation service refused the notice (400): ${f.serviceMessage}.`;
    case 'bad-request':
      return `the validation service rejected the request (400)${f.serviceMessage ? `: ${f.serviceMessage}.` : ' without saying why.'} Check --lang, --mode and --sdk (or the notice's cbc:CustomizationID).`;
    case 'missing-key':
      // Also when EFORMS_API_KEY is set: the key did not arrive (a proxy may drop the header) or is unknown.
      return 'the service asked for an API key (401): set EFORMS_API_KEY; if it is set, the service did not receive it or does not know it: check the key, --env, and any proxy on the way.';
    case 'forbidden':
      return 'the API key was refused (403): set EFORMS_API_KEY to a valid key for this environment (--env).';
    case 'insecure':
      return `refusing to send the API key to ${f.origin ?? 'this address'}: use https (plain http only to loopback), with --env or --cvs-url.`;
    case 'server':
      return `the validation service${f.origin ? ` at ${f.origin}` : ''} failed (HTTP ${f.status})${said}. Try again later.`;
    default:
      if (f.request === 'version-range')
        return `the validation service${f.origin ? ` at ${f.origin}` : ''} gave an answer that is not its version range (a minimum and a maximum SDK version)${f.status && f.status !== 200 ? ` (HTTP ${f.status})` : ''}${said}: check --env and --cvs-url.`;
      return `the validation service${f.origin ? ` at ${f.origin}` : ''} gave an answer that is not a validation report${f.status && f.status !== 200 ? ` (HTTP ${f.status})` : ''}${said}: check --env and --cvs-url.`;
  }
}

function seconds(f: FailureFields): number {
  return Math.round((f.timeoutMs ?? 0) / 1000);
}

function timeoutAdvice(err: ServiceError): string {
  if (err.service === 'cvs') return ' --timeout sets the limit.';
  if (err.service === 'agrifood') return ' Narrow the query (fewer years or Member States).';
  return ' Try again later.';
}

/** Kinds where the service (or the user's key or input) said no, rather than failing. */
const REFUSALS = new Set([
  'auth',
  'invalid',
  'not-found',
  'state',
  'already-exists',
  'busy',
  'bad-request',
  'notice-rejected',
  'missing-key',
  'forbidden',
  'invalid-query',
  'unknown-path',
]);

/**
 * Prints a service failure as `eforms NAME: …` and returns the exit status: 1 when the service refused
 * (key, input, state, not found), 2 when it failed, could not be reached, or nothing was sent.
 * Anything that is not a ServiceError is a bug and is rethrown.
 */
export function reportFailure(io: CliIo, name: string, err: unknown): number {
  if (!(err instanceof ServiceError)) throw err;
  io.err(`eforms ${name}: ${describeFailure(err)}`);
  return REFUSALS.has(err.kind) ? EXIT_FINDINGS : EXIT_FAILURE;
}

/** True when every further request with the same key would fail the same way: say it once and stop. */
export function isKeyProblem(err: ServiceError): boolean {
  return err.kind === 'missing-key' || err.kind === 'forbidden' || err.kind === 'auth';
}

/** How a terminal user gives the CLI their API key. */
export const SET_API_KEY =
  'export EFORMS_API_KEY=<your API key> (from your TED developer account; for --env sandbox, the key that eforms sandbox prints)';

/**
 * Why a notice was not sent to an engine (core/validation's preflight), as the end of a sentence that
 * begins with what did not run ("not sent to the service", "the SDK rules did not run").
 */
export function describeRefusal(v: PreflightRefusal): string {
  switch (v.reason) {
    case 'needs-key':
      return `EFORMS_API_KEY is not set: ${SET_API_KEY}.`;
    case 'insecure':
      return `refusing to send the API key to ${v.origin}: use https (plain http only to loopback), with --env or --cvs-url.`;
    case 'malformed':
      return 'the XML is not well-formed (fix the error shown first).';
    case 'too-large':
      return `${(v.bytes / 1048576).toFixed(1)} MB, above the ${v.limit / 1048576} MB the service is sent.`;
    case 'too-many-elements':
      return overLimitMessage('localNoticeElements', v.elements);
  }
}
