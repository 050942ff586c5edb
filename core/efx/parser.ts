// A hand-written recursive-descent parser for EFX 1 (eForms SDK 1.x `efx-grammar/Efx.g4` with its lexer
// `EfxLexer.g4`): template files (`view-templates/*.efx`), single expressions (`{ND-x} ${…}`) and bare
// expressions. The grammar ships with each SDK and is read at run time by nobody: no code is generated
// from user data. Each function names the grammar rule it implements. Efx.g4 spells the expression
// grammar once per data type (booleanExpression, stringExpression, …); a parser cannot choose between
// them without types, so this one reads a single expression grammar with the same operators and
// precedences (or < and < conditions < additive < multiplicative < primary) and leaves types to the
// translator. It never throws anything but EfxSyntaxError, and every loop consumes a token.

import type {
  AttributeRef,
  ContextDeclaration,
  ContextSpecifier,
  EfxCastType,
  EfxFunctionName,
  Expr,
  FieldRef,
  Iterator,
  LabelBlock,
  LabelPart,
  NodeRef,
  SingleExpression,
  StringLiteral,
  TemplateFile,
  TemplateFragment,
  TemplateLine,
} from './ast';
import { EfxSyntaxError, lineColumn } from './errors';
import { lexExpression, type Tok, type TokKind } from './lexer';

/** Arity of each EFX 1 function (Efx.g4 booleanFunction … sequenceFunction): [min, max]. */
const ARITY: Record<EfxFunctionName, [number, number]> = {
  not: [1, 1],
  contains: [2, 2],
  'starts-with': [2, 2],
  'ends-with': [2, 2],
  'sequence-equal': [2, 2],
  count: [1, 1],
  number: [1, 1],
  sum: [1, 1],
  'string-length': [1, 1],
  substring: [2, 3],
  string: [1, 1],
  concat: [1, Number.POSITIVE_INFINITY],
  'format-number': [1, 2],
  date: [1, 1],
  'add-measure': [2, 2],
  'subtract-measure': [2, 2],
  time: [1, 1],
  'day-time-duration': [1, 1],
  'year-month-duration': [1, 1],
  'distinct-values': [1, 1],
  'value-union': [2, 2],
  'value-intersect': [2, 2],
  'value-except': [2, 2],
};

/** Functions of EFX 2 or XPath that EFX 1 does not have: named in the error instead of "unexpected". */
const NOT_EFX1 = new Set([
  'string-join',
  'lower-case',
  'upper-case',
  'normalize-space',
  'matches',
  'exists',
  'empty',
  'boolean',
  'format-date',
  'current-date',
]);

function describe(t: Tok): string {
  if (t.k === 'eof') return 'the end of the expression';
  if (t.k === '}') return "'}'";
  return `'${t.v}'`;
}

/** Parses the tokens of one expression block. `text` is the whole source, for error positions. */
const MAX_DEPTH = 200;
/** Operators and operands in one expression block: bounds the depth of a left-leaning operator chain. */
const MAX_NODES = 2000;

class ExpressionParser {
  p = 0;
  depth = 0;
  nodes = 0;
  constructor(
    readonly toks: Tok[],
    readonly text: string,
    readonly file: string | undefined,
  ) {}

  peek(o = 0): Tok {
    return this.toks[Math.min(this.p + o, this.toks.length - 1)];
  }
  is(k: TokKind, v?: string, o = 0): boolean {
    const t = this.peek(o);
    return t.k === k && (v === undefined || t.v === v);
  }
  next(): Tok {
    const t = this.peek();
    if (this.p < this.toks.length - 1) this.p++;
    return t;
  }
  fail(
    t: Tok,
    reason: string,
    code: 'unexpected-token' | 'unknown-function' | 'too-deep' = 'unexpected-token',
  ): never {
    const { line, column } = lineColumn(this.text, t.at);
    throw new EfxSyntaxError(code, reason, this.file, line, column, t.at);
  }
  expect(k: TokKind, what: string, v?: string): Tok {
    if (!this.is(k, v)) this.fail(this.peek(), `${what} expected, found ${describe(this.peek())}`);
    return this.next();
  }
  /** Counts one more node of the tree; refuses blocks too large to translate safely. */
  grow(): void {
    if (++this.nodes > MAX_NODES)
      this.fail(this.peek(), `an expression block holds more than ${MAX_NODES} terms`, 'too-deep');
  }

  keyword(v: string): boolean {
    if (this.is('keyword', v)) {
      this.p++;
      return true;
    }
    return false;
  }

