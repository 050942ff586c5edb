// Parses the XPath 2.0 the eForms SDK rules are written in into a small AST, JSON-serialisable so that
// the disk cache can keep it. The grammar is XPath 2.0's, restricted to what rules use (paths with the
// child, attribute, parent, self, descendant(-or-self), ancestor(-or-self) and sibling axes,
// predicates, literals, variables, function calls, for/some/every/if, arithmetic, comparisons, union).
// What is not recognised throws XPathSyntaxError; the caller sends such an expression to the fallback.
// Names are resolved against the schema's ns declarations here, so the AST carries namespace URIs.
// It also reads the SVRL location forms (`Q{uri}local`, `*:local`) and, for the SDK's field paths and SVRL
// locations, can mark unprefixed names (ParseOptions). Nesting is bounded (MAX_NESTING): a hostile
// expression is refused with XPathSyntaxError, never a stack overflow.
// No I/O, no evaluation.

export type Ast =
  | { t: 'str'; v: string }
  | { t: 'num'; v: number; int: boolean }
  | { t: 'var'; name: string }
  | { t: 'ctx' }
  | { t: 'root' }
  | { t: 'seq'; items: Ast[] }
  /** A parenthesized list of string literals (code lists: thousands of codes), kept compact. */
  | { t: 'strs'; v: string[] }
  | { t: 'call'; fn: string; args: Ast[] }
  | { t: 'path'; steps: Ast[] } // steps[0] evaluated from the context, each next from each item
  /** `predText`: each predicate's source text, only with ParseOptions.keepPredicateText. */
  | { t: 'step'; axis: Axis; test: NodeTest; preds: Ast[]; predText?: string[] }
  | { t: 'filter'; base: Ast; preds: Ast[] }
  | { t: 'for'; kind: 'for' | 'some' | 'every'; bindings: { name: string; in: Ast }[]; body: Ast }
  | { t: 'if'; cond: Ast; yes: Ast; no: Ast }
  | { t: 'or' | 'and'; args: Ast[] }
  | { t: 'cmp'; op: GeneralOp; kind: 'general' | 'value'; l: Ast; r: Ast }
  | { t: 'node-cmp'; op: 'is' | '<<' | '>>'; l: Ast; r: Ast }
  | { t: 'arith'; op: '+' | '-' | '*' | 'div' | 'idiv' | 'mod'; l: Ast; r: Ast }
  | { t: 'neg'; arg: Ast }
  | { t: 'range'; l: Ast; r: Ast }
  | { t: 'set'; op: 'union' | 'intersect' | 'except'; l: Ast; r: Ast }
  /**
   * The nodes of `of`, an absolute path, that lie in the run's current window of the document
   * (Runtime.setWindow). Never parsed from text: the rule engine makes it to find a large notice's rule
   * contexts one stretch of lots at a time.
   */
  | { t: 'window'; of: Ast };

export type GeneralOp = '=' | '!=' | '<' | '<=' | '>' | '>=';
export type Axis =
  | 'child'
  | 'attribute'
  | 'parent'
  | 'self'
  | 'descendant'
  | 'descendant-or-self'
  | 'ancestor'
  | 'ancestor-or-self'
  | 'preceding-sibling'
  | 'following-sibling';

export type NodeTest =
  /**
   * `ns`/`local` undefined = any (`*`, `p:*`, `*:l`). `unprefixed` (only with ParseOptions.markUnprefixed):
   * the name had no prefix; the engine matches it in no namespace, SVRL locations fall back to any.
   */
  | { k: 'name'; ns?: string; local?: string; unprefixed?: true }
  | { k: 'kind'; kind: 'node' | 'text' | 'element' | 'attribute' | 'comment' | 'document-node' };

