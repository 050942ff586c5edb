// Static reach of XPath expressions: how many levels an expression evaluated at a context node may climb
// above it before reading. A test with reach k, evaluated at node c, reads only the subtree of the k-th
// ancestor of c; the incremental rule run (core/schematron/incremental.ts) keeps a result while that
// subtree is unchanged. Unbounded (Infinity): absolute paths, ancestor axes, unknown functions and
// variables, and current-dateTime()/current-time(), whose value changes between runs. Global variables
// are reported by name: the caller treats them as constants only after comparing their values in the two
// documents; a step from the nodes a global holds is unbounded, reading their values is not. This module must never under-estimate a reach: when unsure, it answers Infinity.
// Works on the parsed AST only; no evaluation, no I/O.

import { type Ast, subExpressions } from './parser';

/** Functions whose value depends only on their arguments and the context item (and `today`). */
const PURE = new Set(
  (
    'abs avg boolean ceiling codepoints-to-string compare concat contains count current-date data ' +
    'dateTime day-from-date day-from-dateTime days-from-duration distinct-values empty ends-with ' +
    'exactly-one exists false floor format-number hours-from-dateTime hours-from-duration ' +
    'hours-from-time index-of insert-before last local-name lower-case matches max min ' +
    'minutes-from-dateTime minutes-from-duration minutes-from-time month-from-date month-from-dateTime ' +
    'months-from-duration name namespace-uri normalize-space not number one-or-more position remove ' +
    'replace reverse round round-half-to-even seconds-from-dateTime seconds-from-duration ' +
    'seconds-from-time starts-with string string-join string-length string-to-codepoints subsequence ' +
    'substring substring-after substring-before sum tokenize translate true upper-case xs:boolean ' +
    'xs:date xs:dateTime xs:dayTimeDuration xs:decimal xs:double xs:integer xs:string xs:time ' +
    'xs:yearMonthDuration year-from-date year-from-dateTime years-from-duration zero-or-one'
  ).split(' '),
);

/** What a rule reads, relative to its context node. */
export interface Reach {
  /** Levels climbed above the context node; Infinity: anything in the document. */
  up: number;
  /** Global variables read: constants only while their values are equal in both documents. */
  globals: Set<string>;
  /** Paths from the root that read no local variable, by their AST's JSON: parameters, as globals. */
  params: Map<string, Ast>;
  /**
   * Paths from the rule's node that climb `up` levels first and read no local variable (`../../x/y`),
   * by their AST's JSON: their value depends only on the node they climb to, a parameter per such node.
   */
  climbing: Map<string, { ast: Ast; up: number }>;
}

/**
 * Levels are relative to the rule's context node (0; its parent -1, its children 1). `min`: the lowest
 * level any read touches; `lo`: the lowest level of the nodes in the value (+Infinity: no nodes).
 */
interface Level {
  min: number;
  lo: number;
}

const NONE: Level = { min: Number.POSITIVE_INFINITY, lo: Number.POSITIVE_INFINITY };
const ALL: Level = { min: Number.NEGATIVE_INFINITY, lo: Number.NEGATIVE_INFINITY };
/**
 * Levels from PARAM on are inside the nodes of a parameter (a global, or a path from the root that reads
 * no local variable): the caller compares its value in both documents, nodes by place and string value,
 * and keeps it only when the change is outside their elements; reading them and below is then safe,
 * climbing from them is not.
 */
const PARAM = 1e9;
const PARAMETER: Level = { min: Number.POSITIVE_INFINITY, lo: PARAM };

class Walker {
  readonly globals = new Set<string>();
  readonly params = new Map<string, Ast>();
  readonly climbing = new Map<string, { ast: Ast; up: number }>();
  /** Inside a step or a predicate: the context item is no longer the rule's node. */
  #nested = 0;
  constructor(
    private readonly isGlobal: (name: string) => boolean,
    /** Variables bound by the rule (its lets) and by for/some/every, with the levels of their nodes. */
    readonly vars: Map<string, Level>,
  ) {}

