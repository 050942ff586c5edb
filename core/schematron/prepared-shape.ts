// The whole shape of a prepared phase read back from the disk cache: the schema's content (every
// pattern, rule, assert, let and diagnostic with the types rule-set.ts gives them) and every parsed
// expression tree, node by node, against the parser's Ast type. A cache file is untrusted input (a
// crash, another version, another tool or a person may have written it): one mismatch and the entry is
// rebuilt from the SDK. Iterative (no recursion as deep as the input) and bounded. No I/O here.

// The parser's own sets: a cached tree is valid only with an axis or kind test the parser can give.
import { AXES, KIND_TESTS } from '../xpath';
import type { RuleSetKey } from './rule-set';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
/** An array of strings. A loop, not `every` with a closure: it runs for every code list of every tree
 * a cold start reads from the cache. */
export function isStrArray(v: unknown): v is string[] {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false;
  return true;
}
const isArrayOf = (v: unknown, each: (x: unknown) => boolean): boolean => Array.isArray(v) && v.every(each);

const GENERAL_OPS = new Set(['=', '!=', '<', '<=', '>', '>=']);
const ARITH_OPS = new Set(['+', '-', '*', 'div', 'idiv', 'mod']);
const SET_OPS = new Set(['union', 'intersect', 'except']);
const NODE_OPS = new Set(['is', '<<', '>>']);

/** Most tree nodes checked in one entry: far above the SDK's largest phase. */
const MAX_NODES = 20_000_000;

function isLet(v: unknown): boolean {
  return isObj(v) && isStr(v.name) && isStr(v.value);
}

function isAssert(v: unknown): boolean {
  return (
    isObj(v) &&
    (v.kind === 'assert' || v.kind === 'report') &&
    isStr(v.id) &&
    isStr(v.role) &&
    isStr(v.test) &&
    isStr(v.text) &&
    isStrArray(v.diagnostics) &&
    (v.flag === undefined || isStr(v.flag))
  );
}

function isRule(v: unknown): boolean {
  return isObj(v) && isStr(v.context) && isArrayOf(v.lets, isLet) && isArrayOf(v.asserts, isAssert);
}

/** A Schematron pattern as the caches hold it (lets, rules, asserts: every field of its type). */
export function isPattern(v: unknown): boolean {
  return isObj(v) && isStr(v.id) && isArrayOf(v.lets, isLet) && isArrayOf(v.rules, isRule);
}

/** A Schematron diagnostic as the caches hold it. */
export function isDiagnostic(v: unknown): boolean {
  return isObj(v) && isStr(v.id) && isStr(v.see) && isStr(v.text);
}

function isSchema(v: unknown, phase: string): boolean {
  return (
    isObj(v) &&
    isStr(v.title) &&
    v.phase === phase &&
    isArrayOf(v.namespaces, (n) => Array.isArray(n) && n.length === 2 && isStr(n[0]) && isStr(n[1])) &&
    isArrayOf(v.lets, isLet) &&
    isArrayOf(v.patterns, isPattern) &&
    isArrayOf(v.diagnostics, isDiagnostic) &&
    isStrArray(v.phases)
  );
}

/** Pushes each item of `xs` on `todo`; false when `xs` is not an array. No closure, no spread: this
 * runs once per node of every tree a cold start reads from the cache. */
function pushAll(xs: unknown, todo: unknown[]): boolean {
  if (!Array.isArray(xs)) return false;
  for (let i = 0; i < xs.length; i++) todo.push(xs[i]);
  return true;
}

