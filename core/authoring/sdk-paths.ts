// The XPaths of the SDK's fields.json as steps a notice's elements can be matched against: canonical
// names (the SDK's prefixes, whatever prefixes a notice declares) and the few predicate forms the SDK
// uses (`[cbc:ID/@schemeName='Lot']`, `[not(...)]`, `and`, `or`, `text()=`). A predicate this module
// cannot read is "unknown", never an error: bad metadata must not break hover or completion.
// No `vscode` import here, and no I/O.

import { attributeValue, decodeXmlText, type XmlElement, type XmlIndex } from '../notice';
import { isBalanced, splitTopLevel } from '../xpath';

/** The namespaces of an eForms notice and the prefixes the SDK writes them with. */
export const SDK_PREFIXES: Readonly<Record<string, string>> = {
  'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2': 'cbc',
  'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2': 'cac',
  'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2': 'ext',
  'http://data.europa.eu/p27/eforms-ubl-extension-aggregate-components/1': 'efac',
  'http://data.europa.eu/p27/eforms-ubl-extension-basic-components/1': 'efbc',
  'http://data.europa.eu/p27/eforms-ubl-extensions/1': 'efext',
};

/** The namespace URI of an SDK prefix. */
export const SDK_NAMESPACES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(SDK_PREFIXES).map(([uri, p]) => [p, uri]),
);

/** `cac:ProcurementProject` for an element in the UBL aggregate namespace, whatever its prefix. */
export function canonicalName(element: XmlElement): string {
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

/** The steps of an absolute SDK XPath after `/*` (the root), each with its predicates. */
export function parseSdkPath(xpath: string): PathStep[] {
  const body = xpath.startsWith('/*') ? xpath.slice(2) : xpath;
  return splitPath(body.replace(/^\//, '')).map(parseStep);
}

/** The path as a key without predicates: `cac:ProcurementProjectLot/cbc:ID` or `.../@listName`. */
export function pathKey(steps: readonly PathStep[]): string {
  return steps.map((s) => s.name).join('/');
}

function splitPath(path: string): string[] {
  return splitTopLevel(path, '/').filter((s) => s.length > 0);
}

function parseStep(raw: string): PathStep {
  const open = raw.indexOf('[');
  if (open < 0) return { name: raw.trim(), predicates: [] };
  const predicates: Predicate[] = [];
  let depth = 0;
  let quote = '';
  let from = -1;
  for (let i = open; i < raw.length; i++) {
    const c = raw[i];
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '[') {
      if (depth === 0) from = i + 1;
      depth++;
    } else if (c === ']') {
      depth--;
      if (depth === 0) predicates.push(parsePredicate(raw.slice(from, i)));
    }
  }
  return { name: raw.slice(0, open).trim(), predicates };
}

/** Parses the predicate forms the SDK writes; anything else is kept as `unknown`. */
export function parsePredicate(text: string): Predicate {
  const t = text.trim();
  const ors = splitTopLevel(t, ' or ');
  if (ors.length > 1) return { kind: 'or', parts: ors.map(parsePredicate) };
  const ands = splitTopLevel(t, ' and ');
  if (ands.length > 1) return { kind: 'and', parts: ands.map(parsePredicate) };
  if (/^not\s*\(/.test(t) && t.endsWith(')') && isBalanced(t.slice(t.indexOf('(') + 1, -1)))
    return { kind: 'not', inner: parsePredicate(t.slice(t.indexOf('(') + 1, -1)) };
  if (t.startsWith('(') && t.endsWith(')') && isBalanced(t.slice(1, -1)))
    return parsePredicate(t.slice(1, -1));
  const eq = /^(.+?)\s*=\s*(['"])(.*)\2$/.exec(t);
  const pathText = eq ? (eq[1] ?? '') : t;
  if (!/^[@A-Za-z_][\w.:@/()\-[\]'"= ]*$/.test(pathText) || /!|</.test(pathText))
    return { kind: 'unknown', text: t };
  const path = splitPath(pathText).map(parseStep);
  if (path.length === 0) return { kind: 'unknown', text: t };
  return eq ? { kind: 'path', path, equals: eq[3] ?? '' } : { kind: 'path', path };
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
        const child = index.elements[c];
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
