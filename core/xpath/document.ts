// The XPath data model of one notice, built once per evaluation over core/xml-index: a document node,
// elements, attributes (namespace declarations left out) and text nodes, each with its document order,
// and the elements indexed by expanded name so that `//x` never rescans the tree. It wraps the index
// and never edits it. No `vscode` import here, no I/O.

import { characterData, contentEnd, decodeXmlText, textContent, type XmlIndex } from '../notice';

export const DOCUMENT = 0;
export const ELEMENT = 1;
export const ATTRIBUTE = 2;
export const TEXT = 3;

/** Shared by every node without children or attributes: most leaves have none, and a notice can have
 * tens of thousands of nodes, so one array each would be garbage to collect on every keystroke. */
const NONE: XNode[] = [];

/** From this many element children on, named child lookups use a table instead of a scan. */
const MANY_CHILDREN = 16;

export class XNode {
  /** Element children only, in document order. Never mutate: it may be the shared empty array. */
  kids: XNode[] = NONE;
  attrs: XNode[] = NONE;
  #texts: XNode[] | undefined;
  #string: string | undefined;
  /** The node's value as untypedAtomic, made once (comparisons atomize the same nodes many times). */
  untyped: unknown;
  /** Scratch for the engine: which pattern run has claimed this node. */
  mark = 0;
  /** Element children by local name then namespace, built on the first named lookup of an element with
   * many children. */
  #byName: Map<string, Map<string, XNode[]>> | undefined;

  constructor(
    readonly doc: XDocument,
    readonly kind: 0 | 1 | 2 | 3,
    /** Document order: the offset of the node in the text (-1 for the document node). */
    readonly order: number,
    readonly parent: XNode | null,
    readonly ns: string,
    readonly local: string,
    /** Index in XmlIndex.elements for an element, -1 otherwise. */
    readonly el: number,
    value?: string,
  ) {
    this.#string = value;
  }

  /** The string value (XPath `string()`): text content for elements, the value for others. */
  get string(): string {
    if (this.#string === undefined) {
      const index = this.doc.index;
      this.#string =
        this.kind === ELEMENT
          ? textContent(index, index.elements[this.el])
          : this.kind === DOCUMENT
            ? this.doc.root
              ? this.doc.root.string
              : ''
            : '';
    }
    return this.#string;
  }

  /**
   * Element children with this expanded name, in document order; never mutate the result (it may be
   * shared). An element with many children (the notice root with N lots, NoticeResult with N results)
   * answers from a table built once, so that `cac:ProcurementProjectLot` from the root costs the lots it
   * finds, not a scan of all children on every call.
   */
  childrenNamed(ns: string, local: string): XNode[] {
    const kids = this.kids;
    if (kids.length < MANY_CHILDREN) {
      let out: XNode[] = NONE;
      for (let i = 0; i < kids.length; i++) {
        const k = kids[i];
        if (k.local === local && k.ns === ns) {
          if (out === NONE) out = [k];
          else out.push(k);
        }
      }
      return out;
    }
    let byName = this.#byName;
    if (byName === undefined) {
      byName = new Map();
      for (const k of kids) {
        let byNs = byName.get(k.local);
        if (byNs === undefined) {
          byNs = new Map();
          byName.set(k.local, byNs);
        }
        const list = byNs.get(k.ns);
        if (list) list.push(k);
        else byNs.set(k.ns, [k]);
      }
      this.#byName = byName;
    }
    return byName.get(local)?.get(ns) ?? NONE;
  }

  /** Text-node children, computed on first use (rules read `text()` of leaf elements). */
  get texts(): XNode[] {
    if (this.#texts === undefined) this.#texts = this.kind === ELEMENT ? this.doc.textChildren(this) : NONE;
    return this.#texts;
  }
}

export class XDocument {
  readonly node: XNode;
  /** The document element, undefined for an empty document. */
  readonly root: XNode | undefined;
  /** Every element in document order. */
  readonly elements: XNode[] = [];
  /** Elements by local name, then namespace: no `ns\0local` key string to build on every `//x` call. */
  #byName: Map<string, Map<string, XNode[]>> | undefined;

