// From the EFX syntax tree (ast.ts) to XPath 2.0 text, with the fields and nodes of one SDK (symbols.ts).
// A field reference becomes its xpathAbsolute made relative to the context it is read in (paths.ts),
// and its value is read by type as the Publications Office's toolkit does for EFX 1
// (`…/normalize-space(text())`, `…/number()`, `…/xs:date(text())`, measures as durations). Templates
// become, per line, a context path relative to the parent line, value expressions and label keys.
// The output is text only: this module never parses or runs XPath and imports nothing from
// core/schematron, so that any XPath engine can take it. Bad input gives EfxTranslationError, never a
// crash; a template collects one error per faulty line and goes on.
// Where the output differs from the toolkit's, on purpose: `if (c) then` (XPath 2.0 wants the
// parentheses), `matches(…)` for `fn:matches(…)`, predicates of `ND-x[…]::` and axis paths kept (the
// toolkit drops them), `preceding::`/`following::` spelled with sibling axes (expandAxes), multilingual
// text read in every language unless `multilingual: 'preferred-language'`, concat of one argument
// padded with ''. Label keys and values are given apart (the toolkit's markup formats dates itself).

import { addAxis, contextualize, joinPaths } from '../xpath';
import type {
  CallExpr,
  EfxCastType,
  Expr,
  FieldRef,
  Iterator,
  LabelBlock,
  LabelPart,
  NodeRef,
  SingleExpression,
  StringLiteral,
  TemplateFile,
  TemplateLine,
} from './ast';
import { EfxSyntaxError, EfxTranslationError, lineColumn } from './errors';
import { parseEfxExpression } from './parser';
import type { EfxField, EfxSymbols } from './symbols';

/** The value types of EFX; `node` is a context (ND-… or a context variable). */
export type EfxValueType = 'string' | 'number' | 'boolean' | 'date' | 'time' | 'duration' | 'node';

export interface TranslateOptions {
  symbols: EfxSymbols;
  /** The codes of a code list, for `x in (codelist-id)`; without it such a reference is an error. */
  codelist?: (id: string) => readonly string[] | undefined;
  /**
   * How a text-multilingual field is read: `all-languages` (default) reads every language's text,
   * `preferred-language` wraps it in `efx:preferred-language-text(…)` as the Java toolkit does (the
   * caller's engine must then provide that function).
   */
  multilingual?: 'all-languages' | 'preferred-language';
  /** Write `preceding::`/`following::` with the axes core/schematron knows (default true). */
  expandAxes?: boolean;
}

export interface TranslatedExpression {
  xpath: string;
  type: EfxValueType;
}

// XPath precedence of the text produced, low to high: ExprSingle (for, some, every), or, and,
// comparison, additive, multiplicative, unary, primary/path.
const SINGLE = 0;
const OR = 1;
const AND = 2;
const CMP = 3;
const ADD = 4;
const MUL = 5;
const PRIMARY = 7;

interface X {
  x: string;
  t: EfxValueType;
  prec: number;
  /** A sequence (list, iteration, codelist): label keys are built per item. */
  seq?: boolean;
}

interface Ctx {
  kind: 'field' | 'node';
  symbol: string;
  /** The absolute path paths are made relative to (with the context's own predicate, if any). */
  absolute: string;
}

interface Variable {
  type: EfxValueType;
  /** For a context variable: the field or node it iterates on. */
  context?: Ctx;
  /** For a bound parameter: the XPath text of its value. */
  value?: string;
}

interface Scope {
  ctx: Ctx | undefined;
  vars: ReadonlyMap<string, Variable>;
}

const FIELD_TYPES: Record<string, EfxValueType> = {
  text: 'string',
  'text-multilingual': 'string',
  code: 'string',
  'internal-code': 'string',
  id: 'string',
  'id-ref': 'string',
  url: 'string',
  phone: 'string',
  email: 'string',
  number: 'number',
  integer: 'number',
  amount: 'number',
  indicator: 'boolean',
  date: 'date',
  'zoned-date': 'date',
  time: 'time',
  'zoned-time': 'time',
  measure: 'duration',
};

const CAST_TYPES: Record<EfxCastType, EfxValueType> = {
  text: 'string',
  code: 'string',
  number: 'number',
  indicator: 'boolean',
  date: 'date',
  time: 'time',
  measure: 'duration',
  context: 'node',
};

