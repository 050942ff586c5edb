// The per-document validation state machine, and nothing else: local checks at once on every change;
// then each engine (the SDK's rules in a worker, the CVS) in its own lane, after its own debounce, at
// most one run per lane in flight (a newer one aborts the older), results re-placed on the current
// text so nothing is ever drawn at stale offsets, one status per change of state, and each engine's
// health (back-off, blocking failures) in its own ServiceHealth. The chain itself (SDK version,
// validate, parse, map, cache) is core/validation's pipeline. Everything outside (connection, clock,
// transport, settings) is injected, so tests drive it with a fake clock and a fake service. Never logs
// or reports the API key.

import type { Finding } from '../core/findings';
import { keyTransportProblem } from '../core/http';
import { type NoticeKind, noticeKindOf, type XmlIndex } from '../core/notice';
import type { EngineStatus, ValidateNowResult, ValidationStatusParams } from '../core/protocol';
import { SdkError } from '../core/sdk';
import {
  CvsError,
  type SdkVersionRange,
  type ValidateNoticeOptions,
  type ValidateNoticeResult,
  type VersionRangeOptions,
  validationUrl,
  versionRangeFinding,
} from '../core/services';
import { type EformsSettings, urlsOf } from '../core/settings';
import {
  CvsValidator,
  type EngineName,
  type EngineReport,
  inputFor,
  localFindings,
  mergeEngineFindings,
  noticeSubTypeOf,
  placeFindings,
  rejectionFinding,
  type ValidationInput,
  ValidationPipeline,
  type Validator,
} from '../core/validation';
import { countSeverities, sdkSource } from './diagnostics';
import { documentIndexes } from './index-cache';
import { type FailureClass, ServiceHealth } from './service-health';

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** The local engine for a document's settings: a Validator and what identifies its rules. */
export interface LocalEngine {
  validator: Validator;
  /** Changes when the SDK folder or the download settings change, so cached reports are not reused. */
  identity: string;
}

export interface SchedulerDeps {
  settings(uri: string): Promise<EformsSettings>;
  /** The API key from the server's environment; undefined or '' when none is set. */
  apiKey: string | undefined;
  /** The CVS transport (core/cvs-client's validateNotice, or a fake in tests). */
  validate(o: ValidateNoticeOptions): Promise<ValidateNoticeResult>;
  /** The SDK's rules for these settings; absent: the local engine never runs. */
  localEngine?(settings: EformsSettings): LocalEngine;
  /** Publishes the complete diagnostics of a document, computed for `version`. */
  publish(uri: string, version: number | undefined, findings: Finding[]): void;
  status(s: ValidationStatusParams): void;
  log(message: string): void;
  clock?: Clock;
  /** First back-off delay after a failure; doubles up to backoffMaxMs. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Notices larger than this (UTF-8 bytes) get local checks only. */
  maxServiceBytes?: number;
  /** Quiet typing before the SDK's rules run (they are cheap and run off the main thread). */
  localDebounceMs?: number;
  /** The SDK versions the service accepts for publication (cached by the caller); none: no warning. */
  versionRange?(o: VersionRangeOptions): Promise<SdkVersionRange | undefined>;
}

export interface DocumentSnapshot {
  uri: string;
  version: number;
  text: string;
}

type Trigger = 'open' | 'change' | 'save' | 'settings';

interface LaneResult {
  /** The engine's report, or undefined when the service refused the notice itself (`rejection`). */
  report?: EngineReport;
  /** The service's explanation of a 400 for this notice: one finding where it points. */
  rejection?: string;
  /** Language of the report's messages: the words the mapping appends follow it. */
  language: string;
  /** Findings of `report` placed on `mappedText`; re-placed when the text moves on. */
  findings: Finding[];
  mappedText: string;
}

interface Lane {
  engine: EngineName;
  timer?: unknown;
  inflight?: { controller: AbortController; key: string; seq: number };
  /** Sequence of the latest run started; an older answer never overrides a newer one. */
  seq: number;
  appliedSeq: number;
  result?: LaneResult;
}

interface DocState {
  uri: string;
  version: number;
  text: string;
  index: XmlIndex;
  kind: NoticeKind | undefined;
  /** Diagnostics have been published for this document as a notice (so they must be cleared later). */
  published: boolean;
  local: Finding[];
  lanes: Record<EngineName, Lane>;
  closed: boolean;
  /** The accepted SDK versions of the service this notice goes to, once known. */
  range?: SdkVersionRange;
}

