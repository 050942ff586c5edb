// The editor's path through the SDK rules: after an edit, re-evaluate only what the edit can change.
// A run records, per pattern and fired node, what the node's rule gave (failures, rules not evaluated,
// asserts counted). The next run of the same rule set on a text that differs from a recorded one in one
// span (common prefix and suffix) fires rules on the new document as a full run does, then, for each
// fired (rule, node), replays the recorded results when the rule cannot read the span: its lets and
// tests climb at most k levels (core/xpath's ruleReach), the k-th ancestor's text lies wholly in the
// common prefix or suffix, the same rule fired at the same text in the last run, and every global the
// rule reads has the same value in both documents. Locations and node references are made anew on
// the new document. A run that is cancelled leaves the recorded state as it was. It must never replay a
// result it cannot prove unchanged: when unsure (a namespace declaration, a comment or CDATA marker
// near the change, a document that is not well-formed, a DOCTYPE), it evaluates everything.
// No `vscode` import, no I/O.

import { indexXml, type XmlIndex } from '../notice';
import type { SvrlAssertion } from '../svrl';
import { type Ast, ELEMENT, nodeRef, type Reach, type Runtime, ruleReach, XNode } from '../xpath';
import { locationOf } from './report';
import type { CompiledRuleSet, EvaluateOptions, RuleReport, RunHook } from './rule-set';
import type { SchRule } from './schema';

type NotEvaluated = { ruleId: string; reason: string };

/** What one rule gave at one node; `located`: the reason ended with ` at <location of the node>`. */
interface Rec {
  rule: SchRule;
  failures: SvrlAssertion[];
  notEvaluated: { ruleId: string; reason: string; located: boolean }[];
  evaluated: number;
}

/** What a finished run leaves for the next one. */
interface State {
  text: string;
  /** current-date() of the run: results that read it are kept only for the same day. */
  today: string;
  language: string;
  /** Each global read by a recorded rule, by name: its value in a canonical text, null if not comparable. */
  globals: Map<string, string | null>;
  /** Per pattern: the records by the node's offset in `text`. */
  records: Map<number, Rec>[];
}

/** The span an edit changed: [from, oldTo) in the old text became [from, newTo) in the new one. */
interface Change {
  from: number;
  oldTo: number;
  newTo: number;
}

/** What the last run did: for tests (that the incremental path was taken) and the bench. */
export interface IncrementalStats {
  /** Whether an earlier run's records were available for this text. */
  incremental: boolean;
  /** Fired (rule, node) pairs answered from records, and evaluated. */
  replayed: number;
  evaluated: number;
}

const NO_FAILURES: SvrlAssertion[] = [];
const NO_REASONS: Rec['notEvaluated'] = [];

/** Text that changes how the text after it parses (comments, CDATA, PIs, DOCTYPE) or names resolve. */
const UNSAFE = /<!|-->|]]>|<\?|\?>|xmlns/;
/** How far around the change the UNSAFE markers are looked for (a token the change cut in two). */
const MARGIN = 16;

const reaches = new WeakMap<ReadonlyMap<string, number>, WeakMap<SchRule, Reach>>();

export class IncrementalRules {
  #states = new WeakMap<CompiledRuleSet, State[]>();
  /** What the last evaluate() did. */
  last: IncrementalStats = { incremental: false, replayed: 0, evaluated: 0 };

  constructor(
    /** Texts remembered per rule set (documents open side by side). */
    private readonly keep = 2,
    /** Larger notices are evaluated in full, with nothing recorded (the records grow with the notice). */
    private readonly maxChars = 8 * 1024 * 1024,
  ) {}

  /** The same report as `rules.evaluate(notice, opts)`, byte for byte, reusing what the last runs found. */
  evaluate(rules: CompiledRuleSet, notice: string | XmlIndex, opts: EvaluateOptions = {}): RuleReport {
    const index =
      typeof notice === 'string'
        ? indexXml(notice.charCodeAt(0) === 0xfeff ? notice.slice(1) : notice)
        : notice;
    const text = index.text;
    const usable = text.length <= this.maxChars && index.errors.length === 0 && !text.includes('<!DOCTYPE');
    if (!usable) {
      this.last = { incremental: false, replayed: 0, evaluated: 0 };
      return rules.evaluate(index, opts);
    }
    let states = this.#states.get(rules);
    if (!states) {
      states = [];
      this.#states.set(rules, states);
    }
    const language = opts.language ?? 'en';
    // The remembered text that shares most with this one.
    let prev: State | undefined;
    let change: Change | undefined;
    for (const s of states) {
      if (s.language !== language) continue;
      const c = changeBetween(s.text, text);
      if (!change || c.from + (text.length - c.newTo) > change.from + (text.length - change.newTo)) {
        prev = s;
        change = c;
      }
    }
    if (prev && change && !safeChange(prev.text, text, change, index)) {
      prev = undefined;
      change = undefined;
    }
    const run = new Run(prev, change, language, text);
    const report = rules.evaluate(index, { ...opts, incremental: run });
    this.last = { incremental: prev !== undefined, replayed: run.replayed, evaluated: run.evaluatedNodes };
    // A cancelled run's records are partial: the earlier state stays as it was.
    if (!report.cancelled) {
      const at = prev ? states.indexOf(prev) : -1;
      if (at >= 0) states.splice(at, 1);
      states.unshift(run.next);
      states.length = Math.min(states.length, this.keep);
    }
    return report;
  }