  // expression: lateBoundExpression | numericExpression | ... | sequenceExpression
  expression(): Expr {
    return this.or();
  }

  // booleanExpression # logicalOrCondition
  or(): Expr {
    let left = this.and();
    while (this.is('keyword', 'or')) {
      const at = this.next().at;
      this.grow();
      left = { kind: 'logical', op: 'or', left, right: this.and(), at };
    }
    return left;
  }

  // booleanExpression # logicalAndCondition
  and(): Expr {
    let left = this.condition();
    while (this.is('keyword', 'and')) {
      const at = this.next().at;
      this.grow();
      left = { kind: 'logical', op: 'and', left, right: this.condition(), at };
    }
    return left;
  }

  // booleanExpression # …InListCondition, likePatternCondition, emptinessCondition, presenceCondition,
  // uniqueValueCondition, fieldValueComparison and the typed …Comparison alternatives.
  condition(): Expr {
    let left = this.additive();
    while (true) {
      const t = this.peek();
      const at = left.at;
      this.grow();
      if (t.k === 'comparison') {
        this.next();
        left = { kind: 'comparison', op: t.v as '==', left, right: this.additive(), at };
        continue;
      }
      const negated =
        t.k === 'function' && t.v === 'not' && (this.is('keyword', 'in', 1) || this.is('keyword', 'like', 1));
      if (negated) this.next();
      if (this.keyword('in')) {
        left = { kind: 'in', not: negated, value: left, list: this.additive(), at };
        continue;
      }
      if (this.keyword('like')) {
        const s = this.expect('string', 'a quoted pattern after like');
        left = { kind: 'like', not: negated, value: left, pattern: stringLiteral(s), at };
        continue;
      }
      if (this.keyword('is')) {
        const not = this.is('function', 'not');
        if (not) this.next();
        if (this.keyword('empty')) {
          left = { kind: 'empty', not, value: left, at };
        } else if (this.keyword('present')) {
          left = { kind: 'present', not, ref: this.pathFromReference(left, 'is present'), at };
        } else if (this.keyword('unique')) {
          const ref = this.pathFromReference(left, 'is unique in');
          this.expect('keyword', "'in' after 'is unique'", 'in');
          const start = this.peek();
          const within = this.primary();
          if (within.kind !== 'field' || !within.absolute)
            this.fail(start, 'an absolute field reference (/BT-…) expected after is unique in');
          left = { kind: 'unique', not, ref, within: within as FieldRef, at };
        } else {
          this.fail(
            this.peek(),
            `'empty', 'present' or 'unique' expected after 'is', found ${describe(this.peek())}`,
          );
        }
        continue;
      }
      return left;
    }
  }

  // pathFromReference: fieldReference | attributeReference
  pathFromReference(e: Expr, what: string): FieldRef | AttributeRef {
    if (e.kind === 'field' || e.kind === 'attribute') return e;
    const { line, column } = lineColumn(this.text, e.at);
    throw new EfxSyntaxError(
      'unexpected-token',
      `'${what}' applies to a field reference only`,
      this.file,
      line,
      column,
      e.at,
    );
  }

  // numericExpression # additionExpression (and durationAdditionExpression, dateSubtractionExpression…)
  additive(): Expr {
    let left = this.multiplicative();
    while (this.is('+') || this.is('-')) {
      const op = this.next().k as '+' | '-';
      this.grow();
      left = { kind: 'arithmetic', op, left, right: this.multiplicative(), at: left.at };
    }
    return left;
  }

  // numericExpression # multiplicationExpression (and duration…MultiplicationExpression)
  multiplicative(): Expr {
    let left = this.primary();
    while (this.is('*') || this.is('/') || this.is('%')) {
      const op = this.next().k as '*' | '/' | '%';
      this.grow();
      left = { kind: 'arithmetic', op, left, right: this.primary(), at: left.at };
    }
    return left;
  }

  // The non-recursive alternatives of every …Expression rule: literals, functions, casts,
  // references, conditionals, iterations and parenthesized forms.
  primary(): Expr {
    // Every nesting (parentheses, arguments, casts, if, for) comes back here: a bound on the depth
    // keeps hostile input from exhausting the stack.
    if (++this.depth > MAX_DEPTH)
      this.fail(this.peek(), `expressions nest deeper than ${MAX_DEPTH} levels`, 'too-deep');
    this.grow();
    try {
      return this.primaryUnbounded();
    } finally {
      this.depth--;
    }
  }

