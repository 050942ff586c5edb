// Compiles the phases of the SDK rules and runs them over notices. The phases of one release and mode
// share an ExpressionTable (one Runtime, one closure per distinct expression, one compiled pattern per
// distinct pattern), so a stage file included by many phases is compiled once per process; a rule is
// compiled when a phase holding it first runs, an assert when a node first fires it. A context that the
// phases repeat with their own last predicate of one value (`[$noticeSubType = '16']`) is compiled as
// its path, shared by them, filtered by that predicate (constantFilter). With a cache dir
// the release is kept on disk in one file (rule-cache.ts). A run follows Schematron: for each active
// pattern, each node is handled by the first rule whose context matches it; the failures come rule by
// rule, each rule's nodes in document order, as in the official reports.
// Expressions outside the supported subset are named in `notEvaluated`, never skipped silently: the
// list is found by compiling the whole phase once (when read from the SDK) and kept in the cache.
// The layout of a release's rules (which phase selects a subtype: none, `16` or `eforms-16`) is read from
// its files by `ruleLayout`, once per file version, and is part of the disk cache's key. This module
// must never let two phases share a closure whose variables resolve differently (tables are split
// when global lets disagree). No `vscode` import here.

import { statSync } from 'node:fs';
import { indexXml, type XmlIndex } from '../notice';
import type { SvrlAssertion } from '../svrl';
import {
  type Ast,
  type Compiled,
  type Ctx,
  compile,
  compileBoolean,
  nameId,
  nodeRef,
  parseDate,
  parseDateTime,
  parseXPath,
  Runtime,
  type Scope,
  XDocument,
  XNode,
  XPathDynamicError,
  XPathSyntaxError,
  XPathUnsupportedError,
} from '../xpath';
import { isParsed, isPattern } from './prepared-shape';
import { loadMessages, locationOf, type Messages, messageFor, writeSvrl } from './report';
import { type ReleaseEntry, readPrepared, readRelease, updateRelease, writePrepared } from './rule-cache';
import type { CompiledRuleSet, EvaluateOptions, NotEvaluated, RuleReport, RuleSetKey } from './rule-set';
import { RuleSetError } from './rule-set';
import {
  layoutOfPhases,
  type RuleLayout,
  readRuleLayout,
  readSchematron,
  type SchAssert,
  type SchDiagnostic,
  SchematronReadError,
  type SchLet,
  type SchPattern,
  type SchPhase,
  type SchRule,
  schematronPath,
} from './schema';

/** An expression parsed, or why it could not be. */
export type Parsed = { ast: Ast } | { error: string };

/** A phase ready to compile: the schema's content and every expression parsed. JSON-serialisable. */
export interface PreparedPhase {
  schema: SchPhase;
  /** Parsed expressions, by their text. */
  parsed: Record<string, Parsed>;
}

/** The schema of a phase, read from the SDK, with only the diagnostics its asserts name. */
function prepareSchema(key: RuleSetKey): SchPhase {
  const schema = readSchematron(key.sdkDir, key.mode, key.phase);
  const used = new Set<string>();
  for (const p of schema.patterns)
    for (const r of p.rules) for (const a of r.asserts) for (const d of a.diagnostics) used.add(d);
  schema.diagnostics = schema.diagnostics.filter((d) => used.has(d.id));
  return schema;
}

/** A phase with every expression parsed (the form the per-phase cache of format 3 kept). */
export function prepare(key: RuleSetKey): PreparedPhase {
  const schema = prepareSchema(key);
  const ns = new Map(schema.namespaces);
  const parsed: Record<string, Parsed> = {};
  const add = (src: string, asContext = false): void => {
    const k = asContext ? `context:${src}` : src;
    if (!(k in parsed)) parsed[k] = parseOne(k, ns);
  };
  for (const l of globalLets(schema)) add(l.value);
  for (const p of schema.patterns)
    for (const r of p.rules) {
      add(r.context, true);
      for (const l of r.lets) add(l.value);
      for (const a of r.asserts) add(a.test);
    }
  return { schema, parsed };
}

interface CAssert {
  def: SchAssert;
  /** Compiled on the first node that fires the rule; `unsupported` when it cannot be. */
  compiled: boolean;
  /** The test's effective boolean value (compiled for it: existence without lists, no arrays). */
  fn?: (c: Ctx) => boolean;
  unsupported?: string;
}

interface CRule {
  def: SchRule;
  /** Context and lets are compiled on the first run of a phase that holds the rule. */
  compiled: boolean;
  ctx?: Compiled;
  unsupported?: string;
  lets: { slot: number; fn: Compiled }[];
  /** The rule's scope (its lets' slots): the asserts compiled later see the same variables. */
  scope?: Scope;
  asserts: CAssert[];
  /** The element names its context's leading steps require (leadingNames), found on first need. */
  lead?: number[];
  /** How its context can be found window by window (ExpressionTable.windowing): null when it cannot. */
  win?: Windowing | null;
  /** Where the disk cache keeps its pattern's trees, and the index of its context's among them. */
  kept?: Kept;
  j: number;
}

/** A pattern of a release file read back: its entry and its index there. */
interface Kept {
  entry: ReleaseEntry;
  at: number;
}

interface CPattern {
  id: string;
  rules: CRule[];
}

/**
 * A tree kept by the disk cache, or undefined. Untrusted: a text that is not JSON, or not of the
 * parser's shape, is ignored and the expression parsed from its text.
 */
