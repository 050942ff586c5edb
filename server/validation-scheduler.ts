// The per-document validation state machine, and nothing else: local checks at once on every change;
// then each engine (the SDK's rules in a worker, the CVS) in its own lane, after its own debounce, at
// most one run per lane in flight (a newer one aborts the older), results re-placed on the current
// text so nothing is ever drawn at stale offsets, one status per change of state, and each engine's
// health (back-off, blocking failures) in its own ServiceHealth. The chain itself (SDK version,
// validate, parse, map, cache) is core/validation's pipeline, and the policy (preflight, what a failure
// means, which engines, which pipeline) is core/validation's policy: this module only schedules and
// words statuses. Everything outside (connection, clock, transport, settings) is injected, so tests
// drive it with a fake clock and a fake service. Never logs or reports the API key.

import type { Finding } from '../core/findings';
import { declaredSdkVersion, type NoticeKind, noticeKindOf, type XmlIndex } from '../core/notice';
import type { ValidateNowResult, ValidationStatusParams } from '../core/protocol';
import {
  type SdkVersionRange,
  sdkLifecycle,
  type ValidateNoticeOptions,
  type ValidateNoticeResult,
  type VersionRangeOptions,
} from '../core/services';
import { type EformsSettings, urlsOf } from '../core/settings';
import {
  BACKOFF,
  classifyFailure,
  currentFindings,
  DEFAULT_MAX_SERVICE_BYTES,
  type EngineName,
  type EngineResult,
  inputFor,
  type LocalEngine,
  localFindings,
  preflight,
  refusalFingerprint,
  type ValidationInput,
  ValidationPipelines,
} from '../core/validation';
import { countSeverities } from './diagnostics';
import { documentIndexes } from './index-cache';
import { ServiceHealth } from './service-health';
import {
  failureStatus,
  localEngineStatus,
  preflightStatus,
  validatedLine,
  validatingLine,
} from './status-wording';

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

export type { LocalEngine };

export interface SchedulerDeps {
  settings(uri: string): Promise<EformsSettings>;
  /** The API key from the server's environment; undefined or '' when none is set. */
  apiKey: string | undefined;
  /** The CVS transport (core/cvs-client's validateNotice, or a fake in tests). */
  validate(o: ValidateNoticeOptions): Promise<ValidateNoticeResult>;
  /** The SDK's rules for these settings; absent: the local engine never runs. */
  localEngine?(settings: EformsSettings): LocalEngine;
  /**
   * Publishes the complete diagnostics of a document, computed for `version`; `index` is the text the
   * findings are placed on (absent when clearing), for completing them without indexing again.
   */
  publish(uri: string, version: number | undefined, findings: Finding[], index?: XmlIndex): void;
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

interface Lane {
  engine: EngineName;
  timer?: unknown;
  inflight?: { controller: AbortController; key: string; seq: number };
  /** Sequence of the latest run started; an older answer never overrides a newer one. */
  seq: number;
  appliedSeq: number;
  result?: EngineResult;
  /** The latest run's answer, applied or failed (awaited by noticeFindings). */
  done?: Promise<void>;
  /** Why the latest run could not validate (refused before sending, or failed); cleared by an answer. */
  problem?: string;
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

const ENGINES: readonly EngineName[] = ['local', 'cvs'];

export class ValidationScheduler {
  private readonly docs = new Map<string, DocState>();
  private readonly clock: Clock;
  private readonly maxServiceBytes: number;
  private readonly localDebounceMs: number;
  private readonly health: Record<EngineName, ServiceHealth>;
  /** One pipeline (and its cache) per service URL or SDK identity. */
  private readonly pipelines: ValidationPipelines;
  /** Per engine: the CVS's story and the SDK rules' story are deduplicated apart. */
  private readonly lastStatus: Record<EngineName, string> = { cvs: '', local: '' };
  private lastRefusal = '';

  constructor(private readonly deps: SchedulerDeps) {
    this.clock = deps.clock ?? systemClock;
    const base = deps.backoffBaseMs ?? BACKOFF.baseMs;
    const max = deps.backoffMaxMs ?? BACKOFF.maxMs;
    this.health = { cvs: new ServiceHealth(base, max), local: new ServiceHealth(base, max) };
    this.maxServiceBytes = deps.maxServiceBytes ?? DEFAULT_MAX_SERVICE_BYTES;
    this.pipelines = new ValidationPipelines({
      apiKey: deps.apiKey,
      send: deps.validate,
      ...(deps.localEngine ? { localEngine: deps.localEngine } : {}),
    });
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
    const engines = this.pipelines.enginesOf(settings);
    let result: ValidateNowResult = { started: false, message: 'No validation engine is enabled.' };
    for (const engine of engines) {
      this.clearTimer(s.lanes[engine]);
      const r = await this.run(s, engine, true);
      // The CVS's answer is the one the command reports: it stays the authority.
      if (engine === 'cvs' || !result.started) result = r;
    }
    return result;
  }