export class XPathSyntaxError extends Error {
  override name = 'XPathSyntaxError';
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

type Tok =
  | { k: 'name'; v: string; at: number } // QName or NCName, possibly `p:*` / `*:l`
  | { k: 'str'; v: string; at: number }
  | { k: 'num'; v: number; int: boolean; at: number }
  | { k: 'var'; v: string; at: number }
  | { k: 'op'; v: string; at: number }
  | { k: 'eof'; at: number };

// Character classes by code (a regex per character made reading thousands of SVRL locations slow).
const NAME_START = {
  test: (c: string | undefined): boolean => c !== undefined && isNameStart(c.charCodeAt(0)),
};

function isNameStart(k: number): boolean {
  return (k >= 97 && k <= 122) || (k >= 65 && k <= 90) || k === 95 || (k >= 0xc0 && k <= 0xffff);
}

function isNameChar(k: number): boolean {
  return isNameStart(k) || (k >= 48 && k <= 57) || k === 45 || k === 46 || k === 0xb7;
}
const TWO_CHAR_OPS = new Set(['!=', '<=', '>=', '<<', '>>', '//', '::', '..']);

function tokenize(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  const n = src.length;
  const readNcName = (): string => {
    const s = i;
    i++;
    while (i < n && isNameChar(src.charCodeAt(i))) i++;
    return src.slice(s, i);
  };
  while (i < n) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const at = i;
    if (c === '(' && src[i + 1] === ':') {
      // XPath comment, possibly nested.
      let depth = 0;
      while (i < n) {
        if (src[i] === '(' && src[i + 1] === ':') {
          depth++;
          i += 2;
        } else if (src[i] === ':' && src[i + 1] === ')') {
          depth--;
          i += 2;
          if (depth === 0) break;
        } else i++;
      }
      if (depth !== 0) throw new XPathSyntaxError('unterminated comment', at);
      continue;
    }
    if (c === '"' || c === "'") {
      let v = '';
      i++;
      for (;;) {
        const e = src.indexOf(c, i);
        if (e < 0) throw new XPathSyntaxError('unterminated string literal', at);
        v += src.slice(i, e);
        if (src[e + 1] === c) {
          v += c;
          i = e + 2;
        } else {
          i = e + 1;
          break;
        }
      }
      toks.push({ k: 'str', v, at });
      continue;
    }
    if ((c >= '0' && c <= '9') || (c === '.' && src[i + 1] >= '0' && src[i + 1] <= '9')) {
      let e = i;
      while (e < n && src.charCodeAt(e) >= 48 && src.charCodeAt(e) <= 57) e++;
      const plain = src[e] !== '.' && src[e] !== 'e' && src[e] !== 'E';
      const m = plain
        ? null
        : /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/.exec(src.slice(i, i + 64));
      const text = plain ? src.slice(i, e) : m ? m[0] : c;
      i += text.length;
      toks.push({ k: 'num', v: Number(text), int: /^[0-9]+$/.test(text), at });
      continue;
    }
    if (c === '$') {
      i++;
      while (i < n && /\s/.test(src[i])) i++;
      if (i >= n || !NAME_START.test(src[i])) throw new XPathSyntaxError('expected a variable name', at);
      let name = readNcName();
      if (src[i] === ':' && NAME_START.test(src[i + 1] ?? '')) {
        i++;
        name += `:${readNcName()}`;
      }
      toks.push({ k: 'var', v: name, at });
      continue;
    }
    if (c === 'Q' && src[i + 1] === '{') {
      // A URI-qualified name (XPath 3.0 `Q{uri}local`), as some SVRL writers give locations.
      const close = src.indexOf('}', i + 2);
      if (close < 0) throw new XPathSyntaxError('unterminated Q{', at);
      i = close + 1;
      let local = '*';
      if (src[i] === '*') i++;
      else if (i < n && NAME_START.test(src[i])) local = readNcName();
      else throw new XPathSyntaxError('expected a local name after Q{…}', at);
      toks.push({ k: 'name', v: `${src.slice(at, close + 1)}${local}`, at });
      continue;
    }
    if (isNameStart(src.charCodeAt(i))) {
      readNcName();
      if (src[i] === ':' && src[i + 1] !== ':') {
        if (src[i + 1] === '*') i += 2;
        else if (isNameStart(src.charCodeAt(i + 1))) {
          i++;
          readNcName();
        }
      }
      // One slice of the source, not a concatenation: names are looked up in maps later.
      toks.push({ k: 'name', v: src.slice(at, i), at });
      continue;
    }
    if (c === '*' && src[i + 1] === ':' && NAME_START.test(src[i + 2] ?? '')) {
      i += 2;
      toks.push({ k: 'name', v: `*:${readNcName()}`, at });
      continue;
    }
    const next = src[i + 1];
    if (next !== undefined && TWO_CHAR_OPS.has(c + next)) {
      toks.push({ k: 'op', v: c + next, at });
      i += 2;
      continue;
    }
    if ('()[],/@=<>+-*|.'.includes(c)) {
      toks.push({ k: 'op', v: c, at });
      i++;
      continue;
    }
    throw new XPathSyntaxError(`unexpected character '${c}'`, at);
  }
  toks.push({ k: 'eof', at: n });
  return toks;
}

