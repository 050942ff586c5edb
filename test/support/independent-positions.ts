// An independent resolver of SVRL locations, for tests only: built on saxes (namespace-aware, with
// position tracking), never on core/xml-index or core/svrl-mapping, so that the corpus tests compare
// the tool against positions found another way. It understands the location forms of the SDK reports
// (`/p:A/p:B[2]/@attr`) and simple relative paths (`p:C/p:D[@attr='v']`).

import { SaxesParser } from 'saxes';

export interface IndependentAttribute {
  name: string;
  local: string;
  uri: string;
  /** Offset of the first character of the attribute name. */
  start: number;
  value: string;
}

export interface IndependentElement {
  local: string;
  uri: string;
  /** Offset of the `<` of the start tag. */
  start: number;
  parent: IndependentElement | undefined;
  children: IndependentElement[];
  attributes: IndependentAttribute[];
}

/** Every element of a well-formed document, with its `<` offset; throws on malformed XML. */
export function independentTree(text: string): IndependentElement {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: IndependentElement[] = [];
  let root: IndependentElement | undefined;
  let pendingStart = -1;
  const attributeStarts = new Map<string, number>();
  parser.on('opentagstart', (tag) => {
    // saxes reports this just after the name and one more character: the `<` is the last `<name` before
    // that character (searching from the position itself found the next tag when it has the same name).
    pendingStart = text.lastIndexOf(`<${tag.name}`, parser.position - 1);
    attributeStarts.clear();
  });
  parser.on('attribute', (attr) => {
    // Just after the closing quote: walk back over the value, its opening quote, '=' and white space.
    const close = parser.position - 1;
    const quote = text[close];
    const open = text.lastIndexOf(quote, close - 1);
    let k = open - 1;
    while (/\s/.test(text[k])) k--;
    if (text[k] !== '=') throw new Error(`unexpected attribute syntax at ${k}`);
    k--;
    while (/\s/.test(text[k])) k--;
    attributeStarts.set(attr.name, k + 1 - attr.name.length);
  });
  parser.on('opentag', (tag) => {
    const el: IndependentElement = {
      local: tag.local,
      uri: tag.uri,
      start: pendingStart,
      parent: stack[stack.length - 1],
      children: [],
      attributes: Object.values(tag.attributes).map((a) => ({
        name: a.name,
        local: a.local,
        uri: a.uri,
        start: attributeStarts.get(a.name) ?? -1,
        value: a.value,
      })),
    };
    if (el.parent) el.parent.children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(text).close();
  if (!root) throw new Error('no root element');
  return root;
}

export type IndependentNode = { element: IndependentElement; attribute?: IndependentAttribute };

interface SimpleStep {
  attribute: boolean;
  uri: string;
  local: string;
  index?: number;
  /** `[@a='v']` predicate. */
  attrEquals?: { local: string; value: string };
}

/** Parses `p:Name`, `p:Name[3]`, `p:Name[@a='v']`, `@a`; undefined for anything else. */
function parseSimpleStep(step: string, namespaces: Map<string, string>): SimpleStep | undefined {
  const m = /^(@?)(?:([\w.-]+):)?([\w.-]+)(?:\[(\d+)\]|\[@([\w.-]+)='([^']*)'\])?$/.exec(step);
  if (!m) return undefined;
  const [, at, prefix, local, index, attrName, attrValue] = m;
  const uri = prefix === undefined ? '' : namespaces.get(prefix);
  if (uri === undefined) return undefined;
  return {
    attribute: at === '@',
    uri,
    local,
    index: index === undefined ? undefined : Number(index),
    attrEquals: attrName === undefined ? undefined : { local: attrName, value: attrValue },
  };
}

/**
 * Follows simple steps from an element. Returns the node, null when a step selects nothing, or
 * undefined when a step has a form this resolver does not read.
 */
export function followSteps(
  from: IndependentElement | { children: IndependentElement[] },
  steps: string[],
  namespaces: Map<string, string>,
): IndependentNode | null | undefined {
  let current: IndependentElement | { children: IndependentElement[] } = from;
  for (let k = 0; k < steps.length; k++) {
    const step = parseSimpleStep(steps[k], namespaces);
    if (!step) return undefined;
    if (step.attribute) {
      if (k !== steps.length - 1 || !('attributes' in current)) return undefined;
      const attribute = current.attributes.find((a) => a.local === step.local && a.uri === step.uri);
      return attribute ? { element: current, attribute } : null;
    }
    let matches = current.children.filter((c) => c.local === step.local && c.uri === step.uri);
    const eq = step.attrEquals;
    if (eq)
      matches = matches.filter((c) =>
        c.attributes.some((a) => a.local === eq.local && a.uri === '' && a.value === eq.value),
      );
    const chosen = matches[(step.index ?? 1) - 1];
    if (!chosen) return null;
    current = chosen;
  }
  return 'attributes' in current ? { element: current } : undefined;
}

/** Resolves an absolute location such as `/cn:ContractNotice/cac:Lot[2]/cbc:ID/@schemeName`. */
export function independentResolve(
  root: IndependentElement,
  location: string,
  namespaces: Map<string, string>,
): IndependentNode | null | undefined {
  if (!location.startsWith('/')) return undefined;
  return followSteps({ children: [root] }, location.slice(1).split('/'), namespaces);
}

/** Zero-based line and UTF-16 column of an offset, by counting `\n` (CRLF and LF line ends). */
export function lineAndCharacter(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  for (let k = text.indexOf('\n'); k >= 0 && k < offset; k = text.indexOf('\n', k + 1)) {
    line++;
    lineStart = k + 1;
  }
  return { line, character: offset - lineStart };
}