const KB = 1024;
const ENGINES: readonly EngineName[] = ['local', 'cvs'];

export class ValidationScheduler {
  private readonly docs = new Map<string, DocState>();
  private readonly clock: Clock;
  private readonly maxServiceBytes: number;
  private readonly localDebounceMs: number;
  private readonly health: Record<EngineName, ServiceHealth>;
  /** One pipeline (and its cache) per service URL or SDK identity. */
  private readonly pipelines = new Map<string, ValidationPipeline>();
  /** Per engine: the CVS's story and the SDK rules' story are deduplicated apart. */
  private readonly lastStatus: Record<EngineName, string> = { cvs: '', local: '' };
  private lastRefusal = '';

  constructor(private readonly deps: SchedulerDeps) {
    this.clock = deps.clock ?? systemClock;
    const base = deps.backoffBaseMs ?? 5000;
    const max = deps.backoffMaxMs ?? 5 * 60 * 1000;
    this.health = { cvs: new ServiceHealth(base, max), local: new ServiceHealth(base, max) };
    this.maxServiceBytes = deps.maxServiceBytes ?? 10 * 1024 * 1024;
    this.localDebounceMs = deps.localDebounceMs ?? 30;
  }

  open(doc: DocumentSnapshot): void {
    this.update(doc, 'open');
  }

  change(doc: DocumentSnapshot): void {
    this.update(doc, 'change');
  }

  save(doc: DocumentSnapshot): void {
    this.update(doc, 'save');
  }

  close(uri: string): void {
    const s = this.docs.get(uri);
    if (!s) return;
    s.closed = true;
    this.stop(s);
    this.docs.delete(uri);
    if (s.published) this.deps.publish(uri, undefined, []);
    if (![...this.docs.values()].some((d) => d.kind)) this.sendStatus({ state: 'idle', ...zero });
  }

  /** An SDK release appeared (downloaded or named): the local rules run again on every open notice. */
  sdkChanged(): void {
    this.health.local.reset();
    this.lastRefusal = '';
    for (const s of this.docs.values()) if (s.kind) void this.plan(s, 'settings');
  }

  /** Settings changed: forget failures that a setting may have fixed and re-validate every open notice. */
  settingsChanged(): void {
    // The pipelines stay: each is keyed by what identifies its answers (service URL, SDK location), so
    // their caches remain right, and content validated before is not sent again.
    this.resetFailures();
    for (const s of this.docs.values()) {
      if (!s.kind) continue;
      this.publishCurrent(s);
      void this.plan(s, 'settings');
    }
  }

  /** ValidateNowRequest: every enabled engine runs now, whatever the run mode and any back-off. */
  async validateNow(uri: string): Promise<ValidateNowResult> {
    const s = this.docs.get(uri);
    if (!s) return { started: false, message: 'The document is not open in the eForms language server.' };
    if (!s.kind) return { started: false, message: 'The document is not an eForms notice.' };
    this.resetFailures();
    const settings = await this.deps.settings(s.uri);
    const engines = this.enginesOf(settings);
    let result: ValidateNowResult = { started: false, message: 'No validation engine is enabled.' };
    for (const engine of engines) {
      this.clearTimer(s.lanes[engine]);
      const r = await this.run(s, engine, true);
      // The CVS's answer is the one the command reports: it stays the authority.
      if (engine === 'cvs' || !result.started) result = r;
    }
    return result;
  }

  dispose(): void {
    for (const s of this.docs.values()) this.stop(s);
    this.docs.clear();
  }