const OPS: Record<string, string> = {
  '+': '+',
  '-': '-',
  '*': '*',
  '/': 'div',
  '%': 'mod',
  '==': '=',
  '!=': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

/** EFX compares and mixes values of one type only (Efx.g4 spells each comparison per type). */
function sameType(a: X, b: X, what: string, at: number): void {
  if (a.t !== b.t)
    throw new EfxTranslationError('type-mismatch', `${what}: a ${a.t} and a ${b.t} cannot be mixed`, at);
}

const quote = (s: string): string => `'${s.replace(/'/g, "''")}'`;
const wrap = (e: X, min: number): string => (e.prec < min ? `(${e.x})` : e.x);

/** A measure field's value as a duration, the unit read from @unitCode (the toolkit's form). */
function measureValue(path: string): string {
  return (
    `(for $F in ${path} return (if ($F/@unitCode='WEEK')` +
    ` then xs:dayTimeDuration(concat('P', $F/number() * 7, 'D'))` +
    ` else if ($F/@unitCode='DAY') then xs:dayTimeDuration(concat('P', $F/number(), 'D'))` +
    ` else if ($F/@unitCode='YEAR') then xs:yearMonthDuration(concat('P', $F/number(), 'Y'))` +
    ` else if ($F/@unitCode='MONTH') then xs:yearMonthDuration(concat('P', $F/number(), 'M'))` +
    ' else ()))'
  );
}

/** Translates EFX to XPath for one SDK's fields. */
export class EfxTranslator {
  readonly #o: TranslateOptions;
  constructor(options: TranslateOptions) {
    this.#o = options;
  }

  // Contexts --------------------------------------------------------------------------------------

  #field(id: string, at: number): EfxField {
    const f = this.#o.symbols.field(id);
    if (!f) throw new EfxTranslationError('unknown-field', `unknown field '${id}' (not in fields.json)`, at);
    return f;
  }

  #nodePath(id: string, at: number): string {
    if (id === 'ND-Root' && !this.#o.symbols.node(id)) return '/*';
    const n = this.#o.symbols.node(id);
    if (!n) throw new EfxTranslationError('unknown-node', `unknown node '${id}' (not in fields.json)`, at);
    return n.xpathAbsolute;
  }

  /** The context a field or node id gives (its plain absolute path). */
  contextOf(id: string, at = 0): Ctx {
    if (id.startsWith('ND-')) return { kind: 'node', symbol: id, absolute: this.#nodePath(id, at) };
    return { kind: 'field', symbol: id, absolute: this.#field(id, at).xpathAbsolute };
  }

  /** A context declaration or context iterator source: its absolute path with the predicate. */
  #declared(ref: FieldRef | NodeRef, scope: Scope): { ctx: Ctx; absolute: string } {
    if (ref.kind === 'field' && ref.axis)
      throw new EfxTranslationError(
        'unsupported',
        'an axis in a context declaration is not supported',
        ref.at,
      );
    const ctx = this.contextOf(ref.id, ref.at);
    let absolute = ctx.absolute;
    if (ref.predicate) {
      const pred = this.#expr(ref.predicate, { ctx, vars: scope.vars });
      absolute = `${absolute}[${pred.x}]`;
    }
    return { ctx, absolute };
  }

  /** The location path of a field reference, relative to the scope's context. */
  #fieldPath(ref: FieldRef, scope: Scope): { path: string; field: EfxField } {
    const field = this.#field(ref.id, ref.at);
    let ctx = ref.absolute || ref.notice ? undefined : scope.ctx;
    let base = '';
    for (const c of ref.contexts) {
      if (c.kind === 'variable') {
        const v = scope.vars.get(c.name);
        if (!v) throw new EfxTranslationError('unknown-variable', `unknown variable '$${c.name}'`, c.at);
        if (!v.context)
          throw new EfxTranslationError(
            'not-a-context',
            `'$${c.name}' is not a context variable (declare it with context:)`,
            c.at,
          );
        base = `$${c.name}`;
        ctx = v.context;
        continue;
      }
      const r = c.ref;
      const next = this.contextOf(r.id, r.at);
      let p = r.absolute ? next.absolute : contextualize(ctx?.absolute, next.absolute);
      if (r.kind === 'field' && r.axis) p = addAxis(r.axis, p, this.#o.expandAxes !== false);
      if (r.predicate) p = `${p}[${this.#expr(r.predicate, { ctx: next, vars: scope.vars }).x}]`;
      base = r.absolute || !base ? p : joinPaths(base, p);
      ctx = next;
    }
    // An attribute is reached from its element's relative path (`./@listName` from the element itself).
    const attr = field.attributeName ? `/@${field.attributeName}` : '';
    const element =
      attr && field.xpathAbsolute.endsWith(attr)
        ? field.xpathAbsolute.slice(0, -attr.length)
        : field.xpathAbsolute;
    let p = contextualize(ctx?.absolute, element);
    if (ref.axis) p = addAxis(ref.axis, p, this.#o.expandAxes !== false);
    if (element !== field.xpathAbsolute) p += attr;
    if (ref.predicate) {
      const fctx: Ctx = { kind: 'field', symbol: field.id, absolute: field.xpathAbsolute };
      p = `${p}[${this.#expr(ref.predicate, { ctx: fctx, vars: scope.vars }).x}]`;
    }
    if (base) p = joinPaths(base, p);
    if (ref.notice) p = `fn:doc(concat($urlPrefix, ${this.#expr(ref.notice, scope).x}))${p}`;
    return { path: p, field };
  }

  /** A field's value read from `path`, by the field's type (or by `as`, a cast). */
  #value(field: EfxField, path: string, as?: EfxValueType): X {
    const t = as ?? FIELD_TYPES[field.type] ?? 'string';
    if (field.attributeName) return { x: path, t, prec: PRIMARY, seq: true };
    switch (t) {
      case 'string':
        if (
          field.type === 'text-multilingual' &&
          !as &&
          this.#o.multilingual === 'preferred-language' &&
          !path.includes('@languageID')
        )
          return { x: `efx:preferred-language-text(${path})`, t, prec: PRIMARY };
        return { x: `${path}/normalize-space(text())`, t, prec: PRIMARY };
      case 'number':
        return { x: `${path}/number()`, t, prec: PRIMARY };
      case 'date':
        return { x: `${path}/xs:date(text())`, t, prec: PRIMARY };
      case 'time':
        return { x: `${path}/xs:time(text())`, t, prec: PRIMARY };
      case 'duration':
        return { x: measureValue(path), t, prec: PRIMARY };
      default:
        return { x: path, t, prec: PRIMARY };
    }
  }

  // Expressions -----------------------------------------------------------------------------------

  #expr(e: Expr, s: Scope): X {
    switch (e.kind) {
      case 'string':
        return { x: stringLiteral(e), t: 'string', prec: PRIMARY };
      case 'number':
        return { x: e.text, t: 'number', prec: PRIMARY };
      case 'boolean':
        return { x: e.value ? 'true()' : 'false()', t: 'boolean', prec: PRIMARY };
      case 'date':
        return { x: `xs:date(${quote(e.text)})`, t: 'date', prec: PRIMARY };
      case 'time':
        return { x: `xs:time(${quote(e.text)})`, t: 'time', prec: PRIMARY };
      case 'duration':
        return { x: durationLiteral(e.text), t: 'duration', prec: PRIMARY };
      case 'list': {
        const items = e.items.map((i) => this.#expr(i, s));
        for (const i of items.slice(1)) sameType(items[0], i, 'a list', e.at);
        return {
          x: `(${items.map((i) => i.x).join(',')})`,
          t: items[0]?.t ?? 'string',
          prec: PRIMARY,
          seq: true,
        };
      }
      case 'codelist': {
        const codes = this.#o.codelist?.(e.id);
        if (!codes)
          throw new EfxTranslationError(
            'unknown-codelist',
            `the codes of the code list '${e.id}' are not available`,
            e.at,
          );
        return { x: `(${codes.map(quote).join(',')})`, t: 'string', prec: PRIMARY, seq: true };
      }
      case 'variable': {
        const v = s.vars.get(e.name);
        if (!v) throw new EfxTranslationError('unknown-variable', `unknown variable '$${e.name}'`, e.at);
        return { x: v.value ?? `$${e.name}`, t: v.type, prec: PRIMARY };
      }
      case 'field': {
        const { path, field } = this.#fieldPath(e, s);
        return this.#value(field, path);
      }
      case 'attribute': {
        const { path } = this.#fieldPath(e.field, s);
        return { x: `${path}/@${e.name}`, t: 'string', prec: PRIMARY, seq: true };
      }
      case 'node':
        throw new EfxTranslationError(
          'not-a-context',
          `the node '${e.id}' has no value; use it as a context`,
          e.at,
        );
      case 'paren': {
        // Parentheses around a primary add nothing; elsewhere they are kept as written.
        const inner = this.#expr(e.expr, s);
        return inner.prec === PRIMARY ? inner : { ...inner, x: `(${inner.x})`, prec: PRIMARY };
      }
      case 'arithmetic':
        return this.#arithmetic(e.op, this.#expr(e.left, s), this.#expr(e.right, s));
      case 'comparison': {
        const l = this.#expr(e.left, s);
        const r = this.#expr(e.right, s);
        const op = OPS[e.op];
        sameType(l, r, `the comparison ${e.op}`, e.at);
        if (l.t === 'duration' || r.t === 'duration') {
          // Durations of both families compare by adding them to the same date (the toolkit's way).
          return {
            x: `boolean(for $T in (current-date()) return ($T + ${wrap(l, MUL)} ${op} $T + ${wrap(r, MUL)}))`,
            t: 'boolean',
            prec: PRIMARY,
          };
        }
        return { x: `${wrap(l, ADD)} ${op} ${wrap(r, ADD)}`, t: 'boolean', prec: CMP };
      }
      case 'logical': {
        const min = e.op === 'and' ? AND : OR;
        const l = this.#expr(e.left, s);
        const r = this.#expr(e.right, s);
        return { x: `${wrap(l, min)} ${e.op} ${wrap(r, min + 1)}`, t: 'boolean', prec: min };
      }
      case 'in': {
        const v = this.#expr(e.value, s);
        const list = this.#expr(e.list, s);
        sameType(v, list, `${e.not ? 'not in' : 'in'}`, e.at);
        const x = `${wrap(v, ADD)} = ${wrap(list, ADD)}`;
        return e.not ? { x: `not(${x})`, t: 'boolean', prec: PRIMARY } : { x, t: 'boolean', prec: CMP };
      }
      case 'like': {
        const v = this.#expr(e.value, s);
        const x = `matches(normalize-space(${v.x}), ${stringLiteral(e.pattern)})`;
        return { x: e.not ? `not(${x})` : x, t: 'boolean', prec: PRIMARY };
      }
      case 'empty': {
        const v = this.#expr(e.value, s);
        return { x: `${wrap(v, ADD)} ${e.not ? '!=' : '='} ''`, t: 'boolean', prec: CMP };
      }
      case 'present': {
        const p = this.#path(e.ref, s);
        return e.not
          ? { x: `not(${p})`, t: 'boolean', prec: PRIMARY }
          : { x: p, t: 'boolean', prec: PRIMARY };
      }
      case 'unique': {
        const needle = this.#path(e.ref, s);
        const haystack = this.#path(e.within, s);
        const x = `count(for $x in ${needle}, $y in ${haystack}[. = $x] return $y) = 1`;
        return e.not ? { x: `not(${x})`, t: 'boolean', prec: PRIMARY } : { x, t: 'boolean', prec: CMP };
      }
      case 'if': {
        const c = this.#expr(e.condition, s);
        const a = this.#expr(e.whenTrue, s);
        const b = this.#expr(e.whenFalse, s);
        sameType(a, b, 'the branches of if … then … else', e.at);
        return { x: `(if (${c.x}) then ${a.x} else ${b.x})`, t: b.t, prec: PRIMARY, seq: a.seq || b.seq };
      }
      case 'for': {
        const { text, scope } = this.#iterators(e.iterators, s);
        const r = this.#expr(e.result, scope);
        return { x: `for ${text} return ${r.x}`, t: r.t, prec: SINGLE, seq: true };
      }
      case 'quantified': {
        const { text, scope } = this.#iterators(e.iterators, s);
        const c = this.#expr(e.condition, scope);
        return { x: `${e.quantifier} ${text} satisfies ${c.x}`, t: 'boolean', prec: SINGLE };
      }
      case 'cast': {
        const t = CAST_TYPES[e.type];
        if (e.expr.kind === 'field') {
          const { path, field } = this.#fieldPath(e.expr, s);
          return this.#value(field, path, t);
        }
        return { ...this.#expr(e.expr, s), t };
      }
      case 'call':
        return this.#call(e, s);
    }
  }

  /** A field or attribute reference as a location path (presence, uniqueness). */
  #path(ref: FieldRef | { kind: 'attribute'; field: FieldRef; name: string }, s: Scope): string {
    if (ref.kind === 'attribute') return `${this.#fieldPath(ref.field, s).path}/@${ref.name}`;
    return this.#fieldPath(ref, s).path;
  }

  #arithmetic(op: '+' | '-' | '*' | '/' | '%', l: X, r: X): X {
    if (op === '-' && l.t === 'date' && r.t === 'date')
      return { x: `xs:dayTimeDuration(${wrap(l, ADD)} - ${wrap(r, MUL)})`, t: 'duration', prec: PRIMARY };
    if (op === '*' && (l.t === 'duration' || r.t === 'duration')) {
      const [n, d] = l.t === 'duration' ? [r, l] : [l, r];
      return { x: `(${wrap(n, MUL)} * ${wrap(d, MUL + 1)})`, t: 'duration', prec: PRIMARY };
    }
    if ((op === '+' || op === '-') && (l.t === 'duration' || l.t === 'date') && r.t === 'duration')
      return { x: `(${wrap(l, ADD)} ${op} ${wrap(r, MUL)})`, t: l.t, prec: PRIMARY };
    const prec = op === '+' || op === '-' ? ADD : MUL;
    return { x: `${wrap(l, prec)} ${OPS[op]} ${wrap(r, prec + 1)}`, t: 'number', prec };
  }

  #iterators(list: Iterator[], s: Scope): { text: string; scope: Scope } {
    const vars = new Map(s.vars);
    const parts: string[] = [];
    for (const it of list) {
      const scope: Scope = { ctx: s.ctx, vars };
      if (it.type === 'context') {
        const src = it.source;
        if (src.kind !== 'field' && src.kind !== 'node')
          throw new EfxTranslationError('not-a-context', 'a context iterator takes a field or a node', it.at);
        const { ctx, absolute } = this.#declared(src, scope);
        const p = src.absolute ? absolute : contextualize(s.ctx?.absolute, absolute);
        parts.push(`$${it.variable} in ${p}`);
        vars.set(it.variable, { type: 'node', context: ctx });
      } else {
        const src = this.#expr(it.source, scope);
        parts.push(`$${it.variable} in ${wrap(src, ADD)}`);
        vars.set(it.variable, { type: CAST_TYPES[it.type] });
      }
    }
    return { text: parts.join(', '), scope: { ctx: s.ctx, vars } };
  }

  #call(e: CallExpr, s: Scope): X {
    const a = e.args.map((x) => this.#expr(x, s));
    const list = a.map((x) => x.x).join(', ');
    const fn = (name: string, t: EfxValueType, seq = false): X => ({
      x: `${name}(${list})`,
      t,
      prec: PRIMARY,
      seq,
    });
    switch (e.name) {
      case 'not':
      case 'contains':
      case 'starts-with':
      case 'ends-with':
        return fn(e.name, 'boolean');
      case 'sequence-equal':
        return { x: `deep-equal(sort(${a[0].x}), sort(${a[1].x}))`, t: 'boolean', prec: PRIMARY };
      case 'count':
      case 'number':
      case 'sum':
      case 'string-length':
        return fn(e.name, 'number');
      case 'substring':
      case 'concat':
        if (e.name === 'concat' && a.length === 1)
          return { x: `concat(${a[0].x}, '')`, t: 'string', prec: PRIMARY };
        return fn(e.name, 'string');
      case 'string':
        return { x: `format-number(${a[0].x}, '0.##########')`, t: 'string', prec: PRIMARY };
      case 'format-number':
        return { x: `format-number(${a[0].x}, ${a[1]?.x ?? "'0.##########'"})`, t: 'string', prec: PRIMARY };
      case 'date':
        return fn('xs:date', 'date');
      case 'time':
        return fn('xs:time', 'time');
      case 'day-time-duration':
        return fn('xs:dayTimeDuration', 'duration');
      case 'year-month-duration':
        return fn('xs:yearMonthDuration', 'duration');
      case 'add-measure':
        return { x: `(${wrap(a[0], ADD)} + ${wrap(a[1], MUL)})`, t: 'date', prec: PRIMARY };
      case 'subtract-measure':
        return { x: `(${wrap(a[0], ADD)} - ${wrap(a[1], MUL)})`, t: 'date', prec: PRIMARY };
      case 'distinct-values':
        return { ...fn('distinct-values', a[0].t, true) };
      case 'value-union':
      case 'value-intersect':
      case 'value-except':
        sameType(a[0], a[1], `${e.name}()`, e.at);
        break;
    }
    switch (e.name) {
      case 'value-union':
        return { x: `distinct-values((${a[0].x}, ${a[1].x}))`, t: a[0].t, prec: PRIMARY, seq: true };
      case 'value-intersect':
        return {
          x: `distinct-values(for $L1 in ${wrap(a[0], ADD)} return if (some $L2 in ${wrap(a[1], ADD)} satisfies $L1 = $L2) then $L1 else ())`,
          t: a[0].t,
          prec: PRIMARY,
          seq: true,
        };
      case 'value-except':
        return {
          x: `distinct-values(for $L1 in ${wrap(a[0], ADD)} return if (every $L2 in ${wrap(a[1], ADD)} satisfies $L1 != $L2) then $L1 else ())`,
          t: a[0].t,
          prec: PRIMARY,
          seq: true,
        };
    }
  }

  // Public entries ----------------------------------------------------------------------------------

  /**
   * XPath of an expression read in the context of the field or node `contextId` (absolute paths when
   * absent). `variables` names variables in scope, with their type (e.g. template parameters).
   */
  expression(
    expr: Expr | string,
    contextId?: string,
    variables?: Record<string, EfxValueType>,
  ): TranslatedExpression {
    const e = typeof expr === 'string' ? parseEfxExpression(expr) : expr;
    const vars = new Map<string, Variable>(Object.entries(variables ?? {}).map(([k, type]) => [k, { type }]));
    const x = this.#expr(e, { ctx: contextId ? this.contextOf(contextId) : undefined, vars });
    return { xpath: x.x, type: x.t };
  }

  /**
   * XPath of a singleExpression (`{ND-x, text:$p} ${…}`). `parameters` gives each declared parameter's
   * value as EFX literal text (`'abc'`, `12`, `2020-01-01Z`…); without a value a parameter stays `$p`.
   */
  singleExpression(single: SingleExpression, parameters: readonly string[] = []): TranslatedExpression {
    const vars = new Map<string, Variable>();
    single.parameters.forEach((p, i) => {
      const type = CAST_TYPES[p.type];
      const text = parameters[i];
      if (text === undefined) {
        vars.set(p.name, { type });
        return;
      }
      let lit: Expr;
      try {
        lit = parseEfxExpression(text);
      } catch (e) {
        if (!(e instanceof EfxSyntaxError)) throw e;
        throw new EfxTranslationError(
          'type-mismatch',
          `the value of parameter $${p.name} is not an EFX literal: ${e.reason}`,
        );
      }
      if (!['string', 'number', 'boolean', 'date', 'time', 'duration'].includes(lit.kind))
        throw new EfxTranslationError(
          'type-mismatch',
          `the value of parameter $${p.name} must be a literal, not '${text}'`,
        );
      vars.set(p.name, { type, value: this.#expr(lit, { ctx: undefined, vars: new Map() }).x });
    });
    const x = this.#expr(single.expression, {
      ctx: this.contextOf(single.context.id, single.context.at),
      vars,
    });
    return { xpath: x.x, type: x.t };
  }

  /** Every line of a template: context paths, values and label keys. Errors are collected per line. */
  template(file: TemplateFile, text?: string): TranslatedTemplate {
    const errors: EfxTemplateIssue[] = [];
    const lines: TranslatedLine[] = [];
    const issue = (line: TemplateLine, err: unknown): void => {
      if (!(err instanceof EfxTranslationError || err instanceof EfxSyntaxError)) throw err;
      const at = err instanceof EfxTranslationError ? (err.offset ?? line.at) : err.offset;
      const pos = text !== undefined ? lineColumn(text, at) : { line: line.line, column: 1 };
      errors.push({
        code: err.code,
        reason: err.reason,
        file: file.file,
        line: pos.line,
        column: pos.column,
      });
    };
    const visit = (line: TemplateLine, parent: Ctx | undefined): TranslatedLine | undefined => {
      let ctx: Ctx;
      let contextXPath: string;
      try {
        const d = this.#declared(line.context, { ctx: undefined, vars: new Map() });
        ctx = { ...d.ctx, absolute: d.absolute };
        contextXPath = line.context.absolute ? d.absolute : contextualize(parent?.absolute, d.absolute);
      } catch (err) {
        issue(line, err);
        for (const child of line.children) visit(child, parent);
        return undefined;
      }
      const scope: Scope = { ctx, vars: new Map() };
      const parts: TranslatedPart[] = [];
      for (const f of line.template) {
        try {
          if (f.kind === 'text') parts.push({ kind: 'text', text: f.text });
          else if (f.kind === 'expression') {
            const x = this.#expr(f.expr, scope);
            parts.push({ kind: 'value', xpath: x.x, type: x.t });
          } else if (f.kind === 'context-value') {
            if (ctx.kind !== 'field')
              throw new EfxTranslationError(
                'not-a-context',
                '$value needs a field as the context of the line',
                f.at,
              );
            const field = this.#field(ctx.symbol, f.at);
            const x = this.#value(field, contextualize(ctx.absolute, field.xpathAbsolute));
            parts.push({ kind: 'value', xpath: x.x, type: x.t });
          } else parts.push({ kind: 'label', label: this.#label(f.label, scope) });
        } catch (err) {
          issue(line, err);
        }
      }
      const out: TranslatedLine = {
        line,
        contextKind: ctx.kind,
        contextId: ctx.symbol,
        contextXPath,
        absoluteContextXPath: ctx.absolute,
        parts,
        children: [],
      };
      lines.push(out);
      for (const child of line.children) {
        const c = visit(child, ctx);
        if (c) out.children.push(c);
      }
      return out;
    };
    const roots: TranslatedLine[] = [];
    for (const r of file.roots) {
      const t = visit(r, undefined);
      if (t) roots.push(t);
    }
    lines.sort((a, b) => a.line.line - b.line.line);
    return { lines, roots, errors };
  }

  #labelPart(p: LabelPart, s: Scope): X {
    if (p.kind === 'text') return { x: quote(p.text), t: 'string', prec: PRIMARY };
    return this.#expr(p.expr, s);
  }

  #label(label: LabelBlock, s: Scope): TranslatedLabel {
    const ctx = s.ctx as Ctx;
    switch (label.form) {
      case 'standard': {
        const { assetType: a, labelType: l, assetId: id } = label;
        if (a.kind === 'text' && l.kind === 'text' && id.kind === 'text')
          return { kind: 'static', key: `${a.text}|${l.text}|${id.text}` };
        const ax = this.#labelPart(a, s);
        const lx = this.#labelPart(l, s);
        const idx = this.#labelPart(id, s);
        if (idx.seq) {
          return {
            kind: 'dynamic',
            keyXPath: `distinct-values(for $item in ${wrap(idx, ADD)} return concat(${ax.x}, '|', ${lx.x}, '|', $item))`,
          };
        }
        return { kind: 'dynamic', keyXPath: `concat(${ax.x}, '|', ${lx.x}, '|', ${idx.x})` };
      }
      case 'bt':
      case 'field': {
        const asset = label.form === 'bt' ? 'business-term' : 'field';
        const id = label.form === 'bt' ? label.btId : label.fieldId;
        if (label.form === 'field') this.#field(id, label.at);
        if (label.labelType.kind === 'text')
          return { kind: 'static', key: `${asset}|${label.labelType.text}|${id}` };
        const lx = this.#labelPart(label.labelType, s);
        return { kind: 'dynamic', keyXPath: `concat('${asset}|', ${lx.x}, '|${id}')` };
      }
      case 'field-value':
        return this.#valueLabel(label.fieldId, s, label.at);
      case 'context':
        return { kind: 'static', key: `${ctx.kind}|${label.labelType}|${ctx.symbol}` };
      case 'context-value':
        if (ctx.kind !== 'field')
          throw new EfxTranslationError(
            'not-a-context',
            '#value needs a field as the context of the line',
            label.at,
          );
        return this.#valueLabel(ctx.symbol, s, label.at);
    }
  }

  /** `#{BT-x}`: the label of each value of a code or indicator field. */
  #valueLabel(fieldId: string, s: Scope, at: number): TranslatedLabel {
    const field = this.#field(fieldId, at);
    const path = contextualize(s.ctx?.absolute, field.xpathAbsolute);
    const value = field.attributeName
      ? path
      : field.type === 'indicator'
        ? path
        : `${path}/normalize-space(text())`;
    if (field.type === 'code' || field.type === 'internal-code') {
      const list = field.rootCodeListId ?? field.codeListId ?? '';
      return {
        kind: 'code',
        valueXPath: value,
        codelist: list,
        keyXPath: `distinct-values(for $item in ${value} return concat('code|name|${list}.', $item))`,
      };
    }
    if (field.type === 'indicator') {
      return {
        kind: 'indicator',
        valueXPath: value,
        fieldId,
        keyXPath: `distinct-values(for $item in ${value} return concat('indicator|when-', $item, '|${fieldId}'))`,
      };
    }
    throw new EfxTranslationError(
      'type-mismatch',
      `#{${fieldId}} shows the label of a code or indicator value, but ${fieldId} is of type '${field.type}'`,
      at,
    );
  }
}

