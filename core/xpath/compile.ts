// Turns a parsed XPath expression (xpath-parser.ts) into a JavaScript closure over the document model
// (document.ts), with XPath 2.0 semantics (xpath-values.ts). Variables are resolved to frame slots at
// compile time; large literal code lists in comparisons become Sets. An expression that uses a function
// outside the supported set throws XPathUnsupportedError at compile time, never at evaluation, so the
// caller knows before the run which rules it cannot evaluate. The function table covers the XPath 2.0
// library the SDK releases use, with F&O 2.0 type rules and error codes, over xs:double numbers. No I/O.

import { ATTRIBUTE, DOCUMENT, docOrder, ELEMENT, nameId, TEXT, type XDocument, XNode } from './document';
import { type Ast, type Axis, type NodeTest, subExpressions } from './parser';
import {
  type Atomic,
  arithmetic,
  atomize,
  type CmpOp,
  castDouble,
  compareGeneral,
  compareValues,
  dateParts,
  dateToString,
  distinctKey,
  durationParts,
  formatNumber,
  type Item,
  normalizeSpace,
  notValid,
  parseDate,
  parseDateTime,
  parseDuration,
  parseTime,
  roundHalfToEven,
  roundXPath,
  type Seq,
  stringOf,
  toDouble,
  typeName,
  Untyped,
  XDate,
  XDuration,
  XPathDynamicError,
} from './values';
import { compileXsdRegex, type XsdRegex, XsdRegexError } from './xsd-regex';

export interface Ctx {
  item: Item;
  pos: number;
  size: number;
}

export type Compiled = (c: Ctx) => Seq;

export class XPathUnsupportedError extends Error {
  override name = 'XPathUnsupportedError';
}

/**
 * An evaluation ran past the time its caller allowed it (Runtime.limitTime): it has no answer, and the
 * expression is not wrong. The SDK's view templates hold joins that grow with the cube of an award
 * notice's lots (a 400-lot notice took 31 s to render, an 800-lot one 6 minutes), and a caller that must
 * answer in time gives up on them instead of waiting.
 */
export class XPathTimeLimitError extends Error {
  override name = 'XPathTimeLimitError';
  constructor(readonly limitMs: number) {
    super(`the evaluation took longer than ${limitMs} ms`);
  }
}

/** Iterations between two looks at the clock when a time limit is set (Runtime.tick). */
const TICKS = 64;
const now = (): number => performance.now();

/** Per-evaluation state the closures read: the document, the date, variable slots. */
export class Runtime {
  doc!: XDocument;
  today!: XDate;
  /** Local variable slots (for/some/every bindings, rule lets). */
  frame: (Seq | undefined)[] = [];
  /** The item bound to a `for`/`some`/`every` variable's slot: its sequence in `frame` is made only
   * when something reads the variable as a sequence. */
  items: Item[] = [];
  /** Global lets, computed on first use per document. */
  globals: (Seq | undefined)[] = [];
  globalFns: Compiled[] = [];

  /** Results of absolute paths (and their prefixes) for the current document, by interned key. */
  memo: (Seq | undefined)[] = [];
  /** Results of paths from a `window` (and their prefixes) for the current window, by interned key. */
  windowMemo: (Seq | undefined)[] = [];
  /** The closure of each `window` expression compiled, by its text. */
  readonly windows = new Map<string, Compiled>();
  /** The part of the document that `window` expressions see: node orders from (inclusive) and to. */
  #windowFrom = Number.NEGATIVE_INFINITY;
  #windowTo = Number.POSITIVE_INFINITY;
  readonly #keys = new Map<string, number>();

  /** Indexes K-string → positions over a sequence (keyedFilter), by the sequence and the key's text,
   * shared by every closure that filters the same sequence by the same key: `undefined` marks a
   * sequence seen once (an index is built the second time), `null` one whose keys are not strings. */
  #keyIndexes = new WeakMap<Seq, Map<number, Map<string, number[]> | null | undefined>>();

  /** The index of `items` by `key` (see #keyIndexes); undefined the first time (filter pairwise). */
  keyIndex(items: Seq, keyId: number, key: Compiled): Map<string, number[]> | null | undefined {
    let byKey = this.#keyIndexes.get(items);
    if (byKey === undefined) {
      byKey = new Map();
      this.#keyIndexes.set(items, byKey);
    }
    if (!byKey.has(keyId)) {
      byKey.set(keyId, undefined);
      return undefined;
    }
    let index = byKey.get(keyId);
    if (index === undefined) {
      index = buildKeyIndex(items, key);
      byKey.set(keyId, index);
    }
    return index;
  }

  /** current-dateTime(); when the caller names only a date, its first instant. */
  now!: XDate;

  /** Bumped by every reset: closures that keep per-document caches compare it to know when to drop them. */
  generation = 0;

  /** Milliseconds an evaluation may take (see limitTime): Infinity, the rules', without end. */
  #limitMs = Number.POSITIVE_INFINITY;
  /** The clock's first reading under the current limit, NaN before it. */
  #startedAt = Number.NaN;
  #ticks = TICKS;
  #clock: () => number = now;

  /**
   * Evaluations from now on stop with XPathTimeLimitError once `ms` milliseconds have gone by;
   * undefined lifts the limit. The clock is read every TICKS iterations of a `for`, `some` or `every`
   * and of a path step over several nodes, where an expression's cost can grow with the notice, and
   * first at the first of those readings: an evaluation of a few iterations never reads it (the preview
   * sets a limit for each of its tens of thousands of evaluations). `clock` is the time in milliseconds
   * (performance.now; a test's counts its own readings).
   */
  limitTime(ms: number | undefined, clock: () => number = now): void {
    this.#limitMs = ms ?? Number.POSITIVE_INFINITY;
    this.#startedAt = Number.NaN;
    this.#clock = clock;
    this.#ticks = TICKS;
  }