  primaryUnbounded(): Expr {
    const t = this.peek();
    switch (t.k) {
      case '(':
        return this.parenthesized();
      case 'string':
      case 'uuid':
        this.next();
        return stringLiteral(t);
      case 'integer':
      case 'decimal':
        this.next();
        return { kind: 'number', text: t.v, at: t.at };
      case 'boolean':
        this.next();
        return { kind: 'boolean', value: t.v === 'ALWAYS' || t.v === 'TRUE', at: t.at };
      case 'date':
        this.next();
        return { kind: 'date', text: t.v, at: t.at };
      case 'time':
        this.next();
        return { kind: 'time', text: t.v, at: t.at };
      case 'day-time-duration':
      case 'year-month-duration':
        this.next();
        return {
          kind: 'duration',
          text: t.v,
          family: t.k === 'day-time-duration' ? 'dayTime' : 'yearMonth',
          at: t.at,
        };
      case 'cast': {
        // …CastExpression: TypeCast lateBoundExpression; …TypeCastFieldReference: TypeCast? sequenceFromReference
        this.next();
        const type = t.v.slice(0, -1) as EfxCastType;
        if (type === 'context')
          this.fail(t, "'context:' declares an iterator variable: 'context:$x in ND-…'");
        return { kind: 'cast', type, expr: this.primary(), at: t.at };
      }
      case 'function':
        return this.call();
      case 'keyword':
        if (t.v === 'if') return this.conditional();
        if (t.v === 'for') return this.iteration();
        if (t.v === 'every' || t.v === 'some') return this.quantified();
        if (t.v === 'notice') return this.reference();
        break;
      case 'variable':
        if (this.is('::', undefined, 1)) return this.reference();
        this.next();
        return { kind: 'variable', name: t.v.slice(1), at: t.at };
      case 'field-id':
      case 'node-id':
      case 'axis':
      case '/':
        return this.reference();
      case 'identifier':
        if (NOT_EFX1.has(t.v) && this.is('(', undefined, 1))
          this.fail(t, `'${t.v}' is not a function of EFX 1`, 'unknown-function');
        if (this.is('(', undefined, 1)) this.fail(t, `unknown function '${t.v}'`, 'unknown-function');
        break;
      case 'bt-id':
        this.fail(
          t,
          `'${t.v}' is a business term, not a field: a field identifier such as '${t.v}-Lot' expected`,
        );
    }
    return this.fail(t, `an expression expected, found ${describe(t)}`);
  }

  // parenthesized…Expression, …List (stringList, numericList, …), parenthesized…FromIteration,
  // codelistReference: ( codelistId )
  parenthesized(): Expr {
    const open = this.next();
    if (this.is('identifier') && this.is(')', undefined, 1)) {
      const id = this.next().v;
      this.next();
      return { kind: 'codelist', id, at: open.at };
    }
    const first = this.expression();
    if (this.is(',')) {
      const items = [first];
      while (this.is(',')) {
        this.next();
        items.push(this.expression());
      }
      this.expect(')', "')' closing the list");
      return { kind: 'list', items, at: open.at };
    }
    this.expect(')', "')'");
    return { kind: 'paren', expr: first, at: open.at };
  }

  // conditional…Expression / untypedConditionalExpression: If booleanExpression Then … Else …
  conditional(): Expr {
    const at = this.next().at;
    const condition = this.expression();
    this.expect('keyword', "'then'", 'then');
    const whenTrue = this.expression();
    this.expect('keyword', "'else'", 'else');
    return { kind: 'if', condition, whenTrue, whenFalse: this.expression(), at };
  }

  // …SequenceFromIteration: For iteratorList Return …Expression
  iteration(): Expr {
    const at = this.next().at;
    const iterators = this.iteratorList();
    this.expect('keyword', "'return'", 'return');
    return { kind: 'for', iterators, result: this.expression(), at };
  }

  // quantifiedExpression: (Every | Some) iteratorList Satisfies booleanExpression
  quantified(): Expr {
    const q = this.next();
    const iterators = this.iteratorList();
    this.expect('keyword', "'satisfies'", 'satisfies');
    return {
      kind: 'quantified',
      quantifier: q.v as 'every',
      iterators,
      condition: this.expression(),
      at: q.at,
    };
  }

  // iteratorList: iteratorExpression (Comma iteratorExpression)*
  iteratorList(): Iterator[] {
    const list = [this.iterator()];
    while (this.is(',')) {
      this.next();
      list.push(this.iterator());
    }
    return list;
  }

