// Renders a notice as its SDK's view template shows it: each template line's context is found with the
// one XPath engine (core/xpath) from its parent's context node; a line whose context is absent is left
// out with its children; a context present several times (each lot, each organisation) repeats the
// line and its block. Labels come from the release's translations in the chosen language, codes as
// their names, dates and amounts through Intl for that language, the notice's own multilingual text in
// the chosen language where the notice has it (`@languageID`), else in the notice's language.
// A template is translated and compiled once per release and subtype. A line that cannot be translated
// or evaluated is named in `problems` and skipped; nothing here throws on a bad notice. No I/O except
// the lazy reads of the PreviewSdk; no second XPath engine, and no reading of XPath text: what this
// module adapts (the toolkit's preferred-language text, top-level format-number and distinct-values)
// it adapts on the tree parseXPath gives.

import { EfxTranslator, parseEfxTemplate, type TranslatedLine, type TranslatedPart } from '../efx';
import { indexXml, textContent, type XmlIndex } from '../notice';
import {
  type Ast,
  ATTRIBUTE,
  type Compiled,
  compile,
  parseDate,
  parseXPath,
  Runtime,
  type Scope,
  XDocument,
  XNode,
  XPathDynamicError,
  XPathSyntaxError,
  XPathTimeLimitError,
  XPathUnsupportedError,
} from '../xpath';
import type { PreviewSdk } from './sdk';

export interface RenderedLine {
  /** Section number as the template numbers it ("1", "1.1", "2.1.1"), absent for plain lines. */
  number?: string;
  /** The label in the chosen language (already resolved from translations/), may be empty. */
  label: string;
  /** The value as displayed (codes as their labels, dates and amounts formatted for the language). */
  value: string;
  /** True when a mandatory value is missing (the line is shown with an empty, flagged value). */
  flagged?: boolean;
  /** Offsets [start, end) in the notice text of the element (or attribute) this line shows, for scroll sync. */
  range?: { start: number; end: number };
  /** The template line (1-based) that produced it, for tests: no template line renders twice for one context. */
  templateLine: number;
  children: RenderedLine[];
}

export interface RenderedNotice {
  subtype: string;
  sdkVersion: string;
  language: string;
  languages: string[];
  lines: RenderedLine[];
  problems: { message: string; templateLine?: number }[];
}

export interface RenderOptions {
  language: string;
  /** Render with this subtype's template instead of the notice's own (`summary`, or a test's choice). */
  subtype?: string;
  /** Milliseconds one template line may take over the whole render (LINE_TIME_LIMIT_MS by default). */
  lineTimeLimitMs?: number;
  /** The time in milliseconds, performance.now by default (a test's clock counts its own calls). */
  clock?: () => number;
}

/**
 * What one template line may take over a whole render, its context nodes together. Some lines of the
 * SDK's award templates join every tender with every contract and every result: on an award notice of
 * 400 lots the render took 31 s, on 800 lots 6 minutes. Past this, the line is left out and named
 * under the document, and the rest of the notice is rendered.
 */
export const LINE_TIME_LIMIT_MS = 2000;

