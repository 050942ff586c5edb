// What validation keeps about each open document: its version, text and index (indexed once per
// version, shared with authoring through index-cache), whether it is a notice, its local findings, one
// lane per engine (timer, run in flight, latest result), the SDK versions its service accepts, and
// every engine's latest findings re-placed on the current text. State and what follows from it only:
// it decides nothing (when a lane's timer is armed or a run begins is the scheduler's call), and never
// publishes, reports or logs by itself.

import type { Finding } from '../core/findings';
import { type NoticeKind, noticeKindOf, type XmlIndex } from '../core/notice';
import type { SdkVersionRange, VersionRangeOptions } from '../core/services';
import { currentFindings, type EngineName, type EngineResult } from '../core/validation';
import type { Clock } from './clock';
import { documentIndexes } from './index-cache';

export interface DocumentSnapshot {
  uri: string;
  version: number;
  text: string;
}

/**
 * One engine's road for one document: its timer, at most one run in flight (a newer one aborts it),
 * and the latest answer, which an older run's never overrides.
 */
export class Lane {
  private timer?: unknown;
  inflight?: { controller: AbortController; key: string; seq: number };
  /** Sequence of the latest run started. */
  seq = 0;
  /** Sequence of the run whose answer is the result. */
  appliedSeq = 0;
  result?: EngineResult;
  /** The latest run's answer, applied or failed (awaited by noticeFindings). */
  done?: Promise<void>;
  /** Why the latest run could not validate (refused before sending, or failed); cleared by an answer. */
  problem?: string;

  constructor(
    readonly engine: EngineName,
    private readonly clock: Clock,
  ) {}

  /** A run is waiting for its timer. */
  get armed(): boolean {
    return this.timer !== undefined;
  }

  /** `fn` runs after `ms`, instead of whatever was waiting. */
  arm(ms: number, fn: () => void): void {
    this.disarm();
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      fn();
    }, ms);
  }

  disarm(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The run in flight, if any, is abandoned: its answer will never be applied. */
  abort(): void {
    this.inflight?.controller.abort();
    this.inflight = undefined;
  }

  stop(): void {
    this.disarm();
    this.abort();
  }

  /** A run begins: the one in flight, if any, is abandoned; the controller aborts this one. */
  begin(key: string, seq: number): AbortController {
    this.abort();
    const controller = new AbortController();
    this.inflight = { controller, key, seq };
    return controller;
  }

  /**
   * The run of `controller` has answered or failed: true when its outcome counts. A run aborted (a
   * newer one took over) but finished anyway never counts, even if it lands first.
   */
  settle(controller: AbortController): boolean {
    if (this.inflight?.controller === controller) this.inflight = undefined;
    return !controller.signal.aborted;
  }

  /** The answer of run `seq` becomes the result (to be placed), unless a newer run's already did. */
  accept(seq: number, answer: Pick<EngineResult, 'report' | 'rejection' | 'language'>): boolean {
    if (seq < this.appliedSeq) return false;
    this.appliedSeq = seq;
    this.problem = undefined;
    this.result = { ...answer, findings: [], mappedText: '\u0000unmapped' };
    return true;
  }
}

export interface DocState {
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

export const ENGINES: readonly EngineName[] = ['local', 'cvs'];

/** The open documents, by URI. */
export class OpenDocuments extends Map<string, DocState> {
  constructor(private readonly clock: Clock) {
    super();
  }

  /**
   * Takes a snapshot of a document: its text is indexed again only when it changed (or `reread`), and
   * from the index it is (still) a notice or not. A notice whose root is momentarily gone (everything
   * selected and deleted, a broken first tag) stays a notice, so that its syntax error shows instead
   * of all diagnostics vanishing.
   */
  take(doc: DocumentSnapshot, reread: boolean): DocState {
    let s = this.get(doc.uri);
    if (!s || s.text !== doc.text || reread) {
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
          lanes: { cvs: new Lane('cvs', this.clock), local: new Lane('local', this.clock) },
          closed: false,
        };
        this.set(doc.uri, s);
      }
      s.text = doc.text;
      s.index = index;
      s.kind = noticeKindOf(index) ?? (s.kind && index.table.count === 0 ? s.kind : undefined);
    }
    s.version = doc.version;
    return s;
  }

  /** Some open document is a notice (else the status goes idle). */
  anyNotice(): boolean {
    return [...this.values()].some((d) => d.kind);
  }
}

/** Every lane of the document stops (no timer waits, no run's answer will be applied), and may forget. */
export function stopLanes(s: DocState, o: { forget?: boolean } = {}): void {
  for (const e of ENGINES) {
    s.lanes[e].stop();
    if (o.forget) s.lanes[e].result = undefined;
  }
}

/** Local findings merged with every engine's latest findings, re-placed on the document's current text. */
export function placedFindings(s: DocState, log: (message: string) => void, today: string): Finding[] {
  return currentFindings(
    s.index,
    s.text,
    s.local,
    s.range,
    { cvs: s.lanes.cvs.result, local: s.lanes.local.result },
    (err) => log(`Could not place the findings on ${s.uri}: ${String(err).slice(0, 200)}`),
    today,
  );
}

/**
 * Learns (once a day per service, cached by `get`'s owner) which SDK versions the service accepts, to
 * warn early; `changed` runs when the document's range is new. A failure to learn it changes nothing.
 */
export function refreshRange(
  s: DocState,
  get: ((o: VersionRangeOptions) => Promise<SdkVersionRange | undefined>) | undefined,
  o: VersionRangeOptions,
  changed: () => void,
): void {
  if (!get) return;
  void get(o).then(
    (range) => {
      if (s.closed || !s.kind) return;
      const differs = JSON.stringify(range) !== JSON.stringify(s.range);
      s.range = range;
      if (differs) changed();
    },
    () => undefined,
  );
}
