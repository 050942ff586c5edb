// How the language server words for any LSP editor what core hands over as kinds and fields: the SDK's
// errors name the settings (eforms.sdk.path…), never a command of one client. Pure wording: no state,
// no connection.

import type { Finding } from '../core/findings';
import type { EngineStatus, ValidationStatusParams } from '../core/protocol';
import { describeNotEvaluated } from '../core/schematron';
import { formatBudget, type SdkError } from '../core/sdk';
import type {
  EngineFailure,
  EngineName,
  EngineReport,
  EngineResult,
  PreflightRefusal,
  ValidationInput,
} from '../core/validation';
import { countSeverities, sdkSource } from './diagnostics';

const KB = 1024;

/** The counts of a status that found nothing (yet). */
export const NO_COUNTS = { errors: 0, warnings: 0, infos: 0 } as const;

/** A status about one engine's run on one notice that did not validate (refused or failed). */
export function engineStatus(
  uri: string,
  engine: EngineName,
  serviceUrl: string | undefined,
  what: Pick<ValidationStatusParams, 'state' | 'message' | 'failure' | 'sdkProblem'>,
): ValidationStatusParams {
  return { uri, ...NO_COUNTS, ...(engine === 'local' ? { engine } : {}), serviceUrl, ...what };
}

/**
 * The status of an engine's answer: the CVS's (or a refused notice's) counts everything published, the
 * SDK rules' counts their own findings and says how they ran.
 */
export function validatedStatus(
  uri: string,
  lane: { engine: EngineName; result?: EngineResult },
  published: readonly Finding[],
  validatedAt: number,
  serviceUrl: string | undefined,
): ValidationStatusParams {
  const report = lane.result?.report;
  if (lane.engine === 'cvs' || !report) {
    const at = serviceUrl === undefined ? {} : { serviceUrl };
    return { state: 'validated', uri, ...countSeverities(published), validatedAt, ...at };
  }
  return {
    state: 'validated',
    uri,
    engine: 'local',
    ...countSeverities(lane.result?.findings ?? []),
    validatedAt,
    local: localEngineStatus(report),
  };
}

/** The status of a run that starts. */
export function validatingStatus(
  uri: string,
  engine: EngineName,
  serviceUrl: string | undefined,
): ValidationStatusParams {
  return { state: 'validating', uri, ...NO_COUNTS, ...(engine === 'local' ? { engine } : {}), serviceUrl };
}

/** The CVS's status when it runs only on request. */
export function manualStatus(uri: string): ValidationStatusParams {
  return {
    state: 'paused',
    uri,
    ...NO_COUNTS,
    message:
      "Service validation runs on request: use 'eForms: Validate Notice' (eforms.validation.run is manual).",
  };
}

/** The log line of a run refused before it started. */
export function refusalLine(engine: EngineName, uri: string, message: string | undefined): string {
  const what = engine === 'cvs' ? 'the validation service' : 'the SDK rules';
  return `Not asking ${what} about ${uri}: ${message}`;
}

/** The log line of a notice the service refused, saying why (a finding on the notice, not a failure). */
export function rejectedLine(uri: string, explanation: string): string {
  return `The validation service refused ${uri}: ${explanation}`;
}

/** The log line of a run that failed. */
export function failedLine(engine: EngineName, uri: string, message: string | undefined): string {
  return `Validation of ${uri} ${engine === 'local' ? 'with the SDK rules ' : ''}failed: ${message}`;
}

/** A preflight refusal as the status an LSP editor shows: its state and one sentence. */
export function preflightStatus(
  engine: EngineName,
  v: PreflightRefusal,
): Pick<ValidationStatusParams, 'state' | 'message'> {
  switch (v.reason) {
    case 'needs-key':
      return {
        state: 'needsKey',
        message: "No API key is set: only local checks run. Set one with 'eForms: Set API Key'.",
      };
    case 'insecure':
      return { state: 'error', message: `${v.detail} Check eforms.environment and eforms.customUrls.cvs.` };
    case 'malformed':
      return {
        state: 'malformed',
        message:
          engine === 'cvs'
            ? 'The notice is not well-formed XML: fix the syntax error shown in the editor to have it validated by the service.'
            : 'The notice is not well-formed XML: fix the syntax error shown in the editor to have the SDK rules run.',
      };
    case 'too-large':
      return {
        state: 'paused',
        message: `This notice is ${(v.bytes / KB / KB).toFixed(1)} MB, above the ${v.limit / KB / KB} MB sent to the validation service: only local checks run.`,
      };
    case 'too-many-elements':
      // Not 'paused' ("validate on demand"): asking again gets the same answer until the notice shrinks.
      return {
        state: 'error',
        message: `This notice has ${v.elements.toLocaleString('en-US')} elements, more than the ${v.limit.toLocaleString('en-US')} the SDK rules can check on this machine: only local checks run. The rules run again once the notice is smaller.`,
      };
  }
}

