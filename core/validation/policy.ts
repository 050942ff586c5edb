// The validation policy, once for every front end (language server, CLI, submit): whether a notice may
// go to an engine at all (preflight → a typed verdict), what an engine's failure means (a typed class
// with its retry rule and the back-off numbers), which engines and pipelines the settings ask for, and
// the one-shot run (preflight, pipeline, failure meaning, a refused notice as a finding) that the CLI
// and the submit check call. Verdicts and failures are kinds and fields: each front end words them.
// Never schedules, never holds timers or documents, never words a message, never logs the API key.

import type { Dispatcher } from 'undici';
import type { Finding } from '../findings';
import { keyTransportProblem, originOf } from '../http';
import type { XmlIndex } from '../notice';
import { SdkError } from '../sdk';
import { CvsError, validationUrl } from '../services';
import { type EformsSettings, urlsOf } from '../settings';
import { type CvsTransport, CvsValidator } from './cvs-validator';
import { elementsOverLimit, noticeSubTypeOf } from './local-validator';
import {
  inputFor,
  type PreparedNotice,
  type RequestSettings,
  type ValidationOutcome,
  ValidationPipeline,
} from './pipeline';
import { rejectionFinding } from './service-rejection';
import type { EngineName, ValidationInput, Validator } from './validator';

/** Notices larger than this (UTF-8 bytes) are not sent to the service: local checks only. */
export const DEFAULT_MAX_SERVICE_BYTES = 10 * 1024 * 1024;

/** Back-off after consecutive transient failures: `baseMs`, doubling, never above `maxMs`. */
export const BACKOFF = { baseMs: 5000, maxMs: 5 * 60 * 1000 } as const;

/** The wait before the next attempt after `failures` consecutive transient failures (1 = the first). */
export function backoffDelay(
  failures: number,
  baseMs: number = BACKOFF.baseMs,
  maxMs: number = BACKOFF.maxMs,
): number {
  return Math.min(baseMs * 2 ** (Math.max(1, failures) - 1), maxMs);
}

// ——— Preflight ———

/** Why a notice is not sent to an engine; `ok` when nothing stands in the way. */
export type PreflightVerdict =
  | { ok: true }
  /** The CVS needs an API key and none is set. */
  | { ok: false; reason: 'needs-key' }
  /** The key would travel over plain http to a host that is not loopback; `detail` says which. */
  | { ok: false; reason: 'insecure'; origin: string; detail: string }
  /** The notice is not well-formed XML: no engine can read it. */
  | { ok: false; reason: 'malformed'; errors: number }
  /** Larger than the service accepts from us (CVS only): bytes and limit in UTF-8 bytes. */
  | { ok: false; reason: 'too-large'; bytes: number; limit: number }
  /**
   * More elements than the SDK rules' model of a notice can hold in memory (the SDK rules only;
   * INPUT_LIMITS.localNoticeElements). A verdict on this text, not a failure of the engine: the next
   * edit is checked again.
   */
  | { ok: false; reason: 'too-many-elements'; elements: number; limit: number };

export type PreflightRefusal = Exclude<PreflightVerdict, { ok: true }>;

/** The service side alone (key and transport), the same for every notice: checked once per run. */
export function servicePreflight(o: { apiKey: string | undefined; baseUrl: string }): PreflightVerdict {
  if (!o.apiKey) return { ok: false, reason: 'needs-key' };
  const url = validationUrl(o.baseUrl);
  const detail = keyTransportProblem(url);
  if (detail) return { ok: false, reason: 'insecure', origin: originOf(url), detail };
  return { ok: true };
}

/** The notice side alone: well-formed for every engine, and not too large for the engine. */
export function noticePreflight(o: {
  engine: EngineName;
  index: XmlIndex;
  byteLength: number;
  maxServiceBytes?: number;
}): PreflightVerdict {
  if (o.index.errors.length > 0) return { ok: false, reason: 'malformed', errors: o.index.errors.length };
  const limit = o.maxServiceBytes ?? DEFAULT_MAX_SERVICE_BYTES;
  if (o.engine === 'cvs' && o.byteLength > limit)
    return { ok: false, reason: 'too-large', bytes: o.byteLength, limit };
  if (o.engine === 'local') {
    const over = elementsOverLimit(o.index);
    if (over) return { ok: false, reason: 'too-many-elements', ...over };
  }
  return { ok: true };
}

/** Everything, in the order a user fixes it: key, transport, syntax, size. */
export function preflight(o: {
  engine: EngineName;
  index: XmlIndex;
  byteLength: number;
  apiKey?: string;
  baseUrl?: string;
  maxServiceBytes?: number;
}): PreflightVerdict {
  if (o.engine === 'cvs') {
    const service = servicePreflight({ apiKey: o.apiKey, baseUrl: o.baseUrl ?? '' });
    if (!service.ok) return service;
  }
  return noticePreflight(o);
}