/** The axes the parser accepts (the prepared-phase cache is checked against the same set). */
export const AXES: ReadonlySet<string> = new Set<string>([
  'child',
  'attribute',
  'parent',
  'self',
  'descendant',
  'descendant-or-self',
  'ancestor',
  'ancestor-or-self',
  'preceding-sibling',
  'following-sibling',
]);
/** The kind tests the parser accepts. */
export const KIND_TESTS: ReadonlySet<string> = new Set([
  'node',
  'text',
  'element',
  'attribute',
  'comment',
  'document-node',
]);
const RESERVED_CALLS = new Set([
  'if',
  'typeswitch',
  'item',
  'empty-sequence',
  'schema-element',
  'schema-attribute',
]);
const VALUE_OPS: Record<string, GeneralOp> = { eq: '=', ne: '!=', lt: '<', le: '<=', gt: '>', ge: '>=' };
const FN_NS = 'http://www.w3.org/2005/xpath-functions';
/** The `xml` prefix is bound by definition (Namespaces in XML §3), declared or not. */
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
/**
 * How deep expressions may nest (parentheses, predicates, arguments). The SDK's rules nest far less; past
 * this the expression is refused, so that the recursive descent below never exhausts the stack.
 */
export const MAX_NESTING = 64;

export interface ParseOptions {
  /** Mark unprefixed name tests (`unprefixed: true`): SVRL locations and SDK field paths read them leniently. */
  markUnprefixed?: boolean;
  /** Keep each step predicate's source text (`predText`): the SDK's field paths show it in completion. */
  keepPredicateText?: boolean;
}
const XS_NS = 'http://www.w3.org/2001/XMLSchema';

/** Parses one expression. `namespaces` maps the prefixes the schema declares to URIs. */
// The parser's state, at module level: the functions below are made once, not once per parse (thousands
// of SVRL locations are parsed per report, and a closure set per parse was most of the garbage).
// parseXPath is not reentrant, and calls nothing that could parse again while it runs.
let src = '';
let namespaces: ReadonlyMap<string, string> = new Map();
let options: ParseOptions = {};
let toks: Tok[] = [];
let p = 0;
let depth = 0;

export function parseXPath(
  text: string,
  prefixes: ReadonlyMap<string, string>,
  parseOptions: ParseOptions = {},
): Ast {
  src = text;
  namespaces = prefixes;
  options = parseOptions;
  toks = tokenize(text);
  p = 0;
  depth = 0;
  lastPredText = [];
  try {
    const ast = expr();
    if (peek().k !== 'eof') fail('unexpected text after the expression');
    return ast;
  } finally {
    // Nothing of the last text is kept alive by the module.
    src = '';
    toks = [];
  }
}

const peek = (o = 0): Tok => toks[Math.min(p + o, toks.length - 1)];
const isOp = (v: string, o = 0): boolean => {
  const t = peek(o);
  return t.k === 'op' && t.v === v;
};
const isName = (v: string, o = 0): boolean => {
  const t = peek(o);
  return t.k === 'name' && t.v === v;
};
const fail = (what: string): never => {
  const t = peek();
  throw new XPathSyntaxError(`${what} at offset ${t.at}`, t.at);
};
const expectOp = (v: string): void => {
  if (!isOp(v)) fail(`expected '${v}'`);
  p++;
};

