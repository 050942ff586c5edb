// How the editor words a service failure, for all three services (CVS, eNotices2, agri-food): from
// the error's service, kind and fields only (core/http's ServiceError), never from another front end's
// sentence. It names what a VS Code user can change (the eForms environment, VS Code's proxy settings,
// the API key command) and offers the action that fixes the cause. Pure: no `vscode` import, so the
// wording is tested under node:test; client/publication/connection.ts shows it.

import {
  describeBytes,
  describeNetworkReason,
  type FailureFields,
  isLoopbackUrl,
  ServiceError,
} from '../core/http';

/** A button on the failure message; connection.ts maps each to its command. */
export type FailureAction =
  | 'Set API Key'
  | 'Select Environment'
  | 'Proxy Settings'
  | 'Refresh My Notices'
  | 'Show Log';

export interface EditorFailure {
  message: string;
  actions: FailureAction[];
}

const SERVICE_NAMES = {
  cvs: 'the validation service',
  enotices: 'eNotices2',
  agrifood: 'the agri-food service',
  sdk: 'the SDK repository',
} as const;

/** The sentence and the buttons for `err` while doing `what` ("Submitting the notice"). */
export function wordFailure(err: unknown, what: string): EditorFailure {
  if (!(err instanceof ServiceError)) {
    const message = err instanceof Error ? err.message : String(err);
    return { message: `${what} failed: ${message}`, actions: ['Show Log'] };
  }
  if (err.service === 'sdk') return wordSdkRepository(err, what);
  const f: FailureFields = err.fields;
  const name = SERVICE_NAMES[err.service as keyof typeof SERVICE_NAMES] ?? 'the service';
  const at = f.origin ? ` at ${f.origin}` : '';
  const op = (err as { operation?: string }).operation;
  const unsure =
    err.service === 'enotices' && (op === 'submit' || op === 'stop-publication')
      ? ' The request may have reached eNotices2: refresh My Notices before trying again.'
      : '';
  switch (err.kind) {
    case 'cancelled':
      return { message: `${what} was cancelled.`, actions: [] };
    case 'timeout':
      return {
        message: `${what} failed: ${name}${at} gave no answer within ${Math.round((f.timeoutMs ?? 0) / 1000)} s.${err.service === 'agrifood' ? ' Narrow the query, or raise eforms.agrifood.timeoutMs.' : ' Try again later, or raise eforms.validation.timeoutMs.'}${unsure}`,
        actions: ['Show Log'],
      };
    case 'network': {
      if (f.reason === 'not-http')
        return {
          message: `${what} failed: ${name}${at} sent an answer that is not valid HTTP: something else may be listening there. Check the eForms environment and its service URLs.${unsure}`,
          actions: ['Select Environment', 'Show Log'],
        };
      const sandbox =
        f.origin && isLoopbackUrl(f.origin) ? ' Is the sandbox running (eforms sandbox, or npm start)?' : '';
      const proxy = f.proxy ? ` through the proxy ${f.proxy}` : '';
      return {
        message: `${what} failed: cannot reach ${name}${at}${proxy} (${describeNetworkReason(f.reason)}). Check the network and the eForms environment.${sandbox}${unsure}`,
        actions: ['Select Environment', 'Show Log'],
      };
    }
    case 'proxy':
      return {
        message: `${what} failed: the proxy ${f.proxy ?? ''} ${
          f.status
            ? `refused the connection to ${f.origin ?? name} (${f.status})`
            : `cannot be reached (${describeNetworkReason(f.reason)})`
        }. Check VS Code's http.proxy and http.noProxy settings (hosts in http.noProxy are reached directly).${unsure}`,
        actions: ['Proxy Settings', 'Show Log'],
      };
    case 'redirect':
      return {
        message: `${what} failed: ${name}${at} has moved to ${f.location}. Select the environment again, or set its new address as a custom URL.`,
        actions: ['Select Environment', 'Show Log'],
      };
    case 'too-large':
      return {
        message: `${what} failed: ${name}${at} sent an answer larger than ${describeBytes(f.maxBytes ?? 0)}.${err.service === 'agrifood' ? ' Narrow the query.' : ''}`,
        actions: ['Show Log'],
      };
    case 'auth':
    case 'missing-key':
      return {
        message: `${what} failed: ${name} needs a valid API key for this environment.${said(f)}`,
        actions: ['Set API Key', 'Show Log'],
      };
    case 'forbidden':
      return {
        message: `${what} failed: the API key was refused (403) by ${name}${at}. Set a valid key for this environment.`,
        actions: ['Set API Key', 'Select Environment', 'Show Log'],
      };
    case 'insecure':
    case 'local':
      // Nothing was sent: an http URL for a remote host, or a malformed business id.
      return {
        message: `${what} failed: ${lowerFirst(err.message)}`,
        actions: ['Select Environment', 'Show Log'],
      };
    case 'already-exists':
      return {
        message: `${what} failed: eNotices2 already has this notice id and version. Increase cbc:VersionID to submit a new version, or find it in My Notices.`,
        actions: ['Refresh My Notices', 'Show Log'],
      };
    case 'state':
    case 'busy':
      return {
        message: `${what} failed: ${lowerFirst(err.message)}`,
        actions: ['Refresh My Notices', 'Show Log'],
      };
    case 'bad-request':
      return {
        message: f.serviceMessage
          ? `${what} failed: the validation service rejected the notice (400): ${f.serviceMessage}`
          : `${what} failed: the validation service rejected the request (400) without saying why.`,
        actions: ['Show Log'],
      };
    case 'server':
    case 'service':
    case 'unavailable':
      return {
        message: `${what} failed: ${name}${at} failed${f.status ? ` (HTTP ${f.status})` : ''}.${said(f)} Try again later.`,
        actions: ['Show Log'],
      };
  }
  // An answer that could not be read may hide a submission or a stop that happened.
  if (err.kind === 'protocol' && unsure)
    return {
      message: `${what} failed: ${lowerFirst(err.message)}${unsure}`,
      actions: ['Refresh My Notices', 'Show Log'],
    };
  // The other kinds' messages come from the clients' tables, which say what to do without naming a
  // front end's options.
  return { message: `${what} failed: ${lowerFirst(err.message)}`, actions: ['Show Log'] };
}