  private update(doc: DocumentSnapshot, trigger: Trigger): void {
    let s = this.docs.get(doc.uri);
    // TextDocuments announces an open as a content change too: nothing new to do for it.
    if (s && trigger === 'change' && s.version === doc.version && s.text === doc.text) return;
    if (!s || s.text !== doc.text || trigger === 'open') {
      const index = documentIndexes.get(doc.uri, doc.version, doc.text);
      if (!s) {
        s = {
          uri: doc.uri,
          version: doc.version,
          text: doc.text,
          index,
          kind: undefined,
          published: false,
          local: [],
          lanes: { cvs: newLane('cvs'), local: newLane('local') },
          closed: false,
        };
        this.docs.set(doc.uri, s);
      }
      s.text = doc.text;
      s.index = index;
      // A notice whose root is momentarily gone (everything selected and deleted, a broken first tag)
      // stays a notice, so that its syntax error shows instead of all diagnostics vanishing.
      s.kind = noticeKindOf(index) ?? (s.kind && index.elements.length === 0 ? s.kind : undefined);
    }
    s.version = doc.version;
    if (!s.kind) {
      if (s.published) {
        this.stop(s);
        for (const e of ENGINES) s.lanes[e].result = undefined;
        s.published = false;
        this.deps.publish(s.uri, s.version, []);
      }
      return;
    }
    if (trigger !== 'save' || !s.published) {
      s.local = localFindings(s.index);
      this.publishCurrent(s);
    }
    void this.plan(s, trigger);
  }

  private enginesOf(settings: EformsSettings): EngineName[] {
    const e = settings.validation.engine;
    const local = this.deps.localEngine !== undefined && e !== 'cvs';
    return [...(local ? (['local'] as const) : []), ...(e !== 'local' ? (['cvs'] as const) : [])];
  }

  private async plan(s: DocState, trigger: Trigger): Promise<void> {
    const settings = await this.deps.settings(s.uri);
    if (s.closed || !s.kind) return;
    const engines = this.enginesOf(settings);
    for (const engine of ENGINES) if (!engines.includes(engine)) this.dropLane(s, engine);
    // The SDK's rules follow every edit; the content does not change on save.
    if (engines.includes('local') && trigger !== 'save') this.schedule(s, 'local', this.localDebounceMs);
    if (!engines.includes('cvs')) return;
    const run = settings.validation.run;
    if (run === 'manual') {
      if (trigger === 'open' || trigger === 'settings')
        this.sendStatus({
          state: 'paused',
          uri: s.uri,
          ...zero,
          message:
            "Service validation runs on request: use 'eForms: Validate Notice' (eforms.validation.run is manual).",
        });
      return;
    }
    if (trigger === 'change' && run !== 'onType') return;
    if (trigger === 'save' && run !== 'onSave') return;
    this.schedule(s, 'cvs', trigger === 'save' ? 0 : settings.validation.debounceMs);
  }

  /** The one place a lane's run is (re)scheduled: debounce, back-off and retries all come here. */
  private schedule(s: DocState, engine: EngineName, delay: number): void {
    const lane = s.lanes[engine];
    this.clearTimer(lane);
    lane.timer = this.clock.setTimeout(() => {
      lane.timer = undefined;
      void this.run(s, engine, false);
    }, delay);
  }

  private pipelineFor(engine: EngineName, settings: EformsSettings): ValidationPipeline | undefined {
    let identity: string;
    let make: () => Validator;
    if (engine === 'cvs') {
      const baseUrl = urlsOf(settings).cvs;
      identity = baseUrl;
      make = () => new CvsValidator({ baseUrl, apiKey: this.deps.apiKey, send: this.deps.validate });
    } else {
      const local = this.deps.localEngine?.(settings);
      if (!local) return undefined;
      identity = local.identity;
      make = () => local.validator;
    }
    const key = `${engine}\u0000${identity}`;
    let p = this.pipelines.get(key);
    if (!p) {
      p = new ValidationPipeline(make(), identity);
      this.pipelines.set(key, p);
    }
    return p;
  }