// ——— What a failure means ———

/**
 * - `cancelled`: a newer run took over; nothing to report.
 * - `notice-refused`: the service refused this notice and said why: a finding on the notice, not a
 *   failure of the service (the next edit is validated again).
 * - `transient`: may succeed later unchanged: retry after `backoffDelay`.
 * - `needs-key`: no key, or the service asked for one: nothing runs until the key changes.
 * - `blocking`: no retry helps until the settings change (a refused key, an insecure URL, no SDK).
 * - `request-refused`: these options (language, mode, SDK version, subtype) are refused: the same
 *   request is not made again, other notices and options still are.
 */
export type FailureClass =
  | 'cancelled'
  | 'notice-refused'
  | 'transient'
  | 'needs-key'
  | 'blocking'
  | 'request-refused';

/** When the same request may be made again. */
export type RetryRule = 'never' | 'backoff' | 'settings-change' | 'options-change';

export const RETRY_RULE = {
  cancelled: 'never',
  'notice-refused': 'never',
  transient: 'backoff',
  'needs-key': 'settings-change',
  blocking: 'settings-change',
  'request-refused': 'options-change',
} as const satisfies Record<FailureClass, RetryRule>;

export type EngineFailure =
  | { class: 'cancelled' }
  | { class: 'notice-refused'; explanation: string; error: CvsError }
  | {
      class: 'transient' | 'needs-key' | 'blocking' | 'request-refused';
      retry: Exclude<RetryRule, 'never'>;
      /** True when the engine could not be reached (network, timeout, proxy, SDK download offline). */
      offline: boolean;
      /** The failure as kind and fields, normalised: anything unexpected becomes `server` / `engine`. */
      cause: { service: 'cvs'; error: CvsError } | { service: 'sdk'; error: SdkError };
    };

/** What an engine's thrown error means for the caller (scheduler, CLI, submit). */
export function classifyFailure(engine: EngineName, err: unknown): EngineFailure {
  if (engine === 'cvs' || err instanceof CvsError) {
    const e =
      err instanceof CvsError
        ? err
        : new CvsError('server', `The validation failed unexpectedly (${String(err).slice(0, 200)}).`, true);
    if (e.kind === 'cancelled') return { class: 'cancelled' };
    const explanation = e.kind === 'notice-rejected' ? e.fields.serviceMessage : undefined;
    if (explanation) return { class: 'notice-refused', explanation, error: e };
    const cls =
      e.kind === 'missing-key'
        ? 'needs-key'
        : e.kind === 'forbidden' || e.kind === 'insecure'
          ? 'blocking'
          : e.retryable
            ? 'transient'
            : 'request-refused';
    return {
      class: cls,
      retry: RETRY_RULE[cls],
      offline: e.kind === 'timeout' || e.kind === 'network' || e.kind === 'proxy',
      cause: { service: 'cvs', error: e },
    };
  }
  if (isAbort(err)) return { class: 'cancelled' };
  const e = err instanceof SdkError ? err : new SdkError('engine', { reason: String(err).slice(0, 200) });
  // Only a missing SDK blocks every notice until the settings change. The other failures are about the
  // release this notice asks for (missing, not allowed to download, corrupt…), its subtype's rules, or a
  // run past its budget: not retried for these options until they change, and another notice, or this
  // one declaring another release, still runs.
  const cls = e.retryable ? 'transient' : e.kind === 'no-sdk' ? 'blocking' : 'request-refused';
  return {
    class: cls,
    retry: RETRY_RULE[cls],
    offline: e.kind === 'offline',
    cause: { service: 'sdk', error: e },
  };
}