  /**
   * NoticeFindingsRequest (the pre-submit check): every enabled engine runs now on the current text,
   * whatever the run mode and any back-off; once each has answered or failed, the merged findings are
   * published and returned, so the caller counts exactly what the editor shows.
   */
  async noticeFindings(uri: string): Promise<NoticeFindingsOutcome> {
    const s = this.docs.get(uri);
    if (!s) return { ok: false, message: 'The document is not open in the eForms language server.' };
    if (!s.kind) return { ok: false, message: 'The document is not an eForms notice.' };
    this.resetFailures();
    const settings = await this.deps.settings(s.uri);
    const engines = this.pipelines.enginesOf(settings);
    const started = await Promise.all(
      engines.map(async (engine) => {
        const lane = s.lanes[engine];
        this.clearTimer(lane);
        lane.problem = undefined;
        const r = await this.run(s, engine, true);
        return { engine, r };
      }),
    );
    const report: { engine: EngineName; problem?: string }[] = [];
    for (const { engine, r } of started) {
      const lane = s.lanes[engine];
      if (r.started) await lane.done;
      const problem = r.started ? lane.problem : (r.message ?? 'it did not run');
      report.push(problem ? { engine, problem } : { engine });
    }
    if (s.closed || !s.kind)
      return { ok: false, message: 'The document is no longer an open eForms notice.' };
    const findings = this.publishCurrent(s);
    return { ok: true, version: s.version, findings, engines: report };
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

  private async plan(s: DocState, trigger: Trigger): Promise<void> {
    const settings = await this.deps.settings(s.uri);
    if (s.closed || !s.kind) return;
    const engines = this.pipelines.enginesOf(settings);
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

  /** Runs one engine on the document's current text; resolves once the run is started or refused. */
  private async run(s: DocState, engine: EngineName, forced: boolean): Promise<ValidateNowResult> {
    const settings = await this.deps.settings(s.uri);
    if (s.closed || !s.kind)
      return { started: false, message: 'The document is no longer an open eForms notice.' };
    const lane = s.lanes[engine];
    const health = this.health[engine];
    const baseUrl = engine === 'cvs' ? urlsOf(settings).cvs : undefined;
    const refuse = (status: ValidationStatusParams): ValidateNowResult => {
      lane.problem = status.message;
      const what = engine === 'cvs' ? 'the validation service' : 'the SDK rules';
      const line = `Not asking ${what} about ${s.uri}: ${status.message}`;
      // Once per reason and document: a pause in typing must not add a log line each time.
      if (line !== this.lastRefusal) this.deps.log(line);
      this.lastRefusal = line;
      this.sendStatus(status);
      return { started: false, message: status.message };
    };
    const tag = engine === 'local' ? { engine } : {};
    const bytes = Buffer.from(s.text, 'utf8');
    const verdict = preflight({
      engine,
      index: s.index,
      byteLength: bytes.length,
      apiKey: this.deps.apiKey,
      baseUrl,
      maxServiceBytes: this.maxServiceBytes,
    });
    // The accepted versions are worth knowing as soon as the key may go to the service.
    if (engine === 'cvs' && (verdict.ok || verdict.reason === 'malformed' || verdict.reason === 'too-large'))
      this.refreshRange(s, baseUrl ?? '');
    if (!verdict.ok)
      return refuse({
        uri: s.uri,
        ...zero,
        ...tag,
        serviceUrl: baseUrl,
        ...preflightStatus(engine, verdict),
      });
    const pipeline = this.pipelines.for(engine, settings);
    if (!pipeline) return { started: false, message: 'The SDK rules are not available in this server.' };
    const input = inputFor({ index: s.index, bytes }, settings.validation);
    const key = pipeline.keyOf(input);
    const fingerprint = refusalFingerprint(input, baseUrl);
    const seq = ++lane.seq;
    const cached = pipeline.cached(input);
    if (cached) {
      // Identical content: the answer is known, and any older run in flight is now obsolete.
      this.abortInflight(lane);
      this.apply(s, lane, seq, { report: cached, language: input.language });
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
    this.deps.log(validatingLine(s.uri, version, bytes.length, input, baseUrl));
    lane.done = pipeline.report({ ...input, signal: controller.signal }).then(
      (report) => {
        if (lane.inflight?.controller === controller) lane.inflight = undefined;
        // Aborted (a newer run took over) but finished anyway: never applied, even if it lands first.
        if (controller.signal.aborted) return;
        health.reset();
        if (engine === 'cvs') this.lastRefusal = '';
        this.deps.log(validatedLine(s.uri, version, report, this.clock.now() - started));
        this.apply(s, lane, seq, { report, language: input.language });
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

  /** An engine's answer (a report, or the service's refusal of the notice) becomes the lane's result. */
  private apply(
    s: DocState,
    lane: Lane,
    seq: number,
    answer: Pick<EngineResult, 'report' | 'rejection' | 'language'>,
    serviceUrl?: string,
  ): void {
    if (s.closed || seq < lane.appliedSeq || !s.kind) return;
    lane.appliedSeq = seq;
    lane.problem = undefined;
    lane.result = { ...answer, findings: [], mappedText: '\u0000unmapped' };
    const all = this.publishCurrent(s);
    const { report } = answer;
    if (lane.engine === 'cvs' || !report) {
      const at = serviceUrl === undefined ? {} : { serviceUrl };
      this.sendStatus({
        state: 'validated',
        uri: s.uri,
        ...countSeverities(all),
        validatedAt: this.clock.now(),
        ...at,
      });
      return;
    }
    this.sendStatus({
      state: 'validated',
      uri: s.uri,
      engine: 'local',
      ...countSeverities(lane.result.findings),
      validatedAt: this.clock.now(),
      local: localEngineStatus(report),
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
    const failure = classifyFailure(engine, err);
    if (failure.class === 'cancelled') return;
    if (failure.class === 'notice-refused') {
      // The service refused this notice and said why: that is a finding on the notice (where the
      // explanation points), not a failure of the service; the next edit is validated again.
      this.health[engine].reset();
      this.deps.log(`The validation service refused ${s.uri}: ${failure.explanation}`);
      this.apply(s, s.lanes[engine], seq, { rejection: failure.explanation, language }, baseUrl);
      return;
    }
    const status: ValidationStatusParams = {
      uri: s.uri,
      ...zero,
      ...(engine === 'local' ? { engine } : {}),
      serviceUrl: baseUrl,
      ...failureStatus(failure),
    };
    this.deps.log(
      `Validation of ${s.uri} ${engine === 'local' ? 'with the SDK rules ' : ''}failed: ${status.message}`,
    );
    const delay = this.health[engine].failed(failure.retry, fingerprint, status, this.clock.now());
    const lane = s.lanes[engine];
    if (seq >= lane.appliedSeq) lane.problem = status.message ?? 'it failed';
    if (delay !== undefined && !s.closed && !lane.timer) this.schedule(s, engine, delay);
    this.sendStatus(status);
  }

  /** Publishes local findings merged with every engine's latest findings re-placed on the current text. */
  private publishCurrent(s: DocState): Finding[] {
    const all = this.merged(s);
    s.published = true;
    this.deps.publish(s.uri, s.version, all, s.index);
    return all;
  }

  private merged(s: DocState): Finding[] {
    return currentFindings(
      s.index,
      s.text,
      s.local,
      s.range,
      {
        cvs: s.lanes.cvs.result,
        local: s.lanes.local.result,
      },
      (err) => this.deps.log(`Could not place the findings on ${s.uri}: ${String(err).slice(0, 200)}`),
      new Date(this.clock.now()).toISOString().slice(0, 10),
    );
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
  private sendStatus(status: ValidationStatusParams): void {
    const p = this.withLifecycle(status);
    const key = JSON.stringify(p);
    const engine = p.engine ?? 'cvs';
    if (key === this.lastStatus[engine]) return;
    this.lastStatus[engine] = key;
    this.deps.status(p);
  }

  /** The status, with where the notice's SDK stands at TED once the service's range is known. */
  private withLifecycle(p: ValidationStatusParams): ValidationStatusParams {
    const s = p.uri ? this.docs.get(p.uri) : undefined;
    if (!s?.range || p.sdkLifecycle) return p;
    const today = new Date(this.clock.now()).toISOString().slice(0, 10);
    return { ...p, sdkLifecycle: sdkLifecycle(declaredSdkVersion(s.index), s.range, [], today) };
  }
}

export type NoticeFindingsOutcome =
  | { ok: false; message: string }
  | {
      ok: true;
      version: number;
      findings: Finding[];
      engines: { engine: EngineName; problem?: string }[];
    };

function newLane(engine: EngineName): Lane {
  return { engine, seq: 0, appliedSeq: 0 };
}

const zero = { errors: 0, warnings: 0, infos: 0 } as const;

export type { ValidationInput };