  /** Runs one engine on the document's current text; resolves once the run is started or refused. */
  private async run(s: DocState, engine: EngineName, forced: boolean): Promise<ValidateNowResult> {
    const settings = await this.deps.settings(s.uri);
    if (s.closed || !s.kind)
      return { started: false, message: 'The document is no longer an open eForms notice.' };
    const lane = s.lanes[engine];
    const health = this.health[engine];
    const baseUrl = engine === 'cvs' ? urlsOf(settings).cvs : undefined;
    const refuse = (status: ValidationStatusParams): ValidateNowResult => {
      const what = engine === 'cvs' ? 'the validation service' : 'the SDK rules';
      const line = `Not asking ${what} about ${s.uri}: ${status.message}`;
      // Once per reason and document: a pause in typing must not add a log line each time.
      if (line !== this.lastRefusal) this.deps.log(line);
      this.lastRefusal = line;
      this.sendStatus(status);
      return { started: false, message: status.message };
    };
    const tag = engine === 'local' ? { engine } : {};
    if (engine === 'cvs') {
      if (!this.deps.apiKey)
        return refuse({
          state: 'needsKey',
          uri: s.uri,
          ...zero,
          serviceUrl: baseUrl,
          message: "No API key is set: only local checks run. Set one with 'eForms: Set API Key'.",
        });
      const transport = keyTransportProblem(validationUrl(baseUrl ?? ''));
      if (transport)
        return refuse({
          state: 'error',
          uri: s.uri,
          ...zero,
          serviceUrl: baseUrl,
          message: `${transport} Check eforms.environment and eforms.customUrls.cvs.`,
        });
      this.refreshRange(s, baseUrl ?? '');
    }
    if (s.index.errors.length > 0)
      return refuse({
        state: 'malformed',
        uri: s.uri,
        ...zero,
        ...tag,
        serviceUrl: baseUrl,
        message:
          engine === 'cvs'
            ? 'The notice is not well-formed XML: fix the syntax error shown in the editor to have it validated by the service.'
            : 'The notice is not well-formed XML: fix the syntax error shown in the editor to have the SDK rules run.',
      });
    const bytes = Buffer.from(s.text, 'utf8');
    if (engine === 'cvs' && bytes.length > this.maxServiceBytes)
      return refuse({
        state: 'paused',
        uri: s.uri,
        ...zero,
        serviceUrl: baseUrl,
        message: `This notice is ${(bytes.length / KB / KB).toFixed(1)} MB, above the ${this.maxServiceBytes / KB / KB} MB sent to the validation service: only local checks run.`,
      });
    const pipeline = this.pipelineFor(engine, settings);
    if (!pipeline) return { started: false, message: 'The SDK rules are not available in this server.' };
    const input = inputFor({ index: s.index, bytes }, settings.validation);
    const key = pipeline.keyOf(input);
    // What a refusal is about: the service's options, or for the SDK rules also the phase (an SDK that
    // lacks one notice subtype's rules must not block the others).
    const fingerprint = JSON.stringify([
      input.language,
      input.mode,
      input.sdkVersion,
      baseUrl ?? noticeSubTypeOf(s.index) ?? '',
    ]);
    const seq = ++lane.seq;
    const cached = pipeline.cached(input);
    if (cached) {
      // Identical content: the answer is known, and any older run in flight is now obsolete.
      this.abortInflight(lane);
      this.apply(s, lane, seq, cached, input.language);
      return { started: true, message: 'Validated (identical content, answered from the cache).' };
    }
    if (!forced) {
      const refused = health.refusal(fingerprint);
      if (refused) return refuse({ ...refused, uri: s.uri });
      const wait = health.wait(this.clock.now());
      if (wait.ms > 0) {
        // This notice's own status would otherwise still say what it was before the engine failed.
        if (wait.status) this.sendStatus({ ...wait.status, uri: s.uri });
        this.schedule(s, engine, wait.ms);
        return { started: false, message: 'Waiting after a failure of the validation service.' };
      }
    }
    if (lane.inflight?.key === key)
      return { started: true, message: 'A validation of this content is under way.' };
    this.abortInflight(lane);
    const controller = new AbortController();
    lane.inflight = { controller, key, seq };
    if (!health.failing)
      this.sendStatus({ state: 'validating', uri: s.uri, ...zero, ...tag, serviceUrl: baseUrl });
    const started = this.clock.now();
    const version = s.version;
    this.deps.log(
      `Validating ${s.uri} (version ${version}, ${(bytes.length / KB).toFixed(1)} KB, SDK ${input.sdkVersion || 'default'}, ${input.mode}, ${input.language}) ${engine === 'cvs' ? `at ${baseUrl}` : 'with the SDK rules'}`,
    );
    void pipeline.report({ ...input, signal: controller.signal }).then(
      (report) => {
        if (lane.inflight?.controller === controller) lane.inflight = undefined;
        // Aborted (a newer run took over) but finished anyway: never applied, even if it lands first.
        if (controller.signal.aborted) return;
        health.reset();
        if (engine === 'cvs') this.lastRefusal = '';
        const skipped = report.notEvaluated.length
          ? `; ${report.notEvaluated.length} rules not evaluated: ${report.notEvaluated
              .map((r) => r.ruleId)
              .slice(0, 20)
              .join(', ')}`
          : '';
        this.deps.log(
          `Validated ${s.uri} (version ${version}) ${engine === 'cvs' ? 'by the service' : `with eForms SDK ${report.sdkVersion}${report.because === 'only' ? ' (the notice declares no version: the only SDK available)' : ''}`}: ${report.report.assertions.length} assertions in ${this.clock.now() - started} ms${skipped}`,
        );
        this.apply(s, lane, seq, report, input.language);
      },
      (err: unknown) => {
        if (lane.inflight?.controller === controller) lane.inflight = undefined;
        if (controller.signal.aborted) return;
        this.fail(s, engine, err, fingerprint, baseUrl, seq, input.language);
      },
    );
    return { started: true };
  }