function keptTree(read: () => string): Parsed | undefined {
  try {
    const text = read();
    if (!text) return undefined;
    const v: unknown = JSON.parse(text);
    return isParsed(v) ? (v as Parsed) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The names of the elements a context's leading steps select, up to and including the first
 * step with predicates: `/*` then `cac:A/cac:B[p]/cbc:C` requires cac:A and cac:B. When the notice has no
 * element of one of these names, the context selects no node, and no predicate of it ever runs (the
 * steps before it are the root, `*`, `//` or named steps without predicates, which cannot fail), so
 * the rule needs neither compiling nor running. Other shapes require nothing.
 */
function leadingNames(ast: Ast): { ns: string; local: string }[] {
  const steps = ast.t === 'path' ? ast.steps : [ast];
  const names: { ns: string; local: string }[] = [];
  for (const st of steps) {
    if (st.t === 'root') continue;
    if (st.t !== 'step') break;
    if (st.axis !== 'child' && st.axis !== 'descendant' && st.axis !== 'descendant-or-self') break;
    if (st.test.k === 'name' && st.test.ns !== undefined && st.test.local !== undefined)
      names.push({ ns: st.test.ns, local: st.test.local });
    else if (st.test.k !== 'name' && st.test.kind !== 'node') break;
    if (st.preds.length > 0) break;
  }
  return names;
}

/** The expression keys of a pattern, as ExpressionTable.parsed and the disk cache's trees name them. */
export function patternKeys(p: SchPattern): string[] {
  const keys = p.lets.map((l) => l.value);
  for (const r of p.rules) {
    keys.push(`context:${r.context}`);
    for (const l of r.lets) keys.push(l.value);
    for (const a of r.asserts) keys.push(a.test);
  }
  return keys;
}

/**
 * The compiled expressions of one release and mode, shared by every phase whose namespaces and global
 * lets agree with it: a stage file included by twenty phases is compiled once, not twenty times. A
 * pattern of the same content is one CPattern whichever phase holds it, so its rules are compiled once
 * too. Expressions are parsed (or read from the disk cache's text) and compiled on first use.
 */
class ExpressionTable {
  readonly rt = new Runtime();
  readonly globals = new Map<string, number>();
  readonly #globalValues = new Map<string, string>();
  readonly #closures = new Map<string, Compiled>();
  readonly #tests = new Map<string, (c: Ctx) => boolean>();
  /** Closures of parts of contexts (#buildContext), by the part's tree. */
  readonly #parts = new Map<string, unknown>();
  readonly #parsed = new Map<string, Parsed>();
  /**
   * Where the disk cache keeps the tree of an expression asked for by its text alone (the incremental
   * path's `parsed`): a number, the slot of its pattern in #kept times 2^16 plus its place in
   * patternKeys. Filled from #pending on the first such question: the engine's own compilation finds
   * each tree through its rule (CRule.kept), and a batch offering its 51 phases' keys one by one (some
   * 200,000 map entries) spent more on that than on the trees it decoded.
   */
  readonly #offered = new Map<string, number>();
  readonly #kept: Kept[] = [];
  readonly #pending: { kept: Kept; pattern: SchPattern }[] = [];
  /** A split context's interned required names, by its base's tree (the same for every phase). */
  readonly #leadsByBase = new Map<string, number[]>();
  readonly #patterns = new Map<string, CPattern>();
  readonly ns: Map<string, string>;

  constructor(
    readonly namespaces: [string, string][],
    /**
     * false: every context compiled whole, as before #buildContext (the per-phase path, which the tests
     * compare with the shared one).
     */
    readonly splitContexts = true,
  ) {
    this.ns = new Map(namespaces);
  }

  /** Whether a phase with these namespaces and global lets can share this table. */
  accepts(namespaces: [string, string][], lets: SchLet[]): boolean {
    if (JSON.stringify(namespaces) !== JSON.stringify(this.namespaces)) return false;
    return lets.every((l) => (this.#globalValues.get(l.name) ?? l.value) === l.value);
  }

  /** Declares a phase's global lets; each is compiled on its first use. */
  declare(lets: SchLet[]): void {
    const rt = this.rt;
    for (const l of lets) {
      if (this.globals.has(l.name)) continue;
      const slot = rt.globalFns.length;
      this.globals.set(l.name, slot);
      this.#globalValues.set(l.name, l.value);
      rt.globalFns.push((c) => {
        const fn = this.build(l.value, this.scope());
        rt.globalFns[slot] = typeof fn === 'string' ? broken(l.name, fn) : fn;
        return (rt.globalFns[slot] as Compiled)(c);
      });
    }
  }

  scope(): Scope {
    return { globals: this.globals, locals: new Map(), nextSlot: { n: 0 } };
  }

  /** The tree of expression `key`, wherever the disk cache keeps it (#offered), else parsed from its text. */
  parsed(key: string): Parsed {
    if (this.#pending.length > 0 && !this.#parsed.has(key)) this.#flushOffers();
    return this.#tree(key);
  }

  /**
   * The tree of expression `key`: decoded from the disk cache (tree `j` of pattern `kept`, when the
   * caller knows it; else where an offered pattern keeps it, among those flushed), or parsed from its
   * text (a global let, a few dozen in a release).
   */
  #tree(key: string, kept?: Kept, j = 0): Parsed {
    let p = this.#parsed.get(key);
    if (!p) {
      const at = kept === undefined ? this.#offered.get(key) : undefined;
      const from = at === undefined ? kept : this.#kept[at >>> 16];
      const tree = at === undefined ? j : at & 0xffff;
      p = (from && keptTree(() => from.entry.tree(from.at, tree))) || parseOne(key, this.ns);
      this.#parsed.set(key, p);
    }
    return p;
  }

  /** The trees of a pattern's expressions as pattern `kept` of the disk cache keeps them (see #offered). */
  offer(kept: Kept, pattern: SchPattern): void {
    this.#pending.push({ kept, pattern });
  }

  #flushOffers(): void {
    for (const { kept, pattern } of this.#pending.splice(0)) {
      const slot = this.#kept.length;
      const keys = patternKeys(pattern);
      // Beyond what a number of the map holds (never with the SDK's releases), expressions are parsed.
      if (slot >= 1 << 14 || keys.length > 1 << 16) continue;
      this.#kept.push(kept);
      for (let j = 0; j < keys.length; j++) {
        const k = keys[j] as string;
        if (!this.#parsed.has(k) && !this.#offered.has(k)) this.#offered.set(k, slot * 65536 + j);
      }
    }
  }

  /** Expressions parsed elsewhere (the per-phase cache of format 3). */
  seed(parsed: Record<string, Parsed>): void {
    for (const [k, p] of Object.entries(parsed)) this.#parsed.set(k, p);
  }

  /** A closure for an expression, or why there is none. Without locals in scope it is shared. */
  build(src: string, scope: Scope, asContext = false, kept?: Kept, j = 0): Compiled | string {
    if (asContext && this.splitContexts && scope.locals.size === 0)
      return this.#buildContext(`context:${src}`, scope, kept, j);
    return this.#build(scope, asContext ? `context:${src}` : src, this.#closures, compile, kept, j);
  }

  /**
   * A rule context. `P[$noticeSubType = '16']` (constantFilter) runs as P, shared by every phase whose
   * contexts differ only in that predicate, filtered by the predicate compiled on its own: the phases
   * of a release repeat their contexts with their own subtype, and compiling P again for each phase was
   * most of what a further phase cost. Any other context, or one whose parts do not compile (its error
   * is then the whole expression's, as before), is compiled whole.
   */
  #buildContext(k: string, scope: Scope, kept: Kept | undefined, j: number): Compiled | string {
    const hit = this.#closures.get(k);
    if (hit !== undefined) return hit;
    let base: Compiled | string | undefined;
    let cond: ((c: Ctx) => boolean) | string | undefined;
    // From the disk cache: the parts' own trees (format 11), the whole tree not decoded.
    const parts = kept === undefined || this.#parsed.has(k) ? undefined : kept.entry.split(kept.at, j);
    if (kept && parts) {
      const tree = (ref: number) => () => kept.entry.treeText(ref);
      base = this.#shared(`b${kept.entry.serial}:${parts[0]}`, tree(parts[0]), scope, compile);
      cond = this.#shared(`c${kept.entry.serial}:${parts[1]}`, tree(parts[1]), scope, compileBoolean);
    } else {
      const p = this.#tree(k, kept, j);
      const split = 'ast' in p ? constantFilter(p.ast) : undefined;
      if (split !== undefined) {
        base = this.#shared(`b:${JSON.stringify(split.base)}`, split.base, scope, compile);
        cond = this.#shared(`c:${JSON.stringify(split.cond)}`, split.cond, scope, compileBoolean);
      }
    }
    if (typeof base === 'function' && typeof cond === 'function') {
      const fn = filteredBy(base, cond);
      this.#closures.set(k, fn);
      return fn;
    }
    return this.#build(scope, k, this.#closures, compile, kept, j);
  }

  /**
   * A closure kept under `key` for a part of an expression: its tree, or the JSON text the disk cache
   * keeps of it (untrusted: a text that does not decode to a tree gives no closure).
   */
  #shared<F>(
    key: string,
    tree: Ast | (() => string),
    scope: Scope,
    compiler: (ast: Ast, rt: Runtime, scope: Scope) => F,
  ): F | string {
    const parts = this.#parts as Map<string, F>;
    const hit = parts.get(key);
    if (hit !== undefined) return hit;
    let ast: Ast;
    if (typeof tree === 'function') {
      const p = keptTree(tree);
      if (p === undefined || 'error' in p) return 'the expression tree is malformed';
      ast = p.ast;
    } else ast = tree;
    const out = this.#compile(ast, scope, compiler);
    if (typeof out === 'function') parts.set(key, out);
    return out;
  }

  /** build() for an assert's test: a closure that answers its effective boolean value. */
  buildTest(src: string, scope: Scope, kept?: Kept, j = 0): ((c: Ctx) => boolean) | string {
    return this.#build(scope, src, this.#tests, compileBoolean, kept, j);
  }

  #build<F>(
    scope: Scope,
    k: string,
    closures: Map<string, F>,
    compiler: (ast: Ast, rt: Runtime, scope: Scope) => F,
    kept?: Kept,
    j = 0,
  ): F | string {
    const reusable = scope.locals.size === 0;
    const hit = reusable ? closures.get(k) : undefined;
    if (hit !== undefined) return hit;
    const p = this.#tree(k, kept, j);
    if ('error' in p) return p.error;
    const out = this.#compile(p.ast, scope, compiler);
    // Only a closure is shared: a failure may name a variable another phase declares.
    if (reusable && typeof out === 'function') closures.set(k, out);
    return out;
  }

  #compile<F>(ast: Ast, scope: Scope, compiler: (ast: Ast, rt: Runtime, scope: Scope) => F): F | string {
    let out: F | string;
    try {
      out = compiler(ast, this.rt, scope);
    } catch (e) {
      // A tree that cannot compile (a damaged cache entry) is "not evaluated", never a crash.
      return e instanceof XPathUnsupportedError
        ? e.message
        : `the expression tree is malformed (${String((e as Error)?.message ?? e).slice(0, 200)})`;
    }
    // Nor is a tree that compiles to nothing ever skipped silently.
    if (typeof out !== 'function') return 'the expression tree is malformed';
    return out;
  }

  /** The pattern of this content, the same object for every phase that holds it. */
  pattern(p: SchPattern, text = JSON.stringify(p), kept?: Kept): CPattern {
    let cp = this.#patterns.get(text);
    if (!cp) {
      // Each rule's place among the pattern's trees (patternKeys order: the pattern's lets, then each
      // rule's context, lets and asserts).
      let j = p.lets.length;
      cp = {
        id: p.id,
        rules: p.rules.map((r) => {
          const rule: CRule = {
            def: r,
            compiled: false,
            lets: [],
            asserts: r.asserts.map((a) => ({ def: a, compiled: false })),
            kept,
            j,
          };
          j += 1 + r.lets.length + r.asserts.length;
          return rule;
        }),
      };
      this.#patterns.set(text, cp);
    }
    return cp;
  }

  /** Whether the rule's context selects nothing in `doc` for want of an element it names (leadingNames). */
  selectsNothing(r: CRule, doc: XDocument): boolean {
    if (r.lead === undefined) {
      const from = r.kept;
      // A split context requires what its base does (leadingNames stops at the same step): interned
      // once for the phases that share the base.
      const parts = from?.entry.split(from.at, r.j);
      const byBase = parts && `${from?.entry.serial}:${parts[0]}`;
      const known = byBase === undefined ? undefined : this.#leadsByBase.get(byBase);
      if (known !== undefined) {
        r.lead = known;
        return this.#lacks(known, doc);
      }
      const kept = from?.entry.lead(from.at, r.j);
      const names: string[] = [];
      if (kept !== undefined)
        names.push(...kept); // from the disk cache: the tree is not decoded for it
      else {
        const p = this.#tree(`context:${r.def.context}`, r.kept, r.j);
        if ('ast' in p && p.ast !== null && typeof p.ast === 'object')
          for (const n of leadingNames(p.ast)) names.push(n.ns, n.local);
      }
      // Interned once: the check runs for every rule on every run, so it is one lookup a name.
      r.lead = [];
      for (let k = 0; k + 1 < names.length; k += 2)
        r.lead.push(nameId(names[k] as string, names[k + 1] as string));
      if (byBase !== undefined) this.#leadsByBase.set(byBase, r.lead);
    }
    return this.#lacks(r.lead, doc);
  }

  #lacks(lead: number[], doc: XDocument): boolean {
    for (let k = 0; k < lead.length; k++) if (doc.withName(lead[k] as number).length === 0) return true;
    return false;
  }

  compileRule(r: CRule): void {
    if (r.compiled) return;
    r.compiled = true;
    const scope = this.scope();
    const ctx = this.build(r.def.context, scope, true, r.kept, r.j);
    let unsupported = typeof ctx === 'string' ? ctx : undefined;
    for (const [li, l] of r.def.lets.entries()) {
      const fn = this.build(l.value, scope, false, r.kept, r.j + 1 + li);
      if (typeof fn === 'string') unsupported ??= `$${l.name}: ${fn}`;
      else {
        const slot = scope.nextSlot.n++;
        scope.locals.set(l.name, slot);
        r.lets.push({ slot, fn });
      }
    }
    if (typeof ctx !== 'string') r.ctx = ctx;
    if (unsupported) r.unsupported = unsupported;
    r.scope = scope;
  }

  /**
   * How the rule's context can be found one window of the document at a time (Runtime.setWindow):
   * `/R/A/B[p]/C` from the nodes of `/R/A` in the window, or of `/R/A/B[p]`, … (its units, see
   * Windowing), the constant filter applied as in #buildContext. Null when the context is of another
   * shape (the run then takes its nodes from the whole context, window by window).
   */
  windowing(r: CRule): Windowing | null {
    if (r.win !== undefined) return r.win;
    r.win = null;
    const p = this.#tree(`context:${r.def.context}`, r.kept, r.j);
    if (!('ast' in p) || p.ast === null || typeof p.ast !== 'object') return null;
    const split = constantFilter(p.ast);
    const ast = split?.base ?? p.ast;
    if (ast.t !== 'path' || !Array.isArray(ast.steps)) return null;
    const steps = ast.steps;
    const s1 = steps[1];
    // The root, then the root element by its name, then at least one more child step.
    if (steps[0]?.t !== 'root' || s1?.t !== 'step' || s1.axis !== 'child' || s1.test.k !== 'name')
      return null;
    let childSteps = 1;
    while (childSteps + 1 < steps.length && isChildStep(steps[childSteps + 1])) childSteps++;
    if (childSteps < 2) return null;
    if (!steps.slice(childSteps + 1).every((st) => st.t === 'step' && DOWNWARD.has(st.axis))) return null;
    let cond: ((c: Ctx) => boolean) | undefined;
    if (split !== undefined) {
      const c = this.#shared(`c:${JSON.stringify(split.cond)}`, split.cond, this.scope(), compileBoolean);
      if (typeof c !== 'function') return null;
      cond = c;
    }
    r.win = { steps, depths: childSteps - 1, units: [], unitKeys: [], closures: [], cond };
    return r.win;
  }

  /** The closure of units `i` of a windowing (the prefix down to its (i + 2)th step), and its key. */
  units(w: Windowing, i: number): { fn: Compiled; key: string } | undefined {
    if (w.units[i] === undefined) {
      const of: Ast = { t: 'path', steps: w.steps.slice(0, i + 3) };
      const key = JSON.stringify(of);
      const fn = this.#shared(`u:${key}`, of, this.scope(), compile);
      if (typeof fn !== 'function') return undefined;
      w.units[i] = fn;
      w.unitKeys[i] = key;
    }
    return { fn: w.units[i] as Compiled, key: w.unitKeys[i] as string };
  }

  /** The context found from units `i` of the current window: window(prefix)/rest, or null. */
  windowed(w: Windowing, i: number): Compiled | null {
    let fn = w.closures[i];
    if (fn === undefined) {
      fn = null;
      const of: Ast = { t: 'path', steps: w.steps.slice(0, i + 3) };
      const rest = w.steps.slice(i + 3);
      const window: Ast = { t: 'window', of };
      const path: Ast = rest.length === 0 ? window : { t: 'path', steps: [window, ...rest] };
      const base = this.#shared(`w:${JSON.stringify(path)}`, path, this.scope(), compile);
      if (typeof base === 'function') fn = w.cond ? filteredBy(base, w.cond) : base;
      w.closures[i] = fn;
    }
    return fn;
  }

  compileAssert(r: CRule, a: CAssert): void {
    if (a.compiled) return;
    a.compiled = true;
    this.compileRule(r);
    const at = r.kept === undefined ? 0 : r.j + 1 + r.def.lets.length + r.asserts.indexOf(a);
    const fn = this.buildTest(a.def.test, r.scope as Scope, r.kept, at);
    if (typeof fn === 'string') a.unsupported = fn;
    else a.fn = fn;
  }
}