const resolveFn = (qname: string): string => {
  const colon = qname.indexOf(':');
  if (colon < 0) return qname;
  const uri = namespaces.get(qname.slice(0, colon));
  if (uri === FN_NS) return qname.slice(colon + 1);
  if (uri === XS_NS) return `xs:${qname.slice(colon + 1)}`;
  if (uri === undefined) fail(`undeclared prefix '${qname.slice(0, colon)}'`);
  return `{${uri}}${qname.slice(colon + 1)}`;
};
const nameTest = (qname: string): NodeTest => {
  if (qname === '*') return { k: 'name' };
  if (qname.startsWith('Q{')) {
    const close = qname.indexOf('}');
    const local = qname.slice(close + 1);
    const ns = qname.slice(2, close);
    return local === '*' ? { k: 'name', ns } : { k: 'name', ns, local };
  }
  const colon = qname.indexOf(':');
  if (colon < 0)
    return options.markUnprefixed
      ? { k: 'name', ns: '', local: qname, unprefixed: true }
      : { k: 'name', ns: '', local: qname };
  const prefix = qname.slice(0, colon);
  const local = qname.slice(colon + 1);
  if (prefix === '*') return { k: 'name', local };
  const ns = namespaces.get(prefix) ?? (prefix === 'xml' ? XML_NS : undefined);
  if (ns === undefined) return fail(`undeclared prefix '${prefix}'`);
  return local === '*' ? { k: 'name', ns } : { k: 'name', ns, local };
};

function expr(): Ast {
  const first = exprSingle();
  if (!isOp(',')) return first;
  const items = [first];
  while (isOp(',')) {
    p++;
    items.push(exprSingle());
  }
  return { t: 'seq', items };
}

function exprSingle(): Ast {
  if (++depth > MAX_NESTING) fail('expression nested too deep');
  try {
    return exprSingleAt();
  } finally {
    depth--;
  }
}

function exprSingleAt(): Ast {
  const t = peek();
  if (t.k === 'name' && (t.v === 'for' || t.v === 'some' || t.v === 'every') && peek(1).k === 'var') {
    p++;
    const bindings: { name: string; in: Ast }[] = [];
    for (;;) {
      const v = peek();
      if (v.k !== 'var') fail('expected a variable');
      p++;
      if (!isName('in')) fail("expected 'in'");
      p++;
      bindings.push({ name: (v as { v: string }).v, in: exprSingle() });
      if (!isOp(',')) break;
      p++;
    }
    const keyword = t.v === 'for' ? 'return' : 'satisfies';
    if (!isName(keyword)) fail(`expected '${keyword}'`);
    p++;
    return { t: 'for', kind: t.v, bindings, body: exprSingle() };
  }
  if (t.k === 'name' && t.v === 'if' && isOp('(', 1)) {
    p += 2;
    const cond = expr();
    expectOp(')');
    if (!isName('then')) fail("expected 'then'");
    p++;
    const thenE = exprSingle();
    if (!isName('else')) fail("expected 'else'");
    p++;
    return { t: 'if', cond, yes: thenE, no: exprSingle() };
  }
  return orExpr();
}

function orExpr(): Ast {
  const first = andExpr();
  if (!isName('or')) return first;
  const args = [first];
  while (isName('or')) {
    p++;
    args.push(andExpr());
  }
  return { t: 'or', args };
}

function andExpr(): Ast {
  const first = comparison();
  if (!isName('and')) return first;
  const args = [first];
  while (isName('and')) {
    p++;
    args.push(comparison());
  }
  return { t: 'and', args };
}

function comparison(): Ast {
  const l = range();
  const t = peek();
  if (t.k === 'op' && ['=', '!=', '<', '<=', '>', '>='].includes(t.v)) {
    p++;
    return { t: 'cmp', op: t.v as GeneralOp, kind: 'general', l, r: range() };
  }
  if (t.k === 'name' && VALUE_OPS[t.v]) {
    p++;
    return { t: 'cmp', op: VALUE_OPS[t.v], kind: 'value', l, r: range() };
  }
  if ((t.k === 'op' && (t.v === '<<' || t.v === '>>')) || (t.k === 'name' && t.v === 'is')) {
    p++;
    return { t: 'node-cmp', op: t.v as 'is' | '<<' | '>>', l, r: range() };
  }
  return l;
}

function range(): Ast {
  const l = additive();
  if (!isName('to')) return l;
  p++;
  return { t: 'range', l, r: additive() };
}

