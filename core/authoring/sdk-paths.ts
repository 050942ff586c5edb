// The XPaths of the SDK's fields.json as steps a notice's elements can be matched against: canonical
// names (the SDK's prefixes, whatever prefixes a notice declares) and the few predicate forms the SDK
// uses (`[cbc:ID/@schemeName='Lot']`, `[not(...)]`, `and`, `or`, `text()=`). The text is read by the
// XPath engine's parser (core/xpath), never here. A predicate this module cannot read is "unknown",
// never an error: bad metadata must not break hover or completion.
// No `vscode` import here, and no I/O.

import { attributeValue, decodeXmlText, NS, PREFIX_OF, type XmlElement, type XmlIndex } from '../notice';
import { type Ast, parseXPath, XPathSyntaxError } from '../xpath';

/** The namespaces of an eForms notice and the prefixes the SDK writes them with. */
export const SDK_PREFIXES: Readonly<Record<string, string>> = PREFIX_OF;

/** The namespace URI of an SDK prefix. */
export const SDK_NAMESPACES: Readonly<Record<string, string>> = NS;

/** `cac:ProcurementProject` for an element in the UBL aggregate namespace, whatever its prefix. */
export function canonicalName(element: Pick<XmlElement, 'ns' | 'local' | 'qname'>): string {
  const p = SDK_PREFIXES[element.ns];
  return p ? `${p}:${element.local}` : element.qname;
}

export type Predicate =
  | { kind: 'and' | 'or'; parts: Predicate[] }
  | { kind: 'not'; inner: Predicate }
  | { kind: 'path'; path: PathStep[]; equals?: string }
  | { kind: 'unknown'; text: string };

export interface PathStep {
  /** `cbc:ID`, `@schemeName` or `text()`. */
  name: string;
  predicates: Predicate[];
}

const SDK_NAMESPACE_MAP: ReadonlyMap<string, string> = new Map(Object.entries(SDK_NAMESPACES));
const PARSE_OPTIONS = { markUnprefixed: true, keepPredicateText: true } as const;

/**
 * The steps of an absolute SDK XPath after `/*` (the root), each with its predicates. The text is read by
 * the XPath engine's parser (core/xpath); a path it cannot read gives no steps.
 */
export function parseSdkPath(xpath: string): PathStep[] {
  let ast: Ast;
  try {
    ast = parseXPath(xpath, SDK_NAMESPACE_MAP, PARSE_OPTIONS);
  } catch (e) {
    if (e instanceof XPathSyntaxError) return [];
    throw e;
  }
  const asts = ast.t === 'path' ? ast.steps : [ast];
  let from = 0;
  // `/*`: the root element, whatever its name; the steps start below it.
  if (asts[0]?.t === 'root') {
    from = 1;
    const root = asts[1];
    if (
      root?.t === 'step' &&
      root.axis === 'child' &&
      root.test.k === 'name' &&
      root.test.local === undefined
    )
      from = 2;
  }
  const steps = pathSteps(asts.slice(from));
  return steps ?? [];
}

/**
 * The steps of a relative SDK XPath (a field's `xpathRelative`: `cac:X/cbc:Y[…]`), read by the engine's
 * parser; undefined when it is not a path of steps this module reads. fields.json writes each absolute
 * path as its parent's plus `/` and this: reading only this (a sixth of the text) and the parent's steps
 * once gives the same steps as parseSdkPath of the whole (test/authoring/sdk-relative-paths.test.ts).
 */
export function parseSdkRelativePath(xpath: string): PathStep[] | undefined {
  // `//` (descendants) or an absolute path: not a continuation of the parent's steps.
  if (xpath === '' || xpath.startsWith('/')) return undefined;
  let ast: Ast;
  try {
    ast = parseXPath(xpath, SDK_NAMESPACE_MAP, PARSE_OPTIONS);
  } catch (e) {
    if (e instanceof XPathSyntaxError) return undefined;
    throw e;
  }
  const asts = ast.t === 'path' ? ast.steps : [ast];
  if (asts.length === 0 || asts.some((a) => a.t !== 'step')) return undefined;
  return pathSteps(asts);
}

/** The path as a key without predicates: `cac:ProcurementProjectLot/cbc:ID` or `.../@listName`. */
export function pathKey(steps: readonly PathStep[]): string {
  return steps.map((s) => s.name).join('/');
}

/** The SDK's name of a name test: its prefix for the namespace (`cbc:ID`), `@` first on the attribute axis. */
function stepName(ast: Ast): string | undefined {
  if (ast.t === 'ctx') return '.';
  if (ast.t !== 'step') return undefined;
  const { axis, test } = ast;
  if (axis === 'child' && test.k === 'kind' && test.kind === 'text') return 'text()';
  if (test.k !== 'name' || (axis !== 'child' && axis !== 'attribute')) return undefined;
  const local = test.local ?? '*';
  const prefix = test.ns === undefined ? '*' : test.ns === '' ? '' : SDK_PREFIXES[test.ns];
  if (prefix === undefined) return undefined;
  return `${axis === 'attribute' ? '@' : ''}${prefix ? `${prefix}:` : ''}${local}`;
}