/**
 * A path whose last step's last predicate has the same value at every node, a comparison of variables
 * and literals (`cac:BusinessParty[$noticeSubType = '16']` below the root), as the path without it and that
 * predicate. A comparison is never a number, so the predicate keeps all the step's nodes or none.
 */
function constantFilter(ast: Ast): { base: Ast; cond: Ast } | undefined {
  if (ast.t !== 'path') return undefined;
  const steps = ast.steps;
  const last = steps[steps.length - 1];
  if (last === undefined || last.t !== 'step' || last.preds.length === 0) return undefined;
  const cond = last.preds[last.preds.length - 1] as Ast;
  if (cond.t !== 'cmp' || !isConstantTerm(cond.l) || !isConstantTerm(cond.r)) return undefined;
  const step: Ast = { t: 'step', axis: last.axis, test: last.test, preds: last.preds.slice(0, -1) };
  return { base: { t: 'path', steps: [...steps.slice(0, -1), step] }, cond };
}

const isConstantTerm = (a: Ast): boolean => a.t === 'var' || a.t === 'str' || a.t === 'num';

const DOWNWARD = new Set(['child', 'attribute', 'self', 'descendant', 'descendant-or-self']);

const isChildStep = (a: Ast | undefined): boolean => a?.t === 'step' && a.axis === 'child';