  // iteratorExpression: …VariableDeclaration In …Sequence | contextVariableDeclaration In (fieldContext | nodeContext)
  iterator(): Iterator {
    const cast = this.expect('cast', "a typed variable such as 'text:$x'");
    const v = this.expect('variable', "a variable such as '$x'");
    this.expect('keyword', "'in'", 'in');
    const type = cast.v.slice(0, -1) as EfxCastType;
    let source: Expr;
    if (type === 'context') {
      const start = this.peek();
      source = this.segment(true);
      if (this.is('::')) this.fail(this.peek(), "a context iterator takes a field or node, without '::'");
      if (start.k === 'axis') this.fail(start, 'a context iterator takes a field or node without an axis');
    } else {
      source = this.additive();
    }
    return { type, variable: v.v.slice(1), source, at: cast.at };
  }

  // Function calls (booleanFunction, numericFunction, stringFunction, dateFunction, timeFunction,
  // durationFunction, sequenceFunction).
  call(): Expr {
    const t = this.next();
    const name = t.v as EfxFunctionName;
    this.expect('(', `'(' after ${name}`);
    const args: Expr[] = [];
    if (!this.is(')')) {
      args.push(this.expression());
      while (this.is(',')) {
        this.next();
        args.push(this.expression());
      }
    }
    this.expect(')', `')' closing ${name}(`);
    const [min, max] = ARITY[name];
    if (args.length < min || args.length > max) {
      const n =
        min === max ? `${min}` : max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} to ${max}`;
      this.fail(t, `${name}() takes ${n} argument${min === 1 && max === 1 ? '' : 's'}, not ${args.length}`);
    }
    return { kind: 'call', name, args, at: t.at };
  }

  // fieldReference: fieldReferenceInOtherNotice | absoluteFieldReference, with
  // fieldReferenceWithVariableContextOverride / …NodeContextOverride / …FieldContextOverride, then
  // attributeReference: fieldReference SlashAt Identifier.
  reference(): Expr {
    const start = this.peek();
    let notice: Expr | undefined;
    if (this.is('keyword', 'notice')) {
      // noticeReference: Notice OpenParenthesis stringExpression CloseParenthesis, then Slash
      this.next();
      this.expect('(', "'(' after notice");
      notice = this.expression();
      this.expect(')', "')' closing notice(");
      this.expect('/', "'/' after notice(…)");
    }
    const contexts: ContextSpecifier[] = [];
    if (this.is('variable')) {
      const v = this.next();
      this.expect('::', "'::' after a context variable");
      contexts.push({ kind: 'variable', name: v.v.slice(1), at: v.at });
    }
    let seg = this.segment(true);
    while (this.is('::')) {
      const sep = this.next();
      if (seg.kind === 'node') {
        if (contexts.some((c) => c.kind === 'node' || c.kind === 'field'))
          this.fail(sep, 'a node context must come before any field context');
        contexts.push({ kind: 'node', ref: seg });
      } else {
        if (contexts.some((c) => c.kind === 'field'))
          this.fail(sep, 'only one field context may precede a field');
        contexts.push({ kind: 'field', ref: seg });
      }
      seg = this.segment(true);
    }
    if (seg.kind === 'node') {
      const { line, column } = lineColumn(this.text, seg.at);
      throw new EfxSyntaxError(
        'unexpected-token',
        `the node '${seg.id}' can only be a context ('${seg.id}::BT-…', a context declaration or a context iterator), not a value`,
        this.file,
        line,
        column,
        seg.at,
      );
    }
    let ref: FieldRef = { ...seg, contexts, at: start.at };
    if (notice) ref = { ...ref, notice };
    if (this.is('/@')) {
      this.next();
      const name = this.expect('identifier', "an attribute name after '/@'");
      return { kind: 'attribute', field: ref, name: name.v, at: start.at } satisfies AttributeRef;
    }
    return ref;
  }

  // fieldContext / nodeContext / fieldReferenceWithPredicate / nodeReferenceWithPredicate:
  // Slash? (axis ColonColon)? (FieldId | NodeId) (OpenBracket predicate CloseBracket)?
  segment(allowNode: boolean): FieldRef | NodeRef {
    const start = this.peek();
    const absolute = this.is('/');
    if (absolute) this.next();
    let axis: string | undefined;
    if (this.is('axis')) {
      axis = this.next().v;
      this.expect('::', `'::' after the axis ${axis}`);
    }
    const id = this.peek();
    if (id.k === 'node-id' && allowNode && axis === undefined) {
      this.next();
      const predicate = this.predicate();
      const n: NodeRef = { kind: 'node', id: id.v, absolute, at: start.at };
      return predicate ? { ...n, predicate } : n;
    }
    if (id.k !== 'field-id') {
      if (id.k === 'bt-id') this.fail(id, `'${id.v}' is a business term, not a field identifier`);
      this.fail(
        id,
        `a field${allowNode && axis === undefined ? ' or node' : ''} identifier expected, found ${describe(id)}`,
      );
    }
    this.next();
    const predicate = this.predicate();
    const f: FieldRef = { kind: 'field', id: id.v, absolute, contexts: [], at: start.at };
    if (axis) f.axis = axis;
    if (predicate) f.predicate = predicate;
    return f;
  }

  // predicate: booleanExpression (between brackets)
  predicate(): Expr | undefined {
    if (!this.is('[')) return undefined;
    this.next();
    const e = this.expression();
    this.expect(']', "']' closing the predicate");
    return e;
  }

  end(what: TokKind, description: string): void {
    if (!this.is(what)) this.fail(this.peek(), `${description} expected, found ${describe(this.peek())}`);
  }
}

function stringLiteral(t: Tok): StringLiteral {
  if (t.k === 'uuid') return { kind: 'string', quote: '{', value: t.v.slice(1, -1), at: t.at };
  return { kind: 'string', quote: t.v[0] as "'", value: t.v.slice(1, -1), at: t.at };
}

/** Parses a bare EFX expression (what a `${…}` block holds, without the braces). */
export function parseEfxExpression(text: string, file?: string): Expr {
  const toks = lexExpression(text, 0, text.length, false, file);
  const p = new ExpressionParser(toks, text, file);
  const e = p.expression();
  p.end('eof', 'the end of the expression');
  return e;
}

/**
 * singleExpression: StartExpression (FieldId | NodeId) (Comma parameterList)? EndExpression
 * expressionBlock EOF, e.g. `{ND-Root, text:$p} ${$p == 'a'}`.
 */
export function parseEfxSingleExpression(text: string, file?: string): SingleExpression {
  let i = 0;
  while (i < text.length && /[ \t\r\n\f]/.test(text[i])) i++;
  const fail = (at: number, reason: string): never => {
    const { line, column } = lineColumn(text, at);
    throw new EfxSyntaxError('unexpected-token', reason, file, line, column, at);
  };
  if (text[i] !== '{') fail(i, "'{' opening the context of the expression expected");
  const head = lexExpression(text, i + 1, text.length, true, file);
  const hp = new ExpressionParser(head, text, file);
  const ctx = hp.next();
  if (ctx.k !== 'field-id' && ctx.k !== 'node-id')
    hp.fail(ctx, `a field or node identifier expected, found ${describe(ctx)}`);
  const parameters: { type: EfxCastType; name: string }[] = [];
  while (hp.is(',')) {
    // parameterList: parameterDeclaration (Comma parameterDeclaration)*
    hp.next();
    const cast = hp.expect('cast', "a parameter declaration such as 'text:$p'");
    const v = hp.expect('variable', "a parameter name such as '$p'");
    const type = cast.v.slice(0, -1) as EfxCastType;
    if (type === 'code' || type === 'context') hp.fail(cast, `a parameter cannot be of type '${type}'`);
    parameters.push({ type, name: v.v.slice(1) });
  }
  const close = hp.expect('}', "'}' closing the context");
  i = close.end;
  while (i < text.length && /[ \t\r\n\f]/.test(text[i])) i++;
  if (text[i] !== '$' || text[i + 1] !== '{') fail(i, "'${' opening the expression expected");
  const body = lexExpression(text, i + 2, text.length, true, file);
  const bp = new ExpressionParser(body, text, file);
  const expression = bp.expression();
  const end = bp.expect('}', "'}' closing the expression");
  let j = end.end;
  while (j < text.length && /[ \t\r\n\f]/.test(text[j])) j++;
  if (j < text.length) fail(j, 'nothing may follow the expression block');
  return {
    kind: 'single-expression',
    context: { kind: ctx.k === 'field-id' ? 'field' : 'node', id: ctx.v, at: ctx.at },
    parameters,
    expression,
    at: 0,
  };
}

// Templates ---------------------------------------------------------------------------------------

const ASSET_TYPES = new Set([
  'business-term',
  'field',
  'node',
  'group',
  'view',
  'notice',
  'codelist',
  'code',
  'indicator',
  'auxiliary',
  'rule',
  'expression',
  'interval',
  'pattern',
]);
const LABEL_TYPES = new Set(['name', 'when-true', 'when-false', 'description', 'hint', 'text', 'template']);
const LABEL_FIELD_ID = /(?:BT|OPP|OPT|OPA)-[0-9]+(?:\((?:BT-[0-9]+|[a-z])\))?(?:-[a-zA-Z_][a-zA-Z_0-9]*)+/y;
const LABEL_BT_ID = /(?:BT|OPP|OPT|OPA)-[0-9]+/y;
const OTHER_ASSET_ID = /[a-z]+(?:-[a-z0-9]*)*/y;
// FreeText: Char+ where Char is ~[\r\n\f\t #$}{]
const FREE_TEXT = /[^\r\n\f\t #$}{]+/y;

function len(re: RegExp, s: string, at: number, limit: number): number {
  re.lastIndex = at;
  const m = re.exec(s);
  return m ? Math.min(m[0].length, limit - at) : 0;
}

class TemplateParser {
  indentWith: 'tabs' | 'spaces' | undefined;
  indentUnit = 0;
  constructor(
    readonly text: string,
    readonly file: string | undefined,
  ) {}

  fail(
    at: number,
    reason: string,
    code:
      | 'unexpected-character'
      | 'unexpected-token'
      | 'unterminated'
      | 'indentation' = 'unexpected-character',
  ): never {
    const { line, column } = lineColumn(this.text, at);
    throw new EfxSyntaxError(code, reason, this.file, line, column, at);
  }

  // templateFile: (templateLine)* EOF
  parseFile(): TemplateFile {
    const text = this.text;
    const lines: TemplateLine[] = [];
    const roots: TemplateLine[] = [];
    const stack: TemplateLine[] = [];
    let lineNo = 1;
    let start = 0;
    while (start <= text.length) {
      let end = start;
      while (end < text.length && !/[\r\n\f]/.test(text[end])) end++;
      // Comment and EmptyLine of the DEFAULT mode are skipped.
      if (!/^[ \t]*(\/\/.*)?$/.test(text.slice(start, end))) {
        const line = this.templateLine(start, end, lineNo);
        // Indentation gives the structure (EfxTemplateTranslatorV1's rules: no skipped level, none at start).
        if (line.level > stack.length) {
          if (stack.length === 0)
            this.fail(start, 'the first line of a template must not be indented', 'indentation');
          this.fail(
            start,
            `this line is indented ${line.level - stack.length} levels deeper than the line above; one level at a time`,
            'indentation',
          );
        }
        stack.length = line.level;
        if (line.level === 0) roots.push(line);
        else stack[line.level - 1].children.push(line);
        stack.push(line);
        lines.push(line);
      }
      if (end >= text.length) break;
      start = text[end] === '\r' && text[end + 1] === '\n' ? end + 2 : end + 1;
      lineNo++;
    }
    return { file: this.file, lines, roots };
  }

  // templateLine: (Tabs | Spaces | MixedIndent)? OutlineNumber? contextDeclarationBlock template CRLF
  templateLine(start: number, end: number, lineNo: number): TemplateLine {
    const text = this.text;
    let i = start;
    while (i < end && (text[i] === ' ' || text[i] === '\t')) i++;
    const ws = text.slice(start, i);
    let indent: TemplateLine['indent'] = { kind: 'none', width: 0 };
    let level = 0;
    if (ws.length > 0) {
      if (ws.includes(' ') && ws.includes('\t'))
        this.fail(
          start,
          'tabs and spaces are mixed in this indentation; use one or the other',
          'indentation',
        );
      const kind = ws[0] === '\t' ? 'tabs' : 'spaces';
      if (this.indentWith !== undefined && this.indentWith !== kind)
        this.fail(
          start,
          `this line is indented with ${kind} but earlier lines with ${this.indentWith}; use one or the other`,
          'indentation',
        );
      if (this.indentWith === undefined) {
        this.indentWith = kind;
        this.indentUnit = kind === 'tabs' ? 1 : ws.length;
      }
      if (ws.length % this.indentUnit !== 0)
        this.fail(
          start,
          `the indentation is ${ws.length} spaces, not a multiple of ${this.indentUnit}`,
          'indentation',
        );
      indent = { kind, width: ws.length };
      level = ws.length / this.indentUnit;
    }
    // OutlineNumber: [0-9]+ [ \t]*
    let outlineNumber: number | undefined;
    const n = /[0-9]+/y;
    n.lastIndex = i;
    const m = n.exec(text);
    if (m && i + m[0].length <= end) {
      outlineNumber = Number(m[0]);
      i += m[0].length;
      while (i < end && (text[i] === ' ' || text[i] === '\t')) i++;
    }
    if (text[i] !== '{') {
      this.fail(
        i,
        `'{' opening the context of the line expected, found ${i < end ? `'${text[i]}'` : 'the end of the line'}`,
        'unexpected-token',
      );
    }
    const context = this.contextDeclaration(i + 1, end);
    i = context.end;
    // SKIP_WHITESPACE mode.
    while (i < end && (text[i] === ' ' || text[i] === '\t')) i++;
    const template = this.template(i, end);
    const line: TemplateLine = {
      line: lineNo,
      indent,
      level,
      context: context.decl,
      template,
      children: [],
      at: start,
    };
    if (outlineNumber !== undefined) line.outlineNumber = outlineNumber;
    return line;
  }

  // contextDeclarationBlock: StartExpression (fieldContext | nodeContext) EndExpression
  contextDeclaration(from: number, end: number): { decl: ContextDeclaration; end: number } {
    const toks = lexExpression(this.text, from, end, true, this.file);
    const p = new ExpressionParser(toks, this.text, this.file);
    const decl = p.segment(true);
    const close = p.peek();
    if (close.k === '::') p.fail(close, "a context declaration names one field or node, without '::'");
    p.end('}', "'}' closing the context declaration");
    return { decl, end: close.end };
  }

  // template: templateFragment; templateFragment: textBlock | labelBlock | expressionBlock, repeated.
  template(from: number, end: number): TemplateFragment[] {
    const text = this.text;
    const out: TemplateFragment[] = [];
    let pending = '';
    let pendingAt = from;
    const flushText = (): void => {
      if (pending.length > 0) out.push({ kind: 'text', text: pending, at: pendingAt });
      pending = '';
    };
    const addText = (s: string, at: number): void => {
      if (pending.length === 0) pendingAt = at;
      pending += s;
    };
    let i = from;
    while (i < end) {
      const c = text[i];
      // EndOfLineComment: Whitespace* '//' ~[\r\n\f]*; the longest match wins over Whitespace and
      // FreeText, and FreeText wins a tie (`a//b` and a `//…` that ends the line are text).
      if (c === ' ' || c === '\t') {
        let w = i;
        while (w < end && (text[w] === ' ' || text[w] === '\t')) w++;
        if (text[w] === '/' && text[w + 1] === '/' && w + 1 < end) break;
        addText(text.slice(i, w), i);
        i = w;
        continue;
      }
      const free = len(FREE_TEXT, text, i, end);
      if (c === '/' && text[i + 1] === '/' && i + 1 < end && end - i > free) break;
      if (free > 0) {
        addText(text.slice(i, i + free), i);
        i += free;
        continue;
      }
      if (c === '$' && text.startsWith('value', i + 1) && i + 6 <= end) {
        // ShorthandFieldValueReferenceFromContextField
        flushText();
        out.push({ kind: 'context-value', at: i });
        i += 6;
        continue;
      }
      if (c === '#' && text.startsWith('value', i + 1) && i + 6 <= end) {
        // ShorthandIndirectLabelReferenceFromContextField
        flushText();
        out.push({ kind: 'label', label: { form: 'context-value', at: i }, at: i });
        i += 6;
        continue;
      }
      if (c === '$' && text[i + 1] === '{') {
        // expressionBlock # standardExpressionBlock
        flushText();
        const block = this.expressionBlock(i, end);
        out.push({ kind: 'expression', expr: block.expr, at: i });
        i = block.end;
        continue;
      }
      if (c === '#' && text[i + 1] === '{') {
        flushText();
        const block = this.labelBlock(i, end);
        out.push({ kind: 'label', label: block.label, at: i });
        i = block.end;
        continue;
      }
      if (c === '$' || c === '#')
        this.fail(i, `'${c}' in a template starts '${c}{…}' or '${c}value'; write the text without it`);
      this.fail(i, `unexpected '${c}' in the template text`);
    }
    // Whitespace at the end of the template is not part of it.
    pending = pending.replace(/[ \t]+$/, '');
    flushText();
    return out;
  }

  // expressionBlock: StartExpression expression EndExpression
  expressionBlock(at: number, end: number): { expr: Expr; end: number } {
    const toks = lexExpression(this.text, at + 2, end, true, this.file);
    const p = new ExpressionParser(toks, this.text, this.file);
    const expr = p.expression();
    const close = p.peek();
    p.end('}', "'}' closing the expression block");
    return { expr, end: close.end };
  }

  // labelBlock: StartLabel (assetType Pipe labelType Pipe assetId | labelType Pipe BtId |
  //   labelType Pipe FieldId | FieldId | LabelType) EndLabel
  labelBlock(at: number, end: number): { label: LabelBlock; end: number } {
    const text = this.text;
    const parts: (LabelPart & { word?: 'asset-type' | 'label-type' | 'field-id' | 'bt-id' | 'other' })[] = [];
    let i = at + 2;
    while (true) {
      if (i >= end)
        this.fail(
          i,
          "the label block is not closed: '}' expected before the end of the line",
          'unterminated',
        );
      if (text[i] === '$' && text[i + 1] === '{') {
        const block = this.expressionBlock(i, end);
        parts.push({ kind: 'expression', expr: block.expr, at: i });
        i = block.end;
      } else {
        // LABEL mode words: the first longest of AssetType, LabelType, FieldId, BtId, OtherAssetId.
        const other = len(OTHER_ASSET_ID, text, i, end);
        const field = len(LABEL_FIELD_ID, text, i, end);
        const bt = len(LABEL_BT_ID, text, i, end);
        const best = Math.max(other, field, bt);
        if (best === 0) {
          const c = text[i];
          this.fail(
            i,
            c === '}' || c === '|'
              ? `a label part expected before '${c}'`
              : `unexpected '${c}' in a label block`,
          );
        }
        const w = text.slice(i, i + best);
        const word =
          other === best && ASSET_TYPES.has(w)
            ? 'asset-type'
            : other === best && LABEL_TYPES.has(w)
              ? 'label-type'
              : field === best
                ? 'field-id'
                : bt === best
                  ? 'bt-id'
                  : 'other';
        parts.push({ kind: 'text', text: w, at: i, word });
        i += best;
      }
      if (text[i] === '|') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        break;
      }
      this.fail(
        i,
        i < end
          ? `'|' or '}' expected in the label block, found '${text[i]}'`
          : "the label block is not closed: '}' expected before the end of the line",
        i < end ? 'unexpected-character' : 'unterminated',
      );
    }
    const strip = (p: (typeof parts)[number]): LabelPart =>
      p.kind === 'text' ? { kind: 'text', text: p.text, at: p.at } : p;
    const isLabelType = (p: (typeof parts)[number]): boolean =>
      p.kind === 'expression' || p.word === 'label-type';
    if (parts.length === 3) {
      const [a, l, id] = parts;
      if (!(a.kind === 'expression' || a.word === 'asset-type'))
        this.fail(
          a.at,
          `unknown asset type '${a.kind === 'text' ? a.text : ''}': one of ${[...ASSET_TYPES].join(', ')}`,
          'unexpected-token',
        );
      if (!isLabelType(l))
        this.fail(
          l.at,
          `unknown label type '${l.kind === 'text' ? l.text : ''}': one of ${[...LABEL_TYPES].join(', ')}`,
          'unexpected-token',
        );
      return {
        label: { form: 'standard', assetType: strip(a), labelType: strip(l), assetId: strip(id), at },
        end: i,
      };
    }
    if (parts.length === 2) {
      const [l, id] = parts;
      if (!isLabelType(l))
        this.fail(
          l.at,
          `unknown label type '${l.kind === 'text' ? l.text : ''}': one of ${[...LABEL_TYPES].join(', ')}`,
          'unexpected-token',
        );
      if (id.kind === 'text' && id.word === 'bt-id')
        return { label: { form: 'bt', labelType: strip(l), btId: id.text, at }, end: i };
      if (id.kind === 'text' && id.word === 'field-id')
        return { label: { form: 'field', labelType: strip(l), fieldId: id.text, at }, end: i };
      this.fail(
        id.at,
        'a business term (BT-…) or a field identifier expected after the label type',
        'unexpected-token',
      );
    }
    if (parts.length === 1) {
      const [only] = parts;
      if (only.kind === 'text' && only.word === 'field-id')
        return { label: { form: 'field-value', fieldId: only.text, at }, end: i };
      if (only.kind === 'text' && only.word === 'label-type')
        return { label: { form: 'context', labelType: only.text, at }, end: i };
      this.fail(
        only.at,
        'a field identifier or a label type (name, description…) expected in #{…}',
        'unexpected-token',
      );
    }
    return this.fail(
      at,
      `a label block has 1 to 3 parts separated by '|', not ${parts.length}`,
      'unexpected-token',
    );
  }
}

/** Parses a whole `.efx` template file. Throws EfxSyntaxError at the first error. */
export function parseEfxTemplate(text: string, file?: string): TemplateFile {
  return new TemplateParser(text, file).parseFile();
}