function isAbort(err: unknown): boolean {
  return (
    err instanceof Error && (err.name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR')
  );
}

/**
 * What a refusal (`request-refused`) is about: the service's options, or for the SDK rules also the
 * notice subtype (an SDK that lacks one subtype's rules must not block the others).
 */
export function refusalFingerprint(input: ValidationInput, baseUrl: string | undefined): string {
  return JSON.stringify([
    input.language,
    input.mode,
    input.sdkVersion,
    baseUrl ?? noticeSubTypeOf(input.index) ?? '',
  ]);
}

// ——— Engines and pipelines from the settings ———

/** The local engine for some settings: a Validator and what identifies its rules. */
export interface LocalEngine {
  validator: Validator;
  /** Changes when the SDK folder or the download settings change, so cached reports are not reused. */
  identity: string;
}

export interface EngineSources {
  /** The CVS's API key; undefined or '' when none is set. */
  apiKey: string | undefined;
  /** The CVS transport (default core/services' validateNotice). */
  send?: CvsTransport;
  dispatcher?: Dispatcher;
  /** The SDK's rules for these settings; absent: the local engine never runs. */
  localEngine?(settings: EformsSettings): LocalEngine | undefined;
}

/** The engines the settings enable, the SDK's rules first (they answer sooner). */
export function enginesOf(settings: EformsSettings, localAvailable: boolean): EngineName[] {
  const e = settings.validation.engine;
  const local = localAvailable && e !== 'cvs';
  return [...(local ? (['local'] as const) : []), ...(e !== 'local' ? (['cvs'] as const) : [])];
}

/** A pipeline for the CVS at `baseUrl`, its cache keyed by that URL. */
export function cvsPipeline(o: {
  baseUrl: string;
  apiKey: string | undefined;
  send?: CvsTransport;
  dispatcher?: Dispatcher;
  cacheEntries?: number;
}): ValidationPipeline {
  return new ValidationPipeline(
    new CvsValidator({
      baseUrl: o.baseUrl,
      apiKey: o.apiKey,
      ...(o.send ? { send: o.send } : {}),
      ...(o.dispatcher ? { dispatcher: o.dispatcher } : {}),
    }),
    o.baseUrl,
    o.cacheEntries,
  );
}

/**
 * One pipeline (and its cache) per engine and identity (service URL, SDK location): settings that
 * come back to an earlier service or SDK find its cache again.
 */
export class ValidationPipelines {
  private readonly pipelines = new Map<string, ValidationPipeline>();

  constructor(private readonly sources: EngineSources) {}

  get localAvailable(): boolean {
    return this.sources.localEngine !== undefined;
  }

  enginesOf(settings: EformsSettings): EngineName[] {
    return enginesOf(settings, this.localAvailable);
  }

  /** The pipeline of `engine` for these settings; undefined when the SDK's rules are not available. */
  for(engine: EngineName, settings: EformsSettings): ValidationPipeline | undefined {
    let identity: string;
    let make: () => ValidationPipeline;
    if (engine === 'cvs') {
      const baseUrl = urlsOf(settings).cvs;
      identity = baseUrl;
      make = () => cvsPipeline({ ...this.sources, baseUrl });
    } else {
      const local = this.sources.localEngine?.(settings);
      if (!local) return undefined;
      identity = local.identity;
      make = () => new ValidationPipeline(local.validator, local.identity);
    }
    const key = `${engine}\u0000${identity}`;
    let p = this.pipelines.get(key);
    if (!p) {
      p = make();
      this.pipelines.set(key, p);
    }
    return p;
  }
}

// ——— One run, for callers that do not schedule (CLI, submit) ———

export type EngineRun =
  /** The engine answered: the local checks plus its findings. */
  | { outcome: 'validated'; findings: Finding[]; report: ValidationOutcome }
  /** Not sent (preflight): the local checks only, and why. */
  | { outcome: 'not-sent'; findings: Finding[]; verdict: PreflightRefusal }
  /** The service refused the notice and said why: the local checks plus that finding. */
  | { outcome: 'notice-refused'; findings: Finding[]; error: CvsError }
  /** The engine failed: the local checks only, and what the failure means. */
  | { outcome: 'failed'; findings: Finding[]; failure: Exclude<EngineFailure, { class: 'notice-refused' }> };

/**
 * The notice through one engine, once: notice preflight, the pipeline, the failure's meaning. The
 * service preflight (key, transport) is the caller's, once per run: see servicePreflight.
 */
export async function validateOnce(
  notice: PreparedNotice,
  pipeline: ValidationPipeline,
  request: RequestSettings,
  o: { signal?: AbortSignal; maxServiceBytes?: number } = {},
): Promise<EngineRun> {
  const verdict = noticePreflight({
    engine: pipeline.engine,
    index: notice.index,
    byteLength: notice.bytes.length,
    maxServiceBytes: o.maxServiceBytes,
  });
  if (!verdict.ok) return { outcome: 'not-sent', findings: [...notice.local], verdict };
  try {
    const report = await pipeline.validate(inputFor(notice, request, o.signal));
    return { outcome: 'validated', findings: [...notice.local, ...report.findings], report };
  } catch (err) {
    const failure = classifyFailure(pipeline.engine, err);
    if (failure.class === 'notice-refused')
      return {
        outcome: 'notice-refused',
        findings: [...notice.local, rejectionFinding(notice.index, failure.explanation)],
        error: failure.error,
      };
    return { outcome: 'failed', findings: [...notice.local], failure };
  }
}
