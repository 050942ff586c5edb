// What the validation status item says, as plain data: its text (with codicons), a plain tooltip, an
// accessible label without markup or entities, the command a click runs and the background it needs,
// and the environment in use (production marked in capitals, since notices sent there are published).
// Pure: no `vscode` import, so the wording is tested under node:test; validation-status.ts renders it.

import type { EnvironmentName } from '../core/http';
import { ServiceError } from '../core/http';
import type { SdkLifecycleStatus, ValidationStatusParams } from '../core/protocol';
import { describeAccepted, describeLifecycle, describeSwitches } from '../core/services';
import { Commands } from './command-ids';
import { wordFailure } from './failure-wording';

export interface StatusPresentation {
  text: string;
  tooltip: string;
  /** For screen readers: the text without codicons, then the tooltip. Plain words only. */
  ariaLabel: string;
  command: string;
  background?: 'warning' | 'error';
}

/** How the environment shows in the item: production is the one that publishes, so it shouts. */
export function environmentLabel(env: EnvironmentName): string {
  switch (env) {
    case 'production':
      return 'PRODUCTION';
    case 'preview':
      return 'preview';
    case 'sandbox':
      return 'sandbox';
    default:
      return 'custom';
  }
}

function environmentSentence(env: EnvironmentName, serviceUrl: string | undefined): string {
  const at = serviceUrl ? ` (${serviceUrl})` : '';
  switch (env) {
    case 'production':
      return `Environment: PRODUCTION${at}. Notices submitted here are published on TED.`;
    case 'preview':
      return `Environment: preview${at}, for testing.`;
    case 'sandbox':
      return `Environment: sandbox${at}, the local emulation.`;
    default:
      return `Environment: custom URL${at}.`;
  }
}

/**
 * `s` is the status the item tells (the CVS's, or the SDK rules' when they are the whole story);
 * `local`, the SDK rules' own status for the same notice, told beside the CVS's.
 */
export function presentStatus(
  s: ValidationStatusParams,
  env: EnvironmentName,
  now = Date.now(),
  local?: ValidationStatusParams,
): StatusPresentation {
  const name = `eForms [${environmentLabel(env)}]`;
  // A failure that crossed the connection as data is worded here, in the editor's words; the server's
  // sentence (written for any LSP editor) is the fallback.
  const said = s.failure
    ? wordFailure(
        new ServiceError(s.failure.service, s.failure.kind, s.message ?? '', s.failure.fields),
        'Validating the notice',
      ).message
    : s.message;
  let text: string;
  let tooltip: string;
  let command: string;
  let background: StatusPresentation['background'];
  switch (s.state) {
    case 'needsKey':
      text = `$(key) ${name}: API key needed`;
      tooltip = said ?? 'Local checks only. Set an API key to validate with the Central Validation Service.';
      command = Commands.setApiKey;
      background = 'warning';
      break;
    case 'validating':
      text = `$(sync~spin) ${name}: validating…`;
      tooltip = `Sending the notice to ${s.serviceUrl ?? 'the validation service'}.`;
      command = Commands.showLog;
      break;
    case 'validated':
      text = `$(${s.errors ? 'error' : s.warnings ? 'warning' : 'check'}) ${name}: validated ${ago(s.validatedAt, now)} · ${countsText(s)}`;
      tooltip = `Validated by ${s.serviceUrl ?? 'the validation service'}. Click to open the Problems view.`;
      command = 'workbench.actions.view.problems';
      break;
    case 'offline':
      text = `$(cloud-offline) ${name}: offline`;
      tooltip = said ?? 'The validation service cannot be reached. Local checks still run.';
      command = Commands.showLog;
      background = 'warning';
      break;
    case 'error':
      text = `$(error) ${name}: validation failed`;
      tooltip = said ?? 'The validation service answered with an error. See the log.';
      command = Commands.showLog;
      background = 'error';
      break;
    case 'malformed':
      text = `$(error) ${name}: not well-formed`;
      tooltip =
        s.message ??
        'The notice is not well-formed XML: fix the syntax error shown in the Problems view; it is validated again then.';
      command = 'workbench.actions.view.problems';
      break;
    case 'paused':
      text = `$(debug-pause) ${name}: validate on demand`;
      tooltip = s.message ?? 'Run "eForms: Validate Notice" to validate with the service.';
      command = Commands.validateNow;
      break;
    default:
      text = `$(file-code) ${name}`;
      tooltip = 'eForms notice tools.';
      command = Commands.showLog;
  }
  if (s.engine === 'local') {
    // The SDK rules alone: say so, and name the release that produced the counts.
    const src = s.local?.source ?? 'eForms SDK';
    if (s.state === 'validated') {
      text = `$(${s.errors ? 'error' : s.warnings ? 'warning' : 'check'}) ${src}: ${countsText(s)}`;
      tooltip = `Checked here with the official rules of ${src}.${notEvaluatedNote(s)} Click to open the Problems view.`;
    } else if (s.state === 'validating') text = '$(sync~spin) eForms SDK: checking…';
    else if (s.state === 'error' || s.state === 'offline') text = '$(warning) eForms SDK: not checked';
  } else if (local && local !== s) {
    tooltip = `${tooltip}\n${localLine(local)}`;
    if (local.state === 'validated' && (s.state === 'needsKey' || s.state === 'paused'))
      text = `${text} · ${local.local?.source ?? 'SDK'}: ${countsText(local)}`;
  }
  const lifecycle = s.sdkLifecycle ?? local?.sdkLifecycle;
  if (lifecycle?.declared) {
    tooltip = `${tooltip}\n${lifecycleLines(lifecycle)}`;
    if (!lifecycle.acceptedToday) {
      text = `${text} · eforms-sdk-${lifecycle.declared} not accepted by TED`;
      background ??= 'warning';
    }
  }
  tooltip = `${tooltip}\n${environmentSentence(env, s.serviceUrl)}`;
  return {
    text,
    tooltip,
    ariaLabel: `${plainText(text)}. ${tooltip.replace(/\n/g, ' ')}`,
    command,
    background,
  };
}