  /** Forget every recorded run. */
  clear(rules?: CompiledRuleSet): void {
    if (rules) this.#states.delete(rules);
    else this.#states = new WeakMap();
  }
}

class Run implements RunHook {
  readonly next: State;
  replayed = 0;
  evaluatedNodes = 0;
  #rt?: Runtime;
  #globals: ReadonlyMap<string, number> = new Map();
  #prefixes: ReadonlyMap<string, string> = new Map();
  #parsed: Parameters<RunHook['begin']>[0]['parsed'] = () => ({ error: '' });
  #reaches = new WeakMap<SchRule, Reach>();
  #stable = new Map<string, boolean>();
  #prev: State | undefined;

  constructor(
    prev: State | undefined,
    private readonly change: Change | undefined,
    language: string,
    text: string,
  ) {
    this.#prev = prev;
    this.next = { text, today: '', language, globals: new Map(), records: [] };
  }

  begin(run: Parameters<RunHook['begin']>[0]): void {
    this.#rt = run.rt;
    this.#globals = run.globals;
    this.#prefixes = run.prefixes;
    this.#parsed = run.parsed;
    let byRule = reaches.get(run.globals);
    if (!byRule) {
      byRule = new WeakMap();
      reaches.set(run.globals, byRule);
    }
    this.#reaches = byRule;
    this.next.today = JSON.stringify(run.rt.today);
    if (this.#prev && this.#prev.today !== this.next.today) this.#prev = undefined;
  }

  replay(
    pattern: number,
    rule: SchRule,
    node: XNode,
    pf: SvrlAssertion[],
    failures: SvrlAssertion[],
    notEvaluated: NotEvaluated[],
  ): number {
    const prev = this.#prev;
    const change = this.change;
    if (!prev || !change) return -1;
    const reach = this.reach(rule);
    if (!Number.isFinite(reach.up)) return -1;
    for (const g of reach.globals) if (!this.stable(g)) return -1;
    // The subtree the rule may read: k levels above the node (an attribute's or text's from its element).
    let a: XNode | null = node.kind === ELEMENT ? node : node.parent;
    for (let i = 0; i < reach.up && a; i++) a = a.parent;
    if (!a || a.kind !== ELEMENT) return -1;
    const el = a.doc.index.elements[a.el];
    let key: number;
    if (el.end >= 0 && el.end <= change.from) key = node.order;
    else if (el.start >= change.newTo) key = node.order - (change.newTo - change.oldTo);
    else return -1;
    const rec = prev.records[pattern]?.get(key);
    if (!rec || rec.rule !== rule) return -1;
    let location: string | undefined;
    const loc = (): string => {
      location ??= locationOf(node, this.#prefixes);
      return location;
    };
    if (rec.failures.length > 0) {
      const ref = nodeRef(node);
      for (const f of rec.failures) {
        const g: SvrlAssertion = { ...f, location: loc() };
        if (ref) g.node = ref;
        else delete g.node;
        pf.push(g);
        failures.push(g);
      }
    }
    for (const n of rec.notEvaluated)
      notEvaluated.push({ ruleId: n.ruleId, reason: n.located ? `${n.reason} at ${loc()}` : n.reason });
    this.keep(pattern, node.order, rec);
    this.replayed++;
    return rec.evaluated;
  }

  record(
    pattern: number,
    rule: SchRule,
    node: XNode,
    pf: SvrlAssertion[],
    pf0: number,
    notEvaluated: NotEvaluated[],
    ne0: number,
    evaluated: number,
  ): void {
    this.evaluatedNodes++;
    // Copies: the report's objects belong to its reader.
    const failures = pf.length > pf0 ? pf.slice(pf0).map((f) => ({ ...f })) : NO_FAILURES;
    let reasons = NO_REASONS;
    if (notEvaluated.length > ne0) {
      const suffix = ` at ${locationOf(node, this.#prefixes)}`;
      reasons = notEvaluated.slice(ne0).map((n) => {
        const located = n.reason.endsWith(suffix);
        return {
          ruleId: n.ruleId,
          reason: located ? n.reason.slice(0, -suffix.length) : n.reason,
          located,
        };
      });
    }
    // The globals this rule reads, with their values here: the next run compares them.
    const reach = this.reach(rule);
    if (Number.isFinite(reach.up)) for (const g of reach.globals) this.stable(g);
    this.keep(pattern, node.order, { rule, failures, notEvaluated: reasons, evaluated });
  }

  private keep(pattern: number, at: number, rec: Rec): void {
    const records = this.next.records;
    while (records.length <= pattern) records.push(new Map());
    records[pattern].set(at, rec);
  }

  private reach(rule: SchRule): Reach {
    let r = this.#reaches.get(rule);
    if (!r) {
      const lets: { name: string; ast: Ast }[] = [];
      const tests: Ast[] = [];
      for (const l of rule.lets) {
        const p = this.#parsed(l.value);
        // A let that cannot be parsed makes the rule unsupported: it never fires.
        if ('ast' in p) lets.push({ name: l.name, ast: p.ast });
      }
      for (const a of rule.asserts) {
        const p = this.#parsed(a.test);
        // An assert that cannot be parsed is never evaluated (the static not-evaluated list names it).
        if ('ast' in p) tests.push(p.ast);
      }
      r = ruleReach(lets, tests, (name) => this.#globals.has(name));
      this.#reaches.set(rule, r);
    }
    return r;
  }

  /** Whether a global has the same value as in the last run (computed here once, and kept for the next). */
  private stable(name: string): boolean {
    let ok = this.#stable.get(name);
    if (ok === undefined) {
      const slot = this.#globals.get(name);
      let value: string | null = null;
      if (slot !== undefined && this.#rt) {
        try {
          value = canonical(this.#rt.global(slot));
        } catch {
          value = null; // its readers fail again as in a full run; nothing is replayed for them
        }
      }
      this.next.globals.set(name, value);
      ok = value !== null && this.#prev?.globals.get(name) === value;
      this.#stable.set(name, ok);
    }
    return ok;
  }
}

/** An atomic sequence as text that is equal only for equal values; null when it holds nodes. */
function canonical(seq: unknown[]): string | null {
  const parts: string[] = [];
  for (const v of seq) {
    if (v instanceof XNode) return null;
    if (typeof v === 'object' && v !== null) parts.push(`${v.constructor.name}:${JSON.stringify(v)}`);
    else parts.push(`${typeof v}:${Object.is(v, -0) ? '-0' : String(v)}`);
  }
  return JSON.stringify(parts);
}

/** The one span where two texts differ: their common prefix and (after it) common suffix. */
export function changeBetween(oldText: string, newText: string): Change {
  const n = Math.min(oldText.length, newText.length);
  const B = 1024;
  let from = 0;
  while (from + B <= n && oldText.slice(from, from + B) === newText.slice(from, from + B)) from += B;
  while (from < n && oldText.charCodeAt(from) === newText.charCodeAt(from)) from++;
  let tail = 0;
  const most = n - from;
  while (
    tail + B <= most &&
    oldText.slice(oldText.length - tail - B, oldText.length - tail) ===
      newText.slice(newText.length - tail - B, newText.length - tail)
  )
    tail += B;
  while (
    tail < most &&
    oldText.charCodeAt(oldText.length - 1 - tail) === newText.charCodeAt(newText.length - 1 - tail)
  )
    tail++;
  return { from, oldTo: oldText.length - tail, newTo: newText.length - tail };
}

/**
 * Whether text outside the change parses as it did: no namespace declaration, comment, CDATA or PI
 * marker in or near the changed span of either text, nor in a start tag the change touches.
 */
function safeChange(oldText: string, newText: string, c: Change, index: XmlIndex): boolean {
  let lo = c.from;
  let hi = c.newTo;
  // Start tags the change touches, whole (their attributes may declare namespaces).
  const els = index.elements;
  let i = lastStartingAtOrBefore(index, c.from);
  for (; i < els.length && els[i].start <= Math.max(c.newTo, c.from + 1); i++) {
    const e = els[i];
    if (e.startTagEnd <= c.from) continue;
    lo = Math.min(lo, e.start);
    hi = Math.max(hi, e.startTagEnd);
  }
  lo = Math.max(0, lo - MARGIN);
  const delta = c.newTo - c.oldTo;
  const newSpan = newText.slice(lo, Math.min(newText.length, hi + MARGIN));
  const oldSpan = oldText.slice(lo, Math.min(oldText.length, Math.max(c.oldTo, hi - delta) + MARGIN));
  return !UNSAFE.test(newSpan) && !UNSAFE.test(oldSpan);
}

function lastStartingAtOrBefore(index: XmlIndex, at: number): number {
  const els = index.elements;
  let lo = 0;
  let hi = els.length - 1;
  let best = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (els[mid].start <= at) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}