function additive(): Ast {
  let l = multiplicative();
  while (isOp('+') || isOp('-')) {
    const op = (peek() as { v: '+' | '-' }).v;
    p++;
    l = { t: 'arith', op, l, r: multiplicative() };
  }
  return l;
}

function multiplicative(): Ast {
  let l = union();
  for (;;) {
    let op: '*' | 'div' | 'idiv' | 'mod' | undefined;
    if (isOp('*')) op = '*';
    else if (isName('div')) op = 'div';
    else if (isName('idiv')) op = 'idiv';
    else if (isName('mod')) op = 'mod';
    if (!op) return l;
    p++;
    l = { t: 'arith', op, l, r: union() };
  }
}

function union(): Ast {
  let l = intersect();
  while (isOp('|') || isName('union')) {
    p++;
    l = { t: 'set', op: 'union', l, r: intersect() };
  }
  return l;
}

function intersect(): Ast {
  let l = unary();
  while (isName('intersect') || isName('except')) {
    const op = (peek() as { v: 'intersect' | 'except' }).v;
    p++;
    l = { t: 'set', op, l, r: unary() };
  }
  if (isName('instance') || isName('treat') || isName('castable') || isName('cast')) {
    fail(`'${(peek() as { v: string }).v}' is not supported`);
  }
  return l;
}

function unary(): Ast {
  let neg = false;
  let signed = false;
  while (isOp('-') || isOp('+')) {
    if (isOp('-')) neg = !neg;
    signed = true;
    p++;
  }
  const v = pathExpr();
  if (!signed) return v;
  return neg ? { t: 'neg', arg: v } : { t: 'arith', op: '+', l: { t: 'num', v: 0, int: true }, r: v };
}

const DESC: Ast = { t: 'step', axis: 'descendant-or-self', test: { k: 'kind', kind: 'node' }, preds: [] };

function startsStep(): boolean {
  const t = peek();
  if (t.k === 'eof') return false;
  if (t.k === 'op') return ['@', '..', '.', '*', '('].includes(t.v);
  return t.k === 'name' || t.k === 'str' || t.k === 'num' || t.k === 'var';
}

function pathExpr(): Ast {
  if (isOp('/')) {
    p++;
    // A lone '/' is the root; '/' followed by a step starts an absolute path.
    const steps: Ast[] = [{ t: 'root' }];
    if (startsStepAfterSlash()) relativePath(steps);
    return steps.length === 1 ? steps[0] : { t: 'path', steps };
  }
  if (isOp('//')) {
    p++;
    const steps: Ast[] = [{ t: 'root' }, DESC];
    relativePath(steps);
    return { t: 'path', steps };
  }
  const steps: Ast[] = [];
  relativePath(steps);
  return steps.length === 1 ? steps[0] : { t: 'path', steps };
}

function startsStepAfterSlash(): boolean {
  const t = peek();
  if (t.k === 'name') {
    // `/ and …` cannot happen in the SDK, but a name followed by an operator context is still a step.
    return true;
  }
  return t.k === 'op' && ['@', '..', '.', '*'].includes(t.v);
}

function relativePath(steps: Ast[]): void {
  steps.push(stepExpr());
  for (;;) {
    if (isOp('/')) {
      p++;
      steps.push(stepExpr());
    } else if (isOp('//')) {
      p++;
      steps.push(DESC, stepExpr());
    } else return;
  }
}

let lastPredText: string[] = [];
function predicates(): Ast[] {
  // Most steps have none: no arrays made for them.
  if (!isOp('[')) return [];
  const preds: Ast[] = [];
  const texts: string[] = [];
  while (isOp('[')) {
    p++;
    const from = peek().at;
    preds.push(expr());
    if (options.keepPredicateText) texts.push(src.slice(from, peek().at));
    expectOp(']');
  }
  lastPredText = texts;
  return preds;
}

/** A step, with its predicates' source text when the caller asked for it. */
function withText(step: Extract<Ast, { t: 'step' }>): Ast {
  if (options.keepPredicateText && step.preds.length > 0) step.predText = lastPredText;
  return step;
}