const EFX_NS = 'http://data.europa.eu/p27/eforms-business-rules/efx';
const NAMESPACES: ReadonlyMap<string, string> = new Map([
  ['cbc', 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2'],
  ['cac', 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2'],
  ['ext', 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2'],
  ['efac', 'http://data.europa.eu/p27/eforms-ubl-extension-aggregate-components/1'],
  ['efbc', 'http://data.europa.eu/p27/eforms-ubl-extension-basic-components/1'],
  ['efext', 'http://data.europa.eu/p27/eforms-ubl-extensions/1'],
  ['xs', 'http://www.w3.org/2001/XMLSchema'],
  ['fn', 'http://www.w3.org/2005/xpath-functions'],
  ['efx', EFX_NS],
]);
const CBC = NAMESPACES.get('cbc') as string;

/** ISO 639-1 (labels) to the ISO 639-2 codes notices write in `languageID` and NoticeLanguageCode. */
const ISO3: Record<string, string> = {
  bg: 'BUL',
  cs: 'CES',
  da: 'DAN',
  de: 'DEU',
  el: 'ELL',
  en: 'ENG',
  es: 'SPA',
  et: 'EST',
  fi: 'FIN',
  fr: 'FRA',
  ga: 'GLE',
  hr: 'HRV',
  hu: 'HUN',
  it: 'ITA',
  lt: 'LIT',
  lv: 'LAV',
  mt: 'MLT',
  nl: 'NLD',
  pl: 'POL',
  pt: 'POR',
  ro: 'RON',
  sk: 'SLK',
  sl: 'SLV',
  sv: 'SWE',
};

// A compiled template ----------------------------------------------------------------------------------

type Eval = (node: XNode) => unknown[];

type PartPlan =
  | { kind: 'text'; text: string }
  | { kind: 'value'; fn: Eval; type: string; format?: string }
  | { kind: 'key'; key: string }
  | { kind: 'keys'; fn: Eval }
  | { kind: 'code'; fn: Eval; list: string }
  | { kind: 'indicator'; fn: Eval; fieldId: string }
  | { kind: 'broken'; why: string };

interface LinePlan {
  templateLine: number;
  outline?: number;
  contextId: string;
  contextKind: 'field' | 'node';
  /** The context's own declaration has no predicate: a mandatory field may be shown empty. */
  plain: boolean;
  ctx: Eval | undefined;
  /** For a line read in a node's context: the element of the first value it shows (scroll sync). */
  target?: Eval;
  /** The field a `#{field|name|F}` label names: its value is what the line shows. */
  labelField?: string;
  parts: PartPlan[];
  children: LinePlan[];
}

interface Plan {
  rt: Runtime;
  roots: LinePlan[];
  problems: { message: string; templateLine?: number }[];
  /** Read by the compiled `$efxLang`/`$efxNoticeLang` globals at each render. */
  langs: { chosen: string; notice: string };
}

const plans = new WeakMap<PreviewSdk, Map<string, Plan | string>>();

const PREFERRED = `{${EFX_NS}}preferred-language-text`;

/** A copy of the tree with each node `f` gives a replacement for replaced (bottom-up for the rest). */
function mapAst(v: unknown, f: (n: Ast) => Ast | undefined): unknown {
  if (Array.isArray(v)) return v.map((x) => mapAst(x, f));
  if (v === null || typeof v !== 'object') return v;
  if ('t' in v) {
    const r = f(v as Ast);
    if (r) return r;
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = mapAst(x, f);
  return out;
}

/** Whether the tree reads a variable other than the ones this module binds (`$efx…`). */
function readsVariables(ast: Ast): boolean {
  let found = false;
  mapAst(ast, (n) => {
    if (n.t === 'var' && !n.name.startsWith('efx')) found = true;
    return undefined;
  });
  return found;
}

/**
 * `efx:preferred-language-text(P)`, the toolkit's function, as plain XPath over the parsed tree: per
 * element, among its same-named siblings (one per language), the chosen language's, else the notice's,
 * else all. P is evaluated once: it may carry a costly predicate (the organisation lookups).
 */
function preferredLanguage(ast: Ast): Ast {
  return mapAst(ast, (n) => {
    if (n.t !== 'call' || n.fn !== PREFERRED || n.args.length !== 1) return undefined;
    const p = preferredLanguage(n.args[0]);
    const last = p.t === 'path' ? p.steps[p.steps.length - 1] : p;
    const test = last?.t === 'step' && last.test.k === 'name' && last.test.local ? last.test : undefined;
    const template = parseXPath(
      test
        ? '(for $efxC in $efxP return $efxC[@languageID = $efxLang or (not(../efx:sibling[@languageID = $efxLang]) and (@languageID = $efxNoticeLang or not(../efx:sibling[@languageID = $efxNoticeLang])))])/normalize-space(text())'
        : '(($efxP)[@languageID = $efxLang], ($efxP)[@languageID = $efxNoticeLang], ($efxP)[not(@languageID)], $efxP)[1]/normalize-space(text())',
      NAMESPACES,
    );
    return mapAst(template, (m) => {
      if (m.t === 'var' && m.name === 'efxP') return p;
      if (test && m.t === 'step' && m.test.k === 'name' && m.test.ns === EFX_NS) return { ...m, test };
      return undefined;
    }) as Ast;
  }) as Ast;
}

/** The element path under a value read (`P/normalize-space(text())`, `P/number()`…), or undefined. */
const VALUE_READS = new Set(['normalize-space', 'number', 'xs:date', 'xs:time']);
function elementOf(ast: Ast): Ast | undefined {
  if (ast.t !== 'path' || ast.steps.length < 2) return undefined;
  const last = ast.steps[ast.steps.length - 1];
  if (last.t !== 'call' || !VALUE_READS.has(last.fn)) return undefined;
  const base: Ast = ast.steps.length === 2 ? ast.steps[0] : { t: 'path', steps: ast.steps.slice(0, -1) };
  return readsVariables(base) ? undefined : base;
}

function compilePlan(sdk: PreviewSdk, subtype: string): Plan | string {
  const text = sdk.templateText(subtype);
  if (text === undefined) return `SDK ${sdk.version} has no view template for subtype ${subtype}`;
  let file: ReturnType<typeof parseEfxTemplate>;
  try {
    file = parseEfxTemplate(text, `${subtype}.efx`);
  } catch (e) {
    return `the view template ${subtype}.efx of SDK ${sdk.version} does not parse: ${(e as Error).message}`;
  }
  const translator = new EfxTranslator({
    symbols: sdk.symbols,
    multilingual: 'preferred-language',
  });
  const t = translator.template(file, text);
  const problems: Plan['problems'] = t.errors.map((e) => ({
    message: `${e.file ?? subtype}:${e.line}:${e.column}: ${e.reason}`,
    templateLine: e.line,
  }));
  const rt = new Runtime();
  const langs = { chosen: '', notice: '' };
  const globals = new Map([
    ['efxLang', 0],
    ['efxNoticeLang', 1],
  ]);
  rt.globalFns = [() => [langs.chosen], () => [langs.notice]];
  const parse = (xpath: string): Ast | string => {
    try {
      return preferredLanguage(parseXPath(xpath, NAMESPACES));
    } catch (e) {
      if (!(e instanceof XPathSyntaxError)) throw e;
      return `cannot parse ${xpath}: ${e.message}`;
    }
  };
  const make = (ast: Ast | string, line: number): Eval | string => {
    if (typeof ast === 'string') return ast;
    const scope = (): Scope => ({ globals, locals: new Map(), nextSlot: { n: 0 } });
    try {
      // distinct-values at the top is done here; nested, it needs the engine.
      if (ast.t === 'call' && ast.fn === 'distinct-values' && ast.args.length === 1) {
        const inner = compile(ast.args[0], rt, scope());
        return (n) => distinct(inner({ item: n, pos: 1, size: 1 }));
      }
      const fn: Compiled = compile(ast, rt, scope());
      return (n) => fn({ item: n, pos: 1, size: 1 });
    } catch (e) {
      if (!(e instanceof XPathUnsupportedError)) throw e;
      return `template line ${line}: ${e.message}`;
    }
  };
  const build = (xpath: string, line: number): Eval | string => make(parse(xpath), line);
  const plan = (l: TranslatedLine): LinePlan => {
    const line = l.line.line;
    const ctx = build(l.contextXPath, line);
    if (typeof ctx === 'string') problems.push({ message: ctx, templateLine: line });
    const parts: PartPlan[] = l.parts.map((p) => partPlan(p, line));
    for (const p of parts) if (p.kind === 'broken') problems.push({ message: p.why, templateLine: line });
    const named = parts.find((p) => p.kind === 'key' && p.key.startsWith('field|name|'));
    const target = l.contextKind === 'node' ? targetOf(l.parts, line) : undefined;
    return {
      ...(target ? { target } : {}),
      ...(named?.kind === 'key' ? { labelField: named.key.slice('field|name|'.length) } : {}),
      templateLine: line,
      outline: l.line.outlineNumber,
      contextId: l.contextId,
      contextKind: l.contextKind,
      plain: !l.line.context.predicate,
      ctx: typeof ctx === 'string' ? undefined : ctx,
      parts,
      children: l.children.map(plan),
    };
  };
  /** The element behind the first value of a line (`path/normalize-space(text())` gives `path`). */
  const targetOf = (parts: TranslatedPart[], line: number): Eval | undefined => {
    for (const p of parts) {
      const x =
        p.kind === 'value'
          ? p.xpath
          : p.kind === 'label' && p.label.kind === 'code'
            ? p.label.valueXPath
            : '';
      if (!x) continue;
      const ast = parse(x);
      const base = typeof ast === 'string' ? undefined : elementOf(ast);
      const fn = base ? make(base, line) : undefined;
      return typeof fn === 'function' ? fn : undefined;
    }
    return undefined;
  };
  const partPlan = (p: TranslatedPart, line: number): PartPlan => {
    if (p.kind === 'text') return { kind: 'text', text: p.text };
    if (p.kind === 'value') {
      // format-number(x, 'pattern') at the top is formatted here, in the language's convention.
      const ast = parse(p.xpath);
      const pattern =
        typeof ast !== 'string' && ast.t === 'call' && ast.fn === 'format-number' && ast.args[1]?.t === 'str'
          ? ast.args[1].v
          : undefined;
      const fn = make(
        pattern !== undefined && typeof ast !== 'string' && ast.t === 'call' ? ast.args[0] : ast,
        line,
      );
      if (typeof fn === 'string') return { kind: 'broken', why: fn };
      return pattern !== undefined
        ? { kind: 'value', fn, type: 'number', format: pattern }
        : { kind: 'value', fn, type: p.type };
    }
    const label = p.label;
    if (label.kind === 'static') return { kind: 'key', key: label.key };
    if (label.kind === 'dynamic') {
      const fn = build(label.keyXPath, line);
      return typeof fn === 'string' ? { kind: 'broken', why: fn } : { kind: 'keys', fn };
    }
    const fn = build(label.valueXPath, line);
    if (typeof fn === 'string') return { kind: 'broken', why: fn };
    return label.kind === 'code'
      ? { kind: 'code', fn, list: label.codelist }
      : { kind: 'indicator', fn, fieldId: label.fieldId };
  };
  return { rt, roots: t.roots.map(plan), problems, langs };
}

function planFor(sdk: PreviewSdk, subtype: string): Plan | string {
  let m = plans.get(sdk);
  if (!m) {
    m = new Map();
    plans.set(sdk, m);
  }
  let p = m.get(subtype);
  if (p === undefined) {
    p = compilePlan(sdk, subtype);
    m.set(subtype, p);
  }
  return p;
}

function distinct(items: unknown[]): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const it of items) {
    const k = plainString(it);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(it);
  }
  return out;
}

// Values -------------------------------------------------------------------------------------------------

function plainString(it: unknown): string {
  if (it instanceof XNode) return it.string;
  if (typeof it === 'string') return it;
  if (typeof it === 'number') return String(it);
  if (typeof it === 'boolean') return String(it);
  if (it && typeof it === 'object' && 's' in it) return String((it as { s: unknown }).s);
  return String(it);
}

/** Intl formatters, one per language and shape (they are costly to create). */
class Formats {
  readonly date: Intl.DateTimeFormat;
  readonly time: Intl.DateTimeFormat;
  readonly #numbers = new Map<string, Intl.NumberFormat>();
  constructor(readonly lang: string) {
    this.date = new Intl.DateTimeFormat(lang, {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      timeZone: 'UTC',
    });
    // 24-hour clock, as TED's notices write times in every language.
    this.time = new Intl.DateTimeFormat(lang, {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: 'UTC',
    });
  }
  number(pattern: string | undefined): Intl.NumberFormat {
    const key = pattern ?? '';
    let f = this.#numbers.get(key);
    if (!f) {
      const frac = pattern?.split('.')[1] ?? '';
      f = new Intl.NumberFormat(this.lang, {
        minimumFractionDigits: pattern === undefined ? 0 : (frac.match(/0/g)?.length ?? 0),
        maximumFractionDigits: pattern === undefined ? 10 : frac.replace(/[^0#]/g, '').length,
        useGrouping: pattern === undefined || pattern.includes(','),
      });
      this.#numbers.set(key, f);
    }
    return f;
  }
  unit(unit: 'day' | 'month' | 'year', n: number): string {
    return new Intl.NumberFormat(this.lang, { style: 'unit', unit, unitDisplay: 'long' }).format(n);
  }
}
const formats = new Map<string, Formats>();
/** English as the EU writes it (day before month), not the United States' default of `en`. */
const LOCALES: Record<string, string> = { en: 'en-IE' };
function formatsFor(lang: string): Formats {
  let f = formats.get(lang);
  if (!f) {
    try {
      f = new Formats(LOCALES[lang] ?? lang);
    } catch {
      f = new Formats('en');
    }
    formats.set(lang, f);
  }
  return f;
}

function tzText(tz: number | undefined): string {
  if (tz === undefined) return '';
  if (tz === 0) return ' UTC';
  const a = Math.abs(tz);
  return ` UTC${tz < 0 ? '−' : '+'}${String(Math.trunc(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

function formatItem(it: unknown, type: string, f: Formats, pattern?: string): string {
  if (it && typeof it === 'object' && !(it instanceof XNode)) {
    const o = it as { kind?: string; ms?: number; tz?: number; months?: number };
    if ((o.kind === 'date' || o.kind === 'time') && typeof o.ms === 'number') {
      const local = new Date(o.ms + (o.tz ?? 0) * 60_000);
      return o.kind === 'date' ? f.date.format(local) : f.time.format(local) + tzText(o.tz);
    }
    if ((o.kind === 'dayTime' || o.kind === 'yearMonth') && typeof o.ms === 'number') {
      if (o.kind === 'yearMonth') {
        const m = o.months ?? 0;
        return m % 12 === 0 ? f.unit('year', m / 12) : f.unit('month', m);
      }
      return f.unit('day', Math.round(o.ms / 86_400_000));
    }
  }
  if (typeof it === 'number' || (type === 'number' && pattern !== undefined)) {
    const n = typeof it === 'number' ? it : Number(plainString(it).trim());
    if (Number.isNaN(n)) return plainString(it);
    return f.number(pattern).format(n);
  }
  return plainString(it).trim();
}

// Rendering ----------------------------------------------------------------------------------------------

function noticeSubtype(index: XmlIndex): string {
  for (const e of index.elements)
    if (e.local === 'SubTypeCode' && e.ns === CBC && index.elements[e.parent]?.local === 'NoticeSubType')
      return textContent(index, e).trim();
  return '';
}

function noticeLanguage(index: XmlIndex): string {
  const root = index.elements[0];
  if (!root) return '';
  for (const k of root.children) {
    const e = index.elements[k];
    if (e.local === 'NoticeLanguageCode' && e.ns === CBC) return textContent(index, e).trim();
  }
  return '';
}

function rangeOf(n: XNode): { start: number; end: number } | undefined {
  const index = n.doc.index;
  if (n.kind === ATTRIBUTE && n.parent && n.parent.el >= 0) {
    const a = index.elements[n.parent.el].attributes.find((x) => x.start === n.order);
    return a ? { start: a.start, end: a.valueEnd + 1 } : undefined;
  }
  if (n.el < 0) return undefined;
  const e = index.elements[n.el];
  return { start: e.start, end: e.end < 0 ? e.startTagEnd : e.end };
}

interface Run {
  sdk: PreviewSdk;
  lang: string;
  subtype: string;
  f: Formats;
  problems: RenderedNotice['problems'];
  failed: Set<number>;
  rt: Runtime;
  clock: () => number;
  lineTimeLimitMs: number;
  /** Milliseconds each template line has taken so far, and the lines that ran out of time. */
  spent: Map<number, number>;
  outOfTime: Set<number>;
}

/**
 * Starts an evaluation of a template line with what is left of its time (XPathTimeLimitError when
 * nothing is). Two calls around the evaluation rather than a function that takes it as a closure: the
 * preview makes one per line and context node, and most are over before the runtime reads its clock.
 */
function lineStart(run: Run, line: number): void {
  const left = run.lineTimeLimitMs - (run.spent.get(line) ?? 0);
  if (left <= 0) throw new XPathTimeLimitError(run.lineTimeLimitMs);
  run.rt.limitTime(left, run.clock);
}

function lineDone(run: Run, line: number): void {
  const took = run.rt.limitedElapsed();
  run.rt.limitTime(undefined);
  if (took > 0) run.spent.set(line, (run.spent.get(line) ?? 0) + took);
}

function lookup(run: Run, key: string): string {
  return run.sdk.label(run.lang, key) ?? run.sdk.label('en', key) ?? key;
}

function codeLabel(run: Run, list: string, code: string): string {
  return (
    run.sdk.label(run.lang, `code|name|${list}.${code}`) ??
    run.sdk.codeName(run.lang, list, code) ??
    run.sdk.label('en', `code|name|${list}.${code}`) ??
    code
  );
}

function fail(run: Run, line: number, e: unknown): void {
  if (e instanceof XPathTimeLimitError) {
    if (run.outOfTime.has(line)) return;
    run.outOfTime.add(line);
    run.failed.add(line);
    const seconds = (run.lineTimeLimitMs / 1000).toLocaleString('en');
    run.problems.push({
      message: `template line ${line} was left out: on a notice this large it takes longer than ${seconds} s`,
      templateLine: line,
    });
    return;
  }
  if (!(e instanceof XPathDynamicError || e instanceof XPathUnsupportedError)) throw e;
  if (run.failed.has(line)) return;
  run.failed.add(line);
  run.problems.push({ message: `template line ${line}: ${e.message}`, templateLine: line });
}

/** One line for one context node: its label, its value, whether a value is missing. */
function renderParts(
  run: Run,
  plan: LinePlan,
  node: XNode,
): { label: string; value: string; empty: boolean } {
  const texts: { s: string; value: boolean }[] = [];
  let valueParts = 0;
  let filled = 0;
  for (const p of plan.parts) {
    let s = '';
    let isValue = true;
    try {
      switch (p.kind) {
        case 'text':
          s = p.text;
          isValue = false;
          break;
        case 'key':
          s = lookup(run, p.key);
          isValue = false;
          break;
        case 'keys': {
          const keys = p.fn(node).map(plainString);
          s = keys
            .map((k) => {
              const m = /^code\|name\|([^.]+)\.(.*)$/.exec(k);
              return m ? codeLabel(run, m[1], m[2]) : lookup(run, k);
            })
            .join(', ');
          // A key computed from the notice (a currency, an indicator) is a value.
          isValue = keys.length > 0 && keys.some((k) => k.startsWith('code|'));
          break;
        }
        case 'value': {
          const items = p.fn(node);
          s = items
            .map((it) => formatItem(it, p.type, run.f, p.format))
            .filter((x) => x !== '')
            .join(', ');
          break;
        }
        case 'code':
          s = [...new Set(p.fn(node).map((it) => plainString(it).trim()))]
            .filter((c) => c !== '')
            .map((c) => codeLabel(run, p.list, c))
            .join(', ');
          break;
        case 'indicator':
          s = p
            .fn(node)
            .map((it) => {
              const v = plainString(it).trim();
              return (
                run.sdk.label(run.lang, `indicator|when-${v}|${p.fieldId}`) ??
                run.sdk.label(run.lang, `code|name|indicator.${v}`) ??
                v
              );
            })
            .join(', ');
          break;
        case 'broken':
          isValue = false;
          break;
      }
    } catch (e) {
      // Out of time, the whole line goes (renderLines), not this part alone.
      if (e instanceof XPathTimeLimitError) throw e;
      fail(run, plan.templateLine, e);
    }
    if (isValue) {
      valueParts++;
      if (s !== '') filled++;
    }
    texts.push({ s, value: isValue });
  }
  // `label: value`: the first text with a colon after labels only splits the line.
  let split = -1;
  for (let i = 0; i < texts.length; i++) {
    if (texts[i].value) break;
    if (plan.parts[i].kind === 'text' && texts[i].s.includes(':')) {
      split = i;
      break;
    }
  }
  const join = (xs: { s: string }[]): string =>
    xs
      .map((x) => x.s)
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
  let label: string;
  let value: string;
  if (split >= 0) {
    const t = texts[split].s;
    const c = t.indexOf(':');
    label = join([...texts.slice(0, split), { s: t.slice(0, c) }]);
    value = join([{ s: t.slice(c + 1) }, ...texts.slice(split + 1)]);
  } else if (valueParts === 0) {
    label = join(texts);
    value = '';
  } else {
    label = '';
    value = join(texts);
  }
  return { label, value, empty: valueParts > 0 && filled === 0 };
}

function renderLines(
  run: Run,
  plans: LinePlan[],
  node: XNode,
  parentNumber: string | undefined,
): RenderedLine[] {
  const out: RenderedLine[] = [];
  for (const plan of plans) {
    const ctx = plan.ctx;
    if (!ctx || run.outOfTime.has(plan.templateLine)) continue;
    let nodes: unknown[];
    try {
      lineStart(run, plan.templateLine);
      try {
        nodes = ctx(node);
      } finally {
        lineDone(run, plan.templateLine);
      }
    } catch (e) {
      fail(run, plan.templateLine, e);
      continue;
    }
    const number =
      plan.outline !== undefined && plan.outline > 0
        ? parentNumber
          ? `${parentNumber}.${plan.outline}`
          : String(plan.outline)
        : undefined;
    const childNumber = number ?? parentNumber;
    if (nodes.length === 0) {
      // An absent field the subtype requires without condition: shown empty and flagged.
      const field = plan.contextKind === 'field' ? run.sdk.fields.get(plan.contextId) : undefined;
      if (plan.plain && field?.mandatoryIn.has(run.subtype) && plan.children.length === 0) {
        // The label is what precedes the first colon, as for a line with a value.
        let label = '';
        for (const p of plan.parts) {
          if (p.kind === 'key') label += lookup(run, p.key);
          else if (p.kind === 'text') {
            const c = p.text.indexOf(':');
            label += c < 0 ? p.text : p.text.slice(0, c);
            if (c >= 0) break;
          } else break;
        }
        label = label.replace(/\s+/g, ' ').trim();
        if (label)
          out.push({ label, value: '', flagged: true, templateLine: plan.templateLine, children: [] });
      }
      continue;
    }
    for (const n of nodes) {
      if (!(n instanceof XNode)) continue;
      let parts: ReturnType<typeof renderParts>;
      try {
        lineStart(run, plan.templateLine);
        try {
          parts = renderParts(run, plan, n);
        } finally {
          lineDone(run, plan.templateLine);
        }
      } catch (e) {
        fail(run, plan.templateLine, e);
        break;
      }
      const { label, value, empty } = parts;
      const line: RenderedLine = {
        label,
        value,
        templateLine: plan.templateLine,
        children: renderLines(run, plan.children, n, childNumber),
      };
      if (number) line.number = number;
      // An empty value flags the line when the element is there but empty, or the field it shows is
      // one the subtype requires.
      if (
        empty &&
        (plan.contextKind === 'field' ||
          (plan.labelField !== undefined &&
            run.sdk.fields.get(plan.labelField)?.mandatoryIn.has(run.subtype)))
      )
        line.flagged = true;
      let shown: XNode = n;
      if (plan.target) {
        try {
          const t = plan.target(n)[0];
          if (t instanceof XNode) shown = t;
        } catch {
          // The context's own range serves.
        }
      }
      const r = rangeOf(shown);
      if (r) line.range = r;
      out.push(line);
    }
  }
  return out;
}

const TODAY = parseDate('2000-01-01Z');

/** The XPath data model of an index, kept while the index lives: a preview re-rendered in another
 * language, or beside validation, does not rebuild it. An index is never edited after it is built. */
const documents = new WeakMap<XmlIndex, XDocument>();
function documentOf(index: XmlIndex): XDocument {
  let d = documents.get(index);
  if (!d) {
    d = new XDocument(index);
    documents.set(index, d);
  }
  return d;
}

/** The notice rendered with its subtype's view template in `opts.language`. Never throws on bad input. */
export function renderNotice(
  notice: string | XmlIndex,
  sdk: PreviewSdk,
  opts: RenderOptions,
): RenderedNotice {
  const index = typeof notice === 'string' ? indexXml(notice) : notice;
  const language = sdk.languages.includes(opts.language) ? opts.language : 'en';
  const subtype = opts.subtype ?? noticeSubtype(index);
  const result: RenderedNotice = {
    subtype,
    sdkVersion: sdk.version,
    language,
    languages: [...sdk.languages],
    lines: [],
    problems: [],
  };
  if (language !== opts.language)
    result.problems.push({
      message: `SDK ${sdk.version} has no labels in '${opts.language}': rendered in ${language}`,
    });
  if (!index.elements[0]) {
    result.problems.push({ message: 'the notice has no root element: nothing to render' });
    return result;
  }
  if (!subtype) {
    result.problems.push({
      message: 'the notice has no notice subtype (efac:NoticeSubType/cbc:SubTypeCode): nothing to render',
    });
    return result;
  }
  const plan = planFor(sdk, subtype);
  if (typeof plan === 'string') {
    result.problems.push({ message: plan });
    return result;
  }
  result.problems.push(...plan.problems);
  const doc = documentOf(index);
  plan.rt.reset(doc, TODAY);
  plan.langs.chosen = (Object.hasOwn(ISO3, language) ? ISO3[language] : undefined) ?? language.toUpperCase();
  plan.langs.notice = noticeLanguage(index);
  const run: Run = {
    sdk,
    lang: language,
    subtype,
    f: formatsFor(language),
    problems: result.problems,
    failed: new Set(),
    rt: plan.rt,
    clock: opts.clock ?? (() => performance.now()),
    lineTimeLimitMs: opts.lineTimeLimitMs ?? LINE_TIME_LIMIT_MS,
    spent: new Map(),
    outOfTime: new Set(),
  };
  result.lines = renderLines(run, plan.roots, doc.node, undefined);
  return result;
}
