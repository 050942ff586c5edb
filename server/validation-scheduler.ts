// The validation scheduler, and nothing else: local checks at once on every change; then each engine
// (the SDK's rules in a worker, the CVS) in its own lane, after its own debounce, at most one run per
// lane in flight (a newer one aborts the older), each engine's health (back-off, blocking failures) in
// its own ServiceHealth. What it schedules lives elsewhere: each document's state, lanes and findings
// re-placed on the current text in document-state.ts; what is said and how often in status-channel.ts,
// worded by status-wording.ts; the chain (SDK version, validate, parse, map, cache) and the policy
// (preflight, what a failure means, which engines and pipeline) in core/validation. Everything outside
// (connection, clock, transport, settings: scheduler-contract.ts) is injected, so tests drive it with a
// fake clock and a fake service. Never logs or reports the API key.
import type { Finding } from '../core/findings';
import type { ValidateNowResult, ValidationStatusParams } from '../core/protocol';
import { urlsOf } from '../core/settings';
import {
  BACKOFF,
  classifyFailure,
  DEFAULT_MAX_SERVICE_BYTES,
  type EngineName,
  type EngineResult,
  inputFor,
  type LocalEngine,
  localFindings,
  preflight,
  refusalFingerprint,
  ValidationPipelines,
} from '../core/validation';
import { type Clock, systemClock, todayOf } from './clock';
import {
  type DocState,
  type DocumentSnapshot,
  ENGINES,
  type Lane,
  OpenDocuments,
  placedFindings,
  refreshRange,
  stopLanes,
} from './document-state';
import type { NoticeFindingsOutcome, SchedulerDeps } from './scheduler-contract';
import { ServiceHealth } from './service-health';
import { StatusChannel } from './status-channel';
import * as wording from './status-wording';

export type { Clock, LocalEngine, NoticeFindingsOutcome, SchedulerDeps };

type Trigger = 'open' | 'change' | 'save' | 'settings';

const GONE = 'The document is no longer an open eForms notice.';

/**
 * Quiet time after an edit before the SDK's rules run. Short: the rules run off the main thread, a newer
 * edit stops the run in flight, and an edit's run re-evaluates only what it can change; it only has to
 * gather the changes one action sends as several (a quick fix, a paste, an undo), a few milliseconds
 * apart. Keystrokes come 100 ms or more apart, so each gets its run either way.
 */
export const SDK_RULES_DEBOUNCE_MS = 10;

export class ValidationScheduler {
  private readonly docs: OpenDocuments;
  private readonly clock: Clock;
  private readonly health: Record<EngineName, ServiceHealth>;
  /** One pipeline (and its cache) per service URL or SDK identity. */
  private readonly pipelines: ValidationPipelines;
  private readonly statuses: StatusChannel;

  constructor(private readonly deps: SchedulerDeps) {
    const clock = deps.clock ?? systemClock;
    this.clock = clock;
    this.docs = new OpenDocuments(clock);
    const base = deps.backoffBaseMs ?? BACKOFF.baseMs;
    const max = deps.backoffMaxMs ?? BACKOFF.maxMs;
    this.health = { cvs: new ServiceHealth(base, max), local: new ServiceHealth(base, max) };
    this.pipelines = new ValidationPipelines({
      apiKey: deps.apiKey,
      send: deps.validate,
      ...(deps.localEngine ? { localEngine: deps.localEngine } : {}),
    });
    this.statuses = new StatusChannel(
      deps,
      (uri) => this.docs.get(uri),
      () => todayOf(clock),
    );
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
    stopLanes(s);
    this.docs.delete(uri);
    if (s.published) this.deps.publish(uri, undefined, []);
    if (!this.docs.anyNotice()) this.statuses.send({ state: 'idle', ...wording.NO_COUNTS });
  }