/** A string literal as XPath: EFX `\'` (or `\"`) becomes the doubled quote; other escapes stay. */
function stringLiteral(e: StringLiteral): string {
  if (e.quote === '{') return quote(`{${e.value}}`);
  const q = e.quote;
  return `${q}${e.value.replace(q === "'" ? /\\'|'/g : /\\"|"/g, q + q)}${q}`;
}

/** DayTimeDurationLiteral / YearMonthDurationLiteral; weeks are written as days, as XPath has none. */
function durationLiteral(text: string): string {
  const m = /^(-?)P(-?[0-9]+)([WDYM])$/.exec(text);
  if (!m) return `xs:dayTimeDuration(${quote(text)})`;
  const [, sign, n, unit] = m;
  if (unit === 'W') return `xs:dayTimeDuration(${quote(`${sign}P${Number(n) * 7}D`)})`;
  if (unit === 'D') return `xs:dayTimeDuration(${quote(text)})`;
  return `xs:yearMonthDuration(${quote(text)})`;
}

/** One part of a translated template line, in order. */
export type TranslatedPart =
  | { kind: 'text'; text: string }
  /** `${…}` or `$value`: XPath evaluated from the line's context node; `type` tells how to format it. */
  | { kind: 'value'; xpath: string; type: EfxValueType }
  | { kind: 'label'; label: TranslatedLabel };

