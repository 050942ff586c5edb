// The per-document validation state machine: local checks at once on every change; the service after a
// debounce, at most one request per document in flight (a newer one aborts the older), identical
// content answered from the cache, results re-resolved on the current text so that nothing is ever
// drawn at stale offsets, one status per change of service state, and exponential back-off on repeated
// failures. Everything outside (connection, clock, HTTP, settings) is injected, so tests drive it with a
// fake clock and a fake service. Never logs or reports the API key.

import {
  CvsError,
  type ValidateNoticeOptions,
  type ValidateNoticeResult,
  validationUrl,
} from '../core/cvs-client';
import { keyTransportProblem } from '../core/environments';
import type { Finding } from '../core/finding';
import { localFindings } from '../core/local-checks';
import { type NoticeKind, noticeKindOf } from '../core/notice-kind';
import type { ValidateNowResult, ValidationStatusParams } from '../core/protocol';
import { rejectionFinding } from '../core/service-rejection';
import { type EformsSettings, urlsOf } from '../core/settings';
import { parseSvrl, SvrlFormatError, type SvrlReport } from '../core/svrl';
import { mapSvrl } from '../core/svrl-mapping';
import { ValidationCache, type ValidationRequestOptions, validationCacheKey } from '../core/validation-cache';
import { type SdkVersionRange, type VersionRangeOptions, versionRangeFinding } from '../core/version-range';
import { indexXml, type XmlIndex } from '../core/xml-index';
import { countSeverities } from './diagnostics';

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

export interface SchedulerDeps {
  settings(uri: string): Promise<EformsSettings>;
  /** The API key from the server's environment; undefined or '' when none is set. */
  apiKey: string | undefined;
  validate(o: ValidateNoticeOptions): Promise<ValidateNoticeResult>;
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
  /** The SDK versions the service accepts for publication (cached by the caller); none: no warning. */
  versionRange?(o: VersionRangeOptions): Promise<SdkVersionRange | undefined>;
}

export interface DocumentSnapshot {
  uri: string;
  version: number;
  text: string;
}

type Trigger = 'open' | 'change' | 'save' | 'settings';

interface RemoteResult {
  /** The report, or undefined when the service refused the notice itself (`rejection`). */
  report?: SvrlReport;
  /** The service's explanation of a 400 for this notice: one finding where it points. */
  rejection?: string;
  /** Language the report's messages are in: the words the mapping appends follow it. */
  language: string;
  /** Findings of `report` mapped on `mappedText`; re-mapped when the text moves on. */
  findings: Finding[];
  mappedText: string;
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
  remote?: RemoteResult;
  timer?: unknown;
  inflight?: { controller: AbortController; key: string; seq: number };
  /** Sequence of the latest request started; an older answer never overrides a newer one. */
  seq: number;
  appliedSeq: number;
  closed: boolean;
  /** The accepted SDK versions of the service this notice goes to, once known. */
  range?: SdkVersionRange;
}

const KB = 1024;

export class ValidationScheduler {
  private readonly docs = new Map<string, DocState>();
  private readonly cache = new ValidationCache<SvrlReport>(64, 64 * 1024 * 1024, (r) =>
    r.assertions.reduce((n, a) => n + a.text.length + a.location.length + 64, 256),
  );
  private readonly clock: Clock;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;
  private readonly maxServiceBytes: number;
  /** Service-wide: repeated retryable failures, and until when no request is made. */
  private failures = 0;
  private backoffUntil = 0;
  /** The failure that started the current back-off: every notice waiting on it reports it too. */
  private backoffStatus?: ValidationStatusParams;
  /** A failure that no retry can fix until the settings or the key change (401, 403, insecure URL). */
  private blocked?: ValidationStatusParams;
  /** Request options the service rejected as such (400): not retried until settings change. */
  private rejected?: { fingerprint: string; status: ValidationStatusParams };
  private lastStatus = '';
  private lastRefusal = '';