/** A failure (not a cancellation, not a refused notice) as the status an LSP editor shows. */
export function failureStatus(
  failure: Extract<EngineFailure, { cause: unknown }>,
): Pick<ValidationStatusParams, 'state' | 'message' | 'failure' | 'sdkProblem'> {
  const state: ValidationStatusParams['state'] =
    failure.class === 'needs-key' ? 'needsKey' : failure.offline ? 'offline' : 'error';
  const { cause } = failure;
  if (cause.service === 'cvs')
    return {
      state,
      message: cause.error.message,
      failure: { service: 'cvs', kind: cause.error.kind, fields: cause.error.fields },
    };
  const e = cause.error;
  return {
    state,
    message: sdkProblem(e),
    sdkProblem: { kind: e.kind, ...(e.fields.wanted ? { wanted: e.fields.wanted } : {}) },
  };
}

/** The SDK's errors worded for any LSP editor: settings by their keys, never a command of one client. */
export function sdkProblem(e: SdkError): string {
  const f = e.fields;
  switch (e.kind) {
    case 'no-sdk':
      return 'No eForms SDK is available for the local rules: set eforms.sdk.path to a folder that holds one, or allow its download with eforms.sdk.allowDownload.';
    case 'version-missing':
      return `eForms SDK ${f.wanted} is not available${f.available?.length ? ` (found ${f.available.join(', ')})` : ''}: add it to eforms.sdk.path, allow its download with eforms.sdk.allowDownload, or pin another with eforms.validation.sdkVersion.`;
    case 'no-version':
      return `The notice declares no SDK version (cbc:CustomizationID) and several SDKs are available (${(f.available ?? []).join(', ')}): pin one with eforms.validation.sdkVersion.`;
    case 'consent-needed':
      return `eForms SDK ${f.wanted} is not on disk: allow its download (eforms.sdk.allowDownload) or set eforms.sdk.path to a folder that holds it.`;
    case 'offline':
      return `The eForms SDK cannot be downloaded (${f.reason ?? 'no connection'}): set eforms.sdk.path to a folder that holds it, or connect.`;
    case 'not-found':
      return `The SDK repository has no release ${f.wanted ?? ''} (HTTP ${f.status ?? '?'}): pin another version with eforms.validation.sdkVersion.`;
    case 'corrupt':
      return `The downloaded eForms SDK was corrupt (${f.reason ?? 'checksum mismatch'}) and was discarded: try again later, or set eforms.sdk.path.`;
    case 'cancelled':
      return 'The eForms SDK download was cancelled: the local rules run once an SDK is available.';
    case 'engine':
      return `The eForms SDK rules could not run (${f.reason ?? 'unknown reason'}).`;
    case 'time-budget':
      return `The eForms SDK rules ran longer than their time budget of ${formatBudget(f.budgetMs ?? 0)} and were stopped, so they did not check this notice: raise eforms.validation.timeBudgetMs to give them longer (they run again when it changes).`;
  }
}

/** The log line of a run that starts. */
export function validatingLine(
  uri: string,
  version: number,
  bytes: number,
  input: Pick<ValidationInput, 'sdkVersion' | 'mode' | 'language'>,
  baseUrl: string | undefined,
): string {
  return `Validating ${uri} (version ${version}, ${(bytes / KB).toFixed(1)} KB, SDK ${input.sdkVersion || 'default'}, ${input.mode}, ${input.language}) ${baseUrl !== undefined ? `at ${baseUrl}` : 'with the SDK rules'}`;
}

/** The log line of a run that answered, naming the rules it could not evaluate (never skipped silently). */
export function validatedLine(uri: string, version: number, report: EngineReport, ms: number): string {
  // The status bar's tooltip sends the buyer here: the same sentence the command line prints, a value
  // the rules could not read first, as the buyer can correct it.
  const notEvaluated = describeNotEvaluated(report.notEvaluated);
  const skipped = notEvaluated ? `; ${notEvaluated}` : '';
  const by =
    report.engine === 'cvs'
      ? 'by the service'
      : `with eForms SDK ${report.sdkVersion}${report.because === 'only' ? ' (the notice declares no version: the only SDK available)' : ''}`;
  return `Validated ${uri} (version ${version}) ${by}: ${report.report.assertions.length} assertions in ${ms} ms${skipped}`;
}

/** What the status of the SDK rules says about how they ran. */
export function localEngineStatus(report: EngineReport): EngineStatus {
  const status: EngineStatus = {
    source: sdkSource(report.sdkVersion),
    sdkVersion: report.sdkVersion,
    notEvaluated: report.notEvaluated.length,
  };
  const text = describeNotEvaluated(report.notEvaluated);
  if (text) status.notEvaluatedText = text;
  if (report.because === 'only') status.versionNote = 'declares-none';
  return status;
}