/** The SDK download's transport failures: the repository is the eforms.sdk.repositoryUrl setting. */
function wordSdkRepository(err: ServiceError, what: string): EditorFailure {
  const f = err.fields;
  const at = f.origin ? ` at ${f.origin}` : '';
  const instead = ' Or set "eforms.sdk.path" to a folder that holds the SDK.';
  switch (err.kind) {
    case 'cancelled':
      return { message: `${what} was cancelled.`, actions: [] };
    case 'timeout':
      return {
        message: `${what} failed: the SDK repository${at} ${f.stalled ? 'sent nothing for' : 'gave no answer within'} ${Math.round((f.timeoutMs ?? 0) / 1000)} s. Try again later.${instead}`,
        actions: ['Show Log'],
      };
    case 'network':
      return {
        message: `${what} failed: cannot reach the SDK repository${at}${f.proxy ? ` through the proxy ${f.proxy}` : ''} (${describeNetworkReason(f.reason)}). Check the network and "eforms.sdk.repositoryUrl".${instead}`,
        actions: ['Show Log'],
      };
    case 'proxy':
      return {
        message: `${what} failed: the proxy ${f.proxy ?? ''} ${
          f.status
            ? `refused the connection to ${f.origin ?? 'the SDK repository'} (${f.status})`
            : `cannot be reached (${describeNetworkReason(f.reason)})`
        }. Check VS Code's http.proxy and http.noProxy settings.`,
        actions: ['Proxy Settings', 'Show Log'],
      };
    case 'redirect':
      return {
        message: `${what} failed: the SDK repository${at} has moved to ${f.location}. Set "eforms.sdk.repositoryUrl" to the new address.`,
        actions: ['Show Log'],
      };
    case 'too-large':
      return {
        message: `${what} failed: the SDK repository${at} sent an answer larger than ${describeBytes(f.maxBytes ?? 0)}, the most this extension accepts.`,
        actions: ['Show Log'],
      };
    case 'insecure':
      return {
        message: `${what} failed: plain http to the SDK repository${at} is refused. Set "eforms.sdk.repositoryUrl" to an https address (plain http only to loopback).`,
        actions: ['Show Log'],
      };
    default:
      return { message: `${what} failed: ${lowerFirst(err.message)}`, actions: ['Show Log'] };
  }
}

function said(f: FailureFields): string {
  return f.serviceMessage ? ` The service said: ${f.serviceMessage}` : '';
}

function lowerFirst(s: string): string {
  return s.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());
}
