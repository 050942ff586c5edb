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
import {
  type Ast,
  type Compiled,
  compile,
  ELEMENT,
  ebv,
  nodeRef,
  type Reach,
  type Runtime,
  ruleReach,
  type XDocument,
  XNode,
} from '../xpath';
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
  /** Per pattern: the offsets of the nodes each rule's context selected. */
  contexts: Map<SchRule, number[]>[];
}

/**
 * A rule context the incremental path can re-match: `/*` then child steps with name tests down to depth
 * `steps.length`, whose predicates are boolean (never positional) and read nothing above depth
 * `anchor`: a node keeps its match while its ancestor at depth `anchor` is outside the change.
 */
interface ContextPlan {
  steps: { ns?: string; local?: string; preds: Ast[]; fns?: Compiled[] }[];
  anchor: number;
  globals: Set<string>;
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
  /** Rule contexts whose nodes were found from the last run's. */
  rematched: number;
}

const NO_FAILURES: SvrlAssertion[] = [];
const NO_REASONS: Rec['notEvaluated'] = [];

/** Text that changes how the text after it parses (comments, CDATA, PIs, DOCTYPE) or names resolve. */
const UNSAFE = /<!|-->|]]>|<\?|\?>|xmlns/;
/** How far around the change the UNSAFE markers are looked for (a token the change cut in two). */
const MARGIN = 16;

const reaches = new WeakMap<ReadonlyMap<string, number>, WeakMap<SchRule, Reach>>();
const plans = new WeakMap<ReadonlyMap<string, number>, WeakMap<SchRule, ContextPlan | null>>();
/** Predicates whose value is a boolean or nodes (a number would select by position). */
const BOOLEAN_FNS = new Set([
  'not',
  'exists',
  'empty',
  'boolean',
  'true',
  'false',
  'starts-with',
  'ends-with',
  'contains',
  'matches',
]);

export class IncrementalRules {
  #states = new WeakMap<CompiledRuleSet, State[]>();
  /** What the last evaluate() did. */
  last: IncrementalStats = { incremental: false, replayed: 0, evaluated: 0, rematched: 0 };

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
      this.last = { incremental: false, replayed: 0, evaluated: 0, rematched: 0 };
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
    this.last = {
      incremental: prev !== undefined,
      replayed: run.replayed,
      evaluated: run.evaluatedNodes,
      rematched: run.rematched,
    };
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
  /** Rule contexts matched again from the last run's nodes. */
  rematched = 0;
  #rt?: Runtime;
  #globals: ReadonlyMap<string, number> = new Map();
  #prefixes: ReadonlyMap<string, string> = new Map();
  #parsed: Parameters<RunHook['begin']>[0]['parsed'] = () => ({ error: '' });
  #reaches = new WeakMap<SchRule, Reach>();
  #plans = new WeakMap<SchRule, ContextPlan | null>();
  #doc?: XDocument;
  /** The elements of the new document that the change touches, by depth (computed on first use). */
  #touched?: Map<number, XNode[]>;
  #stable = new Map<string, boolean>();
  #prev: State | undefined;