  /** An SDK release appeared (downloaded or named): the local rules run again on every open notice. */
  sdkChanged(): void {
    this.health.local.reset();
    this.statuses.forgetRefusals();
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
    const now = await this.forced(uri);
    if (!('s' in now)) return { started: false, message: now.message };
    let result: ValidateNowResult = { started: false, message: 'No validation engine is enabled.' };
    for (const engine of now.engines) {
      now.s.lanes[engine].disarm();
      const r = await this.run(now.s, engine, true);
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
    const now = await this.forced(uri);
    if (!('s' in now)) return { ok: false, message: now.message };
    const { s } = now;
    const started = await Promise.all(
      now.engines.map(async (engine) => {
        s.lanes[engine].disarm();
        s.lanes[engine].problem = undefined;
        return { engine, r: await this.run(s, engine, true) };
      }),
    );
    const engines: { engine: EngineName; problem?: string }[] = [];
    for (const { engine, r } of started) {
      if (r.started) await s.lanes[engine].done;
      const problem = r.started ? s.lanes[engine].problem : (r.message ?? 'it did not run');
      engines.push(problem ? { engine, problem } : { engine });
    }
    if (s.closed || !s.kind) return { ok: false, message: GONE };
    return { ok: true, version: s.version, findings: this.publishCurrent(s), engines };
  }

  dispose(): void {
    for (const s of this.docs.values()) stopLanes(s);
    this.docs.clear();
  }

  /** An open notice about to be validated on request, failures forgotten, with its enabled engines. */
  private async forced(uri: string): Promise<{ s: DocState; engines: EngineName[] } | { message: string }> {
    const s = this.docs.get(uri);
    if (!s) return { message: 'The document is not open in the eForms language server.' };
    if (!s.kind) return { message: 'The document is not an eForms notice.' };
    this.resetFailures();
    return { s, engines: this.pipelines.enginesOf(await this.deps.settings(s.uri)) };
  }

  private update(doc: DocumentSnapshot, trigger: Trigger): void {
    const known = this.docs.get(doc.uri);
    // TextDocuments announces an open as a content change too: nothing new to do for it.
    if (known && trigger === 'change' && known.version === doc.version && known.text === doc.text) return;
    const s = this.docs.take(doc, trigger === 'open');
    if (!s.kind) {
      if (s.published) {
        stopLanes(s, { forget: true });
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
    if (engines.includes('local') && trigger !== 'save')
      this.schedule(s, 'local', this.deps.localDebounceMs ?? SDK_RULES_DEBOUNCE_MS);
    if (!engines.includes('cvs')) return;
    const run = settings.validation.run;
    if (run === 'manual') {
      if (trigger === 'open' || trigger === 'settings') this.statuses.send(wording.manualStatus(s.uri));
      return;
    }
    if (trigger === 'change' && run !== 'onType') return;
    if (trigger === 'save' && run !== 'onSave') return;
    this.schedule(s, 'cvs', trigger === 'save' ? 0 : settings.validation.debounceMs);
  }

  /** The one place a lane's run is (re)scheduled: debounce, back-off and retries all come here. */
  private schedule(s: DocState, engine: EngineName, delay: number): void {
    s.lanes[engine].arm(delay, () => void this.run(s, engine, false));
  }

  /** Runs one engine on the document's current text; resolves once the run is started or refused. */
  private async run(s: DocState, engine: EngineName, forced: boolean): Promise<ValidateNowResult> {
    const settings = await this.deps.settings(s.uri);
    if (s.closed || !s.kind) return { started: false, message: GONE };
    const lane = s.lanes[engine];
    const health = this.health[engine];
    const baseUrl = engine === 'cvs' ? urlsOf(settings).cvs : undefined;
    const refuse = (status: ValidationStatusParams): ValidateNowResult => {
      lane.problem = status.message;
      this.statuses.refused(engine, s.uri, status);
      return { started: false, message: status.message };
    };
    const bytes = Buffer.from(s.text, 'utf8');
    const verdict = preflight({
      engine,
      index: s.index,
      byteLength: bytes.length,
      apiKey: this.deps.apiKey,
      baseUrl,
      maxServiceBytes: this.deps.maxServiceBytes ?? DEFAULT_MAX_SERVICE_BYTES,
    });
    // The accepted versions are worth knowing as soon as the key may go to the service.
    if (engine === 'cvs' && (verdict.ok || verdict.reason === 'malformed' || verdict.reason === 'too-large'))
      refreshRange(s, this.deps.versionRange, { baseUrl: baseUrl ?? '', apiKey: this.deps.apiKey }, () =>
        this.publishCurrent(s),
      );
    if (!verdict.ok)
      return refuse(wording.engineStatus(s.uri, engine, baseUrl, wording.preflightStatus(engine, verdict)));
    const pipeline = this.pipelines.for(engine, settings);
    if (!pipeline) return { started: false, message: 'The SDK rules are not available in this server.' };
    const input = inputFor({ index: s.index, bytes }, settings.validation);
    const key = pipeline.keyOf(input);
    const fingerprint = refusalFingerprint(input, baseUrl);
    const seq = ++lane.seq;
    const cached = pipeline.cached(input);
    if (cached) {
      // Identical content: the answer is known, and any older run in flight is now obsolete.
      lane.abort();
      this.apply(s, lane, seq, { report: cached, language: input.language });
      return { started: true, message: 'Validated (identical content, answered from the cache).' };
    }
    if (!forced) {
      const refused = health.refusal(fingerprint);
      if (refused) return refuse({ ...refused, uri: s.uri });
      const wait = health.wait(this.clock.now());
      if (wait.ms > 0) {
        // This notice's own status would otherwise still say what it was before the engine failed.
        if (wait.status) this.statuses.send({ ...wait.status, uri: s.uri });
        this.schedule(s, engine, wait.ms);
        return { started: false, message: 'Waiting after a failure of the validation service.' };
      }
    }
    if (lane.inflight?.key === key)
      return { started: true, message: 'A validation of this content is under way.' };
    const controller = lane.begin(key, seq);
    if (!health.failing) this.statuses.send(wording.validatingStatus(s.uri, engine, baseUrl));
    const started = this.clock.now();
    const version = s.version;
    this.deps.log(wording.validatingLine(s.uri, version, bytes.length, input, baseUrl));
    lane.done = pipeline.report({ ...input, signal: controller.signal }).then(
      (report) => {
        if (!lane.settle(controller)) return;
        health.reset();
        if (engine === 'cvs') this.statuses.forgetRefusals();
        this.deps.log(wording.validatedLine(s.uri, version, report, this.clock.now() - started));
        this.apply(s, lane, seq, { report, language: input.language });
      },
      (err: unknown) => {
        if (lane.settle(controller))
          this.fail(s, engine, err, { fingerprint, baseUrl, seq, language: input.language });
      },
    );
    return { started: true };
  }

  /** An engine's answer (a report, or the service's refusal of the notice) becomes the lane's result. */
  private apply(
    s: DocState,
    lane: Lane,
    seq: number,
    answer: Pick<EngineResult, 'report' | 'rejection' | 'language'>,
    serviceUrl?: string,
  ): void {
    if (s.closed || !s.kind || !lane.accept(seq, answer)) return;
    const all = this.publishCurrent(s);
    this.statuses.send(wording.validatedStatus(s.uri, lane, all, this.clock.now(), serviceUrl));
  }

  private fail(
    s: DocState,
    engine: EngineName,
    err: unknown,
    run: { fingerprint: string; baseUrl: string | undefined; seq: number; language: string },
  ): void {
    const failure = classifyFailure(engine, err);
    if (failure.class === 'cancelled') return;
    const lane = s.lanes[engine];
    if (failure.class === 'notice-refused') {
      // The service refused this notice and said why: that is a finding on the notice (where the
      // explanation points), not a failure of the service; the next edit is validated again.
      this.health[engine].reset();
      this.deps.log(wording.rejectedLine(s.uri, failure.explanation));
      this.apply(s, lane, run.seq, { rejection: failure.explanation, language: run.language }, run.baseUrl);
      return;
    }
    const status = wording.engineStatus(s.uri, engine, run.baseUrl, wording.failureStatus(failure));
    this.deps.log(wording.failedLine(engine, s.uri, status.message));
    const delay = this.health[engine].failed(failure.retry, run.fingerprint, status, this.clock.now());
    if (run.seq >= lane.appliedSeq) lane.problem = status.message ?? 'it failed';
    if (delay !== undefined && !s.closed && !lane.armed) this.schedule(s, engine, delay);
    this.statuses.send(status);
  }

  /** Publishes local findings merged with every engine's latest findings re-placed on the current text. */
  private publishCurrent(s: DocState): Finding[] {
    const all = placedFindings(s, (m) => this.deps.log(m), todayOf(this.clock));
    s.published = true;
    this.deps.publish(s.uri, s.version, all, s.index);
    return all;
  }

  private dropLane(s: DocState, engine: EngineName): void {
    const lane = s.lanes[engine];
    lane.stop();
    if (lane.result) {
      lane.result = undefined;
      this.publishCurrent(s);
    }
  }

  private resetFailures(): void {
    this.statuses.forgetRefusals();
    for (const e of ENGINES) this.health[e].reset();
  }
}