/** Path steps of AST steps; undefined when one is not a step this module reads. */
function pathSteps(asts: readonly Ast[]): PathStep[] | undefined {
  const out: PathStep[] = [];
  for (const a of asts) {
    const name = stepName(a);
    if (name === undefined) return undefined;
    const preds = a.t === 'step' ? a.preds : [];
    const texts = a.t === 'step' ? (a.predText ?? []) : [];
    out.push({ name, predicates: preds.map((p, k) => predicateOf(p, (texts[k] ?? '').trim())) });
  }
  return out;
}

/** The predicate forms the SDK writes, from the engine's AST; anything else is kept as `unknown`. */
function predicateOf(ast: Ast, text: string): Predicate {
  const unknown: Predicate = { kind: 'unknown', text };
  if (ast.t === 'or' || ast.t === 'and') {
    const parts = ast.args.map((x) => predicateOf(x, text));
    return { kind: ast.t, parts };
  }
  if (ast.t === 'call' && ast.fn === 'not' && ast.args.length === 1) {
    return { kind: 'not', inner: predicateOf(ast.args[0] as Ast, text) };
  }
  if (ast.t === 'cmp' && ast.kind === 'general' && ast.op === '=') {
    const [pathAst, lit] = ast.r.t === 'str' ? [ast.l, ast.r.v] : ast.l.t === 'str' ? [ast.r, ast.l.v] : [];
    if (pathAst === undefined || lit === undefined) return unknown;
    const path = pathSteps(pathAst.t === 'path' ? pathAst.steps : [pathAst]);
    return path && path.length > 0 ? { kind: 'path', path, equals: lit } : unknown;
  }
  if (ast.t === 'path' || ast.t === 'step') {
    const path = pathSteps(ast.t === 'path' ? ast.steps : [ast]);
    return path && path.length > 0 ? { kind: 'path', path } : unknown;
  }
  return unknown;
}

/** Parses one predicate the way the SDK writes it; anything this module cannot read is `unknown`. */
export function parsePredicate(text: string): Predicate {
  const t = text.trim();
  try {
    return predicateOf(parseXPath(t, SDK_NAMESPACE_MAP, PARSE_OPTIONS), t);
  } catch (e) {
    if (e instanceof XPathSyntaxError) return { kind: 'unknown', text: t };
    throw e;
  }
}

/** true, false, or undefined when the predicate is one this module cannot read. */
export function evaluatePredicate(index: XmlIndex, element: XmlElement, p: Predicate): boolean | undefined {
  switch (p.kind) {
    case 'unknown':
      return undefined;
    case 'not': {
      const v = evaluatePredicate(index, element, p.inner);
      return v === undefined ? undefined : !v;
    }
    case 'and': {
      let unknown = false;
      for (const part of p.parts) {
        const v = evaluatePredicate(index, element, part);
        if (v === false) return false;
        if (v === undefined) unknown = true;
      }
      return unknown ? undefined : true;
    }
    case 'or': {
      let unknown = false;
      for (const part of p.parts) {
        const v = evaluatePredicate(index, element, part);
        if (v === true) return true;
        if (v === undefined) unknown = true;
      }
      return unknown ? undefined : false;
    }
    case 'path': {
      const values = selectValues(index, element, p.path);
      if (values === undefined) return undefined;
      if (p.equals === undefined) return values.length > 0;
      return values.some((v) => v.trim() === p.equals);
    }
  }
}

/** The string values a relative path selects from an element; undefined when a step is unreadable. */
function selectValues(index: XmlIndex, from: XmlElement, path: readonly PathStep[]): string[] | undefined {
  let current: XmlElement[] = [from];
  for (let i = 0; i < path.length; i++) {
    const step = path[i] as PathStep;
    if (step.name.startsWith('@')) {
      if (i !== path.length - 1) return undefined;
      const local = step.name.slice(1);
      const out: string[] = [];
      for (const e of current)
        for (const a of e.attributes)
          if (a.local === local && a.ns === '') out.push(attributeValue(index, a));
      return out;
    }
    if (step.name === 'text()') {
      if (i !== path.length - 1) return undefined;
      return current.map((e) => directText(index, e));
    }
    if (step.name === '.') continue;
    const next: XmlElement[] = [];
    for (const e of current)
      for (const c of e.children) {
        const child = index.element(c);
        if (!child || canonicalName(child) !== step.name) continue;
        let keep = true;
        for (const pr of step.predicates) if (evaluatePredicate(index, child, pr) === false) keep = false;
        if (keep) next.push(child);
      }
    current = next;
  }
  return current.map((e) => directText(index, e));
}

/** Character data directly inside an element, up to its first child or end tag (enough for codes and ids). */
export function directText(index: XmlIndex, e: XmlElement): string {
  if (e.end < 0 || e.end === e.startTagEnd) return '';
  const stop = index.text.indexOf('<', e.startTagEnd);
  return decodeXmlText(index.text, e.startTagEnd, stop < 0 ? e.end : stop).trim();
}