function stepExpr(): Ast {
  if (!startsStep()) fail('expected a step');
  const t = peek();
  if (t.k === 'op' && t.v === '..') {
    p++;
    return withText({ t: 'step', axis: 'parent', test: { k: 'kind', kind: 'node' }, preds: predicates() });
  }
  if (t.k === 'op' && t.v === '@') {
    p++;
    return withText({ t: 'step', axis: 'attribute', test: nodeTest(), preds: predicates() });
  }
  if (t.k === 'op' && t.v === '*') {
    p++;
    return withText({ t: 'step', axis: 'child', test: { k: 'name' }, preds: predicates() });
  }
  if (t.k === 'name' && isOp('::', 1)) {
    if (!AXES.has(t.v)) fail(`axis '${t.v}' is not supported`);
    p += 2;
    const axis = t.v as Axis;
    return withText({ t: 'step', axis, test: nodeTest(), preds: predicates() });
  }
  if (t.k === 'name' && !isOp('(', 1)) {
    p++;
    return withText({ t: 'step', axis: 'child', test: nameTest(t.v), preds: predicates() });
  }
  if (t.k === 'name' && KIND_TESTS.has(t.v)) {
    return withText({ t: 'step', axis: 'child', test: nodeTest(), preds: predicates() });
  }
  const base = primary();
  const preds = predicates();
  return preds.length === 0 ? base : { t: 'filter', base, preds };
}

function nodeTest(): NodeTest {
  const t = peek();
  if (t.k === 'op' && t.v === '*') {
    p++;
    return { k: 'name' };
  }
  if (t.k !== 'name') return fail('expected a node test');
  if (KIND_TESTS.has(t.v) && isOp('(', 1)) {
    p += 2;
    if (!isOp(')')) fail(`arguments to ${t.v}() are not supported`);
    p++;
    return { k: 'kind', kind: t.v as 'node' };
  }
  p++;
  // Unprefixed names are in no namespace on every axis: XPath in Schematron has no default namespace.
  return nameTest(t.v);
}

function primary(): Ast {
  const t = peek();
  if (t.k === 'str') {
    p++;
    return { t: 'str', v: t.v };
  }
  if (t.k === 'num') {
    p++;
    return { t: 'num', v: t.v, int: t.int };
  }
  if (t.k === 'var') {
    p++;
    return { t: 'var', name: t.v };
  }
  if (t.k === 'op' && t.v === '.') {
    p++;
    return { t: 'ctx' };
  }
  if (t.k === 'op' && t.v === '(') {
    p++;
    if (isOp(')')) {
      p++;
      return { t: 'seq', items: [] };
    }
    const e = expr();
    expectOp(')');
    // Parentheses keep a sequence a sequence; a single expression needs no wrapper.
    if (e.t === 'seq' && e.items.length > 1 && e.items.every((x) => x.t === 'str')) {
      return { t: 'strs', v: e.items.map((x) => (x as { v: string }).v) };
    }
    return e;
  }
  if (t.k === 'name' && isOp('(', 1) && !RESERVED_CALLS.has(t.v)) {
    p += 2;
    const args: Ast[] = [];
    if (!isOp(')')) {
      args.push(exprSingle());
      while (isOp(',')) {
        p++;
        args.push(exprSingle());
      }
    }
    expectOp(')');
    return { t: 'call', fn: resolveFn(t.v), args };
  }
  return fail('expected an expression');
}

/** The expressions directly inside `e`, in source order (a code list and the leaves have none). */
export function subExpressions(e: Ast): Ast[] {
  switch (e.t) {
    case 'seq':
      return e.items;
    case 'call':
      return e.args;
    case 'path':
      return e.steps;
    case 'step':
      return e.preds;
    case 'filter':
      return [e.base, ...e.preds];
    case 'if':
      return [e.cond, e.yes, e.no];
    case 'or':
    case 'and':
      return e.args;
    case 'cmp':
    case 'node-cmp':
    case 'arith':
    case 'range':
    case 'set':
      return [e.l, e.r];
    case 'neg':
      return [e.arg];
    case 'window':
      return [e.of];
    case 'for':
      return [...e.bindings.map((b) => b.in), e.body];
    default:
      return [];
  }
}