/** The notice's SDK at TED: accepted or not (until when), what TED accepts, and the switch dates. */
export function lifecycleLines(l: SdkLifecycleStatus): string {
  const lines = [describeLifecycle(l), `TED accepts: ${describeAccepted(l)}.`];
  const switches = describeSwitches(l);
  if (switches) lines.push(`Switch dates: ${switches}.`);
  return lines.join('\n');
}

/** What the SDK rules found, told beside the CVS's story. */
function localLine(l: ValidationStatusParams): string {
  if (l.state === 'validated') {
    const note =
      l.local?.versionNote === 'declares-none'
        ? ' (the notice declares no SDK version: the only SDK available was used)'
        : '';
    return `${l.local?.source ?? 'eForms SDK'} (checked here): ${countsText(l)}${note}.${notEvaluatedNote(l)}`;
  }
  if (l.state === 'validating') return 'eForms SDK rules: checking…';
  return `eForms SDK rules: ${l.message ?? 'not checked'}`;
}

/**
 * What the SDK rules could not check, in the server's sentence (a value the buyer can correct first),
 * with a leading space; a count alone from a server that sends no sentence.
 */
function notEvaluatedNote(l: ValidationStatusParams): string {
  const n = l.local?.notEvaluated ?? 0;
  if (n === 0) return '';
  const text = l.local?.notEvaluatedText;
  return ` ${text ?? `${n} rule${n === 1 ? '' : 's'} could not be checked here: see the log.`}`;
}

/** The text as read aloud: codicons such as `$(sync~spin)` removed, spaces collapsed. */
export function plainText(text: string): string {
  return text
    .replace(/\$\([a-z0-9-]+(?:~[a-z]+)?\)/gi, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function countsText(s: Pick<ValidationStatusParams, 'errors' | 'warnings' | 'infos'>): string {
  if (!s.errors && !s.warnings && !s.infos) return 'no problems';
  const parts: string[] = [];
  if (s.errors) parts.push(`${s.errors} error${s.errors === 1 ? '' : 's'}`);
  if (s.warnings) parts.push(`${s.warnings} warning${s.warnings === 1 ? '' : 's'}`);
  if (s.infos) parts.push(`${s.infos} info`);
  return parts.join(', ');
}

export function ago(at: number | undefined, now = Date.now()): string {
  if (!at) return 'just now';
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  return `${Math.round(m / 60)} h ago`;
}