  /** `at`: the level of the context item the expression is evaluated at. */
  level(e: Ast, at: number): Level {
    switch (e.t) {
      case 'str':
      case 'num':
      case 'strs':
        return NONE;
      case 'ctx':
        return { min: at, lo: at };
      case 'root':
        return ALL;
      case 'var': {
        const v = this.vars.get(e.name);
        if (v) return v;
        if (this.isGlobal(e.name)) {
          // Its value is compared by the caller; nodes it holds may be anywhere, so any step from
          // them (or any use of them as a context) is unbounded.
          this.globals.add(e.name);
          return PARAMETER;
        }
        return ALL;
      }
      case 'seq':
        return this.all(e.items, at);
      case 'call': {
        if (!PURE.has(e.fn)) return ALL;
        // Without arguments most of these read the context item: counted whatever the function.
        const r = this.all(e.args, at);
        return { min: Math.min(r.min, at), lo: r.lo };
      }
      case 'path': {
        if (e.steps[0]?.t === 'root' && this.free(e, new Set())) {
          this.params.set(JSON.stringify(e), e);
          return PARAMETER;
        }
        const plain = this.path(e, at);
        const up = climbOf(e);
        // Read from the rule's node and climbing no higher than its first steps: a parameter.
        if (this.#nested === 0 && at === 0 && up > 0 && plain.min >= -up && this.free(e, new Set())) {
          this.climbing.set(JSON.stringify(e), { ast: e, up });
          return PARAMETER;
        }
        return plain;
      }
      case 'step': {
        let lo: number;
        let min: number;
        const up = e.axis === 'parent' || e.axis === 'preceding-sibling' || e.axis === 'following-sibling';
        // Climbing out of a parameter's nodes reads what its comparison does not cover.
        if (up && at >= PARAM / 2) return ALL;
        switch (e.axis) {
          case 'child':
          case 'attribute':
          case 'descendant':
            lo = at + 1;
            min = at;
            break;
          case 'self':
          case 'descendant-or-self':
            lo = at;
            min = at;
            break;
          case 'parent':
            lo = at - 1;
            min = at - 1;
            break;
          case 'preceding-sibling':
          case 'following-sibling':
            // Siblings are read through the parent.
            lo = at;
            min = at - 1;
            break;
          default:
            return ALL;
        }
        for (const p of e.preds) min = Math.min(min, this.nested(p, lo).min);
        return { min, lo };
      }
      case 'filter': {
        const base = this.level(e.base, at);
        let min = base.min;
        for (const p of e.preds) min = Math.min(min, this.nested(p, base.lo).min);
        return { min, lo: base.lo };
      }
      case 'for': {
        const saved = e.bindings.map((b) => [b.name, this.vars.get(b.name)] as const);
        let min = at;
        for (const b of e.bindings) {
          const r = this.level(b.in, at);
          min = Math.min(min, r.min);
          this.vars.set(b.name, { min: r.lo, lo: r.lo });
        }
        const body = this.level(e.body, at);
        for (const [name, v] of saved.reverse()) {
          if (v) this.vars.set(name, v);
          else this.vars.delete(name);
        }
        return { min: Math.min(min, body.min), lo: e.kind === 'for' ? body.lo : NONE.lo };
      }
      case 'if': {
        const c = this.level(e.cond, at);
        const r = this.all([e.yes, e.no], at);
        return { min: Math.min(c.min, r.min), lo: r.lo };
      }
      case 'or':
      case 'and':
        return { min: this.all(e.args, at).min, lo: NONE.lo };
      case 'cmp':
      case 'node-cmp':
      case 'arith':
      case 'range':
        return { min: this.all([e.l, e.r], at).min, lo: NONE.lo };
      case 'neg':
        return { min: this.level(e.arg, at).min, lo: NONE.lo };
      case 'set':
        return this.all([e.l, e.r], at);
      default:
        return ALL;
    }
  }

  /** A path step by step: each after the first is evaluated at the nodes of the one before. */
  path(e: Extract<Ast, { t: 'path' }>, at: number): Level {
    let cur: Level = { min: at, lo: at };
    let min = at;
    for (const [i, s] of e.steps.entries()) {
      cur = i === 0 ? this.level(s, cur.lo) : this.nested(s, cur.lo);
      min = Math.min(min, cur.min);
      if (min === Number.NEGATIVE_INFINITY) return ALL;
    }
    return { min, lo: cur.lo };
  }

  /** An expression whose context item is another node than the rule's (a step, a predicate). */
  nested(e: Ast, at: number): Level {
    this.#nested++;
    try {
      return this.level(e, at);
    } finally {
      this.#nested--;
    }
  }

  all(items: Ast[], at: number): Level {
    let min = Number.POSITIVE_INFINITY;
    let lo = Number.POSITIVE_INFINITY;
    let param = false;
    for (const i of items) {
      const r = this.level(i, at);
      min = Math.min(min, r.min);
      lo = Math.min(lo, r.lo);
      if (r.lo >= PARAM / 2 && Number.isFinite(r.lo)) param = true;
    }
    // A parameter's nodes mixed with others: no level describes both.
    return { min, lo: param && lo < PARAM / 2 ? Number.NEGATIVE_INFINITY : lo };
  }

  /** Whether an expression reads no local variable (only globals and its own for-bindings). */
  free(e: Ast, bound: Set<string>): boolean {
    switch (e.t) {
      case 'var':
        return bound.has(e.name) || (!this.vars.has(e.name) && this.isGlobal(e.name));
      case 'for': {
        const inner = new Set(bound);
        for (const b of e.bindings) {
          if (!this.free(b.in, inner)) return false;
          inner.add(b.name);
        }
        return this.free(e.body, inner);
      }
      default:
        return subExpressions(e).every((c) => this.free(c, bound));
    }
  }
}

/** How many `..` steps (without predicates) a path starts with. */
function climbOf(e: Extract<Ast, { t: 'path' }>): number {
  let k = 0;
  for (const s of e.steps) {
    if (
      s.t !== 'step' ||
      s.axis !== 'parent' ||
      s.preds.length > 0 ||
      s.test.k !== 'kind' ||
      s.test.kind !== 'node'
    )
      break;
    k++;
  }
  return k;
}

/**
 * The reach of a rule evaluated at its context node: its lets (in order, each visible to the next and
 * to the tests) and its tests. `isGlobal` names the variables declared outside the rule.
 */
export function ruleReach(
  lets: readonly { name: string; ast: Ast }[],
  tests: readonly Ast[],
  isGlobal: (name: string) => boolean,
): Reach {
  const w = new Walker(isGlobal, new Map());
  let min = 0;
  for (const l of lets) {
    const r = w.level(l.ast, 0);
    min = Math.min(min, r.min);
    // A let's nodes are where its value put them; reading the let reads them.
    w.vars.set(l.name, { min: r.lo, lo: r.lo });
  }
  for (const t of tests) min = Math.min(min, w.level(t, 0).min);
  return {
    up: Number.isFinite(min) ? Math.max(0, -min) : Number.POSITIVE_INFINITY,
    globals: w.globals,
    params: w.params,
    climbing: w.climbing,
  };
}