  /** Learns (once a day per service, cached by the caller) which SDK versions it accepts, to warn early. */
  private refreshRange(s: DocState, baseUrl: string): void {
    const get = this.deps.versionRange;
    if (!get) return;
    void get({ baseUrl, apiKey: this.deps.apiKey }).then(
      (range) => {
        if (s.closed || !s.kind) return;
        const changed = JSON.stringify(range) !== JSON.stringify(s.range);
        s.range = range;
        if (changed) this.publishCurrent(s);
      },
      () => undefined,
    );
  }

  private apply(s: DocState, lane: Lane, seq: number, report: EngineReport, language: string): void {
    if (s.closed || seq < lane.appliedSeq || !s.kind) return;
    lane.appliedSeq = seq;
    lane.result = { report, language, findings: [], mappedText: '\u0000unmapped' };
    const all = this.publishCurrent(s);
    const mine = lane.result.findings;
    if (lane.engine === 'cvs') {
      this.sendStatus({
        state: 'validated',
        uri: s.uri,
        ...countSeverities(all),
        validatedAt: this.clock.now(),
      });
      return;
    }
    const engineStatus: EngineStatus = {
      source: sdkSource(report.sdkVersion),
      sdkVersion: report.sdkVersion,
      notEvaluated: report.notEvaluated.length,
    };
    if (report.because === 'only') engineStatus.versionNote = 'declares-none';
    this.sendStatus({
      state: 'validated',
      uri: s.uri,
      engine: 'local',
      ...countSeverities(mine),
      validatedAt: this.clock.now(),
      local: engineStatus,
    });
  }

  private fail(
    s: DocState,
    engine: EngineName,
    err: unknown,
    fingerprint: string,
    baseUrl: string | undefined,
    seq: number,
    language: string,
  ): void {
    let cls: FailureClass;
    let state: ValidationStatusParams['state'];
    let message: string;
    let problem: ValidationStatusParams['sdkProblem'];
    let failure: ValidationStatusParams['failure'];
    if (engine === 'cvs' || err instanceof CvsError) {
      const e =
        err instanceof CvsError
          ? err
          : new CvsError(
              'server',
              `The validation failed unexpectedly (${String(err).slice(0, 200)}).`,
              true,
            );
      if (e.kind === 'cancelled') return;
      const explanation = e.kind === 'notice-rejected' ? e.fields.serviceMessage : undefined;
      if (explanation) {
        // The service refused this notice and said why: that is a finding on the notice (where the
        // explanation points), not a failure of the service; the next edit is validated again.
        this.health[engine].reset();
        this.deps.log(`The validation service refused ${s.uri}: ${explanation}`);
        const lane = s.lanes[engine];
        if (s.closed || seq < lane.appliedSeq || !s.kind) return;
        lane.appliedSeq = seq;
        lane.result = { rejection: explanation, language, findings: [], mappedText: '\u0000unmapped' };
        const all = this.publishCurrent(s);
        this.sendStatus({
          state: 'validated',
          uri: s.uri,
          ...countSeverities(all),
          validatedAt: this.clock.now(),
          serviceUrl: baseUrl,
        });
        return;
      }
      message = e.message;
      failure = { service: 'cvs', kind: e.kind, fields: e.fields };
      state =
        e.kind === 'missing-key'
          ? 'needsKey'
          : e.kind === 'timeout' || e.kind === 'network' || e.kind === 'proxy'
            ? 'offline'
            : 'error';
      cls =
        e.kind === 'missing-key' || e.kind === 'forbidden' || e.kind === 'insecure'
          ? 'blocking'
          : e.retryable
            ? 'retryable'
            : 'rejected';
    } else {
      if (isAbort(err)) return;
      const e = err instanceof SdkError ? err : new SdkError('engine', { reason: String(err).slice(0, 200) });
      message = sdkProblem(e);
      problem = { kind: e.kind, ...(e.fields.wanted ? { wanted: e.fields.wanted } : {}) };
      state = e.kind === 'offline' ? 'offline' : 'error';
      cls = e.retryable ? 'retryable' : e.kind === 'engine' ? 'rejected' : 'blocking';
    }
    this.deps.log(
      `Validation of ${s.uri} ${engine === 'local' ? 'with the SDK rules ' : ''}failed: ${message}`,
    );
    const status: ValidationStatusParams = {
      state,
      uri: s.uri,
      ...zero,
      ...(engine === 'local' ? { engine } : {}),
      serviceUrl: baseUrl,
      message,
    };
    if (problem) status.sdkProblem = problem;
    if (failure) status.failure = failure;
    const delay = this.health[engine].failed(cls, fingerprint, status, this.clock.now());
    const lane = s.lanes[engine];
    if (delay !== undefined && !s.closed && !lane.timer) this.schedule(s, engine, delay);
    this.sendStatus(status);
  }