  constructor(
    prev: State | undefined,
    private readonly change: Change | undefined,
    language: string,
    text: string,
  ) {
    this.#prev = prev;
    this.next = { text, today: '', language, globals: new Map(), records: [], contexts: [] };
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
    let byContext = plans.get(run.globals);
    if (!byContext) {
      byContext = new WeakMap();
      plans.set(run.globals, byContext);
    }
    this.#plans = byContext;
    this.#doc = run.doc;
    this.next.today = JSON.stringify(run.rt.today);
    if (this.#prev && this.#prev.today !== this.next.today) this.#prev = undefined;
  }

  contexts(
    pattern: number,
    rule: SchRule,
    context: Compiled,
    docContext: Parameters<Compiled>[0],
  ): unknown[] {
    let nodes: unknown[] | undefined = this.rematch(pattern, rule);
    if (nodes) this.rematched++;
    else nodes = context(docContext);
    const at: number[] = [];
    for (const n of nodes) if (n instanceof XNode) at.push(n.order);
    const contexts = this.next.contexts;
    while (contexts.length <= pattern) contexts.push(new Map());
    contexts[pattern].set(rule, at);
    return nodes;
  }

  /** The nodes the rule's context selects, from the last run's where the change cannot alter them. */
  private rematch(pattern: number, rule: SchRule): XNode[] | undefined {
    const prev = this.#prev;
    const change = this.change;
    const doc = this.#doc;
    const old = prev?.contexts[pattern]?.get(rule);
    if (!prev || !change || !doc || !old) return undefined;
    const plan = this.plan(rule);
    if (!plan) return undefined;
    for (const g of plan.globals) if (!this.stable(g)) return undefined;
    const depth = plan.steps.length;
    const delta = change.newTo - change.oldTo;
    const els = doc.elements;
    const out: XNode[] = [];
    // The last run's nodes whose anchor lies outside the change.
    for (const o of old) {
      const at = o < change.from ? o : o >= change.oldTo ? o + delta : -1;
      if (at < 0) continue;
      const n = els[elementAt(doc, at)];
      if (!n || n.order !== at || depthOf(n) !== depth) return undefined;
      let anchor: XNode = n;
      for (let d = depth; d > plan.anchor; d--) anchor = anchor.parent as XNode;
      if (!this.outside(anchor)) continue;
      out.push(n);
    }
    // Under each anchor the change touches, the context is matched again.
    try {
      for (const q of this.touched(plan.anchor)) this.descend(plan, q, plan.anchor, out, true);
    } catch {
      return undefined; // the full context fails the same way, and says why
    }
    return out;
  }

  /** Adds the nodes under `n` (at depth `d`) that the plan's steps below `d` select. */
  private descend(plan: ContextPlan, n: XNode, d: number, out: XNode[], checkAbove: boolean): void {
    if (checkAbove) {
      // The anchor itself: its ancestors' names, its own name and predicates.
      let a: XNode | null = n;
      for (let i = d; i >= 1; i--) {
        if (!a || a.kind !== ELEMENT || !this.matches(plan, i, a)) return;
        a = a.parent;
      }
      if (!a || a.parent !== null) return; // the document node, above depth 1
    }
    if (d === plan.steps.length) {
      out.push(n);
      return;
    }
    for (const k of n.kids) if (this.matches(plan, d + 1, k)) this.descend(plan, k, d + 1, out, false);
  }

  private matches(plan: ContextPlan, depth: number, n: XNode): boolean {
    const step = plan.steps[depth - 1];
    if (step.local !== undefined && n.local !== step.local) return false;
    if (step.ns !== undefined && n.ns !== step.ns) return false;
    if (step.preds.length === 0) return true;
    step.fns ??= step.preds.map((p) =>
      compile(p, this.#rt as Runtime, { globals: this.#globals, locals: new Map(), nextSlot: { n: 0 } }),
    );
    const ctx = { item: n, pos: 1, size: 1 };
    for (const f of step.fns) if (!ebv(f(ctx))) return false;
    return true;
  }

  /** Whether an element's text lies wholly in the common prefix or suffix. */
  private outside(n: XNode): boolean {
    const change = this.change as Change;
    const el = n.doc.index.elements[n.el];
    return (el.end >= 0 && el.end <= change.from) || el.start >= change.newTo;
  }

  /** Elements at `depth` whose text the change touches. */
  private touched(depth: number): XNode[] {
    if (!this.#touched) {
      const doc = this.#doc as XDocument;
      const change = this.change as Change;
      const byDepth = new Map<number, XNode[]>();
      const add = (n: XNode): void => {
        // n and its ancestors, each once; an element wholly before or after the change is not touched.
        if (this.outside(n)) return;
        for (let a: XNode | null = n; a && a.kind === ELEMENT; a = a.parent) {
          const d = depthOf(a);
          const list = byDepth.get(d) ?? [];
          if (list.includes(a)) return;
          list.push(a);
          byDepth.set(d, list);
        }
      };
      const els = doc.elements;
      const i = elementAt(doc, change.from);
      // The innermost element that holds the start of the change, with its ancestors.
      for (let a: XNode | null = els[i] ?? null; a && a.kind === ELEMENT; a = a.parent)
        if (!this.outside(a)) {
          add(a);
          break;
        }
      // And every element that starts inside the change.
      const end = Math.max(change.newTo, change.from + 1);
      for (let j = Math.max(0, i); j < els.length && els[j].order < end; j++)
        if (els[j].order >= change.from) add(els[j]);
      this.#touched = byDepth;
    }
    return this.#touched.get(depth) ?? [];
  }

  private plan(rule: SchRule): ContextPlan | null {
    let plan = this.#plans.get(rule);
    if (plan === undefined) {
      plan = planOf(this.#parsed(`context:${rule.context}`), (name) => this.#globals.has(name));
      this.#plans.set(rule, plan);
    }
    return plan;
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

/** The plan of a rule context, or null when it is not of the shape ContextPlan describes. */
function planOf(
  p: { ast: Ast } | { error: string },
  isGlobal: (name: string) => boolean,
): ContextPlan | null {
  if (!('ast' in p) || p.ast.t !== 'path') return null;
  const [first, ...rest] = p.ast.steps;
  if (first?.t !== 'root' || rest.length === 0) return null;
  const steps: ContextPlan['steps'] = [];
  const globals = new Set<string>();
  let anchor = rest.length;
  for (const [i, s] of rest.entries()) {
    if (s.t !== 'step' || s.axis !== 'child' || s.test.k !== 'name') return null;
    for (const pred of s.preds) {
      if (!isBooleanValued(pred) || usesPosition(pred)) return null;
      const r = ruleReach([], [pred], isGlobal);
      if (!Number.isFinite(r.up)) return null;
      for (const g of r.globals) globals.add(g);
      anchor = Math.min(anchor, i + 1 - r.up);
    }
    steps.push({ ns: s.test.ns, local: s.test.local, preds: s.preds });
  }
  // A predicate that reads from the document node, or above it, reads everything.
  return anchor >= 1 ? { steps, anchor, globals } : null;
}

function isBooleanValued(e: Ast): boolean {
  switch (e.t) {
    case 'cmp':
    case 'node-cmp':
    case 'and':
    case 'or':
      return true;
    case 'for':
      return e.kind !== 'for';
    case 'call':
      return BOOLEAN_FNS.has(e.fn);
    case 'path':
      return e.steps.at(-1)?.t === 'step';
    case 'step':
      return true;
    default:
      return false;
  }
}

/** Whether position() or last() appears anywhere in the expression. */
function usesPosition(e: Ast): boolean {
  return /"fn":"(position|last)"/.test(JSON.stringify(e));
}

/** The index in doc.elements of the last element starting at or before `at` (-1: none). */
function elementAt(doc: XDocument, at: number): number {
  const els = doc.elements;
  let lo = 0;
  let hi = els.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (els[mid].order <= at) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/** Depth of an element: 1 for the root element. */
function depthOf(n: XNode): number {
  let d = 0;
  for (let a: XNode | null = n; a && a.kind === ELEMENT; a = a.parent) d++;
  return d;
}