  /** Milliseconds since the clock was first read under the current limit; 0 when it never was. */
  limitedElapsed(): number {
    return Number.isNaN(this.#startedAt) ? 0 : this.#clock() - this.#startedAt;
  }

  /** One iteration of a loop whose length depends on the notice; throws past the time limit. */
  tick(): void {
    if (this.#limitMs === Number.POSITIVE_INFINITY || --this.#ticks > 0) return;
    this.#ticks = TICKS;
    const t = this.#clock();
    if (Number.isNaN(this.#startedAt)) this.#startedAt = t;
    else if (t - this.#startedAt > this.#limitMs) throw new XPathTimeLimitError(this.#limitMs);
  }

  reset(doc: XDocument, today: XDate, now?: XDate): void {
    this.doc = doc;
    this.today = today;
    this.now = now ?? new XDate('dateTime', today.ms, today.tz);
    this.globals = new Array(this.globalFns.length);
    this.frame = [];
    this.items = [];
    this.memo = new Array(this.#keys.size);
    this.setWindow(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
    this.#keyIndexes = new WeakMap();
    this.generation++;
    // A run that ended without release() (an error thrown through evaluate) leaves its caches here.
    this.#dropHeld();
  }

  /** The clear functions of the caches filled since the last reset or release. */
  #held: (() => void)[] = [];

  /**
   * A closure's per-document cache (its lists hold the document's nodes): the returned function is
   * called on each use, and registers `clear` the first time in each document, so that release() drops
   * only the caches this document filled. A phase compiles thousands of such closures, and clearing
   * every one after each run cost about 0.65 ms on a 70 KB notice.
   */
  perDocument(clear: () => void): () => void {
    let held = -1;
    return () => {
      if (held !== this.generation) {
        held = this.generation;
        this.#held.push(clear);
      }
    };
  }

  #dropHeld(): void {
    const held = this.#held;
    if (held.length === 0) return;
    this.#held = [];
    for (let i = 0; i < held.length; i++) held[i]();
  }

  /**
   * Lets the document go after a run: the memoised lists, indexes and per-closure caches hold its
   * nodes, and a 100 MB notice's model would otherwise stay in memory until the next run (and be
   * there, beside the next one, at its peak).
   */
  release(): void {
    this.doc = undefined as unknown as XDocument;
    this.globals = [];
    this.frame = [];
    this.items = [];
    this.memo = [];
    this.setWindow(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
    this.#keyIndexes = new WeakMap();
    this.generation++;
    this.#dropHeld();
  }

  /**
   * Narrows what `window` expressions see to the nodes whose order is at least `from` and below `to`,
   * and drops what they found in the window before. The rule engine finds a large notice's rule
   * contexts window by window (engine.ts), so that the lots a window holds stay in the processor's
   * caches from one context to the next.
   */
  setWindow(from: number, to: number): void {
    this.#windowFrom = from;
    this.#windowTo = to;
    this.windowMemo = [];
  }

  /** The nodes of `nodes`, in document order, inside the current window: a slice found by bisection. */
  inWindow(nodes: Seq): Seq {
    const from = this.#windowFrom;
    const to = this.#windowTo;
    if (from === Number.NEGATIVE_INFINITY && to === Number.POSITIVE_INFINITY) return nodes;
    const first = (bound: number): number => {
      let lo = 0;
      let hi = nodes.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((nodes[mid] as XNode).order < bound) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const a = first(from);
    const b = first(to);
    return a === 0 && b === nodes.length ? nodes : a === b ? EMPTY : nodes.slice(a, b);
  }

  /** A small number for a path's text, the same for every rule that writes the same path. */
  internKey(key: string): number {
    let id = this.#keys.get(key);
    if (id === undefined) {
      id = this.#keys.size;
      this.#keys.set(key, id);
    }
    return id;
  }

  global(i: number): Seq {
    let v = this.globals[i];
    if (v === undefined) {
      // A global is computed once; a cycle would recurse here, which the schema reader rules out.
      v = this.globalFns[i]({ item: this.doc.node, pos: 1, size: 1 });
      this.globals[i] = v;
    }
    return v;
  }
}

export interface Scope {
  /** Global lets, by name -> index in Runtime.globalFns. */
  globals: ReadonlyMap<string, number>;
  /** Local variables in scope, by name -> frame slot. */
  locals: Map<string, number>;
  nextSlot: { n: number };
}

const EMPTY: Seq = [];
const TRUE: Seq = [true];
const FALSE: Seq = [false];

// Most expressions of the rules yield one item or none (a string function, a comparison, a count), and
// most of them sit inside another (`matches(normalize-space(.), …)`). Their closures return a sequence,
// as every closure does, but the closure of such an expression is also registered here with a form that
// returns the item itself (undefined for none) or the boolean: the enclosing expression, compiled after
// it, asks for that form and no array is made between the two. Looked up only when compiling.
type One = (c: Ctx) => Item | undefined;
type Bool = (c: Ctx) => boolean;
/** The forms a closure may carry as properties (a WeakMap per closure cost the garbage collector more). */
type Forms = {
  /** The item itself, undefined for none. */
  one?: One;
  /** The boolean, for a boolean-valued expression. */
  bool?: Bool;
  /** The step `text()`: as a string argument, a leaf element answers without text nodes. */
  textStep?: true;
  /** The memo key of a memoised path (its value for the document is kept under it). */
  memoKey?: number;
};
const forms = (fn: Compiled): Forms => fn as Compiled & Forms;
const SINGLE = { get: (fn: Compiled): One | undefined => forms(fn).one };
const BOOLEAN = { get: (fn: Compiled): Bool | undefined => forms(fn).bool };

function setOne(fn: Compiled, one: One): void {
  forms(fn).one = one;
}

/** A closure of a boolean-valued expression, with its boolean form registered. */
function boolFn(b: Bool): Compiled {
  const seq: Compiled = (x) => (b(x) ? TRUE : FALSE);
  forms(seq).bool = b;
  setOne(seq, b);
  return seq;
}

/** A closure of an expression that yields exactly one item, with that form registered. */
function oneFn(f: (c: Ctx) => Item): Compiled {
  const seq: Compiled = (x) => [f(x)];
  setOne(seq, f);
  return seq;
}

/** A closure of an expression that yields one item or none (undefined), with that form registered. */
function optionalFn(f: One): Compiled {
  const seq: Compiled = (x) => {
    const v = f(x);
    return v === undefined ? EMPTY : [v];
  };
  setOne(seq, f);
  return seq;
}

/** The item of an operand that must be one item or none (`one()`'s check when the form is unknown). */
function oneOf(fn: Compiled, what: string): One {
  return SINGLE.get(fn) ?? ((x) => one(fn(x), what));
}

/** An argument as a string: '' for none (stringArg). */
function stringOfArg(fn: Compiled, what: string): (c: Ctx) => string {
  if (forms(fn).textStep)
    return (x) => {
      // A node without element children has one text node, its string value, unless that is empty
      // (document.ts textChildren and textContent read the same characters); others are read in full.
      const n = contextNode(x);
      if (n.kids.length === 0) return n.kind === ELEMENT ? n.string : '';
      return stringArg(fn(x), what);
    };
  const s = SINGLE.get(fn);
  if (s)
    return (x) => {
      const it = s(x);
      return typeof it === 'string' ? it : it === undefined ? '' : stringOf(it);
    };
  return (x) => stringArg(fn(x), what);
}

/** The effective boolean value of one item (ebv of a sequence of it). */
function ebvOne(first: Item): boolean {
  if (typeof first === 'boolean') return first;
  if (first instanceof XNode) return true;
  if (typeof first === 'string') return first.length > 0;
  if (typeof first === 'number') return !(first === 0 || Number.isNaN(first));
  if (first instanceof Untyped) return first.s.length > 0;
  throw new XPathDynamicError('FORG0006', `effective boolean value of ${typeName(first)}`);
}

/** Effective boolean value (XPath 2.0 §2.4.3). */
export function ebv(s: Seq): boolean {
  if (s.length === 0) return false;
  const first = s[0];
  if (first instanceof XNode) return true;
  if (s.length > 1)
    throw new XPathDynamicError('FORG0006', 'effective boolean value of a sequence of atomic values');
  if (typeof first === 'boolean') return first;
  if (typeof first === 'string') return first.length > 0;
  if (typeof first === 'number') return !(first === 0 || Number.isNaN(first));
  if (first instanceof Untyped) return first.s.length > 0;
  throw new XPathDynamicError('FORG0006', `effective boolean value of ${typeName(first)}`);
}

/**
 * Runs a regular-expression function: the XSD regex module raises its own error kind (it is independent
 * of the engine), which becomes the XPath dynamic error of the same code. Wrapped around the call, not
 * only the compile, since FORX0003/FORX0004 arise when `replace`/`tokenize` run.
 */
function regex<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    throw regexError(e);
  }
}

/** What regex() throws for an error raised inside it (written inline on the hot paths: no closure). */
function regexError(e: unknown): unknown {
  return e instanceof XsdRegexError ? new XPathDynamicError(e.code, e.message) : e;
}

function one(s: Seq, what: string): Item | undefined {
  if (s.length > 1)
    throw new XPathDynamicError('XPTY0004', `${what} expects at most one item, got ${s.length}`);
  return s[0];
}

function contextNode(c: Ctx): XNode {
  if (c.item instanceof XNode) return c.item;
  throw new XPathDynamicError('XPTY0020', 'the context item is not a node');
}

/** The interned name of a name test with both parts, or -1 for a wildcard or a kind test. */
function testName(test: NodeTest): number {
  return test.k === 'name' && test.ns !== undefined && test.local !== undefined
    ? nameId(test.ns, test.local)
    : -1;
}

function matchesTest(n: XNode, test: NodeTest, principal: number): boolean {
  if (test.k === 'name') {
    if (n.kind !== principal) return false;
    if (test.local !== undefined && n.local !== test.local) return false;
    return test.ns === undefined || n.ns === test.ns;
  }
  switch (test.kind) {
    case 'node':
      return true;
    case 'text':
      return n.kind === TEXT;
    case 'element':
      return n.kind === ELEMENT;
    case 'attribute':
      return n.kind === ATTRIBUTE;
    case 'document-node':
      return n.kind === DOCUMENT;
    default:
      return false;
  }
}

function childrenWithText(n: XNode): XNode[] {
  const texts = n.texts;
  if (texts.length === 0) return n.kids;
  return [...n.kids, ...texts].sort((a, b) => a.order - b.order);
}

/** The nodes on an axis, in axis order (reverse axes nearest first). */
function axisNodes(n: XNode, axis: string, test: NodeTest, name = testName(test)): XNode[] {
  const principal = axis === 'attribute' ? ATTRIBUTE : ELEMENT;
  const wantsText = test.k === 'kind' && (test.kind === 'text' || test.kind === 'node');
  switch (axis) {
    case 'child': {
      if (test.k === 'kind' && test.kind === 'text') return n.texts;
      if (name >= 0) return n.childrenWithName(name);
      const out: XNode[] = [];
      const list = wantsText ? childrenWithText(n) : n.kids;
      for (const k of list) if (matchesTest(k, test, principal)) out.push(k);
      return out;
    }
    case 'attribute': {
      if (name >= 0) return attributeNamed(n, name);
      const out: XNode[] = [];
      for (const a of n.attrs) if (matchesTest(a, test, principal)) out.push(a);
      return out;
    }
  }
  const out: XNode[] = [];
  switch (axis) {
    case 'parent':
      if (n.parent && matchesTest(n.parent, test, principal)) out.push(n.parent);
      return out;
    case 'self':
      if (matchesTest(n, test, principal)) out.push(n);
      return out;
    case 'ancestor':
    case 'ancestor-or-self': {
      let p = axis === 'ancestor' ? n.parent : n;
      while (p) {
        if (matchesTest(p, test, principal)) out.push(p);
        p = p.parent;
      }
      return out;
    }
    case 'descendant':
    case 'descendant-or-self': {
      if (axis === 'descendant-or-self' && matchesTest(n, test, principal)) out.push(n);
      const walk = (m: XNode): void => {
        const list = wantsText ? childrenWithText(m) : m.kids;
        for (const k of list) {
          if (matchesTest(k, test, principal)) out.push(k);
          if (k.kind === ELEMENT) walk(k);
        }
      };
      if (n.kind === ELEMENT || n.kind === DOCUMENT) walk(n);
      return out;
    }
    case 'preceding-sibling':
    case 'following-sibling': {
      const p = n.parent;
      if (!p || n.kind === ATTRIBUTE) return out;
      const list = wantsText ? childrenWithText(p) : p.kids;
      const at = list.indexOf(n);
      if (axis === 'preceding-sibling') {
        for (let i = at - 1; i >= 0; i--) if (matchesTest(list[i], test, principal)) out.push(list[i]);
      } else {
        for (let i = at + 1; i < list.length; i++)
          if (matchesTest(list[i], test, principal)) out.push(list[i]);
      }
      return out;
    }
  }
  throw new XPathDynamicError('XPST0010', `axis ${axis} is not supported`);
}

const NO_NODES: XNode[] = [];

/** The attribute of this name as a list of at most one (an element has each attribute once). */
function attributeNamed(n: XNode, name: number): XNode[] {
  const attrs = n.attrs;
  for (let i = 0; i < attrs.length; i++) if (attrs[i].name === name) return attrs[i].single;
  return NO_NODES;
}

/** A predicate, and whether its value is the same for every item it filters (no context, no locals). */
/** A predicate: its truth for one that filters by truth (never a number, no position), else its value. */
type Pred = { constant: boolean } & ({ bool: Bool; fn?: undefined } | { fn: Compiled; bool?: undefined });

const CONTEXT_FUNCTIONS = new Set(['position', 'last']);
const NULLARY_CONSTANTS = new Set(['true', 'false', 'current-date']);

function isConstant(a: Ast, scope: Scope): boolean {
  switch (a.t) {
    case 'str':
    case 'strs':
    case 'num':
      return true;
    case 'var':
      return !scope.locals.has(a.name) && scope.globals.has(a.name);
    case 'call':
      if (CONTEXT_FUNCTIONS.has(a.fn)) return false;
      if (a.args.length === 0) return NULLARY_CONSTANTS.has(a.fn);
      return a.args.every((x) => isConstant(x, scope));
    case 'cmp':
    case 'arith':
      return isConstant(a.l, scope) && isConstant(a.r, scope);
    case 'or':
    case 'and':
      return a.args.every((x) => isConstant(x, scope));
    case 'neg':
      return isConstant(a.arg, scope);
    case 'seq':
      return a.items.every((x) => isConstant(x, scope));
    default:
      return false;
  }
}

function compilePreds(asts: Ast[], rt: Runtime, scope: Scope): Pred[] {
  return asts.map((p): Pred => {
    const constant = isConstant(p, scope);
    return isBooleanPredicate(p)
      ? { constant, bool: compileBoolean(p, rt, scope) }
      : { constant, fn: compile(p, rt, scope) };
  });
}

function applyPredicates(items: Seq, preds: Pred[]): Seq {
  let cur = items;
  for (let p = 0; p < preds.length; p++) {
    const { fn: pred, constant, bool } = preds[p];
    const size = cur.length;
    if (size === 0) return cur;
    if (constant) {
      // `[$noticeSubType = '16']`: one evaluation decides for all items.
      if (bool) {
        if (!bool({ item: cur[0], pos: 1, size })) return EMPTY;
        continue;
      }
      const r = (pred as Compiled)({ item: cur[0], pos: 1, size });
      if (r.length === 1 && typeof r[0] === 'number') {
        const at = r[0];
        cur = Number.isInteger(at) && at >= 1 && at <= size ? [cur[at - 1]] : EMPTY;
      } else if (!ebv(r)) return EMPTY;
      continue;
    }
    // One context object for the loop (a predicate reads it while it runs and never keeps it), and no
    // new list while every item passes: the same array then comes out.
    const cx: Ctx = { item: cur[0], pos: 1, size };
    let next: Seq | undefined;
    for (let i = 0; i < size; i++) {
      cx.item = cur[i];
      cx.pos = i + 1;
      let ok: boolean;
      if (bool) ok = bool(cx);
      else {
        const r = (pred as Compiled)(cx);
        ok = r.length === 1 && typeof r[0] === 'number' ? r[0] === i + 1 : ebv(r);
      }
      if (ok) {
        if (next !== undefined) next.push(cur[i]);
      } else if (next === undefined) next = cur.slice(0, i);
    }
    if (next !== undefined) cur = next;
  }
  return cur;
}

function stringArg(s: Seq, what: string): string {
  const it = one(s, what);
  return it === undefined ? '' : stringOf(it);
}

function castTo(s: Seq, target: 'date' | 'time' | 'dateTime' | 'dayTime' | 'yearMonth', name: string): Seq {
  const it = one(s, name);
  if (it === undefined) return EMPTY;
  const a = atomize(it);
  if (a instanceof XDate && a.kind === target) return [a];
  // F&O §17.1.5: a dateTime casts to its date or time (in its own time zone), a date to its midnight.
  if (a instanceof XDate && a.kind === 'dateTime' && (target === 'date' || target === 'time')) {
    const text = dateToString(a);
    const tz = /(Z|[+-]\d{2}:\d{2})$/.exec(text)?.[1] ?? '';
    return [
      target === 'date'
        ? parseDate(text.slice(0, text.indexOf('T')) + tz)
        : parseTime(text.slice(text.indexOf('T') + 1)),
    ];
  }
  if (a instanceof XDate && a.kind === 'date' && target === 'dateTime')
    return [new XDate('dateTime', a.ms, a.tz)];
  if (a instanceof XDuration && a.kind === target) return [a];
  if (a instanceof XDuration && (target === 'dayTime' || target === 'yearMonth')) {
    return [new XDuration(target, target === 'yearMonth' ? a.months : 0, target === 'dayTime' ? a.ms : 0)];
  }
  if (typeof a === 'string' || a instanceof Untyped) {
    const str = typeof a === 'string' ? a : a.s;
    if (target === 'date') return [parseDate(str)];
    if (target === 'time') return [parseTime(str)];
    if (target === 'dateTime') return [parseDateTime(str)];
    return [parseDuration(str, target)];
  }
  throw new XPathDynamicError('XPTY0004', `cannot cast ${typeName(a)} to ${name}`);
}

function numberOf(it: Item | undefined): number {
  if (it === undefined) return Number.NaN;
  const a = atomize(it);
  if (typeof a === 'number') return a;
  if (typeof a === 'boolean') return a ? 1 : 0;
  if (typeof a === 'string') return toDouble(a);
  if (a instanceof Untyped) return toDouble(a.s);
  return Number.NaN;
}

function literalStrings(a: Ast): string[] | undefined {
  if (a.t === 'str') return [a.v];
  if (a.t === 'strs') return a.v;
  if (a.t === 'seq' && a.items.every((x) => x.t === 'str')) return a.items.map((x) => (x as { v: string }).v);
  return undefined;
}

/** The qualified name of an element or attribute as written in the notice (`name()`). */
function nodeName(n: XNode): string {
  const t = n.doc.index.table;
  if (n.kind === ELEMENT) return t.names[t.name[n.el]].qname;
  if (n.kind === ATTRIBUTE && n.parent) {
    const owner = n.parent.el;
    for (let a = t.firstAttribute[owner]; a < t.firstAttribute[owner + 1]; a++)
      if (t.attributeStart[a] === n.order) return t.names[t.attributeName[a]].qname;
  }
  return '';
}

export function compile(ast: Ast, rt: Runtime, scope: Scope): Compiled {
  const c = (a: Ast): Compiled => compile(a, rt, scope);
  switch (ast.t) {
    case 'str':
    case 'num': {
      const item = ast.v;
      const v: Seq = [item];
      const fn: Compiled = () => v;
      setOne(fn, () => item);
      return fn;
    }
    case 'strs': {
      const v: Seq = ast.v;
      return () => v;
    }
    case 'ctx':
      return oneFn((x) => x.item);
    case 'root':
      return (x) => {
        let n = contextNode(x);
        while (n.parent) n = n.parent;
        if (n.kind !== DOCUMENT)
          throw new XPathDynamicError('XPDY0050', 'the context node is not in a document');
        return n.single;
      };
    case 'var': {
      const slot = scope.locals.get(ast.name);
      if (slot !== undefined) {
        if (!itemSlots.get(scope)?.has(slot)) return () => rt.frame[slot] as Seq;
        const seq: Compiled = () => {
          let v = rt.frame[slot];
          if (v === undefined) {
            v = [rt.items[slot]];
            rt.frame[slot] = v;
          }
          return v;
        };
        setOne(seq, () => rt.items[slot]);
        return seq;
      }
      const g = scope.globals.get(ast.name);
      if (g !== undefined) return () => rt.global(g);
      throw new XPathUnsupportedError(`variable $${ast.name} is not declared`);
    }
    case 'seq': {
      const parts = ast.items.map(c);
      // When every part gives the same array as on the last call (memoised paths, globals: the
      // `(/*/cbc:NoticeLanguageCode, /*/cac:AdditionalNoticeLanguage/cbc:ID)` of the language rules),
      // the last result is given again: sequences are never mutated, so it is equal, and a comparison
      // against it then keeps its atomized values and lookup (StableSide) instead of redoing them.
      const lastParts: Seq[] = parts.map(() => EMPTY);
      const now: Seq[] = parts.map(() => EMPTY);
      let last: Seq | undefined;
      const held = rt.perDocument(() => {
        last = undefined;
        lastParts.fill(EMPTY);
        now.fill(EMPTY);
      });
      return (x) => {
        held();
        let same = last !== undefined;
        for (let i = 0; i < parts.length; i++) {
          const v = parts[i](x);
          now[i] = v;
          if (v !== lastParts[i]) same = false;
        }
        if (same) {
          now.fill(EMPTY);
          return last as Seq;
        }
        const out: Seq = [];
        for (let i = 0; i < parts.length; i++) {
          const v = now[i];
          for (let j = 0; j < v.length; j++) out.push(v[j]);
          lastParts[i] = v;
          now[i] = EMPTY;
        }
        last = out;
        return out;
      };
    }
    case 'if': {
      const cond = compileBoolean(ast.cond, rt, scope);
      const t = c(ast.yes);
      const e = c(ast.no);
      return (x) => (cond(x) ? t(x) : e(x));
    }
    case 'or':
    case 'and': {
      const args = ast.args.map((a) => compileBoolean(a, rt, scope));
      const isOr = ast.t === 'or';
      return boolFn((x) => {
        for (let i = 0; i < args.length; i++) if (args[i](x) === isOr) return isOr;
        return !isOr;
      });
    }
    case 'neg': {
      const arg = c(ast.arg);
      return (x) => {
        const v = one(arg(x), 'unary minus');
        return v === undefined ? EMPTY : [arithmetic('-', 0, atomize(v))];
      };
    }
    case 'arith': {
      const op = ast.op;
      const l = oneOf(c(ast.l), `operator ${op}`);
      const r = oneOf(c(ast.r), `operator ${op}`);
      return optionalFn((x) => {
        const a = l(x);
        const b = r(x);
        if (a === undefined || b === undefined) return undefined;
        return arithmetic(op, atomize(a), atomize(b));
      });
    }
    case 'range': {
      const l = c(ast.l);
      const r = c(ast.r);
      return (x) => {
        const a = one(l(x), 'to');
        const b = one(r(x), 'to');
        if (a === undefined || b === undefined) return EMPTY;
        const out: Seq = [];
        for (let i = numberOf(a); i <= numberOf(b); i++) out.push(i);
        return out;
      };
    }
    case 'cmp': {
      // `count(P) > 0`, `count(P) = 0`, `count(P) < 2`, most of the SDK's tests: P is walked without
      // building its list, and only as far as the answer needs (one node more than the literal).
      const counted =
        ast.l.t === 'call' && ast.l.fn === 'count' && ast.l.args.length === 1 ? ast.l.args[0] : undefined;
      const bound = ast.r.t === 'num' && Number.isInteger(ast.r.v) && ast.r.v >= 0 ? ast.r.v : undefined;
      if (counted && bound !== undefined) {
        const first = counted.t === 'path' ? counted.steps[0] : counted;
        const downward = first.t === 'step' && (first.axis === 'child' || first.axis === 'attribute');
        const count = !downward
          ? undefined
          : bound === 0 && (ast.op === '>' || ast.op === '!=' || ast.op === '=')
            ? compileWalk(counted, rt, scope, true)
            : compileCount(counted, rt, scope);
        if (count) {
          const limit = bound + 1;
          const op = ast.op;
          return boolFn((x) => {
            const k = count(x, limit);
            return op === '='
              ? k === bound
              : op === '!='
                ? k !== bound
                : op === '<'
                  ? k < bound
                  : op === '<='
                    ? k <= bound
                    : op === '>'
                      ? k > bound
                      : k >= bound;
          });
        }
      }
      return ast.kind === 'general'
        ? compileGeneral(ast.op, ast.l, ast.r, rt, scope)
        : compileValueCmp(ast, rt, scope);
    }
    case 'node-cmp': {
      const l = c(ast.l);
      const r = c(ast.r);
      const op = ast.op;
      return (x) => {
        const a = one(l(x), op);
        const b = one(r(x), op);
        if (a === undefined || b === undefined) return EMPTY;
        if (!(a instanceof XNode) || !(b instanceof XNode))
          throw new XPathDynamicError('XPTY0004', `${op} needs nodes`);
        return [op === 'is' ? a === b : op === '<<' ? a.order < b.order : a.order > b.order];
      };
    }
    case 'set': {
      const l = c(ast.l);
      const r = c(ast.r);
      const op = ast.op;
      return (x) => {
        const a = l(x);
        const b = r(x);
        for (const it of [...a, ...b]) {
          if (!(it instanceof XNode)) throw new XPathDynamicError('XPTY0004', `${op} needs nodes`);
        }
        const an = a as XNode[];
        const bn = b as XNode[];
        if (op === 'union') return docOrder([...an, ...bn]);
        const bs = new Set(bn);
        return docOrder(an.filter((n) => (op === 'intersect' ? bs.has(n) : !bs.has(n))));
      };
    }
    case 'for':
      return compileFor(ast, rt, scope);
    case 'window': {
      // One closure per window's path, whichever context starts from it (a thousand contexts of a
      // phase start from the same few: the lots, the parts, the tendering terms).
      const text = `window:${JSON.stringify(ast.of)}`;
      const known = rt.windows.get(text);
      if (known !== undefined) return known;
      const of = c(ast.of);
      const key = rt.internKey(text);
      const fn: Compiled = () => {
        const memo = rt.windowMemo;
        let v = memo[key];
        if (v === undefined) {
          const all = of({ item: rt.doc.node, pos: 1, size: 1 });
          for (let i = 0; i < all.length; i++)
            if (!(all[i] instanceof XNode))
              throw new XPathDynamicError('XPTY0019', 'a window of atomic values');
          v = rt.inWindow(all);
          memo[key] = v;
        }
        return v;
      };
      rt.windows.set(text, fn);
      return fn;
    }
    case 'filter': {
      const base = c(ast.base);
      const keyed = ast.preds.length === 1 ? keyedFilter(base, ast.preds[0], rt, scope) : undefined;
      if (keyed) return keyed;
      const preds = compilePreds(ast.preds, rt, scope);
      return (x) => applyPredicates(base(x), preds);
    }
    case 'step':
      return compileStep(ast, rt, scope);
    case 'path':
      return compilePath(ast.steps, rt, scope);
    case 'call':
      return compileCall(ast.fn, ast.args, rt, scope);
  }
}

/**
 * An expression in a boolean context (`and`, `or`, `if`, `exists`, `empty`, `boolean`): a path of node
 * steps answers whether it selects a node without building the list (compileExists); anything else is
 * evaluated and its effective boolean value taken.
 */
export function compileBoolean(
  ast: Ast,
  rt: Runtime,
  scope: Scope,
  /** The expression already compiled, when the caller has it. */
  compiled?: Compiled,
): (c: Ctx) => boolean {
  const exists = compileDownwardExists(ast, rt, scope);
  if (exists) return exists;
  const fn = compiled ?? compile(ast, rt, scope);
  // A damaged tree compiles to no function: passed on as it is, for the caller to name it.
  if (typeof fn !== 'function') return fn as never;
  const b = BOOLEAN.get(fn);
  if (b) return b;
  const s = SINGLE.get(fn);
  if (s)
    return (x) => {
      const it = s(x);
      return it !== undefined && ebvOne(it);
    };
  return (x) => ebv(fn(x));
}

/**
 * compileExists for paths that only go down from the context node. A path from the root or one that
 * climbs is left to the full evaluation, whose result is memoised per document or per landing node:
 * searching it again from each of N nodes, and failing, would cost N each time.
 */
function compileDownwardExists(ast: Ast, rt: Runtime, scope: Scope): ((c: Ctx) => boolean) | undefined {
  const first = ast.t === 'path' ? ast.steps[0] : ast;
  if (first.t !== 'step' || (first.axis !== 'child' && first.axis !== 'attribute')) return undefined;
  return compileExists(ast, rt, scope);
}

/** A predicate whose value is never a number and that never asks its position: it filters by truth. */
function isBooleanPredicate(a: Ast): boolean {
  return !mentionsPosition(a) && isBooleanValued(a);
}

function mentionsPosition(a: Ast): boolean {
  if (a.t === 'call' && (a.fn === 'position' || a.fn === 'last')) return true;
  // The expressions inside only (a code list of thousands of literals is never walked): this runs for
  // every predicate at every level of nesting while rules compile.
  const inside = subExpressions(a);
  for (let i = 0; i < inside.length; i++) if (mentionsPosition(inside[i] as Ast)) return true;
  return false;
}

const BOOLEAN_FUNCTIONS = new Set([
  'not',
  'boolean',
  'exists',
  'empty',
  'matches',
  'starts-with',
  'ends-with',
  'contains',
  'true',
  'false',
]);
const PATH_FUNCTIONS = new Set(['not', 'boolean', 'exists', 'empty', 'count']);

function isBooleanValued(a: Ast): boolean {
  switch (a.t) {
    case 'cmp':
    case 'and':
    case 'or':
    case 'node-cmp':
      return true;
    case 'call':
      return BOOLEAN_FUNCTIONS.has(a.fn);
    case 'step':
      return true;
    case 'path':
      return a.steps[a.steps.length - 1].t === 'step';
    default:
      return false;
  }
}

/**
 * Whether a path selects at least one node, answered depth-first without building the node lists:
 * for paths of child, attribute, parent and self steps whose predicates filter by truth. Undefined
 * for any other expression (the caller evaluates it in full).
 */
function compileExists(ast: Ast, rt: Runtime, scope: Scope): ((c: Ctx) => boolean) | undefined {
  const count = compileWalk(ast, rt, scope, true);
  if (!count) return undefined;
  return (x) => count(x, 1) > 0;
}

/**
 * `count(P)` for a path of child, attribute and self steps (from the context node or the root) whose
 * predicates filter by truth, counted depth-first without building the node lists: such a path never
 * selects a node twice (each node has one parent), so the count of the walk is the count of the
 * sequence. It stops at `limit` (`count(P) < 2` needs to know only whether there are two).
 */
function compileCount(ast: Ast, rt: Runtime, scope: Scope): Walk | undefined {
  return compileWalk(ast, rt, scope, false);
}

/** compileCount for paths that go down from the context node (see compileDownwardExists). */
function compileDownwardCount(ast: Ast, rt: Runtime, scope: Scope): Walk | undefined {
  const first = ast.t === 'path' ? ast.steps[0] : ast;
  if (first.t !== 'step' || (first.axis !== 'child' && first.axis !== 'attribute')) return undefined;
  return compileCount(ast, rt, scope);
}

/** A path walked depth-first: how many nodes it selects, up to `limit`; written into `out` if given
 * (in document order, for the paths compileCount takes). */
type Walk = (c: Ctx, limit: number, out?: Sink) => number;

// The kinds of walk step (compileWalk's plan).
const CHILD_NAMED = 0;
const ATTRIBUTE_NAMED = 1;
const PARENT_NODE = 2;
const CHILD_ANY = 3;
const OTHER_STEP = 4;

/** A walk's limit when it should find every node: a small integer (Infinity, a double, was boxed on
 * every recursive call of the walk), larger than any count a notice under the input limits can reach. */
const ALL = 0x3fffffff;

/** Where a walk writes the nodes it selects: `list[0..n)`. The list is kept from call to call (it is
 * never shrunk, so it is not reallocated as it grows again) and cleared of its nodes after each use. */
interface Sink {
  list: (XNode | undefined)[];
  n: number;
}

function compileWalk(
  ast: Ast,
  rt: Runtime,
  scope: Scope,
  /** Whether parent steps may be in the path: fine for existence, not for a count (duplicates). */
  parents: boolean,
): Walk | undefined {
  const steps = ast.t === 'path' ? ast.steps : ast.t === 'step' ? [ast] : undefined;
  if (!steps) return undefined;
  const fromRoot = steps[0].t === 'root';
  const rest = fromRoot ? steps.slice(1) : steps;
  const axes = parents ? ['child', 'attribute', 'parent', 'self'] : ['child', 'attribute', 'self'];
  for (const st of rest) {
    if (st.t !== 'step') return undefined;
    if (!axes.includes(st.axis)) return undefined;
    if (!st.preds.every(isBooleanPredicate)) return undefined;
  }
  if (rest.length === 0) return undefined;
  // Each step's predicates as booleans, with one context object per step: a predicate runs to its end
  // before the walk goes deeper, and never keeps the object.
  // Each step's kind as a small integer, decided here once: the walk runs for every node of a rule and
  // compared the axis and test strings on every call.
  const plan: { op: number; axis: Axis; test: NodeTest; name: number; preds: Bool[]; cx: Ctx }[] = [];
  for (const st of rest) {
    if (st.t !== 'step') return undefined;
    const name = testName(st.test);
    const { axis, test } = st;
    const op =
      axis === 'child' && name >= 0
        ? CHILD_NAMED
        : axis === 'attribute' && name >= 0
          ? ATTRIBUTE_NAMED
          : axis === 'parent' && test.k === 'kind' && test.kind === 'node'
            ? PARENT_NODE
            : axis === 'child' && test.k === 'name' && test.ns === undefined && test.local === undefined
              ? CHILD_ANY
              : OTHER_STEP;
    plan.push({
      op,
      axis,
      test,
      name,
      preds: st.preds.map((p) => compileBoolean(p, rt, scope)),
      cx: { item: null as unknown as Item, pos: 1, size: 1 },
    });
  }
  const last = plan.length;
  // The context object lets go of its node once the predicates ran, or threw: a node left in it would
  // keep its whole document alive after the run, until the walk runs again (perhaps never).
  const passes = (n: XNode, preds: Bool[], cx: Ctx): boolean => {
    if (preds.length === 0) return true;
    cx.item = n;
    try {
      for (let i = 0; i < preds.length; i++) if (!preds[i](cx)) return false;
      return true;
    } finally {
      cx.item = null as unknown as Item;
    }
  };
  // How many nodes the rest of the path selects from n, up to `limit`.
  const from = (n: XNode, i: number, limit: number, out?: Sink): number => {
    if (i === last) {
      if (out) out.list[out.n++] = n;
      return 1;
    }
    const step = plan[i];
    const op = step.op;
    const preds = step.preds;
    let found = 0;
    if (op === CHILD_NAMED) {
      const name = step.name;
      const kids = n.kids;
      // A short list is scanned (no list built); a wide element answers from its name table.
      const list = kids.length < 16 ? kids : n.childrenWithName(name);
      // The last step counts (or writes) its nodes here rather than in one more call for each.
      const lastStep = i + 1 === last;
      const cx = step.cx;
      for (let j = 0; j < list.length; j++) {
        const k = list[j];
        if (k.name === name && passes(k, preds, cx)) {
          if (lastStep) {
            if (out) out.list[out.n++] = k;
            found++;
          } else found += from(k, i + 1, limit - found, out);
          if (found >= limit) return found;
        }
      }
      return found;
    }
    if (op === ATTRIBUTE_NAMED) {
      const name = step.name;
      const attrs = n.attrs;
      for (let j = 0; j < attrs.length; j++) {
        const k = attrs[j];
        if (k.name === name) return passes(k, preds, step.cx) ? from(k, i + 1, limit, out) : 0;
      }
      return 0;
    }
    if (op === PARENT_NODE) {
      const p = n.parent;
      return p !== null && passes(p, preds, step.cx) ? from(p, i + 1, limit, out) : 0;
    }
    const cx = step.cx;
    // `*` is every element child, without a list made; any other step is the axis's list.
    const list = op === CHILD_ANY ? n.kids : axisNodes(n, step.axis, step.test, step.name);
    for (let j = 0; j < list.length; j++) {
      const k = list[j];
      if (passes(k, preds, cx)) {
        found += from(k, i + 1, limit - found, out);
        if (found >= limit) return found;
      }
    }
    return found;
  };
  return (x, limit, out) => {
    let n = contextNode(x);
    if (fromRoot) {
      while (n.parent) n = n.parent;
      if (n.kind !== DOCUMENT)
        throw new XPathDynamicError('XPDY0050', 'the context node is not in a document');
    }
    return from(n, 0, limit, out);
  };
}

function compileStep(ast: Extract<Ast, { t: 'step' }>, rt: Runtime, scope: Scope): Compiled {
  const preds = compilePreds(ast.preds, rt, scope);
  const { axis, test } = ast;
  // The two steps that make up nearly every rule: a named child, and `..`.
  if (
    axis === 'child' &&
    test.k === 'name' &&
    test.local !== undefined &&
    test.ns !== undefined &&
    preds.length === 0
  ) {
    const name = nameId(test.ns, test.local);
    return (x) => contextNode(x).childrenWithName(name);
  }
  if (axis === 'parent' && test.k === 'kind' && test.kind === 'node' && preds.length === 0) {
    return (x) => {
      const p = contextNode(x).parent;
      return p ? p.single : EMPTY;
    };
  }
  if (axis === 'child' && test.k === 'kind' && test.kind === 'text' && preds.length === 0) {
    const fn: Compiled = (x) => contextNode(x).texts;
    forms(fn).textStep = true;
    return fn;
  }
  const name = testName(test);
  return (x) => {
    const found = axisNodes(contextNode(x), axis, test, name);
    return preds.length === 0 ? found : applyPredicates(found, preds);
  };
}

/** The node a path step is applied to: a path step from an atomic value is an error (XPTY0019). */
function stepContext(it: Item): XNode {
  if (it instanceof XNode) return it;
  throw new XPathDynamicError('XPTY0019', 'a path step applied to an atomic value');
}

function compilePath(
  steps: Ast[],
  rt: Runtime,
  scope: Scope,
  /** The first `count` steps, already compiled as one (keyedStep's head and its filter). */
  prefix?: Prefix,
): Compiled {
  if (!prefix) {
    const keyed = keyedStep(steps, rt, scope);
    if (keyed) return keyed;
  }
  const fromRoot = steps[0]?.t === 'root' || steps[0]?.t === 'window';
  if (fromRoot && !usesLocals(steps, scope)) {
    const keyed = keyedAbsoluteStep(steps, rt, scope, prefix);
    if (keyed) return keyed;
  }
  // `cac:A/cac:B[p]/cbc:C/number()`: the leading child and attribute steps go down from one node, so
  // they are walked depth-first into one list, in document order, without a list per step.
  if (!prefix) {
    let k = 0;
    while (k < steps.length && isWalkStep(steps[k])) k++;
    const s0 = steps[0];
    if (k >= 2 && s0.t === 'step' && (s0.axis === 'child' || s0.axis === 'attribute')) {
      const walk = compileCount(
        k === steps.length ? { t: 'path', steps } : { t: 'path', steps: steps.slice(0, k) },
        rt,
        scope,
      );
      if (walk) {
        // Collected in a scratch list, then copied at its exact length: most of these select one node.
        // The scratch list keeps its room between calls (`length = 0` would drop its storage, and the
        // next call would grow it again push by push) and is cleared of the nodes so that it keeps no
        // document alive. The walk never runs this closure again before it returns (its predicates are
        // other closures).
        const scratch: Sink = { list: [], n: 0 };
        const collect: Compiled = (x) => {
          scratch.n = 0;
          try {
            walk(x, ALL, scratch);
          } catch (e) {
            scratch.list.fill(undefined, 0, scratch.n);
            scratch.n = 0;
            throw e;
          }
          const n = scratch.n;
          const list = scratch.list;
          const out = n === 0 ? EMPTY : n === 1 ? (list[0] as XNode).single : (list.slice(0, n) as XNode[]);
          if (n > 0) list.fill(undefined, 0, n);
          scratch.n = 0;
          return out;
        };
        return k === steps.length ? collect : compilePath(steps, rt, scope, { fn: collect, count: k });
      }
    }
  }
  // `//name` and `//*` from the root: the document's element lists answer them without a walk.
  const compiled: Compiled[] = [];
  let start = 0;
  const [s0, s1, s2] = steps;
  if (prefix) {
    compiled.push(prefix.fn);
    start = prefix.count;
  } else if (
    s0?.t === 'root' &&
    s1?.t === 'step' &&
    s1.axis === 'descendant-or-self' &&
    s1.preds.length === 0 &&
    s1.test.k === 'kind' &&
    s1.test.kind === 'node' &&
    s2?.t === 'step' &&
    s2.axis === 'child' &&
    s2.test.k === 'name' &&
    (s2.test.local === undefined) === (s2.test.ns === undefined) &&
    // Positional predicates count per parent; predicates that filter by truth can run on the list.
    s2.preds.every(isBooleanPredicate)
  ) {
    const { ns, local } = s2.test;
    const preds = compilePreds(s2.preds, rt, scope);
    const name = ns === undefined || local === undefined ? -1 : nameId(ns, local);
    const all = (): Seq => (name < 0 ? rt.doc.elements : rt.doc.withName(name));
    compiled.push(filteredBy(all, preds));
    start = 3;
  }
  // Child, attribute and self steps from one node keep document order; anything else is sorted.
  const sortAfter: boolean[] = start > 0 ? [false] : [];
  // Whether each step is an axis step, which yields nodes only (see nodeStep and valueStep).
  const nodesOnly: boolean[] = start > 0 ? [true] : [];
  for (let i = start; i < steps.length; i++) {
    const s = steps[i];
    compiled.push(compile(s, rt, scope));
    sortAfter.push(!(s.t === 'step' && (s.axis === 'child' || s.axis === 'attribute' || s.axis === 'self')));
    nodesOnly.push(s.t === 'step');
  }
  const scratch: Item[] = [];
  let scratchBusy = false;
  // An axis step (`cbc:ID`, `..`, `@listName`) yields nodes only, and is applied here.
  const nodeStep = (cur: Seq, i: number): Seq => {
    const step = compiled[i];
    const size = cur.length;
    if (size === 0) return EMPTY;
    let out: Seq;
    if (size === 1) out = step({ item: stepContext(cur[0]), pos: 1, size: 1 });
    else {
      // Gathered in the path's scratch list (kept between calls, so not grown push by push each time)
      // and copied at its exact length; a nested call while it is in use gets a list of its own.
      const buf = scratchBusy ? [] : scratch;
      scratchBusy = true;
      let n = 0;
      try {
        // One context object for the loop: a step reads it while it runs and never keeps it.
        const cx: Ctx = { item: cur[0], pos: 1, size };
        for (let j = 0; j < size; j++) {
          rt.tick();
          cx.item = stepContext(cur[j]);
          cx.pos = j + 1;
          const r = step(cx);
          for (let k = 0; k < r.length; k++) buf[n++] = r[k];
        }
        out = n === 0 ? EMPTY : buf.slice(0, n);
      } finally {
        // Cleared of its items, thrown or not: they would keep the document alive.
        if (n > 0) buf.fill(undefined as unknown as Item, 0, n);
        if (buf === scratch) scratchBusy = false;
      }
    }
    return size > 1 || sortAfter[i] ? docOrder(out as XNode[]) : out;
  };
  // Any other step (`number()`, `normalize-space()`, `(a | b)`, `$v`) may yield atomic values, which a
  // path may end with but never mix with nodes. Its own closure, not a branch of nodeStep: V8 shares
  // one feedback vector among the closures of one function literal (one per path of a whole rule set),
  // and when the one literal for both met a step's list of numbers after it was optimised for lists
  // of nodes, it left its optimised code at that branch on every such step and went back to it on the
  // next call: 53,000 times on a 5,000-lot award notice's first run (its command took 3.96 s, now 3.51).
  const valueStep = (cur: Seq, i: number): Seq => {
    const step = compiled[i];
    const size = cur.length;
    if (size === 0) return EMPTY;
    let out: Seq;
    if (size === 1) out = step({ item: stepContext(cur[0]), pos: 1, size: 1 });
    else {
      const all: Item[] = [];
      for (let j = 0; j < size; j++) {
        rt.tick();
        const r = step({ item: stepContext(cur[j]), pos: j + 1, size });
        for (let k = 0; k < r.length; k++) all.push(r[k]);
      }
      out = all.length === 0 ? EMPTY : all;
    }
    let nodes = 0;
    for (let k = 0; k < out.length; k++) if (out[k] instanceof XNode) nodes++;
    if (nodes === 0) return out;
    if (nodes !== out.length)
      throw new XPathDynamicError('XPTY0018', 'a path step returned both nodes and atomic values');
    return docOrder(out as XNode[]);
  };
  const applyStep = (cur: Seq, i: number): Seq => (nodesOnly[i] ? nodeStep(cur, i) : valueStep(cur, i));
  // An absolute path without local variables has one value per document: rule contexts share long
  // prefixes (`/*/cac:ProcurementProjectLot[cbc:ID/@schemeName='Lot']/…`), each computed once.
  // A path from a window has one value per window, kept as long as the window (Runtime.windowMemo).
  if (fromRoot && !usesLocals(steps, scope)) {
    const windowed = s0?.t === 'window';
    // The first closure covers steps 0..offset: the root, `//name` (three steps) or a keyed prefix.
    const offset = prefix ? prefix.count - 1 : start === 3 ? 2 : 0;
    // Each prefix's key is its parent prefix's number and its own step: short strings, built in one pass.
    const keys: number[] = [];
    let prev = prefix?.key ?? rt.internKey(JSON.stringify(steps.slice(0, offset + 1)));
    keys.push(prev);
    for (let j = 1; j < compiled.length; j++) {
      prev = rt.internKey(`${prev}/${JSON.stringify(steps[j + offset])}`);
      keys.push(prev);
    }
    const memoised: Compiled = (x) => {
      const memo = windowed ? rt.windowMemo : rt.memo;
      let j = compiled.length - 1;
      let cur: Seq | undefined = memo[keys[j]];
      while (cur === undefined && j > 0) cur = memo[keys[--j]];
      if (cur === undefined) {
        cur = compiled[0](x);
        memo[keys[0]] = cur;
        j = 0;
      }
      for (let i = j + 1; i < compiled.length; i++) {
        cur = applyStep(cur, i);
        memo[keys[i]] = cur;
      }
      return cur;
    };
    forms(memoised).memoKey = prev;
    return memoised;
  }
  // `../../../../../../../cac:ProcurementProjectLot[…]/cbc:ID`, written inside a predicate over every
  // result of an award notice: the climb lands on the same ancestor from N start nodes, and the rest of
  // the path depends only on that ancestor (no local variables; predicates set their own context). Its
  // value is kept per (this path, landing node) for the current document, so N evaluations cost one.
  let climb = 0;
  while (climb < steps.length && isPlainParentStep(steps[climb])) climb++;
  if (!prefix && start === 0 && climb >= 1 && climb < steps.length && !usesLocals(steps, scope)) {
    let generation = -1;
    // Keyed by the landing node's element index (-1 for the document node), unique in a document: a
    // number hashes without giving each node an identity hash first. Only landing nodes reached a
    // second time are kept: most climbs (`../efbc:X` from each of N results) land on a different node
    // each time, and a Map of every one of them cost more than it saved. `seen` has one bit per element
    // (off the heap): a node's value is computed at most twice, so the climb stays linear.
    let cache = new Map<number, Seq>();
    let seen: Uint8Array | undefined;
    // The last landing node and its value, before all that: the start nodes of one rule come in
    // document order, and most of them land on the same ancestor as the one before.
    let lastNode: XNode | undefined;
    let lastValue: Seq = EMPTY;
    const held = rt.perDocument(() => {
      if (cache.size > 0) cache = new Map();
      seen = undefined;
      lastNode = undefined;
      lastValue = EMPTY;
    });
    const rest = (n: XNode): Seq => {
      let cur: Seq = n.single;
      for (let i = climb; i < compiled.length; i++) cur = applyStep(cur, i);
      return cur;
    };
    return (x) => {
      let n: XNode | null = contextNode(x);
      for (let k = 0; k < climb && n; k++) n = n.parent;
      if (!n) return EMPTY;
      held();
      if (generation !== rt.generation) {
        generation = rt.generation;
        if (cache.size > 0) cache = new Map();
        seen = undefined;
        lastNode = undefined;
      }
      if (n === lastNode) return lastValue;
      const key = n.el + 1;
      if (seen === undefined) seen = new Uint8Array((n.doc.elements.length >> 3) + 1);
      const at = key >> 3;
      const bit = 1 << (key & 7);
      let cur: Seq | undefined;
      if ((seen[at] & bit) === 0) {
        seen[at] |= bit;
        cur = rest(n);
      } else {
        cur = cache.get(key);
        if (cur === undefined) {
          cur = rest(n);
          cache.set(key, cur);
        }
      }
      lastNode = n;
      lastValue = cur;
      return cur;
    };
  }
  return (x) => {
    let cur = compiled[0](x);
    for (let i = 1; i < compiled.length; i++) cur = applyStep(cur, i);
    return cur;
  };
}

/**
 * `…/cbc:ID[. = $x]` inside `for $x in ., $y in …` and `$ids[. = $val]` inside `for $val in $ids`, the
 * SDK's uniqueness checks, run once per ID: every run scans all N IDs, N² in all. When a predicate is
 * `K = V` with K reading only its context item (no local variables, no position) and V not reading it,
 * and what it filters is the same array on every call (a memoised path, a global), an index
 * K-string → positions over that array answers each V in one lookup. In a path, the first step whose
 * predicates use local variables qualifies when it has that one predicate and the steps before it use
 * none: `A/B[p]/C` is `(A/B)[p]/C` when p filters by truth, so document order is kept.
 */
function keyedStep(steps: Ast[], rt: Runtime, scope: Scope): Compiled | undefined {
  let j = 0;
  while (j < steps.length && !usesLocals([steps[j]], scope)) j++;
  const st = steps[j];
  if (j === 0 || st === undefined || st.t !== 'step' || st.preds.length !== 1) return undefined;
  if (st.axis !== 'child' && st.axis !== 'attribute' && st.axis !== 'self') return undefined;
  // `[K = V and Q]` and `[.[K = V]/E = L]` are `[K = V][…]`: the first filter from the index, the
  // others over what it found.
  const [first, ...others] = conjuncts(st.preds[0]);
  const head = [...steps.slice(0, j), { ...st, preds: [] }];
  const keyed = keyedFilter(compilePath(head, rt, scope), first, rt, scope);
  if (!keyed) return undefined;
  const more = compilePreds(others, rt, scope);
  const filter = filteredBy(keyed, more);
  return j === steps.length - 1 ? filter : compilePath(steps, rt, scope, { fn: filter, count: j + 1 });
}

/**
 * A predicate of an axis step as predicates applied one after the other, so that keyedStep can answer
 * the first from an index: `[A and B]` is `[A][B]`, and `[.[A]/E op L]`, a general comparison with a
 * literal or a variable, is `[A][E op L]` (when A is false `.[A]/E` is empty and the comparison false;
 * L, which cannot raise an error, is then not evaluated). Only predicates that filter by truth and ask
 * no position: the nodes that pass them all are then the same in any order, and in document order.
 * The SDK's award templates find each tender's amount so, `…/cbc:PayableAmount[.[../../cbc:ID = $t]
 * /number() != -1]`, over every tender of the notice for each tender: N² before, N with the index.
 */
function conjuncts(pred: Ast): Ast[] {
  if (!isBooleanPredicate(pred)) return [pred];
  if (pred.t === 'and') return pred.args.every(isBooleanPredicate) ? pred.args.flatMap(conjuncts) : [pred];
  if (pred.t === 'cmp' && pred.kind === 'general' && isPlainOperand(pred.r) && pred.l.t === 'path') {
    const steps = pred.l.steps;
    const f = steps[0];
    if (steps.length >= 2 && f.t === 'filter' && f.base.t === 'ctx' && f.preds.length > 0) {
      const rest: Ast = steps.length === 2 ? steps[1] : { t: 'path', steps: steps.slice(1) };
      if (f.preds.every(isBooleanPredicate) && !mentionsPosition(rest))
        return [...f.preds.flatMap(conjuncts), { ...pred, l: rest }];
    }
  }
  return [pred];
}

/** fn's nodes filtered by predicates that filter by truth (fn itself when there are none). */
function filteredBy(fn: Compiled, preds: Pred[]): Compiled {
  return preds.length === 0 ? fn : (x) => applyPredicates(fn(x), preds);
}

/** A literal, a negated number or a variable: an operand that reads nothing and raises no error. */
function isPlainOperand(a: Ast): boolean {
  return a.t === 'num' || a.t === 'str' || a.t === 'var' || (a.t === 'neg' && a.arg.t === 'num');
}

/**
 * An absolute path's first step after `prefix` (at least the second) whose one predicate is `K = V`
 * as keyedFilter takes it: `cac:ProcurementProjectLot[cbc:ID/@schemeName='Lot']` below the root, and the many
 * `…/efac:FieldsPrivacy[efbc:FieldIdentifierCode/text()='awa-cri-com']` of the rule contexts. The step
 * runs as a filter over the memoised path up to it, `(A/B)[p]` for `A/B[p]` (the same nodes in document
 * order, since p filters by truth), and every rule that filters that same list by the same K shares
 * one index of it: N rules over M nodes cost M + N instead of M × N.
 */
function keyedAbsoluteStep(steps: Ast[], rt: Runtime, scope: Scope, prefix?: Prefix): Compiled | undefined {
  for (let j = Math.max(1, prefix?.count ?? 1); j < steps.length; j++) {
    const st = steps[j];
    if (st.t !== 'step' || st.preds.length === 0) continue;
    if (st.axis !== 'child' && st.axis !== 'attribute' && st.axis !== 'self') continue;
    if (keyedParts(st.preds[0], scope) === undefined) continue;
    // Further predicates (`[$noticeSubType = '16']`) filter the result, when none counts positions.
    if (!st.preds.every(isBooleanPredicate)) continue;
    const head = [...steps.slice(0, j), { ...st, preds: [] }];
    const headFn = compilePath(head, rt, scope, prefix);
    const keyed = keyedFilter(headFn, st.preds[0], rt, scope);
    if (!keyed) return undefined;
    const more = compilePreds(st.preds.slice(1), rt, scope);
    const filter = filteredBy(keyed, more);
    if (j === steps.length - 1) return filter;
    // The filtered prefix's key: its head's and the predicates' text (the same value as the path's).
    const headKey = forms(headFn).memoKey;
    const key = headKey === undefined ? undefined : rt.internKey(`${headKey}${JSON.stringify(st.preds)}`);
    return compilePath(steps, rt, scope, { fn: filter, count: j + 1, key });
  }
  return undefined;
}

/** The key and value sides of a predicate `K = V` that keyedFilter answers from an index. */
function keyedParts(pred: Ast, scope: Scope): { key: Ast; value: Ast } | undefined {
  if (pred.t !== 'cmp' || pred.kind !== 'general' || pred.op !== '=') return undefined;
  if (readsOnlyContext(pred.l, scope) && contextFree(pred.r)) return { key: pred.l, value: pred.r };
  if (readsOnlyContext(pred.r, scope) && contextFree(pred.l)) return { key: pred.r, value: pred.l };
  return undefined;
}

/** `base[K = V]` by an index over base's value (see keyedStep), or undefined when the predicate is not of that form. */
function keyedFilter(base: Compiled, pred: Ast, rt: Runtime, scope: Scope): Compiled | undefined {
  const parts = keyedParts(pred, scope);
  if (!parts) return undefined;
  const key = compile(parts.key, rt, scope);
  const value = compile(parts.value, rt, scope);
  const keyId = rt.internKey(`key:${JSON.stringify(parts.key)}`);
  // The predicate as it is, for the lists not indexed. Without local variables in scope it is compiled
  // when first needed, in a scope of its own that resolves names as this one does now (none local);
  // with them, now, while they are in scope.
  let compiledPreds: Pred[] | undefined = scope.locals.size > 0 ? compilePreds([pred], rt, scope) : undefined;
  const pairwise = (cur: Seq): Seq => {
    compiledPreds ??= compilePreds([pred], rt, {
      globals: scope.globals,
      locals: new Map(),
      nextSlot: scope.nextSlot,
    });
    return applyPredicates(cur, compiledPreds);
  };
  let indexed: Seq | undefined;
  let index: Map<string, number[]> | null | undefined = null;
  let results = new Map<string, Seq>();
  const held = rt.perDocument(() => {
    indexed = undefined;
    index = null;
    if (results.size > 0) results = new Map();
  });
  return (x) => {
    held();
    const cur = base(x);
    if (cur.length === 0) return EMPTY;
    if (cur !== indexed) {
      // Built the second time the same array comes, from this closure or another with the same key:
      // a base that is not memoised never pays for it.
      index = rt.keyIndex(cur, keyId, key);
      if (index === undefined) return pairwise(cur);
      indexed = cur;
      if (results.size > 0) results = new Map();
    }
    if (index === null || index === undefined) return pairwise(cur);
    // Every key empty: no item passes, and the pairwise run would never evaluate V either.
    if (index.size === 0) return EMPTY;
    const values = value({ item: cur[0], pos: 1, size: cur.length });
    // One value, asked again (`count($ids[. = $val])` for each of N equal ids): the same answer array.
    if (values.length === 1) {
      const a = atomize(values[0]);
      if (typeof a === 'string' || a instanceof Untyped) {
        const k = typeof a === 'string' ? a : a.s;
        let hit = results.get(k);
        if (hit === undefined) {
          const at = index.get(k);
          hit = at ? at.map((i) => cur[i]) : EMPTY;
          results.set(k, hit);
        }
        return hit;
      }
    }
    const positions: number[] = [];
    for (const v of values) {
      const a = atomize(v);
      if (typeof a !== 'string' && !(a instanceof Untyped)) return pairwise(cur);
      const hit = index.get(typeof a === 'string' ? a : a.s);
      if (hit) for (const i of hit) positions.push(i);
    }
    if (positions.length === 0) return EMPTY;
    if (values.length > 1) positions.sort((p, q) => p - q);
    const out: Seq = [];
    for (let i = 0; i < positions.length; i++)
      if (i === 0 || positions[i] !== positions[i - 1]) out.push(cur[positions[i]]);
    return out;
  };
}

/** K-string → positions in `items` (each position once per key), or null when a key is not string-like. */
function buildKeyIndex(items: Seq, key: Compiled): Map<string, number[]> | null {
  const index = new Map<string, number[]>();
  const cx: Ctx = { item: items[0], pos: 1, size: items.length };
  try {
    for (let i = 0; i < items.length; i++) {
      cx.item = items[i];
      cx.pos = i + 1;
      for (const it of key(cx)) {
        const a = atomize(it);
        if (typeof a !== 'string' && !(a instanceof Untyped)) return null;
        const k = typeof a === 'string' ? a : a.s;
        const list = index.get(k);
        if (list === undefined) index.set(k, [i]);
        else if (list[list.length - 1] !== i) list.push(i);
      }
    }
  } catch {
    // The pairwise run raises the same error at the same item.
    return null;
  }
  return index;
}

/** An expression whose value depends on its context item only: no local variables, no position. */
function readsOnlyContext(a: Ast, scope: Scope): boolean {
  return !usesLocals([a], scope) && !mentionsPosition(a);
}

/** An expression that never reads the context item, its position or the context size. */
function contextFree(a: Ast): boolean {
  switch (a.t) {
    case 'var':
    case 'str':
    case 'strs':
    case 'num':
      return true;
    case 'seq':
      return a.items.every(contextFree);
    case 'call':
      return a.args.length > 0 && !CONTEXT_FUNCTIONS.has(a.fn) && a.args.every(contextFree);
    default:
      return false;
  }
}

/** The first `count` steps of a path compiled as one closure, and their memo key when the path has one. */
interface Prefix {
  fn: Compiled;
  count: number;
  key?: number;
}

/** A child, attribute or self step whose predicates filter by truth (compileCount walks those). */
function isWalkStep(a: Ast): boolean {
  return (
    a.t === 'step' &&
    (a.axis === 'child' || a.axis === 'attribute' || a.axis === 'self') &&
    a.preds.every(isBooleanPredicate)
  );
}

function isPlainParentStep(a: Ast): boolean {
  return (
    a.t === 'step' &&
    a.axis === 'parent' &&
    a.test.k === 'kind' &&
    a.test.kind === 'node' &&
    a.preds.length === 0
  );
}

function usesLocals(asts: Ast[], scope: Scope): boolean {
  // Most rules declare no local variable: nothing to look for (a walk of the tree costs compile time).
  if (scope.locals.size === 0) return false;
  // Context-dependent functions inside a predicate are fine: the predicate sets its own context. Code
  // lists hold no variable and are not walked (subExpressions).
  const reads = (a: Ast): boolean =>
    (a.t === 'var' && scope.locals.has(a.name)) || subExpressions(a).some(reads);
  return asts.some(reads);
}

/** The slots of each scope that hold one item (`for`, `some`, `every` bindings). */
const itemSlots = new WeakMap<Scope, Set<number>>();

function compileFor(ast: Extract<Ast, { t: 'for' }>, rt: Runtime, scope: Scope): Compiled {
  const saved = new Map(scope.locals);
  const bindings: { slot: number; fn: Compiled }[] = [];
  let slots = itemSlots.get(scope);
  if (slots === undefined) {
    slots = new Set();
    itemSlots.set(scope, slots);
  }
  for (const b of ast.bindings) {
    const fn = compile(b.in, rt, scope);
    const slot = scope.nextSlot.n++;
    scope.locals.set(b.name, slot);
    slots.add(slot);
    bindings.push({ slot, fn });
  }
  const kind = ast.kind;
  const body = kind === 'for' ? compile(ast.body, rt, scope) : undefined;
  const test = kind === 'for' ? undefined : compileBoolean(ast.body, rt, scope);
  scope.locals.clear();
  for (const [k, v] of saved) scope.locals.set(k, v);
  const last = bindings.length;
  // Binding i and those after it, for every item: true when `some`/`every` is decided (the answer is
  // then `kind === 'some'`). One function for the expression, no closure per call.
  const level = (x: Ctx, i: number, out: Seq): boolean => {
    if (i === last) {
      if (body) {
        const r = body(x);
        for (let j = 0; j < r.length; j++) out.push(r[j]);
        return false;
      }
      return (test as (c: Ctx) => boolean)(x) === (kind === 'some');
    }
    const b = bindings[i];
    const items = b.fn(x);
    const frame = rt.frame;
    for (let j = 0; j < items.length; j++) {
      rt.tick();
      rt.items[b.slot] = items[j];
      frame[b.slot] = undefined;
      if (level(x, i + 1, out)) return true;
    }
    return false;
  };
  if (kind === 'for')
    return (x) => {
      const out: Seq = [];
      level(x, 0, out);
      return out;
    };
  const some = kind === 'some';
  return boolFn((x) => (level(x, 0, EMPTY) ? some : !some));
}

function compileGeneral(op: CmpOp, la: Ast, ra: Ast, rt: Runtime, scope: Scope): Compiled {
  const l = compile(la, rt, scope);
  const r = compile(ra, rt, scope);
  // A literal code list (one test has thousands) is a Set lookup for string-like items.
  const lits = literalStrings(ra) ?? literalStrings(la);
  if (lits && lits.length > 4 && (op === '=' || op === '!=')) {
    const set = new Set(lits);
    const other = literalStrings(ra) ? l : r;
    const oneItem = SINGLE.get(other);
    if (oneItem)
      return boolFn((x) => {
        const it = oneItem(x);
        if (it === undefined) return false;
        const a = atomize(it);
        if (typeof a === 'string' || a instanceof Untyped) {
          const s = typeof a === 'string' ? a : a.s;
          return op === '=' ? set.has(s) : set.size > 1 || !set.has(s);
        }
        for (const lit of lits) if (compareGeneral(a, lit, op)) return true;
        return false;
      });
    return (x) => {
      for (const it of other(x)) {
        const a = atomize(it);
        if (typeof a === 'string' || a instanceof Untyped) {
          const s = typeof a === 'string' ? a : a.s;
          if (op === '=' ? set.has(s) : set.size > 1 || !set.has(s)) return TRUE;
        } else {
          for (const lit of lits) if (compareGeneral(a, lit, op)) return TRUE;
        }
      }
      return FALSE;
    };
  }
  // The right side is often the same sequence on every call (a memoised path or a global): its atomized
  // values, and for `=` a Set of them, are kept while it stays the same array, so that testing one value
  // against N costs one lookup instead of N comparisons.
  const l1 = SINGLE.get(l);
  const r1 = SINGLE.get(r);
  // One item on each side (`normalize-space(.) = 'x'`, `number(.) > 0`): one comparison, no arrays.
  if (l1 && r1)
    return boolFn((x) => {
      const a = l1(x);
      if (a === undefined) return false;
      const b = r1(x);
      if (b === undefined) return false;
      return compareGeneral(atomize(a), atomize(b), op);
    });
  const right = new StableSide(op === '=', rt);
  const left = new StableSide(op === '=', rt);
  // One item on the left (`$lg = (/*/cbc:NoticeLanguageCode, …)`): the general case below without the
  // left array, in the same order (the right side atomized first, then looked up or compared pairwise).
  if (l1)
    return boolFn((x) => {
      const a = l1(x);
      if (a === undefined) return false;
      const b = r(x);
      if (b.length === 0) return false;
      if (b.length < SET_THRESHOLD) {
        // Too short for a lookup: compared pairwise in order, without the list of atomized values
        // (atomizing never raises an error, so doing it pair by pair changes no outcome).
        const av = atomize(a);
        for (let i = 0; i < b.length; i++) if (compareGeneral(av, atomize(b[i]), op)) return true;
        return false;
      }
      const bb = right.atomized(b);
      const av = atomize(a);
      const lookupB = right.lookup;
      if (lookupB) {
        const hit = lookupB(av);
        if (hit !== undefined) return hit;
      }
      for (let i = 0; i < bb.length; i++) if (compareGeneral(av, bb[i], op)) return true;
      return false;
    });
  if (r1)
    return boolFn((x) => {
      const a = l(x);
      if (a.length === 0) return false;
      const b = r1(x);
      if (b === undefined) return false;
      const bv = atomize(b);
      // A large left side that comes again (a memoised path) is looked up, as below.
      if (a.length >= SET_THRESHOLD && (typeof bv === 'string' || bv instanceof Untyped)) {
        left.atomized(a);
        const lookupA = left.lookup;
        if (lookupA && left.strings) return lookupA(bv) === true;
      }
      for (let i = 0; i < a.length; i++) if (compareGeneral(atomize(a[i]), bv, op)) return true;
      return false;
    });
  return (x) => {
    const a = l(x);
    if (a.length === 0) return FALSE;
    const b = r(x);
    if (b.length === 0) return FALSE;
    if (a.length < SET_THRESHOLD && b.length < SET_THRESHOLD) {
      // Both short: the pairs in the same order as below, without lists of atomized values.
      for (let i = 0; i < a.length; i++) {
        const av = atomize(a[i]);
        for (let j = 0; j < b.length; j++) if (compareGeneral(av, atomize(b[j]), op)) return TRUE;
      }
      return FALSE;
    }
    const bb = right.atomized(b);
    const lookupB = right.lookup;
    if (lookupB) {
      for (const it of a) {
        const av = atomize(it);
        const hit = lookupB(av);
        if (hit === true) return TRUE;
        if (hit === undefined) for (const bv of bb) if (compareGeneral(av, bv, op)) return TRUE;
      }
      return FALSE;
    }
    // `../efac:LotTender/…/cbc:ID = efac:TenderLot/cbc:ID`: the large side on the left. Looked up from
    // the right only when both sides are strings and untypedAtomic, where no pair can raise an error and
    // the order of the pairs cannot matter.
    if (a.length >= SET_THRESHOLD) {
      left.atomized(a);
      const lookupA = left.lookup;
      if (lookupA && left.strings && allStringLike(bb)) {
        for (const bv of bb) if (lookupA(bv)) return TRUE;
        return FALSE;
      }
    }
    for (const it of a) {
      const av = atomize(it);
      for (const bv of bb) if (compareGeneral(av, bv, op)) return TRUE;
    }
    return FALSE;
  };
}

function allStringLike(vs: Atomic[]): boolean {
  for (const v of vs) if (typeof v !== 'string' && !(v instanceof Untyped)) return false;
  return true;
}

/**
 * One side of a general comparison that is often the same array on every call (a memoised path, a
 * global): its atomized values are kept while it stays the same array, and for `=` a Set over them is
 * built the second time it comes (a side that changes on every call never pays for the Set).
 */
/** Shared by every StableSide that holds no values (never mutated). */
const NO_ATOMS: Atomic[] = [];

class StableSide {
  #seen: Seq | undefined;
  #atomized: Atomic[] = NO_ATOMS;
  #tried = false;
  lookup: EqualityLookup | undefined;
  /** Whether the lookup is over strings and untypedAtomic only. */
  strings = false;
  readonly #held: () => void;
  constructor(
    private readonly equality: boolean,
    rt: Runtime,
  ) {
    this.#held = rt.perDocument(() => {
      this.#seen = undefined;
      this.#atomized = NO_ATOMS;
      this.lookup = undefined;
    });
  }

  atomized(s: Seq): Atomic[] {
    this.#held();
    if (s === this.#seen) {
      if (!this.#tried && this.equality) {
        this.#tried = true;
        const built = equalityLookup(this.#atomized);
        this.lookup = built?.fn;
        this.strings = built?.strings ?? false;
      }
      return this.#atomized;
    }
    const out = s.map(atomize);
    if (s.length >= SET_THRESHOLD) {
      this.#seen = s;
      this.#atomized = out;
      this.#tried = false;
      this.lookup = undefined;
    } else {
      this.#seen = undefined;
      this.lookup = undefined;
    }
    return out;
  }
}

/** Below this many values, comparing pairwise is as fast as keeping a Set. */
const SET_THRESHOLD = 8;

/** Whether `av = some value of the set` (true/false), or undefined when the pairwise rules must decide. */
type EqualityLookup = (av: Atomic) => boolean | undefined;

/**
 * A Set over the atomized right side of `=` that gives exactly the answer of the pairwise general
 * comparison (XPath 2.0 §3.5.2), or undefined when the values are of mixed kinds. All strings and
 * untypedAtomic: a string or untypedAtomic left value compares as a string (codepoints), so a lookup
 * decides; any other left value falls back to the pairwise loop (which raises its type error). All
 * numbers: a number, or an untypedAtomic cast to xs:double (FORG0001 when it is not one), is looked up;
 * NaN equals nothing.
 */
function equalityLookup(bb: Atomic[]): { fn: EqualityLookup; strings: boolean } | undefined {
  let strings = true;
  let numbers = true;
  for (const v of bb) {
    if (typeof v === 'number') strings = false;
    else if (typeof v === 'string' || v instanceof Untyped) numbers = false;
    else return undefined;
    if (!strings && !numbers) return undefined;
  }
  if (strings) {
    const set = new Set<string>();
    for (const v of bb) set.add(typeof v === 'string' ? v : (v as Untyped).s);
    return {
      strings: true,
      fn: (av) => (typeof av === 'string' ? set.has(av) : av instanceof Untyped ? set.has(av.s) : undefined),
    };
  }
  const set = new Set<number>(bb as number[]);
  return {
    strings: false,
    fn: (av) => {
      const n = typeof av === 'number' ? av : av instanceof Untyped ? castDouble(av.s) : undefined;
      if (n === undefined) return undefined;
      return !Number.isNaN(n) && set.has(n);
    },
  };
}

function compileValueCmp(ast: Extract<Ast, { t: 'cmp' }>, rt: Runtime, scope: Scope): Compiled {
  const l = oneOf(compile(ast.l, rt, scope), 'a value comparison');
  const r = oneOf(compile(ast.r, rt, scope), 'a value comparison');
  const op = ast.op;
  const prep = (it: Item | undefined): Atomic | undefined => {
    if (it === undefined) return undefined;
    const a = atomize(it);
    return a instanceof Untyped ? a.s : a;
  };
  return optionalFn((x) => {
    const a = prep(l(x));
    if (a === undefined) return undefined;
    const b = prep(r(x));
    if (b === undefined) return undefined;
    return compareValues(a, b, op);
  });
}

function compileCall(fn: string, argAsts: Ast[], rt: Runtime, scope: Scope): Compiled {
  // Functions of a path's existence or count: the argument is walked, never compiled as a sequence
  // unless it is not a walkable path (compiling it twice would double the cost of loading rules).
  if (argAsts.length === 1 && PATH_FUNCTIONS.has(fn)) {
    const arg = argAsts[0];
    if (fn === 'not' || fn === 'boolean') {
      const b = compileBoolean(arg, rt, scope);
      return fn === 'not' ? boolFn((x) => !b(x)) : boolFn(b);
    }
    if (fn === 'count') {
      const walk = compileDownwardCount(arg, rt, scope);
      if (walk) return oneFn((x) => walk(x, ALL));
    } else {
      // A path of node steps: whether it selects a node, found without building the list.
      const found = compileDownwardExists(arg, rt, scope);
      const want = fn === 'exists';
      if (found) return boolFn((x) => found(x) === want);
    }
  }
  const args = argAsts.map((a) => compile(a, rt, scope));
  const n = args.length;
  const arity = (min: number, max: number): void => {
    if (n < min || n > max) throw new XPathUnsupportedError(`${fn}() does not take ${n} arguments`);
  };
  const [a0, a1, a2] = args;
  const ctxString = (x: Ctx): string => stringOf(x.item);
  // Arguments read as strings, without the array of a one-item argument (stringOfArg).
  const [s0, s1, s2, s3] = args.map((a) => stringOfArg(a, fn));
  switch (fn) {
    case 'count':
      arity(1, 1);
      return oneFn((x) => a0(x).length);
    case 'not':
    case 'boolean':
      // One argument is answered above.
      arity(1, 1);
      break;
    case 'true':
      arity(0, 0);
      return boolFn(() => true);
    case 'false':
      arity(0, 0);
      return boolFn(() => false);
    case 'exists':
    case 'empty': {
      arity(1, 1);
      const want = fn === 'exists';
      return boolFn((x) => a0(x).length > 0 === want);
    }
    case 'position':
      arity(0, 0);
      return oneFn((x) => x.pos);
    case 'last':
      arity(0, 0);
      return oneFn((x) => x.size);
    case 'string':
      arity(0, 1);
      return n === 0 ? oneFn(ctxString) : oneFn(s0);
    case 'normalize-space':
      arity(0, 1);
      return n === 0 ? oneFn((x) => normalizeSpace(ctxString(x))) : oneFn((x) => normalizeSpace(s0(x)));
    case 'string-length':
      arity(0, 1);
      return oneFn((x) => codepoints(n === 0 ? ctxString(x) : s0(x)));
    case 'concat': {
      if (n < 2) throw new XPathUnsupportedError('concat() takes at least two arguments');
      const parts = args.map((a) => stringOfArg(a, fn));
      return oneFn((x) => {
        let s = '';
        for (let i = 0; i < parts.length; i++) s += parts[i](x);
        return s;
      });
    }
    case 'starts-with':
    case 'ends-with':
    case 'contains':
      arity(2, 2);
      return boolFn((x) => {
        const s = s0(x);
        const t = s1(x);
        return fn === 'starts-with' ? s.startsWith(t) : fn === 'ends-with' ? s.endsWith(t) : s.includes(t);
      });
    case 'matches': {
      arity(2, 3);
      const re = literalRegex(argAsts[1], argAsts[2]);
      if (re) {
        // A rule tests the values of many nodes, and they repeat (codes, dates, identifiers): the
        // answers for the last few hundred distinct values are kept (the regex engine is linear but
        // not cheap). Cleared when full, and with each closure.
        let seen = new Map<string, boolean>();
        return boolFn((x) => {
          const s = s0(x);
          const hit = seen.get(s);
          if (hit !== undefined) return hit;
          let ok: boolean;
          try {
            ok = re().test(s);
          } catch (e) {
            throw regexError(e);
          }
          if (seen.size >= 512) seen = new Map();
          seen.set(s, ok);
          return ok;
        });
      }
      return boolFn((x) => {
        const s = s0(x);
        const flags = n > 2 ? s2(x) : '';
        return regex(() => compileXsdRegex(s1(x), flags).test(s));
      });
    }
    case 'replace': {
      arity(3, 4);
      const re = literalRegex(argAsts[1], argAsts[3]);
      // With a literal replacement too, the result depends on the input alone: the last few hundred
      // distinct inputs are kept, as for matches().
      const fixed = re !== undefined && argAsts[2]?.t === 'str' ? argAsts[2].v : undefined;
      let seen = new Map<string, string>();
      return oneFn((x) => {
        const s = s0(x);
        if (re) {
          if (fixed !== undefined) {
            const hit = seen.get(s);
            if (hit !== undefined) return hit;
          }
          const repl = fixed ?? s2(x);
          let out: string;
          try {
            out = re().replace(s, repl);
          } catch (e) {
            throw regexError(e);
          }
          if (fixed !== undefined) {
            if (seen.size >= 512) seen = new Map();
            seen.set(s, out);
          }
          return out;
        }
        const pattern = s1(x);
        const repl = s2(x);
        const flags = n > 3 ? s3(x) : '';
        return regex(() => compileXsdRegex(pattern, flags).replace(s, repl));
      });
    }
    case 'tokenize': {
      arity(2, 3);
      const re = literalRegex(argAsts[1], argAsts[2]);
      return (x) => {
        const s = stringArg(a0(x), fn);
        if (re) return regex(() => re().tokenize(s));
        const pattern = stringArg(a1(x), fn);
        const flags = n > 2 ? stringArg(a2(x), fn) : '';
        return regex(() => compileXsdRegex(pattern, flags).tokenize(s));
      };
    }
    case 'sum':
      arity(1, 2);
      return (x) => {
        const items = a0(x);
        if (items.length === 0) return n > 1 ? a1(x) : [0];
        let acc: Atomic | undefined;
        for (const it of items) {
          let v = atomize(it);
          if (v instanceof Untyped) v = toDouble(v.s);
          acc = acc === undefined ? v : arithmetic('+', acc, v);
        }
        return acc === undefined ? EMPTY : [acc];
      };
    case 'number': {
      arity(0, 1);
      if (n === 0) return oneFn((x) => numberOf(x.item));
      const item = oneOf(a0, fn);
      return oneFn((x) => numberOf(item(x)));
    }
    case 'current-date':
      arity(0, 0);
      return () => [rt.today];
    case 'namespace-uri':
    case 'local-name':
    case 'name':
      // SVRL locations test names this way (`*:X[namespace-uri()='…']`); see nodeName.
      arity(0, 1);
      return (x) => {
        const node = n === 0 ? contextNode(x) : one(a0(x), fn);
        if (node === undefined) return [''];
        if (!(node instanceof XNode)) throw new XPathDynamicError('XPTY0004', `${fn}() needs a node`);
        return [fn === 'namespace-uri' ? node.ns : fn === 'local-name' ? node.local : nodeName(node)];
      };
    case 'xs:date':
      arity(1, 1);
      return (x) => castTo(a0(x), 'date', fn);
    case 'xs:time':
      arity(1, 1);
      return (x) => castTo(a0(x), 'time', fn);
    case 'xs:dayTimeDuration':
      arity(1, 1);
      return (x) => castTo(a0(x), 'dayTime', fn);
    case 'xs:yearMonthDuration':
      arity(1, 1);
      return (x) => castTo(a0(x), 'yearMonth', fn);
    case 'xs:dateTime':
      arity(1, 1);
      return (x) => castTo(a0(x), 'dateTime', fn);
    case 'current-dateTime':
      arity(0, 0);
      return () => [rt.now];
    case 'current-time':
      arity(0, 0);
      return () => castTo([rt.now], 'time', fn);
  }
  const more = compileLibraryCall(fn, args);
  if (more) return more;
  throw new XPathUnsupportedError(`function ${fn}() is not supported`);
}

/**
 * A pattern (and flags) written as literals: the compiled regex, looked up on the first call and kept,
 * so that a rule run on N nodes does not build the cache key N times. Compiled on first use, not here,
 * so that an invalid pattern still raises its error when the call runs (as the XPath rules ask).
 */
/** The length of a string in characters (code points), as XPath counts it. */
function codepoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

function literalRegex(pattern: Ast | undefined, flags: Ast | undefined): (() => XsdRegex) | undefined {
  if (pattern?.t !== 'str' || (flags !== undefined && flags.t !== 'str')) return undefined;
  const p = pattern.v;
  const f = flags?.t === 'str' ? flags.v : '';
  let re: XsdRegex | undefined;
  return () => {
    re ??= compileXsdRegex(p, f);
    return re;
  };
}

// ---- the rest of the XPath 2.0 function library (F&O 2.0), over the engine's values ----
// Numbers are xs:double throughout (the engine has no xs:decimal or xs:integer), so results that F&O
// types as integer or decimal carry the same value as a double.

/** Atomizes a sequence (F&O §2.4 fn:data). */
function atomics(s: Seq): Atomic[] {
  return s.map(atomize);
}

/** A numeric argument by the function conversion rules: untypedAtomic -> double; empty -> undefined. */
function numericArg(s: Seq, fn: string): number | undefined {
  const it = one(s, `${fn}()`);
  if (it === undefined) return undefined;
  const a = atomize(it);
  if (typeof a === 'number') return a;
  if (a instanceof Untyped) {
    const d = toDouble(a.s);
    if (Number.isNaN(d) && a.s.trim() !== 'NaN') throw notValid(a.s, 'xs:double');
    return d;
  }
  throw new XPathDynamicError('XPTY0004', `${fn}() expects a number, got ${typeName(a)}`);
}

function integerArg(s: Seq, fn: string): number {
  const v = numericArg(s, fn);
  if (v === undefined) throw new XPathDynamicError('XPTY0004', `${fn}() expects an integer, got ()`);
  return v;
}

function dateArg(s: Seq, fn: string, kind: 'date' | 'time' | 'dateTime'): XDate | undefined {
  const it = one(s, `${fn}()`);
  if (it === undefined) return undefined;
  const a = atomize(it);
  if (a instanceof XDate && a.kind === kind) return a;
  if (a instanceof Untyped)
    return kind === 'date' ? parseDate(a.s) : kind === 'time' ? parseTime(a.s) : parseDateTime(a.s);
  throw new XPathDynamicError('XPTY0004', `${fn}() expects an xs:${kind}, got ${typeName(a)}`);
}

function durationArg(s: Seq, fn: string): XDuration | undefined {
  const it = one(s, `${fn}()`);
  if (it === undefined) return undefined;
  const a = atomize(it);
  if (a instanceof XDuration) return a;
  throw new XPathDynamicError('XPTY0004', `${fn}() expects a duration, got ${typeName(a)}`);
}

/** Values for fn:min/max/avg/sum: untypedAtomic cast to double (F&O §15.4). */
function aggregateValues(s: Seq, fn: string): Atomic[] {
  const out = atomics(s).map((a) => (a instanceof Untyped ? toDouble(a.s) : a));
  if (out.length === 0) return out;
  const kind = (a: Atomic): string =>
    typeof a === 'number'
      ? 'number'
      : typeof a === 'string'
        ? 'string'
        : typeof a === 'boolean'
          ? 'boolean'
          : a instanceof XDate
            ? a.kind
            : a instanceof XDuration
              ? a.kind
              : 'other';
  const k = kind(out[0]);
  for (const a of out)
    if (kind(a) !== k) throw new XPathDynamicError('FORG0006', `${fn}() over values of different types`);
  if ((fn === 'avg' && (k === 'string' || k === 'boolean' || k === 'date' || k === 'time')) || k === 'other')
    throw new XPathDynamicError('FORG0006', `${fn}() is not defined over ${typeName(out[0])}`);
  return out;
}

function minMax(s: Seq, fn: 'min' | 'max'): Seq {
  const vals = aggregateValues(s, fn);
  if (vals.length === 0) return [];
  if (vals.some((v) => typeof v === 'number' && Number.isNaN(v))) return [Number.NaN];
  let best = vals[0];
  for (const v of vals.slice(1)) if (compareValues(v, best, fn === 'min' ? '<' : '>')) best = v;
  return [best];
}

/** XPath substring() positions (F&O §7.4.3): characters are code points, positions rounded. */
function substringOf(s: string, start: number, length?: number): string {
  const chars = [...s];
  const from = roundXPath(start);
  const to = length === undefined ? Number.POSITIVE_INFINITY : from + roundXPath(length);
  let out = '';
  for (let p = 1; p <= chars.length; p++) if (p >= from && p < to) out += chars[p - 1];
  return out;
}

function compileLibraryCall(fn: string, args: Compiled[]): Compiled | undefined {
  const n = args.length;
  const arity = (min: number, max: number): void => {
    if (n < min || n > max) throw new XPathUnsupportedError(`${fn}() does not take ${n} arguments`);
  };
  const [a0, a1, a2] = args;
  const str = (c: Compiled, x: Ctx): string => stringArg(c(x), `${fn}()`);
  switch (fn) {
    case 'format-number':
      arity(2, 3);
      // A named decimal format needs an xsl:decimal-format, which Schematron cannot declare.
      if (n === 3) throw new XPathUnsupportedError('format-number() with a named decimal format');
      return (x) => {
        const v = numericArg(a0(x), fn);
        return [formatNumber(v === undefined ? Number.NaN : v, str(a1, x))];
      };
    case 'distinct-values':
      arity(1, 2);
      if (n === 2) throw new XPathUnsupportedError('distinct-values() with a collation');
      return (x) => {
        const seen = new Set<string>();
        const out: Seq = [];
        for (const a of atomics(a0(x))) {
          const v = a instanceof Untyped ? a.s : a;
          const k = distinctKey(v);
          if (seen.has(k)) continue;
          seen.add(k);
          out.push(v);
        }
        return out;
      };
    case 'string-join':
      arity(2, 2);
      return (x) => [
        atomics(a0(x))
          .map((a) => stringOf(a))
          .join(str(a1, x)),
      ];
    case 'substring':
      arity(2, 3);
      return (x) => {
        const s = str(a0, x);
        const start = numericArg(a1(x), fn) ?? Number.NaN;
        return [substringOf(s, start, n > 2 ? (numericArg(a2(x), fn) ?? Number.NaN) : undefined)];
      };
    case 'substring-before':
    case 'substring-after':
      arity(2, 2);
      return (x) => {
        const s = str(a0, x);
        const t = str(a1, x);
        const i = s.indexOf(t);
        if (i < 0) return [''];
        return [fn === 'substring-before' ? s.slice(0, i) : s.slice(i + t.length)];
      };
    case 'upper-case':
      arity(1, 1);
      return (x) => [str(a0, x).toUpperCase()];
    case 'lower-case':
      arity(1, 1);
      return (x) => [str(a0, x).toLowerCase()];
    case 'translate':
      arity(3, 3);
      return (x) => {
        const from = [...str(a1, x)];
        const to = [...str(a2, x)];
        const map = new Map<string, string>();
        from.forEach((c, i) => {
          if (!map.has(c)) map.set(c, to[i] ?? '');
        });
        return [[...str(a0, x)].map((c) => map.get(c) ?? c).join('')];
      };
    case 'compare':
      arity(2, 3);
      if (n === 3) throw new XPathUnsupportedError('compare() with a collation');
      return (x) => {
        const p = one(a0(x), fn);
        const q = one(a1(x), fn);
        if (p === undefined || q === undefined) return [];
        const s = stringOf(p);
        const t = stringOf(q);
        return [s < t ? -1 : s > t ? 1 : 0];
      };
    case 'string-to-codepoints':
      arity(1, 1);
      return (x) => [...str(a0, x)].map((c) => c.codePointAt(0) as number);
    case 'codepoints-to-string':
      arity(1, 1);
      return (x) => [
        atomics(a0(x))
          .map((a) => {
            const cp = typeof a === 'number' ? a : a instanceof Untyped ? toDouble(a.s) : Number.NaN;
            const legal =
              Number.isInteger(cp) &&
              (cp === 0x9 ||
                cp === 0xa ||
                cp === 0xd ||
                (cp >= 0x20 && cp <= 0xd7ff) ||
                (cp >= 0xe000 && cp <= 0xfffd) ||
                (cp >= 0x10000 && cp <= 0x10ffff));
            if (!legal) throw new XPathDynamicError('FOCH0001', `${cp} is not a legal XML character`);
            return String.fromCodePoint(cp);
          })
          .join(''),
      ];
    case 'abs':
    case 'floor':
    case 'ceiling':
    case 'round':
      arity(1, 1);
      return (x) => {
        const v = numericArg(a0(x), fn);
        if (v === undefined) return [];
        return [
          fn === 'abs'
            ? Math.abs(v)
            : fn === 'floor'
              ? Math.floor(v)
              : fn === 'ceiling'
                ? Math.ceil(v)
                : roundXPath(v),
        ];
      };
    case 'round-half-to-even':
      arity(1, 2);
      return (x) => {
        const v = numericArg(a0(x), fn);
        if (v === undefined) return [];
        return [roundHalfToEven(v, n > 1 ? integerArg(a1(x), fn) : 0)];
      };
    case 'min':
    case 'max':
      arity(1, 2);
      if (n === 2) throw new XPathUnsupportedError(`${fn}() with a collation`);
      return (x) => minMax(a0(x), fn);
    case 'avg':
      arity(1, 1);
      return (x) => {
        const vals = aggregateValues(a0(x), fn);
        if (vals.length === 0) return [];
        let acc = vals[0];
        for (const v of vals.slice(1)) acc = arithmetic('+', acc, v);
        return [arithmetic('div', acc, vals.length)];
      };
    case 'index-of':
      arity(2, 3);
      if (n === 3) throw new XPathUnsupportedError('index-of() with a collation');
      return (x) => {
        const target = one(a1(x), fn);
        if (target === undefined) throw new XPathDynamicError('XPTY0004', 'index-of() needs a search value');
        const t = atomize(target);
        const tv = t instanceof Untyped ? t.s : t;
        const out: Seq = [];
        atomics(a0(x)).forEach((a, i) => {
          const v = a instanceof Untyped ? a.s : a;
          try {
            if (compareValues(v, tv, '=')) out.push(i + 1);
          } catch {
            // Values that cannot be compared are not equal (F&O §15.1.3).
          }
        });
        return out;
      };
    case 'reverse':
      arity(1, 1);
      return (x) => [...a0(x)].reverse();
    case 'subsequence':
      arity(2, 3);
      return (x) => {
        const items = a0(x);
        const start = roundXPath(numericArg(a1(x), fn) ?? Number.NaN);
        const end =
          n > 2 ? start + roundXPath(numericArg(a2(x), fn) ?? Number.NaN) : Number.POSITIVE_INFINITY;
        return items.filter((_, i) => i + 1 >= start && i + 1 < end);
      };
    case 'insert-before':
      arity(3, 3);
      return (x) => {
        const items = a0(x);
        const at = Math.min(Math.max(integerArg(a1(x), fn), 1), items.length + 1);
        return [...items.slice(0, at - 1), ...a2(x), ...items.slice(at - 1)];
      };
    case 'remove':
      arity(2, 2);
      return (x) => {
        const at = integerArg(a1(x), fn);
        return a0(x).filter((_, i) => i + 1 !== at);
      };
    case 'zero-or-one':
    case 'one-or-more':
    case 'exactly-one':
      arity(1, 1);
      return (x) => {
        const items = a0(x);
        const ok =
          fn === 'zero-or-one'
            ? items.length <= 1
            : fn === 'one-or-more'
              ? items.length >= 1
              : items.length === 1;
        if (!ok)
          throw new XPathDynamicError(
            fn === 'zero-or-one' ? 'FORG0003' : fn === 'one-or-more' ? 'FORG0004' : 'FORG0005',
            `${fn}() called with ${items.length} items`,
          );
        return items;
      };
    case 'data':
      arity(1, 1);
      return (x) => atomics(a0(x));
    case 'local-name':
    case 'namespace-uri':
      arity(0, 1);
      return (x) => {
        const it = n === 0 ? x.item : one(a0(x), fn);
        if (it === undefined) return [''];
        if (!(it instanceof XNode)) throw new XPathDynamicError('XPTY0004', `${fn}() expects a node`);
        return [fn === 'local-name' ? it.local : it.ns];
      };
    case 'year-from-date':
    case 'month-from-date':
    case 'day-from-date':
      arity(1, 1);
      return (x) => {
        const d = dateArg(a0(x), fn, 'date');
        if (!d) return [];
        const p = dateParts(d);
        return [fn === 'year-from-date' ? p.year : fn === 'month-from-date' ? p.month : p.day];
      };
    case 'year-from-dateTime':
    case 'month-from-dateTime':
    case 'day-from-dateTime':
    case 'hours-from-dateTime':
    case 'minutes-from-dateTime':
    case 'seconds-from-dateTime':
      arity(1, 1);
      return (x) => {
        const d = dateArg(a0(x), fn, 'dateTime');
        if (!d) return [];
        const p = dateParts(d);
        const field = fn.slice(0, fn.indexOf('-'));
        return [
          field === 'year'
            ? p.year
            : field === 'month'
              ? p.month
              : field === 'day'
                ? p.day
                : field === 'hours'
                  ? p.hours
                  : field === 'minutes'
                    ? p.minutes
                    : p.seconds,
        ];
      };
    case 'dateTime':
      arity(2, 2);
      return (x) => {
        const d = dateArg(a0(x), fn, 'date');
        const t = dateArg(a1(x), fn, 'time');
        if (!d || !t) return [];
        if (d.tz !== undefined && t.tz !== undefined && d.tz !== t.tz)
          throw new XPathDynamicError('FORG0008', 'the date and the time have different time zones');
        const ds = dateToString(d).replace(/(Z|[+-]\d{2}:\d{2})$/, '');
        const ts = dateToString(t).replace(/(Z|[+-]\d{2}:\d{2})$/, '');
        const tz = /(Z|[+-]\d{2}:\d{2})$/.exec(dateToString(d.tz !== undefined ? d : t))?.[1] ?? '';
        return [parseDateTime(`${ds}T${ts}${tz}`)];
      };
    case 'hours-from-time':
    case 'minutes-from-time':
    case 'seconds-from-time':
      arity(1, 1);
      return (x) => {
        const d = dateArg(a0(x), fn, 'time');
        if (!d) return [];
        const p = dateParts(d);
        return [fn === 'hours-from-time' ? p.hours : fn === 'minutes-from-time' ? p.minutes : p.seconds];
      };
    case 'years-from-duration':
    case 'months-from-duration':
    case 'days-from-duration':
    case 'hours-from-duration':
    case 'minutes-from-duration':
    case 'seconds-from-duration':
      arity(1, 1);
      return (x) => {
        const d = durationArg(a0(x), fn);
        if (!d) return [];
        const p = durationParts(d);
        const field = fn.slice(0, fn.indexOf('-')) as keyof typeof p;
        return [p[field]];
      };
    case 'xs:string':
      arity(1, 1);
      return (x) => {
        const it = one(a0(x), fn);
        return it === undefined ? [] : [stringOf(it)];
      };
    case 'xs:double':
    case 'xs:decimal':
    case 'xs:integer':
      arity(1, 1);
      return (x) => {
        const it = one(a0(x), fn);
        if (it === undefined) return [];
        const a = atomize(it);
        let v: number;
        if (typeof a === 'number') v = a;
        else if (typeof a === 'boolean') v = a ? 1 : 0;
        else if (typeof a === 'string' || a instanceof Untyped) {
          const t = (typeof a === 'string' ? a : a.s).trim();
          const lexical =
            fn === 'xs:integer'
              ? /^[+-]?[0-9]+$/
              : fn === 'xs:decimal'
                ? /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/
                : /^(?:[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?INF|NaN)$/;
          if (!lexical.test(t)) throw notValid(t, fn);
          v = toDouble(t);
          if (t === 'NaN') v = Number.NaN;
        } else throw new XPathDynamicError('XPTY0004', `cannot cast ${typeName(a)} to ${fn}`);
        if (fn !== 'xs:double' && !Number.isFinite(v))
          throw new XPathDynamicError('FOCA0002', `${v} cannot be cast to ${fn}`);
        return [fn === 'xs:integer' ? Math.trunc(v) || 0 : v];
      };
    case 'xs:boolean':
      arity(1, 1);
      return (x) => {
        const it = one(a0(x), fn);
        if (it === undefined) return [];
        const a = atomize(it);
        if (typeof a === 'boolean') return [a];
        if (typeof a === 'number') return [!(a === 0 || Number.isNaN(a))];
        if (typeof a === 'string' || a instanceof Untyped) {
          const t = (typeof a === 'string' ? a : a.s).trim();
          if (t === 'true' || t === '1') return [true];
          if (t === 'false' || t === '0') return [false];
          throw notValid(t, 'xs:boolean');
        }
        throw new XPathDynamicError('XPTY0004', `cannot cast ${typeName(a)} to xs:boolean`);
      };
  }
  return undefined;
}