  /** Publishes local findings merged with every engine's latest findings re-placed on the current text. */
  private publishCurrent(s: DocState): Finding[] {
    const all = this.merged(s);
    s.published = true;
    this.deps.publish(s.uri, s.version, all);
    return all;
  }

  private merged(s: DocState): Finding[] {
    const version = versionRangeFinding(s.index, s.range);
    const local = version ? [...s.local, version] : s.local;
    const placed: Record<EngineName, Finding[]> = { cvs: [], local: [] };
    for (const engine of ENGINES) {
      const r = s.lanes[engine].result;
      if (!r) continue;
      if (r.mappedText !== s.text) {
        try {
          r.findings = r.report
            ? placeFindings(s.index, r.report, r.language)
            : [rejectionFinding(s.index, r.rejection ?? '')];
        } catch (err) {
          this.deps.log(`Could not place the findings on ${s.uri}: ${String(err).slice(0, 200)}`);
          r.findings = [];
        }
        r.mappedText = s.text;
      }
      placed[engine] = r.findings;
    }
    const engines = mergeEngineFindings(placed.local, placed.cvs);
    return engines.length ? [...local, ...engines] : local;
  }

  private dropLane(s: DocState, engine: EngineName): void {
    const lane = s.lanes[engine];
    this.clearTimer(lane);
    this.abortInflight(lane);
    if (lane.result) {
      lane.result = undefined;
      this.publishCurrent(s);
    }
  }

  private resetFailures(): void {
    this.lastRefusal = '';
    for (const e of ENGINES) this.health[e].reset();
  }

  private abortInflight(lane: Lane): void {
    if (lane.inflight) {
      lane.inflight.controller.abort();
      lane.inflight = undefined;
    }
  }

  private clearTimer(lane: Lane): void {
    if (lane.timer !== undefined) {
      this.clock.clearTimeout(lane.timer);
      lane.timer = undefined;
    }
  }

  private stop(s: DocState): void {
    for (const e of ENGINES) {
      this.clearTimer(s.lanes[e]);
      this.abortInflight(s.lanes[e]);
    }
  }

  /** Sends a status only when it differs from the last one: repeated identical failures make no storm. */
  private sendStatus(p: ValidationStatusParams): void {
    const key = JSON.stringify(p);
    const engine = p.engine ?? 'cvs';
    if (key === this.lastStatus[engine]) return;
    this.lastStatus[engine] = key;
    this.deps.status(p);
  }
}

function newLane(engine: EngineName): Lane {
  return { engine, seq: 0, appliedSeq: 0 };
}

function isAbort(err: unknown): boolean {
  return (
    err instanceof Error && (err.name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR')
  );
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
  }
}

const zero = { errors: 0, warnings: 0, infos: 0 } as const;

export type { ValidationInput };