/** How a label is found in `translations/<kind>_<lang>.xml`. */
export type TranslatedLabel =
  /** A key written in the template: `field|name|BT-21-Procedure`. */
  | { kind: 'static'; key: string }
  /** A key computed by XPath from the line's context node (one key, or several for a sequence). */
  | { kind: 'dynamic'; keyXPath: string }
  /** The label of each code read by `valueXPath`: key `code|name|<codelist>.<code>`. */
  | { kind: 'code'; valueXPath: string; codelist: string; keyXPath: string }
  /** The label of each indicator value: key `indicator|when-<true|false>|<fieldId>`. */
  | { kind: 'indicator'; valueXPath: string; fieldId: string; keyXPath: string };

export interface TranslatedLine {
  line: TemplateLine;
  contextKind: 'field' | 'node';
  contextId: string;
  /** The context XPath relative to the parent line's context (absolute for a top line). */
  contextXPath: string;
  /** The context's absolute XPath, with this line's predicate. */
  absoluteContextXPath: string;
  parts: TranslatedPart[];
  children: TranslatedLine[];
}

export interface EfxTemplateIssue {
  code: string;
  reason: string;
  file?: string;
  line: number;
  column: number;
}

export interface TranslatedTemplate {
  /** Every translated line in file order; a line whose context failed is absent (see errors). */
  lines: TranslatedLine[];
  roots: TranslatedLine[];
  errors: EfxTemplateIssue[];
}