/** One node's own fields; its children are pushed on `todo`. False on any mismatch. */
function checkNode(n: unknown, todo: unknown[]): boolean {
  if (!isObj(n)) return false;
  switch (n.t) {
    case 'str':
      return typeof n.v === 'string';
    case 'num':
      return typeof n.v === 'number' && typeof n.int === 'boolean';
    case 'var':
      return typeof n.name === 'string';
    case 'ctx':
    case 'root':
      return true;
    case 'seq':
      return pushAll(n.items, todo);
    case 'strs':
      return isStrArray(n.v);
    case 'call':
      return typeof n.fn === 'string' && pushAll(n.args, todo);
    case 'path':
      return Array.isArray(n.steps) && n.steps.length > 0 && pushAll(n.steps, todo);
    case 'step': {
      const test = n.test;
      const testOk =
        isObj(test) &&
        ((test.k === 'name' &&
          (test.ns === undefined || typeof test.ns === 'string') &&
          (test.local === undefined || typeof test.local === 'string')) ||
          (test.k === 'kind' && typeof test.kind === 'string' && KIND_TESTS.has(test.kind)));
      return typeof n.axis === 'string' && AXES.has(n.axis) && testOk && pushAll(n.preds, todo);
    }
    case 'filter':
      if (!isObj(n.base) || !pushAll(n.preds, todo)) return false;
      todo.push(n.base);
      return true;
    case 'for': {
      const bindings = n.bindings;
      if (n.kind !== 'for' && n.kind !== 'some' && n.kind !== 'every') return false;
      if (!Array.isArray(bindings) || bindings.length === 0) return false;
      for (const b of bindings) {
        if (!isObj(b) || typeof b.name !== 'string') return false;
        todo.push(b.in);
      }
      todo.push(n.body);
      return true;
    }
    case 'if':
      todo.push(n.cond, n.yes, n.no);
      return true;
    case 'or':
    case 'and':
      return pushAll(n.args, todo);
    case 'cmp':
      if (typeof n.op !== 'string' || !GENERAL_OPS.has(n.op) || (n.kind !== 'general' && n.kind !== 'value'))
        return false;
      todo.push(n.l, n.r);
      return true;
    case 'node-cmp':
      if (typeof n.op !== 'string' || !NODE_OPS.has(n.op)) return false;
      todo.push(n.l, n.r);
      return true;
    case 'arith':
      if (typeof n.op !== 'string' || !ARITH_OPS.has(n.op)) return false;
      todo.push(n.l, n.r);
      return true;
    case 'neg':
      todo.push(n.arg);
      return true;
    case 'range':
      todo.push(n.l, n.r);
      return true;
    case 'set':
      if (typeof n.op !== 'string' || !SET_OPS.has(n.op)) return false;
      todo.push(n.l, n.r);
      return true;
    default:
      return false;
  }
}

/** True when `ast` is a whole expression tree of the parser's Ast type. */
export function isAst(ast: unknown, budget = { nodes: MAX_NODES }): boolean {
  const todo: unknown[] = [ast];
  while (todo.length > 0) {
    if (--budget.nodes < 0) return false;
    if (!checkNode(todo.pop(), todo)) return false;
  }
  return true;
}

/** One parsed entry as the caches keep it: an error text, or a whole tree. */
export function isParsed(p: unknown, budget = { nodes: MAX_NODES }): boolean {
  if (!isObj(p)) return false;
  if ('error' in p) return isStr(p.error) && !('ast' in p);
  return isAst(p.ast, budget);
}

/** The expressions a schema needs parsed, as `parseAll` keys them. */
function expressionKeys(schema: Obj): string[] {
  const out: string[] = [];
  const lets = (ls: unknown) => {
    for (const l of ls as { value: string }[]) out.push(l.value);
  };
  lets(schema.lets);
  for (const p of schema.patterns as { lets: unknown; rules: Obj[] }[]) {
    lets(p.lets);
    for (const r of p.rules) {
      out.push(`context:${r.context as string}`);
      lets(r.lets);
      for (const a of r.asserts as { test: string }[]) out.push(a.test);
    }
  }
  return out;
}

/**
 * True when `v` is a prepared phase for `key` in every detail: the schema's shape, its phase, a
 * parsed entry for every expression it holds, and each entry an error text or a whole tree.
 */
export function isPreparedPhase(v: unknown, key: Pick<RuleSetKey, 'phase'>): boolean {
  if (!isObj(v) || !isSchema(v.schema, key.phase) || !isObj(v.parsed)) return false;
  const parsed = v.parsed;
  const budget = { nodes: MAX_NODES };
  for (const k of expressionKeys(v.schema as Obj)) if (!Object.hasOwn(parsed, k)) return false;
  for (const p of Object.values(parsed)) if (!isParsed(p, budget)) return false;
  return true;
}