  constructor(readonly index: XmlIndex) {
    this.node = new XNode(this, DOCUMENT, -1, null, '', '', -1);
    const els = index.elements;
    const nodes = this.elements;
    for (let k = 0; k < els.length; k++) {
      const e = els[k];
      const parent = e.parent < 0 ? this.node : nodes[e.parent];
      const n = new XNode(this, ELEMENT, e.start, parent, e.ns, e.local, k);
      nodes.push(n);
      if (parent.kids === NONE) parent.kids = [n];
      else parent.kids.push(n);
      for (const a of e.attributes) {
        if (a.qname === 'xmlns' || a.qname.startsWith('xmlns:')) continue;
        const value = decodeAttr(index, a.valueStart, a.valueEnd);
        const an = new XNode(this, ATTRIBUTE, a.start, n, a.ns, a.local, -1, value);
        if (n.attrs === NONE) n.attrs = [an];
        else n.attrs.push(an);
      }
    }
    this.root = this.node.kids[0];
  }

  /** Elements with this expanded name, in document order. */
  named(ns: string, local: string): XNode[] {
    let map = this.#byName;
    if (!map) {
      map = new Map();
      for (const n of this.elements) {
        let byNs = map.get(n.local);
        if (!byNs) {
          byNs = new Map();
          map.set(n.local, byNs);
        }
        const list = byNs.get(n.ns);
        if (list) list.push(n);
        else byNs.set(n.ns, [n]);
      }
      this.#byName = map;
    }
    return map.get(local)?.get(ns) ?? NONE;
  }

  textChildren(n: XNode): XNode[] {
    const index = this.index;
    const e = index.elements[n.el];
    const end = contentEnd(index, e);
    if (end < 0) return [];
    let out: XNode[] = NONE;
    let from = e.startTagEnd;
    const push = (a: number, b: number): void => {
      if (b <= a) return;
      const value = characterData(index.text, a, b);
      if (value === '') return;
      const t = new XNode(this, TEXT, a, n, '', '', -1, value);
      if (out === NONE) out = [t];
      else out.push(t);
    };
    for (const kid of n.kids) {
      const ke = index.elements[kid.el];
      push(from, ke.start);
      from = ke.end < 0 ? end : ke.end;
    }
    push(from, end);
    return out;
  }
}

function decodeAttr(index: XmlIndex, start: number, end: number): string {
  // Attribute-value normalization (XML 1.0 §3.3.3): literal white space characters read as spaces.
  const raw = index.text.slice(start, end);
  const spaced = /[\t\r\n]/.test(raw) ? raw.replace(/\r\n|[\t\r\n]/g, ' ') : raw;
  return decodeXmlText(spaced, 0, spaced.length);
}

/**
 * Where a node is in the index, as plain numbers: the element's index in XmlIndex.elements (the owner
 * element for an attribute or a text node), the attribute's index in its attributes, and the node's own
 * start offset (`<` of an element, first character of an attribute name) so that a reader can tell that
 * an index of another text no longer has the node there. Numbers, not XNodes: a report carrying them
 * crosses a worker boundary by structured clone.
 */
export interface NodeRef {
  element: number;
  attribute?: number;
  start: number;
}

/** The NodeRef of a node; undefined for the document node. */
export function nodeRef(n: XNode): NodeRef | undefined {
  if (n.kind === ELEMENT) return { element: n.el, start: n.order };
  const owner = n.parent;
  if (!owner || owner.kind !== ELEMENT) return undefined;
  if (n.kind === ATTRIBUTE) {
    const attrs = n.doc.index.elements[owner.el].attributes;
    for (let a = 0; a < attrs.length; a++)
      if (attrs[a].start === n.order) return { element: owner.el, attribute: a, start: n.order };
  }
  // A text node: the finding goes on its element, as the SVRL location `…/text()` is placed.
  return { element: owner.el, start: owner.order };
}

/** Sorts nodes into document order and drops duplicates (in place when possible). */
export function docOrder(nodes: XNode[]): XNode[] {
  if (nodes.length < 2) return nodes;
  let sorted = true;
  for (let i = 1; i < nodes.length; i++) {
    if (nodes[i - 1].order >= nodes[i].order) {
      sorted = false;
      break;
    }
  }
  if (sorted) return nodes;
  const copy = nodes.slice().sort((x, y) => x.order - y.order);
  const out: XNode[] = [copy[0]];
  for (let i = 1; i < copy.length; i++) if (copy[i] !== copy[i - 1]) out.push(copy[i]);
  return out;
}