/**
 * A rule context `/R/A/B[p]/C/D` whose steps after the root element go down, seen as the nodes of one of
 * its prefixes of child steps (its units: `/R/A`, `/R/A/B[p]`, … the nodes of one prefix are never
 * inside one another) and the rest of the path from them. Each node the context selects lies in the
 * subtree of one unit. A run whose windows hold each unit's subtree whole (the shortest prefix whose
 * units do: the lots of a contract notice, the results of an award notice, which sit in one child of
 * the root) finds the context in a window from the units there (ExpressionTable.windowed), and those
 * are the nodes of the whole context in that window.
 */
interface Windowing {
  steps: Ast[];
  /** How many prefixes can be units: `/R/A` is prefix 0. */
  depths: number;
  units: (Compiled | undefined)[];
  unitKeys: (string | undefined)[];
  closures: (Compiled | null | undefined)[];
  cond?: (c: Ctx) => boolean;
}

/**
 * `base[cond]` for a cond whose value is the same at every node (constantFilter): the nodes as they
 * are, or none. Cond runs only when base selects a node, at the first one, as the predicate did: an
 * error it raises (comparing a string with a number) is raised in the same cases.
 */
function filteredBy(base: Compiled, cond: (c: Ctx) => boolean): Compiled {
  return (c) => {
    const nodes = base(c);
    if (nodes.length === 0) return nodes;
    return cond({ item: nodes[0] as XNode, pos: 1, size: nodes.length }) ? nodes : [];
  };
}

function broken(name: string, why: string): Compiled {
  return () => {
    throw new XPathUnsupportedError(`$${name}: ${why}`);
  };
}

function parseOne(key: string, ns: Map<string, string>): Parsed {
  const asContext = key.startsWith('context:');
  const src = asContext ? key.slice('context:'.length) : key;
  try {
    // A pattern that is not absolute matches nodes anywhere, as `//pattern` selects them.
    const text = asContext && !src.trimStart().startsWith('/') ? `//${src.trim()}` : src;
    return { ast: parseXPath(text, ns) };
  } catch (e) {
    if (!(e instanceof XPathSyntaxError)) throw e;
    return { error: `cannot parse: ${e.message}` };
  }
}

/** The global lets of a phase: the schema's and its patterns' (the skeleton makes them top-level). */
function globalLets(schema: SchPhase): SchLet[] {
  return [...schema.lets, ...schema.patterns.flatMap((p) => p.lets)];
}

/**
 * Rules and asserts that cannot be compiled, in the order of the phase (an assert's own failure, then,
 * for a rule whose context or lets fail, each of its asserts): the same for every notice. Compiles
 * every rule and assert of the phase, so it runs once per phase and release, and the disk cache keeps it.
 */
function staticFailures(table: ExpressionTable, patterns: CPattern[]): NotEvaluated[] {
  const out: NotEvaluated[] = [];
  for (const p of patterns)
    for (const r of p.rules) {
      for (const a of r.asserts) {
        table.compileAssert(r, a);
        if (a.unsupported) out.push({ ruleId: a.def.id, cause: 'unsupported', reason: a.unsupported });
      }
      if (r.unsupported)
        for (const a of r.asserts)
          out.push({ ruleId: a.def.id, cause: 'unsupported', reason: `rule context: ${r.unsupported}` });
    }
  return out;
}

class RuleSet implements CompiledRuleSet {
  readonly layout: RuleLayout;
  readonly ruleCount: number;
  readonly assertCount: number;
  readonly #patterns: CPattern[];
  readonly #prefixes = new Map<string, string>();
  readonly #diagById: Map<string, SchDiagnostic>;
  /** Rules and asserts that cannot be compiled: the same for every notice. */
  readonly #staticNotEvaluated: NotEvaluated[];