  constructor(private readonly deps: SchedulerDeps) {
    this.clock = deps.clock ?? systemClock;
    this.backoffBaseMs = deps.backoffBaseMs ?? 5000;
    this.backoffMaxMs = deps.backoffMaxMs ?? 5 * 60 * 1000;
    this.maxServiceBytes = deps.maxServiceBytes ?? 10 * 1024 * 1024;
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

  /** Settings changed: forget failures that a setting may have fixed and re-validate every open notice. */
  settingsChanged(): void {
    this.resetFailures();
    for (const s of this.docs.values()) {
      if (!s.kind) continue;
      this.publishCurrent(s);
      void this.plan(s, 'settings');
    }
  }

  /** ValidateNowRequest: the service is asked now, whatever the run mode and any back-off. */
  async validateNow(uri: string): Promise<ValidateNowResult> {
    const s = this.docs.get(uri);
    if (!s) return { started: false, message: 'The document is not open in the eForms language server.' };
    if (!s.kind) return { started: false, message: 'The document is not an eForms notice.' };
    this.resetFailures();
    this.clearTimer(s);
    return this.run(s, true);
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
      const index = indexXml(doc.text);
      if (!s) {
        s = {
          uri: doc.uri,
          version: doc.version,
          text: doc.text,
          index,
          kind: undefined,
          published: false,
          local: [],
          seq: 0,
          appliedSeq: 0,
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
        s.remote = undefined;
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
    const delay = trigger === 'save' ? 0 : settings.validation.debounceMs;
    this.clearTimer(s);
    s.timer = this.clock.setTimeout(() => {
      s.timer = undefined;
      void this.run(s, false);
    }, delay);
  }

  /** Asks the service about the document's current text; resolves once the request is sent or refused. */
  private async run(s: DocState, forced: boolean): Promise<ValidateNowResult> {
    const settings = await this.deps.settings(s.uri);
    if (s.closed || !s.kind)
      return { started: false, message: 'The document is no longer an open eForms notice.' };
    const baseUrl = urlsOf(settings).cvs;
    const refuse = (status: ValidationStatusParams): ValidateNowResult => {
      const line = `Not asking the validation service about ${s.uri}: ${status.message}`;
      // Once per reason and document: a pause in typing must not add a log line each time.
      if (line !== this.lastRefusal) this.deps.log(line);
      this.lastRefusal = line;
      this.sendStatus(status);
      return { started: false, message: status.message };
    };
    if (!this.deps.apiKey)
      return refuse({
        state: 'needsKey',
        uri: s.uri,
        ...zero,
        serviceUrl: baseUrl,
        message: "No API key is set: only local checks run. Set one with 'eForms: Set API Key'.",
      });
    const transport = keyTransportProblem(validationUrl(baseUrl));
    if (transport)
      return refuse({
        state: 'error',
        uri: s.uri,
        ...zero,
        serviceUrl: baseUrl,
        message: `${transport} Check eforms.environment and eforms.customUrls.cvs.`,
      });
    this.refreshRange(s, baseUrl);
    if (s.index.errors.length > 0)
      return refuse({
        state: 'malformed',
        uri: s.uri,
        ...zero,
        serviceUrl: baseUrl,
        message:
          'The notice is not well-formed XML: fix the syntax error shown in the editor to have it validated by the service.',
      });
    const text = s.text;
    const version = s.version;
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length > this.maxServiceBytes)
      return refuse({
        state: 'paused',
        uri: s.uri,
        ...zero,
        serviceUrl: baseUrl,
        message: `This notice is ${(bytes.length / KB / KB).toFixed(1)} MB, above the ${this.maxServiceBytes / KB / KB} MB sent to the validation service: only local checks run.`,
      });
    const options: ValidationRequestOptions = {
      baseUrl,
      language: settings.validation.language,
      validationMode: settings.validation.mode,
      // Unpinned: the field is left out and the service reads the notice's cbc:CustomizationID, as
      // known working clients rely on.
      eFormsSdkVersion: settings.validation.sdkVersion,
    };
    const key = validationCacheKey(bytes, options);
    const seq = ++s.seq;
    const cached = this.cache.get(key);
    if (cached) {
      // Identical content: the answer is known, and any older request in flight is now obsolete.
      this.abortInflight(s);
      this.apply(s, seq, cached, options.language);
      return { started: true, message: 'Validated (identical content, answered from the cache).' };
    }
    if (!forced) {
      if (this.blocked) return refuse({ ...this.blocked, uri: s.uri });
      const fingerprint = JSON.stringify(options);
      if (this.rejected?.fingerprint === fingerprint) return refuse({ ...this.rejected.status, uri: s.uri });
      const wait = this.backoffUntil - this.clock.now();
      if (wait > 0) {
        // This notice's own status would otherwise still say what it was before the service went away.
        if (this.backoffStatus) this.sendStatus({ ...this.backoffStatus, uri: s.uri });
        this.clearTimer(s);
        s.timer = this.clock.setTimeout(() => {
          s.timer = undefined;
          void this.run(s, false);
        }, wait);
        return { started: false, message: 'Waiting after a failure of the validation service.' };
      }
    }
    if (s.inflight?.key === key)
      return { started: true, message: 'A validation of this content is under way.' };
    this.abortInflight(s);
    const controller = new AbortController();
    s.inflight = { controller, key, seq };
    if (this.failures === 0)
      this.sendStatus({ state: 'validating', uri: s.uri, ...zero, serviceUrl: baseUrl });
    const started = this.clock.now();
    this.deps.log(
      `Validating ${s.uri} (version ${version}, ${(bytes.length / KB).toFixed(1)} KB, SDK ${options.eFormsSdkVersion || 'default'}, ${options.validationMode}, ${options.language}) at ${baseUrl}`,
    );
    void this.deps
      .validate({
        baseUrl,
        apiKey: this.deps.apiKey,
        notice: bytes,
        language: options.language,
        validationMode: options.validationMode,
        eFormsSdkVersion: options.eFormsSdkVersion,
        timeoutMs: settings.validation.timeoutMs,
        signal: controller.signal,
      })
      .then((answer) => {
        let report: SvrlReport;
        try {
          report = parseSvrl(answer.svrl);
        } catch (err) {
          const detail = err instanceof SvrlFormatError ? err.message : String(err);
          throw new CvsError(
            'bad-answer',
            `The validation service at ${baseUrl} answered with a report that cannot be read (${detail.slice(0, 120)}): retrying later.`,
            true,
            200,
          );
        }
        return report;
      })
      .then(
        (report) => {
          if (s.inflight?.controller === controller) s.inflight = undefined;
          this.cache.set(key, report);
          this.resetFailures();
          this.deps.log(
            `Validated ${s.uri} (version ${version}): ${report.assertions.length} assertions in ${this.clock.now() - started} ms`,
          );
          this.apply(s, seq, report, options.language);
        },
        (err: unknown) => {
          if (s.inflight?.controller === controller) s.inflight = undefined;
          this.fail(s, err, options, baseUrl, seq);
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

  private apply(s: DocState, seq: number, report: SvrlReport, language: string): void {
    if (s.closed || seq < s.appliedSeq || !s.kind) return;
    s.appliedSeq = seq;
    s.remote = { report, language, findings: [], mappedText: '\u0000unmapped' };
    const all = this.publishCurrent(s);
    this.sendStatus({
      state: 'validated',
      uri: s.uri,
      ...countSeverities(all),
      validatedAt: Date.now(),
    });
  }

  private fail(
    s: DocState,
    err: unknown,
    options: ValidationRequestOptions,
    baseUrl: string,
    seq: number,
  ): void {
    const e =
      err instanceof CvsError
        ? err
        : new CvsError('server', `The validation failed unexpectedly (${String(err).slice(0, 200)}).`, true);
    if (e.kind === 'cancelled') return;
    const explanation = e.kind === 'notice-rejected' ? e.fields.serviceMessage : undefined;
    if (explanation) {
      // The service refused this notice and said why: that is a finding on the notice (where the
      // explanation points), not a failure of the service; the next edit is validated again.
      this.resetFailures();
      this.deps.log(`The validation service refused ${s.uri}: ${explanation}`);
      if (s.closed || seq < s.appliedSeq || !s.kind) return;
      s.appliedSeq = seq;
      s.remote = {
        rejection: explanation,
        language: options.language,
        findings: [],
        mappedText: '\u0000unmapped',
      };
      const all = this.publishCurrent(s);
      this.sendStatus({
        state: 'validated',
        uri: s.uri,
        ...countSeverities(all),
        validatedAt: Date.now(),
        serviceUrl: baseUrl,
      });
      return;
    }
    this.deps.log(`Validation of ${s.uri} failed: ${e.message}`);
    const status: ValidationStatusParams = {
      state:
        e.kind === 'missing-key'
          ? 'needsKey'
          : e.kind === 'timeout' || e.kind === 'network' || e.kind === 'proxy'
            ? 'offline'
            : 'error',
      uri: s.uri,
      ...zero,
      serviceUrl: baseUrl,
      message: e.message,
      failure: { service: 'cvs', kind: e.kind, fields: e.fields },
    };
    if (e.kind === 'missing-key' || e.kind === 'forbidden' || e.kind === 'insecure') {
      this.blocked = status;
    } else if (!e.retryable) {
      this.rejected = { fingerprint: JSON.stringify(options), status };
    } else {
      this.failures++;
      this.backoffStatus = status;
      const delay = Math.min(this.backoffBaseMs * 2 ** (this.failures - 1), this.backoffMaxMs);
      this.backoffUntil = this.clock.now() + delay;
      if (!s.closed && !s.timer) {
        s.timer = this.clock.setTimeout(() => {
          s.timer = undefined;
          void this.run(s, false);
        }, delay);
      }
    }
    this.sendStatus(status);
  }

  /** Publishes local findings merged with the latest service findings re-resolved on the current text. */
  private publishCurrent(s: DocState): Finding[] {
    const all = this.merged(s);
    s.published = true;
    this.deps.publish(s.uri, s.version, all);
    return all;
  }

  private merged(s: DocState): Finding[] {
    const r = s.remote;
    const version = versionRangeFinding(s.index, s.range);
    const local = version ? [...s.local, version] : s.local;
    if (!r) return local;
    if (r.mappedText !== s.text) {
      try {
        r.findings = r.report
          ? mapSvrl(s.index, r.report, { language: r.language })
          : [rejectionFinding(s.index, r.rejection ?? '')];
      } catch (err) {
        this.deps.log(`Could not place the service's findings on ${s.uri}: ${String(err).slice(0, 200)}`);
        r.findings = [];
      }
      r.mappedText = s.text;
    }
    return r.findings.length ? [...local, ...r.findings] : local;
  }

  private resetFailures(): void {
    this.lastRefusal = '';
    this.failures = 0;
    this.backoffUntil = 0;
    this.backoffStatus = undefined;
    this.blocked = undefined;
    this.rejected = undefined;
  }

  private abortInflight(s: DocState): void {
    if (s.inflight) {
      s.inflight.controller.abort();
      s.inflight = undefined;
    }
  }

  private clearTimer(s: DocState): void {
    if (s.timer !== undefined) {
      this.clock.clearTimeout(s.timer);
      s.timer = undefined;
    }
  }

  private stop(s: DocState): void {
    this.clearTimer(s);
    this.abortInflight(s);
  }

  /** Sends a status only when it differs from the last one: repeated identical failures make no storm. */
  private sendStatus(p: ValidationStatusParams): void {
    const key = JSON.stringify(p);
    if (key === this.lastStatus) return;
    this.lastStatus = key;
    this.deps.status(p);
  }
}

const zero = { errors: 0, warnings: 0, infos: 0 } as const;
