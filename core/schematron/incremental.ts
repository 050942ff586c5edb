// The editor's path through the SDK rules: after an edit, re-evaluate only what the edit can change.
// A run records, per pattern and fired node, what the node's rule gave (failures, rules not evaluated,
// asserts counted), and the nodes each rule context selected. The next run of the same rule set on a
// text that differs from a recorded one in one span (common prefix and suffix) matches the contexts
// again only under the elements the span touches (the first rule of a pattern still claims each node),
// then, for each fired (rule, node), replays the recorded results when the rule cannot read the span:
// its lets and tests climb at most k levels (core/xpath's ruleReach), the k-th ancestor's text lies
// wholly in the common prefix or suffix, the same rule fired at the same text in the last run, and every
// global and parameter path it reads has the same value (nodes: the same place) in both documents.
// Locations and node references are made anew on the new document. A cancelled run leaves the recorded
// state as it was. It must never replay a result it cannot prove unchanged: when unsure (a namespace
// declaration, a comment or CDATA marker near the change, a change outside the root element, a document
// that is not well-formed, a DOCTYPE, another day or language), it evaluates everything.
// No `vscode` import, no I/O.

import { firstElementFrom, indexXml, type XmlIndex } from '../notice';
import type { SvrlAssertion } from '../svrl';
import {
  type Ast,
  ATTRIBUTE,
  type Compiled,
  compile,
  DOCUMENT,
  docOrder,
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
import type { CompiledRuleSet, EvaluateOptions, NotEvaluated, RuleReport, RunHook } from './rule-set';
import type { SchRule } from './schema';

/** What one rule gave at one node; a rule not evaluated there keeps its location, placed again on replay. */
interface Rec {
  rule: SchRule;
  failures: SvrlAssertion[];
  notEvaluated: NotEvaluated[];
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
  /** Elements in `text`. */
  elements: number;
}

/**
 * A rule context the incremental path can match again: `/*` (absolute) or `//` (floating), then child
 * steps with name tests (the last may be an attribute step), whose predicates are boolean (never
 * positional) and read a bounded number of levels. `up`: how many levels above a selected node its
 * match may read (names and predicates); a node keeps its match while that ancestor is outside the change.
 */
interface ContextPlan {
  steps: { attribute: boolean; ns?: string; local?: string; preds: Ast[]; fns?: Compiled[] }[];
  absolute: boolean;
  up: number;
  globals: Set<string>;
  params: Map<string, Ast>;
  /** keys[d]: a number for the first d steps, the same in every plan that starts with them. */
  keys: number[];
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
const prefixIds = new Map<string, number>();
/** Climbing paths by their AST's JSON: numbers kept in the recorded state (this process's only). */
const climbIds = new Map<string, number>();
function prefixId(text: string): number {
  let id = prefixIds.get(text);
  if (id === undefined) {
    id = prefixIds.size;
    prefixIds.set(text, id);
  }
  return id;
}

/** Parameter paths compiled, per release table (its globals) and the path's JSON. */
const params = new WeakMap<ReadonlyMap<string, number>, Map<string, Compiled>>();
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
  /** The last text run without recording, per rule set. */
  #lastPlain = new WeakMap<CompiledRuleSet, string>();
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
    const usable = text.length <= this.maxChars && index.errors.length === 0 && index.doctype === undefined;
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
    // A text unlike every recorded one (a batch of other notices) runs plainly, with nothing recorded,
    // unless it is like the last such text (a second document being edited): that run is recorded.
    const like = (c: Change | undefined): boolean =>
      c !== undefined && c.from + text.length - c.newTo >= text.length / 2;
    if (states.length > 0 && !like(change)) {
      const last = this.#lastPlain.get(rules);
      this.#lastPlain.set(rules, text);
      if (last === undefined || !like(changeBetween(last, text))) {
        this.last = { incremental: false, replayed: 0, evaluated: 0, rematched: 0 };
        return rules.evaluate(index, opts);
      }
    }
    if (prev && change && (!like(change) || !safeChange(prev.text, text, change, index))) {
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
    if (rules) {
      this.#states.delete(rules);
      this.#lastPlain.delete(rules);
    } else {
      this.#states = new WeakMap();
      this.#lastPlain = new WeakMap();
    }
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
  /** The elements of the new document that the change touches (computed on first use). */
  #touched?: XNode[];
  /** Whether a node is selected by the first steps of a context, by the steps' key and the node. */
  #matched = new Map<string, boolean>();
  #ruleStable = new Map<SchRule, boolean>();
  /** Climbing paths' verdicts, by path and the node they climb to. */
  #climbs = new Map<number, Map<XNode, boolean>>();
  #touchedAt?: Map<number, XNode[]>;
  /** How many elements start before the change (the same in both texts). */
  #before?: number;
  #stable = new Map<string, boolean>();
  #prev: State | undefined;

  constructor(
    prev: State | undefined,
    private readonly change: Change | undefined,
    language: string,
    text: string,
  ) {
    this.#prev = prev;
    this.next = { text, today: '', language, globals: new Map(), records: [], contexts: [], elements: 0 };
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
    this.next.elements = run.doc.elements.length;
    this.next.today = JSON.stringify(run.rt.today);
    if (this.#prev && this.#prev.today !== this.next.today) this.#prev = undefined;
  }

  contexts(
    pattern: number,
    rule: SchRule,
    context: Compiled,
    docContext: Parameters<Compiled>[0],
  ): unknown[] {
    const again = this.rematch(pattern, rule);
    if (again) this.rematched++;
    let nodes: unknown[] = again ? again.nodes : context(docContext);
    // Kept by element index (and attribute index): an edit shifts the indexes after it by one number.
    let codes: number[] = again ? again.codes : [];
    if (again) {
      // The last run's nodes, then those matched again inside the change: in document order, as the
      // full context gives them (a rule's failures follow its nodes' order); their codes made afresh.
      const sorted = docOrder(again.nodes);
      if (sorted !== again.nodes) {
        nodes = sorted;
        codes = [];
      }
    }
    for (let i = codes.length; i < nodes.length; i++) {
      const n = nodes[i];
      const code = n instanceof XNode ? codeOf(n) : -1;
      if (code < 0) return nodes; // a node of another kind: this context is evaluated in full next time
      codes.push(code);
    }
    const contexts = this.next.contexts;
    while (contexts.length <= pattern) contexts.push(new Map());
    contexts[pattern].set(rule, codes);
    return nodes;
  }

  /** The nodes the rule's context selects, from the last run's where the change cannot alter them. */
  private rematch(pattern: number, rule: SchRule): { nodes: XNode[]; codes: number[] } | undefined {
    const plan = this.plan(rule);
    if (!plan) return undefined;
    // The globals the context reads, compared now and kept for the next run.
    let stable = true;
    for (const g of plan.globals) if (!this.stable(g)) stable = false;
    for (const [k, ast] of plan.params) if (!this.stable(k, ast)) stable = false;
    const prev = this.#prev;
    const change = this.change;
    const doc = this.#doc;
    const old = prev?.contexts[pattern]?.get(rule);
    if (!stable || !prev || !change || !doc || !old) return undefined;
    const depth = plan.steps.length;
    const els = doc.elements;
    // Elements that start before the change keep their index; those after it shift by `shift`.
    this.#before ??= elementAt(doc, change.from - 1) + 1;
    const before = this.#before;
    const shift = els.length - prev.elements;
    const kept: XNode[] = [];
    const codes: number[] = [];
    // The last run's nodes whose ancestor `up` levels above lies outside the change.
    for (const code of old) {
      const el = Math.floor(code / CODE);
      const i = el < before ? el : el + shift;
      // An element of the last run that started inside the change lands before the suffix.
      if (el >= before && (i < before || (els[i] && els[i].order < change.newTo))) continue;
      let n: XNode | undefined = els[i];
      if (!n) return undefined;
      const attr = code % CODE;
      if (attr > 0) {
        n = n.attrs[attr - 1];
        if (!n) return undefined;
      }
      let anchor: XNode | null = n;
      for (let d = 0; d < plan.up && anchor; d++) anchor = anchor.parent;
      if (anchor?.kind === ELEMENT && this.outside(anchor)) {
        kept.push(n);
        codes.push(i * CODE + attr);
      }
    }
    const out = new Set<XNode>();
    // Where that ancestor is inside the change, the nodes are matched again.
    try {
      if (plan.absolute)
        for (const q of this.touchedAt(depth - plan.up)) this.descend(plan, q, depth - plan.up, out);
      else
        for (const t of this.touched())
          for (const n of below(t, plan.up)) {
            if (this.matchesUp(plan, n)) out.add(n);
            if (plan.steps[depth - 1].attribute)
              for (const a of n.attrs) if (this.matchesUp(plan, a)) out.add(a);
          }
    } catch {
      return undefined; // the full context fails the same way, and says why
    }
    // The nodes matched again follow; their codes are made by the caller.
    for (const n of out) kept.push(n);
    return { nodes: kept, codes };
  }

  /** Adds the nodes under `n` (at depth `d`, of an absolute plan) that the plan selects. */
  private descend(plan: ContextPlan, n: XNode, d: number, out: Set<XNode>): void {
    if (!this.matchesUp(plan, n, d)) return;
    const select = (x: XNode, at: number): void => {
      if (at === plan.steps.length) {
        out.add(x);
        return;
      }
      const step = plan.steps[at];
      for (const k of step.attribute ? x.attrs : x.kids) if (this.matches(step, k)) select(k, at + 1);
    };
    select(n, d);
  }

  /**
   * Whether `n` is selected by the plan's steps up to `depth` (the last by default): its name and
   * predicates, its parent's for the step before, and so on; an absolute plan's first step is the root.
   */
  private matchesUp(plan: ContextPlan, n: XNode, depth = plan.steps.length): boolean {
    // Rules share their contexts' first steps (`/*/cac:ProcurementProjectLot[…]`): each is matched once.
    const key = `${plan.keys[depth]}@${n.order}`;
    let hit = this.#matched.get(key);
    if (hit === undefined) {
      hit = this.matchesUpOnce(plan, n, depth);
      this.#matched.set(key, hit);
    }
    return hit;
  }

  private matchesUpOnce(plan: ContextPlan, n: XNode, depth: number): boolean {
    let a: XNode | null = n;
    for (let i = depth - 1; i >= 0; i--) {
      const step = plan.steps[i];
      if (!a || a.kind !== (step.attribute ? ATTRIBUTE : ELEMENT) || !this.matches(step, a)) return false;
      a = a.parent;
    }
    return !plan.absolute || a?.kind === DOCUMENT;
  }

  private matches(step: ContextPlan['steps'][number], n: XNode): boolean {
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

  /** A node's offset in the last run's text, or undefined when the change touches its element. */
  private offsetBefore(n: XNode): number | undefined {
    const owner = n.kind === ELEMENT ? n : n.parent;
    if (!this.change || !owner || owner.kind !== ELEMENT || !this.outside(owner)) return undefined;
    return n.order < this.change.from ? n.order : n.order - (this.change.newTo - this.change.oldTo);
  }

  /** Whether an element's text lies wholly in the common prefix or suffix. */
  private outside(n: XNode): boolean {
    const change = this.change as Change;
    const el = n.doc.index.elements[n.el];
    return (el.end >= 0 && el.end <= change.from) || el.start >= change.newTo;
  }

  /** The touched elements at one depth. */
  private touchedAt(depth: number): XNode[] {
    if (!this.#touchedAt) {
      const at = new Map<number, XNode[]>();
      for (const t of this.touched()) {
        const d = depthOf(t);
        const list = at.get(d);
        if (list) list.push(t);
        else at.set(d, [t]);
      }
      this.#touchedAt = at;
    }
    return this.#touchedAt.get(depth) ?? [];
  }

  /** The elements of the new document whose text the change touches (each element not outside it). */
  private touched(): XNode[] {
    if (!this.#touched) {
      const doc = this.#doc as XDocument;
      const change = this.change as Change;
      const seen = new Set<XNode>();
      const add = (n: XNode): void => {
        if (this.outside(n)) return;
        for (let a: XNode | null = n; a && a.kind === ELEMENT && !seen.has(a); a = a.parent) seen.add(a);
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
      this.#touched = [...seen];
    }
    return this.#touched;
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
    notEvaluated: NotEvaluated[],
  ): number {
    const prev = this.#prev;
    const change = this.change;
    if (!prev || !change) return -1;
    const reach = this.reach(rule);
    if (!this.inputsStable(rule, reach)) return -1;
    if (reach.climbing.size > 0)
      for (const [k, c] of reach.climbing) if (!this.climbStable(k, c, node)) return -1;
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
    if (rec.failures.length > 0 || rec.notEvaluated.length > 0) {
      const location = locationOf(node, this.#prefixes);
      const ref = nodeRef(node);
      for (const f of rec.failures) {
        const g: SvrlAssertion = { ...f, location };
        if (ref) g.node = ref;
        else delete g.node;
        pf.push(g);
      }
      for (const n of rec.notEvaluated)
        notEvaluated.push(n.location === undefined ? { ...n } : { ...n, location });
    }
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
    if (notEvaluated.length > ne0) reasons = notEvaluated.slice(ne0).map((n) => ({ ...n }));
    // The globals this rule reads, with their values here: the next run compares them.
    const reach = this.reach(rule);
    this.inputsStable(rule, reach);
    if (Number.isFinite(reach.up)) for (const [k, c] of reach.climbing) this.climbStable(k, c, node);
    this.keep(pattern, node.order, { rule, failures, notEvaluated: reasons, evaluated });
  }

  /**
   * Whether a climbing path (`../../x`) has the same value at `node` as in the last run: its value
   * depends only on the node it climbs to, so it is computed once per such node and run, and kept.
   */
  private climbStable(key: string, c: { ast: Ast; up: number }, node: XNode): boolean {
    let landing: XNode | null = node;
    for (let i = 0; i < c.up && landing; i++) landing = landing.parent;
    if (!landing) return false;
    // A small number for the path: its text is long, and this runs for every fired node.
    let id = climbIds.get(key);
    if (id === undefined) {
      id = climbIds.size;
      climbIds.set(key, id);
    }
    let byLanding = this.#climbs.get(id);
    if (!byLanding) {
      byLanding = new Map();
      this.#climbs.set(id, byLanding);
    }
    let ok = byLanding.get(landing);
    if (ok === undefined) {
      const at = `\u0001${id}@${landing.order}`;
      let value: string | null = null;
      let asBefore: string | null = null;
      try {
        const seq = this.compiled(key, c.ast)({ item: node, pos: 1, size: 1 });
        value = canonical(seq, (n) => n.order);
        asBefore = canonical(seq, (n) => this.offsetBefore(n));
      } catch {
        value = null; // the rule fails again as in a full run
      }
      this.next.globals.set(at, value);
      const change = this.change;
      const o = landing.order;
      const before =
        o < 0 || !change
          ? o
          : o < change.from
            ? o
            : o >= change.newTo
              ? o - (change.newTo - change.oldTo)
              : undefined;
      ok =
        asBefore !== null &&
        before !== undefined &&
        this.#prev?.globals.get(`\u0001${id}@${before}`) === asBefore;
      byLanding.set(landing, ok);
    }
    return ok;
  }

  /** A parameter path compiled once per release table. */
  private compiled(key: string, ast: Ast): Compiled {
    let byKey = params.get(this.#globals);
    if (!byKey) {
      byKey = new Map();
      params.set(this.#globals, byKey);
    }
    let fn = byKey.get(key);
    if (!fn) {
      fn = compile(ast, this.#rt as Runtime, {
        globals: this.#globals,
        locals: new Map(),
        nextSlot: { n: 0 },
      });
      byKey.set(key, fn);
    }
    return fn;
  }

  /** Whether a rule's reach is bounded and every global and parameter it reads is unchanged (once a run). */
  private inputsStable(rule: SchRule, reach: Reach): boolean {
    let ok = this.#ruleStable.get(rule);
    if (ok === undefined) {
      ok = Number.isFinite(reach.up);
      // Every one is computed, also after a change: the next run compares with these values.
      if (ok) {
        for (const g of reach.globals) if (!this.stable(g)) ok = false;
        for (const [k, ast] of reach.params) if (!this.stable(k, ast)) ok = false;
      }
      this.#ruleStable.set(rule, ok);
    }
    return ok;
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

  /**
   * Whether a global (by name), or a parameter path (`ast`, by its JSON), has the same value as in the
   * last run: computed here once per run, and kept for the next.
   */
  private stable(name: string, ast?: Ast): boolean {
    const key = ast ? `\0${name}` : name;
    let ok = this.#stable.get(key);
    if (ok === undefined) {
      let value: string | null = null;
      let asBefore: string | null = null;
      const rt = this.#rt;
      const doc = this.#doc;
      if (rt && doc) {
        try {
          let seq: unknown[];
          if (ast) seq = this.compiled(name, ast)({ item: doc.node, pos: 1, size: 1 });
          else {
            const slot = this.#globals.get(name);
            if (slot === undefined) throw new Error('no such global');
            seq = rt.global(slot);
          }
          value = canonical(seq, (n) => n.order);
          // Nodes compare by where they were in the last run's text, and only when the change is
          // outside their element.
          asBefore = canonical(seq, (n) => this.offsetBefore(n));
        } catch {
          value = null; // its readers fail again as in a full run; nothing is replayed for them
        }
      }
      this.next.globals.set(key, value);
      ok = asBefore !== null && this.#prev?.globals.get(key) === asBefore;
      this.#stable.set(key, ok);
    }
    return ok;
  }
}

/**
 * A sequence as text that is equal only for equal values: atomic values by type and value, nodes by
 * kind and place (`at`); null when a node has no place.
 */
function canonical(seq: unknown[], at: (n: XNode) => number | undefined): string | null {
  const parts: string[] = [];
  for (const v of seq) {
    if (v instanceof XNode) {
      const o = at(v);
      if (o === undefined) return null;
      // Same place and an unchanged element: the same node, with the same value and subtree.
      parts.push(`node${v.kind}@${o}`);
    } else if (typeof v === 'object' && v !== null) parts.push(`${v.constructor.name}:${JSON.stringify(v)}`);
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
  // Inside the root element: the prolog and what follows the root are never compared.
  const root = index.elements[0];
  if (!root || c.from <= root.start || c.newTo >= root.end) return false;
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
  return Math.max(0, firstElementFrom(index.table, at + 1) - 1);
}

/** The plan of a rule context, or null when it is not of the shape ContextPlan describes. */
function planOf(
  p: { ast: Ast } | { error: string },
  isGlobal: (name: string) => boolean,
): ContextPlan | null {
  if (!('ast' in p) || p.ast.t !== 'path') return null;
  const [first, ...rest] = p.ast.steps;
  if (first?.t !== 'root') return null;
  // `//x` reads as root, descendant-or-self::node(), child::x.
  const d = rest[0];
  const absolute = !(
    d?.t === 'step' &&
    d.axis === 'descendant-or-self' &&
    d.test.k === 'kind' &&
    d.test.kind === 'node' &&
    d.preds.length === 0
  );
  const path = absolute ? rest : rest.slice(1);
  const m = path.length;
  if (m === 0) return null;
  const steps: ContextPlan['steps'] = [];
  const globals = new Set<string>();
  const params = new Map<string, Ast>();
  // Levels above the selected node: the names of its m - 1 ancestors, and what each predicate reads.
  let up = absolute ? 0 : m - 1;
  for (const [i, s] of path.entries()) {
    if (s.t !== 'step' || s.test.k !== 'name') return null;
    const attribute = s.axis === 'attribute';
    if (!(s.axis === 'child' || (attribute && i === m - 1))) return null;
    for (const pred of s.preds) {
      if (!isBooleanValued(pred) || usesPosition(pred)) return null;
      const r = ruleReach([], [pred], isGlobal);
      if (!Number.isFinite(r.up)) return null;
      for (const g of r.globals) globals.add(g);
      for (const [k, a] of r.params) params.set(k, a);
      up = Math.max(up, m - 1 - i + r.up);
    }
    steps.push({ attribute, ns: s.test.ns, local: s.test.local, preds: s.preds });
  }
  // An attribute is matched again with its element (the touched nodes are elements).
  if (steps[m - 1].attribute) up = Math.max(up, 1);
  // An absolute plan must not read from the document node (its anchor is an element at depth >= 1).
  if (absolute && up > m - 1) return null;
  const keys = steps.map((_, d) => prefixId(JSON.stringify([absolute, path.slice(0, d)])));
  keys.push(prefixId(JSON.stringify([absolute, path])));
  return { steps, absolute, up, globals, params, keys };
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
  // An element's order is its start in the index's columns; offsets are integers.
  return firstElementFrom(doc.index.table, at + 1) - 1;
}

/** Depth of a node: 1 for the root element, its attributes 2. */
function depthOf(n: XNode): number {
  let d = 0;
  for (let a: XNode | null = n; a && a.kind !== DOCUMENT; a = a.parent) d++;
  return d;
}

/** Node codes: element index × CODE, plus 1 + the attribute's index for an attribute. */
const CODE = 4096;

/** The code of an element or attribute; -1 for other nodes. */
function codeOf(n: XNode): number {
  if (n.kind === ELEMENT) return n.el * CODE;
  const owner = n.parent;
  if (n.kind !== ATTRIBUTE || !owner) return -1;
  const a = owner.attrs.indexOf(n);
  return a >= 0 && a < CODE - 1 ? owner.el * CODE + a + 1 : -1;
}

/** An element and its descendant elements down to `levels` below it. */
function below(n: XNode, levels: number): XNode[] {
  const out = [n];
  let layer = [n];
  for (let l = 0; l < levels && layer.length > 0; l++) {
    const next: XNode[] = [];
    for (const x of layer) for (const k of x.kids) next.push(k);
    for (const k of next) out.push(k);
    layer = next;
  }
  return out;
}