  constructor(
    readonly key: RuleSetKey,
    readonly source: 'sdk' | 'cache',
    private readonly schema: SchPhase,
    private readonly table: ExpressionTable,
    /** Known when the phase comes from the disk cache; else found by compiling the whole phase. */
    notEvaluated?: NotEvaluated[],
    patternTexts?: string[],
    /** Where the disk cache keeps each pattern's trees, when read from it. */
    kept?: Kept[],
  ) {
    this.layout = layoutOfPhases(schema.phases);
    for (const [prefix, uri] of schema.namespaces)
      if (!this.#prefixes.has(uri)) this.#prefixes.set(uri, prefix);
    table.declare(globalLets(schema));
    this.#patterns = schema.patterns.map((p, i) => table.pattern(p, patternTexts?.[i], kept?.[i]));
    this.#diagById = new Map(schema.diagnostics.map((d) => [d.id, d]));
    this.#staticNotEvaluated = notEvaluated ?? staticFailures(table, this.#patterns);
    let rules = 0;
    let asserts = 0;
    for (const p of schema.patterns)
      for (const r of p.rules) {
        rules++;
        asserts += r.asserts.length;
      }
    this.ruleCount = rules;
    this.assertCount = asserts;
  }

  /** What the disk cache keeps of this phase besides its patterns and expressions. */
  get staticNotEvaluated(): NotEvaluated[] {
    return this.#staticNotEvaluated;
  }

  evaluate(notice: string | XmlIndex, opts: EvaluateOptions = {}): RuleReport {
    const index =
      typeof notice === 'string'
        ? indexXml(notice.charCodeAt(0) === 0xfeff ? notice.slice(1) : notice)
        : notice;
    const doc = new XDocument(index);
    const table = this.table;
    const rt = table.rt;
    // current-dateTime() is `now`; current-date() is `today`, else the date of `now` in its time zone.
    const nowText = opts.now ?? (opts.today === undefined ? new Date().toISOString() : undefined);
    const now = nowText === undefined ? undefined : parseDateTime(nowText);
    const nowZone = /(Z|[+-]\d{2}:\d{2})\s*$/.exec(nowText ?? '')?.[1] ?? '';
    const today = opts.today ?? `${nowText?.trim().slice(0, 10)}${nowZone}`;
    rt.reset(doc, parseDate(/^\d{4}-\d{2}-\d{2}$/.test(today) ? `${today}Z` : today), now);
    // The incremental path (incremental.ts): replays results an edit cannot change, records the others.
    const inc = opts.incremental;
    inc?.begin({ doc, rt, globals: table.globals, prefixes: this.#prefixes, parsed: (k) => table.parsed(k) });
    // The SDK's translations (about 1 MB of XML) are read when a first assert fails, not for a clean notice.
    let messages: Messages | undefined;
    const messagesOf = (): Messages => {
      messages ??= loadMessages(this.key.sdkDir, opts.language ?? 'en');
      return messages;
    };
    const notEvaluated = [...this.#staticNotEvaluated];
    const failures: SvrlAssertion[] = [];
    const perPattern: { id: string; failures: SvrlAssertion[] }[] = [];
    let cancelled = false;
    let evaluated = 0;
    const docCtx = { item: doc.node, pos: 1, size: 1 };
    // The nodes each pattern fires on and their rules, in two lists kept from pattern to pattern (a
    // 100-lot notice fires 34,000 pairs a run: lists grown push by push for every pattern were most of
    // what the loop allocated); `fire` fills them for one pattern and returns how many it filled.
    const firedNodes: XNode[] = [];
    const firedRules: CRule[] = [];
    /** The index of each fired rule in its pattern (the order of a run in windows puts results back by it). */
    const firedRuleAt: number[] = [];
    // Which pattern last claimed each element (by element index + 1, the document node at 0): a node is
    // claimed by the first rule of the pattern that selects it. A column, not a field of every node (a
    // 5,000-lot notice has 1.5 million). Attribute and text nodes, and nodes of another document, which
    // a context seldom selects, are claimed in a set.
    const claimedBy = new Int32Array(doc.elements.length + 1);
    let claimedOther: Set<XNode> | undefined;
    /** The nodes of a rule's context, in the whole document: what `fire` takes them from but in windows. */
    const wholeContext = (pi: number, r: CRule, ctxFn: Compiled): unknown[] =>
      inc ? inc.contexts(pi, r.def, ctxFn, docCtx) : ctxFn(docCtx);
    const fire = (
      pi: number,
      p: CPattern,
      skipped: NotEvaluated[],
      nodesOf: (pi: number, r: CRule, ctxFn: Compiled) => unknown[] | undefined = wholeContext,
    ): number => {
      let fired = 0;
      const stamp = pi + 1;
      claimedOther?.clear();
      for (let ri = 0; ri < p.rules.length; ri++) {
        const r = p.rules[ri];
        // A context whose leading steps name an element the notice lacks selects nothing: not compiled, not run.
        if (!inc && !opts.everyContext && table.selectsNothing(r, doc)) continue;
        table.compileRule(r);
        if (!r.ctx || r.unsupported) continue;
        let nodes: unknown[] | undefined;
        try {
          nodes = nodesOf(pi, r, r.ctx);
        } catch (e) {
          for (const a of r.asserts) skipped.push(notEvaluatedBy(a.def.id, e, 'rule context: '));
          continue;
        }
        if (nodes === undefined) continue;
        for (let i = 0; i < nodes.length; i++) {
          const n = nodes[i];
          if (!(n instanceof XNode)) continue;
          // Elements have el >= 0 and the document node -1; attribute and text nodes below that.
          const slot = n.doc === doc ? n.el + 1 : -1;
          if (slot >= 0) {
            if (claimedBy[slot] === stamp) continue;
            claimedBy[slot] = stamp;
          } else {
            claimedOther ??= new Set();
            if (claimedOther.has(n)) continue;
            claimedOther.add(n);
          }
          firedNodes[fired] = n;
          firedRuleAt[fired] = ri;
          firedRules[fired++] = r;
        }
      }
      return fired;
    };
    // One context object for the run: a closure reads it while it runs and never keeps it.
    const ctx: Ctx = { item: doc.node, pos: 1, size: 1 };
    /** A fired rule's lets and asserts at its node: failures into `pf`, asserts not evaluated into `skipped`. */
    const run = (
      pi: number,
      node: XNode,
      rule: CRule,
      pf: SvrlAssertion[],
      skipped: NotEvaluated[],
    ): void => {
      if (inc) {
        const replayed = inc.replay(pi, rule.def, node, pf, skipped);
        if (replayed >= 0) {
          evaluated += replayed;
          return;
        }
      }
      const pf0 = pf.length;
      const ne0 = skipped.length;
      const ev0 = evaluated;
      ctx.item = node;
      let letsFailed: { error: unknown } | undefined;
      const lets = rule.lets;
      for (let li = 0; li < lets.length; li++) {
        const l = lets[li];
        try {
          rt.frame[l.slot] = l.fn(ctx);
        } catch (e) {
          letsFailed = { error: e };
          break;
        }
      }
      // Indexed loops: this one runs for every fired node, and an iterator here allocated when the
      // function was not optimised.
      const asserts = rule.asserts;
      for (let ai = 0; ai < asserts.length; ai++) {
        const a = asserts[ai];
        table.compileAssert(rule, a);
        if (!a.fn) continue;
        if (letsFailed) {
          skipped.push(notEvaluatedBy(a.def.id, letsFailed.error));
          continue;
        }
        evaluated++;
        let ok: boolean;
        try {
          ok = a.fn(ctx);
        } catch (e) {
          skipped.push(notEvaluatedBy(a.def.id, e, '', locationOf(node, this.#prefixes)));
          continue;
        }
        if (ok === (a.def.kind === 'assert')) continue;
        const diags = a.def.diagnostics
          .map((d) => this.#diagById.get(d))
          .filter((d): d is SchDiagnostic => d !== undefined);
        const f: SvrlAssertion = {
          kind: a.def.kind === 'assert' ? 'failed-assert' : 'successful-report',
          id: a.def.id,
          location: locationOf(node, this.#prefixes),
          role: a.def.role,
          test: a.def.test,
          text: messageFor(a.def, diags, messagesOf()),
          diagnosticReferences: diags.map((d) => ({ diagnostic: d.id, see: d.see, path: d.text })),
        };
        if (a.def.flag !== undefined) f.flag = a.def.flag;
        // The node itself travels with the failure: the mapping places it without reading location back.
        const ref = nodeRef(node);
        if (ref) f.node = ref;
        pf.push(f);
      }
      inc?.record(pi, rule.def, node, pf, pf0, skipped, ne0, evaluated - ev0);
    };
    let sinceCheck = 0;
    /** Polled every 256 fired rules: a large notice spends most of a run inside one pattern. */
    const stopNow = (): boolean => {
      if (++sinceCheck < 256) return false;
      sinceCheck = 0;
      if (opts.isCancelled?.()) cancelled = true;
      return cancelled;
    };
    // A stretch of at least one character (NaN or less: the default), so that the stretches end.
    const chunkChars = (opts.chunkChars ?? 0) >= 1 ? (opts.chunkChars as number) : CHUNK_CHARS;
    const inOneStretch = (): void => {
      for (const [pi, p] of this.#patterns.entries()) {
        if (opts.isCancelled?.()) {
          cancelled = true;
          break;
        }
        const fired = fire(pi, p, notEvaluated);
        // Rule by rule, each rule's nodes in document order: the order of the official reports (their
        // fired rules follow the pattern's rules, not the document; failure-order.test.ts).
        const pf: SvrlAssertion[] = [];
        for (let f = 0; f < fired && !stopNow(); f++) run(pi, firedNodes[f], firedRules[f], pf, notEvaluated);
        perPattern.push({ id: p.id, failures: pf });
        if (cancelled) break;
      }
    };
    /**
     * A notice longer than a stretch, window by window: each window a run of the root element's children
     * (a hundred lots or so; windowStarts), whose rule contexts are found first for every pattern (from
     * the window's units, as lots or results, not from every unit of the notice: Windowing), then run
     * stretch by stretch of the window through every pattern, so that the part of the model they read
     * stays in the processor's caches from one context, and one pattern, to the next. A node lies in one window, so a pattern's
     * first rule that selects it is found in that window. The failures, and the asserts not evaluated,
     * are then put back in the order of a run pattern by pattern: by rule, then window, then fired rule.
     * False when a context failed in a window: its error is the whole context's, which takes from its
     * pattern's other rules the nodes it did not claim, so the run starts again in one stretch.
     */
    const inWindows = (): boolean => {
      const bounds = windowStarts(doc, chunkChars);
      const windows = bounds.length + 1;
      const patterns = this.#patterns;
      const outcome = patterns.map((p) => ({
        id: p.id,
        contextSkipped: [] as NotEvaluated[],
        pf: [] as SvrlAssertion[],
        pfAt: [] as number[],
        skipped: [] as NotEvaluated[],
        skippedAt: [] as number[],
      }));
      // A context of another shape is found once in the whole document, and its nodes taken window by
      // window (null: it failed, and its asserts are not evaluated).
      const byWindow = new Map<CRule, XNode[][] | null>();
      // Each rule's context as found from the units of a window, or null; and whether the units of a
      // prefix each lie in one window, by the prefix.
      const windowedOf = new Map<CRule, Compiled | null>();
      const unitsFit = new Map<string, boolean>();
      const text = index.text;
      const columns = index.table;
      const fits = (nodes: unknown[]): boolean => {
        for (const n of nodes) {
          if (!(n instanceof XNode) || n.doc !== doc) return false;
          if (n.el < 0) continue;
          const end = columns.end[n.el];
          if (windowOf(bounds, n.order) !== windowOf(bounds, (end < 0 ? text.length : end) - 1)) return false;
        }
        return true;
      };
      const windowedContext = (r: CRule): Compiled | null => {
        let fn = windowedOf.get(r);
        if (fn !== undefined) return fn;
        fn = null;
        const how = table.windowing(r);
        for (let i = 0; how !== null && i < how.depths; i++) {
          const units = table.units(how, i);
          if (units === undefined) break;
          let ok = unitsFit.get(units.key);
          if (ok === undefined) {
            try {
              ok = fits(units.fn(docCtx));
            } catch {
              ok = false;
            }
            unitsFit.set(units.key, ok);
          }
          if (ok) {
            fn = table.windowed(how, i);
            break;
          }
        }
        windowedOf.set(r, fn);
        return fn;
      };
      let failedInWindow = false;
      let w = 0;
      const nodesOf = (pi: number, r: CRule): unknown[] | undefined => {
        const windowed = windowedContext(r);
        if (windowed !== null) {
          try {
            return windowed(docCtx);
          } catch {
            failedInWindow = true;
            return undefined;
          }
        }
        let split = byWindow.get(r);
        if (split === undefined) {
          byWindow.set(r, null);
          split = splitByWindow(wholeContext(pi, r, r.ctx as Compiled), doc, bounds);
          byWindow.set(r, split);
        }
        return split === null ? undefined : split[w];
      };
      for (; w < windows && !cancelled; w++) {
        const windowFrom = w === 0 ? Number.NEGATIVE_INFINITY : bounds[w - 1];
        const windowTo = w === windows - 1 ? Number.POSITIVE_INFINITY : bounds[w];
        rt.setWindow(windowFrom, windowTo);
        const plans: Stretched[] = [];
        for (const [pi, p] of patterns.entries()) {
          if (opts.isCancelled?.()) {
            cancelled = true;
            break;
          }
          const fired = fire(pi, p, outcome[pi].contextSkipped, nodesOf);
          if (failedInWindow) return false;
          const rules = firedRules.slice(0, fired);
          // Each rule's nodes are a run of their own, in document order; where each run ends.
          const ends: number[] = [];
          for (let f = 1; f <= fired; f++) if (f === fired || rules[f] !== rules[f - 1]) ends.push(f);
          plans.push({
            pi,
            nodes: firedNodes.slice(0, fired),
            rules,
            ruleAt: firedRuleAt.slice(0, fired),
            ends,
            next: ends.map((_, r) => (r === 0 ? 0 : ends[r - 1])),
            pf: [],
            pfAt: [],
            skipped: [],
            skippedAt: [],
          });
        }
        // Stretch by stretch of the window (a window of one child larger than a stretch, as an award
        // notice's results in its extensions, runs in several).
        const first = Math.max(0, windowFrom);
        const end = Math.min(index.text.length, windowTo);
        for (let to = first + chunkChars; !cancelled; to += chunkChars) {
          const last = to >= end;
          for (const plan of plans) {
            for (let r = 0; r < plan.ends.length && !cancelled; r++) {
              let f = plan.next[r];
              const stop = plan.ends[r];
              for (; f < stop && (last || plan.nodes[f].order < to) && !stopNow(); f++) {
                const pf0 = plan.pf.length;
                const ne0 = plan.skipped.length;
                run(plan.pi, plan.nodes[f], plan.rules[f], plan.pf, plan.skipped);
                for (let k = pf0; k < plan.pf.length; k++) plan.pfAt.push(f);
                for (let k = ne0; k < plan.skipped.length; k++) plan.skippedAt.push(f);
              }
              plan.next[r] = f;
            }
            if (cancelled) break;
          }
          if (last) break;
        }
        if (!cancelled) doc.forgetValues(windowFrom, windowTo);
        // The window's results in the order of its fired rules, keyed by rule and window for the order
        // across windows.
        for (const plan of plans) {
          const out = outcome[plan.pi];
          const key = (f: number): number => plan.ruleAt[f] * windows + w;
          appendByFiredRule(plan.pf, plan.pfAt, key, out.pf, out.pfAt);
          appendByFiredRule(plan.skipped, plan.skippedAt, key, out.skipped, out.skippedAt);
        }
      }
      for (const out of outcome) {
        perPattern.push({ id: out.id, failures: byFiredRule(out.pf, out.pfAt) });
        for (const n of out.contextSkipped) notEvaluated.push(n);
        for (const n of byFiredRule(out.skipped, out.skippedAt)) notEvaluated.push(n);
      }
      return true;
    };
    if (inc || index.text.length <= chunkChars) inOneStretch();
    else if (!inWindows()) {
      // Everything the windows gave is dropped: the run in one stretch gives the whole report.
      rt.setWindow(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
      notEvaluated.length = this.#staticNotEvaluated.length;
      perPattern.length = 0;
      evaluated = 0;
      claimedBy.fill(0);
      inOneStretch();
    }
    // Every failure once, pattern by pattern, as the report lists them.
    for (const p of perPattern) for (const f of p.failures) failures.push(f);
    rt.release();
    const { schema } = this;
    const svrl =
      opts.svrl === false
        ? ''
        : writeSvrl(
            {
              title: schema.title,
              phase: this.key.phase,
              namespaces: schema.namespaces,
              sdkVersion: this.key.sdkVersion,
              mode: this.key.mode,
            },
            perPattern,
            notEvaluated,
          );
    return {
      svrl,
      failures,
      namespaces: schema.namespaces,
      notEvaluated,
      sdkVersion: this.key.sdkVersion,
      phase: this.key.phase,
      mode: this.key.mode,
      cancelled,
      assertsEvaluated: evaluated,
    };
  }
}

/**
 * Above this many characters, a notice's rules run stretch by stretch (RuleSet.evaluate): about 90 lots
 * of cn_24_maximal, whose model and values (about 10 MB) stay in this machine's 32 MB cache while every
 * pattern runs over them.
 */
export const CHUNK_CHARS = 2_000_000;

/** One pattern of a window run in stretches: its fired rules, how far each rule's run of nodes has gone,
 * and what the run gave, each entry with the index of its fired rule. */
interface Stretched {
  pi: number;
  nodes: XNode[];
  rules: CRule[];
  /** The index of each fired rule in its pattern. */
  ruleAt: number[];
  /** Where each rule's run of nodes ends in `nodes`, and the next node of each run to evaluate. */
  ends: number[];
  next: number[];
  pf: SvrlAssertion[];
  pfAt: number[];
  skipped: NotEvaluated[];
  skippedAt: number[];
}

/** `items` ordered by their fired rule's index (`at`), in the order given among equals. */
function byFiredRule<T>(items: T[], at: number[]): T[] {
  const order = firedRuleOrder(at);
  return order === undefined ? items : order.map((i) => items[i]);
}

/**
 * `items` appended to `out` in the order of their fired rule's index (`at`, equals in the order given),
 * each with `key(at)` appended to `outAt`.
 */
function appendByFiredRule<T>(
  items: T[],
  at: number[],
  key: (f: number) => number,
  out: T[],
  outAt: number[],
): void {
  const order = firedRuleOrder(at);
  for (let j = 0; j < items.length; j++) {
    const i = order === undefined ? j : order[j];
    out.push(items[i]);
    outAt.push(key(at[i]));
  }
}

/** The places of `at` ordered by its values, equals in the order given; undefined when already so. */
function firedRuleOrder(at: number[]): number[] | undefined {
  let sorted = true;
  for (let i = 1; i < at.length && sorted; i++) if (at[i] < at[i - 1]) sorted = false;
  if (sorted) return undefined;
  const order = at.map((_, i) => i);
  order.sort((x, y) => at[x] - at[y] || x - y);
  return order;
}

/**
 * Where each window of a large notice after the first begins: the order of a child of the root element
 * at least `chars` characters after the window before began, or of a child of a child longer than that
 * (and so on down), so that a child of the root that holds most of the notice (an award notice's
 * results, in its extensions) is cut between its own children. Every node but the document node, the
 * root element and what lies in its start tag is in a child's subtree.
 */
function windowStarts(doc: XDocument, chars: number): number[] {
  const starts: number[] = [];
  const root = doc.node.kids[0];
  if (root === undefined) return starts;
  const t = doc.index.table;
  const length = doc.index.text.length;
  let last = root.order;
  // Depth first in document order, with a stack of its own: a hostile notice may nest without end.
  const stack: { kids: XNode[]; next: number }[] = [{ kids: root.kids, next: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.next >= top.kids.length) {
      stack.pop();
      continue;
    }
    const child = top.kids[top.next++];
    if (child.order - last >= chars) {
      starts.push(child.order);
      last = child.order;
    }
    const end = t.end[child.el];
    if ((end < 0 ? length : end) - child.order > chars) stack.push({ kids: child.kids, next: 0 });
  }
  return starts;
}

/** The window of a node at `order`, by where each window after the first begins (windowStarts). */
function windowOf(starts: number[], order: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid] <= order) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The nodes of a context found in the whole document, by window (a node of another document in the first). */
function splitByWindow(nodes: unknown[], doc: XDocument, starts: number[]): XNode[][] {
  const out: XNode[][] = starts.map(() => []);
  out.push([]);
  for (const n of nodes) {
    if (!(n instanceof XNode)) continue;
    out[n.doc === doc ? windowOf(starts, n.order) : 0].push(n);
  }
  return out;
}

/** A rule not evaluated because of an error: its cause and fields read from the error's kind. */
function notEvaluatedBy(ruleId: string, e: unknown, prefix = '', location?: string): NotEvaluated {
  const entry: NotEvaluated = { ruleId, cause: 'error', reason: `${prefix}${describe(e)}` };
  if (e instanceof XPathDynamicError && e.invalid) {
    entry.cause = 'invalid-value';
    entry.value = e.invalid.value;
    entry.type = e.invalid.type;
  } else if (e instanceof XPathUnsupportedError) entry.cause = 'unsupported';
  if (location !== undefined) entry.location = location;
  return entry;
}

function describe(e: unknown): string {
  if (e instanceof XPathDynamicError || e instanceof XPathUnsupportedError) return e.message;
  return `internal error: ${(e as Error)?.message ?? String(e)}`;
}

const memory = new Map<string, Promise<CompiledRuleSet>>();

function toRuleSetError(e: unknown, key: RuleSetKey): never {
  if (e instanceof SchematronReadError) {
    if (e.kind === 'unknown-phase')
      throw new RuleSetError('unknown-phase', { phase: key.phase, phases: e.phases, path: e.path });
    if (e.kind === 'missing') throw new RuleSetError('no-schematron', { path: e.path, detail: e.message });
    if (e.kind === 'missing-include')
      throw new RuleSetError('missing-include', { path: e.path, file: e.file, detail: e.message });
    throw new RuleSetError('unreadable', { path: e.path, detail: e.message });
  }
  throw e;
}

const layouts = new Map<string, { stamp: string; layout: RuleLayout; phases: string[] }>();

/**
 * The layout of a release's rules for a mode (see RuleLayout), read once from its
 * `complete-validation.sch` and kept while that file is unchanged. Throws a RuleSetError when the
 * file is missing or is not Schematron.
 */
export function ruleLayout(
  sdkDir: string,
  mode: 'static' | 'dynamic',
): { layout: RuleLayout; phases: string[] } {
  const path = schematronPath(sdkDir, mode);
  try {
    let stamp = '';
    try {
      const s = statSync(path);
      stamp = `${s.size}:${s.mtimeMs}`;
    } catch {
      // readRuleLayout words the missing file
    }
    const hit = layouts.get(path);
    if (hit && stamp && hit.stamp === stamp) return { layout: hit.layout, phases: [...hit.phases] };
    const read = readRuleLayout(sdkDir, mode);
    layouts.set(path, { stamp, ...read });
    return { layout: read.layout, phases: [...read.phases] };
  } catch (e) {
    return toRuleSetError(e, { sdkDir, sdkVersion: '', phase: '', mode });
  }
}

/** A rule set from a prepared phase as the per-phase cache holds it (tests of damaged entries). */
export function compilePrepared(key: RuleSetKey, prepared: PreparedPhase): CompiledRuleSet {
  const table = new ExpressionTable(prepared.schema.namespaces);
  table.seed(prepared.parsed);
  return new RuleSet(key, 'cache', prepared.schema, table);
}

/** What a process keeps of one release and mode: the disk cache's entry and the shared tables. */
interface ReleaseState {
  entry?: ReleaseEntry;
  tables: ExpressionTable[];
  /** Patterns read from the entry, by their text: one object (and one CPattern) per content. */
  patterns: Map<string, SchPattern>;
  /**
   * The patterns whose expressions a table was offered already: a batch loads 51 phases that share most
   * of their patterns, and offering them again found every key known (about 130,000 calls for 1.15.1).
   */
  offered: WeakMap<ExpressionTable, WeakSet<SchPattern>>;
}

const releases = new Map<string, ReleaseState>();

function tableFor(st: ReleaseState, schema: SchPhase): ExpressionTable {
  const lets = globalLets(schema);
  let t = st.tables.find((x) => x.accepts(schema.namespaces, lets));
  if (!t) {
    t = new ExpressionTable(schema.namespaces);
    st.tables.push(t);
  }
  return t;
}

export interface LoadOptions {
  cacheDir?: string;
  /**
   * false: compile the phase on its own, with no expression shared with another phase (how every phase
   * was compiled before the release table; tests compare the two).
   */
  shared?: boolean;
}

/**
 * Builds the rule set synchronously: from the disk cache when it holds this phase, else from the SDK.
 * Phases of one release and mode share their compiled expressions (ExpressionTable); a phase from the
 * cache compiles each rule when it first runs and each assert when it first fires.
 */
export function loadRuleSetSync(key: RuleSetKey, opts: LoadOptions = {}): CompiledRuleSet {
  try {
    // The layout is part of the cache key: rules prepared for another layout (another release in the
    // same place, an upgraded folder) are never read back.
    const layout = opts.cacheDir ? ruleLayout(key.sdkDir, key.mode).layout : undefined;
    if (opts.shared === false) {
      // As before the release table: a per-phase cache file of every parse, every closure built at load.
      const hit = opts.cacheDir && layout ? readPrepared(opts.cacheDir, key, layout) : undefined;
      const prepared = hit && layoutOfPhases(hit.schema.phases) === layout ? hit : prepare(key);
      if (!hit && opts.cacheDir && layout) writePrepared(opts.cacheDir, key, layout, prepared);
      const table = new ExpressionTable(prepared.schema.namespaces, false);
      table.seed(prepared.parsed);
      return new RuleSet(key, hit ? 'cache' : 'sdk', prepared.schema, table);
    }
    const id = JSON.stringify([key.sdkDir, key.sdkVersion, key.mode, opts.cacheDir ?? '', layout ?? '']);
    let st = releases.get(id);
    if (!st) {
      const entry = opts.cacheDir && layout ? readRelease(opts.cacheDir, key, layout) : undefined;
      st = { entry, tables: [], patterns: new Map(), offered: new WeakMap() };
      releases.set(id, st);
    }
    let cached = st.entry?.phases[key.phase];
    if (!cached && opts.cacheDir && layout) {
      // Another process (a second worker) may have added the phase since this one read the file.
      const fresh = readRelease(opts.cacheDir, key, layout);
      if (fresh?.phases[key.phase]) {
        st.entry = fresh;
        cached = fresh.phases[key.phase];
      }
    }
    const entry = st.entry;
    if (entry && cached && layoutOfPhases(cached.phases) === layout) {
      const texts = cached.patterns.map((i) => entry.patterns.at(i));
      const patterns = texts.map((t) => {
        let p = st.patterns.get(t);
        if (!p) {
          // The entry is untrusted input: a pattern that is not JSON, or not of a pattern's shape, makes
          // the whole entry be rebuilt from the SDK below (and rewritten).
          try {
            const v: unknown = JSON.parse(t);
            if (!isPattern(v)) return undefined;
            p = v as SchPattern;
          } catch {
            return undefined;
          }
          st.patterns.set(t, p);
        }
        return p;
      });
      if (patterns.every((p) => p !== undefined)) {
        const { patterns: _p, notEvaluated, ...rest } = cached;
        const schema: SchPhase = { ...rest, patterns, diagnostics: entry.diagnostics };
        const table = tableFor(st, schema);
        const offered = st.offered.get(table) ?? new WeakSet<SchPattern>();
        st.offered.set(table, offered);
        const kept = cached.patterns.map((at): Kept => ({ entry, at }));
        for (const [i, k] of kept.entries()) {
          const p = patterns[i] as SchPattern;
          if (offered.has(p)) continue;
          offered.add(p);
          table.offer(k, p);
        }
        return new RuleSet(key, 'cache', schema, table, notEvaluated, texts, kept);
      }
      st.entry = undefined;
    }
    const schema = prepareSchema(key);
    const table = tableFor(st, schema);
    const texts = schema.patterns.map((p) => JSON.stringify(p));
    const rs = new RuleSet(key, 'sdk', schema, table, undefined, texts);
    if (opts.cacheDir && layout)
      updateRelease(opts.cacheDir, key, layout, (now) => {
        const at = new Map(now.patterns.map((t, i) => [t, i]));
        const refs = texts.map((t, n) => {
          let i = at.get(t);
          if (i === undefined) {
            i = now.patterns.push(t) - 1;
            at.set(t, i);
            // The trees of its expressions: every one was parsed when the phase was compiled whole.
            const trees: string[] = [];
            const leads: string[][] = [];
            const splits: (readonly [string, string] | undefined)[] = [];
            for (const k of patternKeys(schema.patterns[n] as SchPattern)) {
              const p = table.parsed(k);
              trees.push(JSON.stringify(p));
              leads.push('ast' in p ? leadingNames(p.ast).flatMap((n) => [n.ns, n.local]) : []);
              const split = k.startsWith('context:') && 'ast' in p ? constantFilter(p.ast) : undefined;
              splits.push(
                split && [JSON.stringify({ ast: split.base }), JSON.stringify({ ast: split.cond })],
              );
            }
            now.trees[i] = trees;
            now.leads[i] = leads;
            now.splits[i] = splits;
          }
          return i;
        });
        const known = new Set(now.diagnostics.map((d) => d.id));
        for (const d of schema.diagnostics) if (!known.has(d.id)) now.diagnostics.push(d);
        const { patterns: _p, diagnostics: _d, ...rest } = schema;
        now.phases[key.phase] = { ...rest, patterns: refs, notEvaluated: rs.staticNotEvaluated };
        return now;
      });
    return rs;
  } catch (e) {
    return toRuleSetError(e, key);
  }
}

export function loadCompiledRuleSet(key: RuleSetKey, opts: LoadOptions): Promise<CompiledRuleSet> {
  const id = JSON.stringify([
    key.sdkDir,
    key.sdkVersion,
    key.phase,
    key.mode,
    opts.cacheDir ?? '',
    opts.shared ?? true,
  ]);
  let hit = memory.get(id);
  if (!hit) {
    hit = new Promise<CompiledRuleSet>((resolve) => resolve(loadRuleSetSync(key, opts)));
    memory.set(id, hit);
    // A failure is not kept: the user may fix the folder and try again.
    hit.catch(() => memory.delete(id));
  }
  return hit;
}

/** Forget compiled phases (tests and benchmarks that measure a cold start). */
export function clearRuleSetMemory(): void {
  memory.clear();
  layouts.clear();
  releases.clear();
}
