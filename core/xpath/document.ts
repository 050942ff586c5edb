// The XPath data model of one notice, built once per evaluation over core/xml-index: a document node,
// elements, attributes (namespace declarations left out) and text nodes, each with its document order,
// and the elements indexed by expanded name so that `//x` never rescans the tree. It wraps the index
// and never edits it. No `vscode` import here, no I/O.

import {
  characterData,
  contentEndOf,
  decodeXmlText,
  firstElementFrom,
  textContentOf,
  type XmlIndex,
} from '../notice';

export const DOCUMENT = 0;
export const ELEMENT = 1;
export const ATTRIBUTE = 2;
export const TEXT = 3;

/** `el` of a node that is not an element is NOT_ELEMENT minus its kind (see XNode.el). */
const NOT_ELEMENT = -1;

/** Shared by every node without children or attributes: most leaves have none, and a notice can have
 * tens of thousands of nodes, so one array each would be garbage to collect on every keystroke. */
const NONE: XNode[] = [];

/** From this many element children on, named child lookups use a table instead of a scan. */
const MANY_CHILDREN = 16;

// Expanded names interned to small integers, for the whole process: a name test compiled once compares
// one integer with each node's instead of two strings. Id 0 is the empty name (document and text nodes).
// The table only grows with the distinct names of the notices and rules seen, a few thousand for eForms.
const NAME_NS: string[] = [''];
const NAME_LOCAL: string[] = [''];
const NAME_IDS = new Map<string, Map<string, number>>([['', new Map([['', 0]])]]);

/** The integer of an expanded name, the same for every document and every compiled rule. */
export function nameId(ns: string, local: string): number {
  let byNs = NAME_IDS.get(local);
  if (byNs === undefined) {
    byNs = new Map();
    NAME_IDS.set(local, byNs);
  }
  let id = byNs.get(ns);
  if (id === undefined) {
    id = NAME_NS.length;
    NAME_NS.push(ns);
    NAME_LOCAL.push(local);
    byNs.set(ns, id);
  }
  return id;
}

/** What few nodes need: text-node children once read, and the named-children table of a wide element. */
interface Extra {
  texts?: XNode[];
  byName?: Map<number, XNode[]>;
}

/**
 * One node of the model. Kept to few fields (a 5,000-lot notice has millions of nodes): the expanded
 * name is one interned integer (`ns` and `local` read it back), the string value and its untypedAtomic
 * share one slot, and the rarely used tables live in `extra`.
 */
export class XNode {
  /** Element children only, in document order. Never mutate: it may be the shared empty array. */
  kids: XNode[] = NONE;
  /** The attribute nodes once made (see `attrs`); NONE when the element has none. */
  attrList: XNode[] | undefined = NONE;
  /** The string value once read (a string), or the untypedAtomic made of it once atomized (an object
   * with the string as `s`, values.ts): comparisons atomize the same nodes many times. */
  val: string | { readonly s: string } | undefined;
  extra: Extra | undefined = undefined;
  /** This node as a one-item sequence once made (`single`); an only child's is its parent's `kids`. */
  one: XNode[] | undefined = undefined;

  constructor(
    readonly doc: XDocument,
    /** Document order: the offset of the node in the text (-1 for the document node). */
    readonly order: number,
    readonly parent: XNode | null,
    /** The interned expanded name (nameId); 0 for the document and text nodes. */
    readonly name: number,
    /**
     * Index in XmlIndex.elements for an element; for the other nodes, their kind: NOT_ELEMENT - kind
     * (-1 the document node, -3 an attribute, -4 a text node). One field for both: a large notice has
     * millions of nodes, and each field costs 8 bytes on every one of them.
     */
    readonly el: number,
    value?: string,
  ) {
    this.val = value;
  }

  /** DOCUMENT, ELEMENT, ATTRIBUTE or TEXT. */
  get kind(): 0 | 1 | 2 | 3 {
    const e = this.el;
    return e >= 0 ? ELEMENT : ((NOT_ELEMENT - e) as 0 | 2 | 3);
  }

  /**
   * Attribute nodes (namespace declarations left out), in document order; never mutate. Made on the
   * first read: most elements' attributes are never asked for, and a node and a decoded value for each
   * was a fifth of the model. The same array (and nodes) on every read.
   */
  get attrs(): XNode[] {
    const a = this.attrList;
    if (a !== undefined) return a;
    const made = this.doc.attributesOf(this);
    this.attrList = made;
    return made;
  }

  /**
   * This node as a one-item sequence, the same array every time: a step that selects one node (a named
   * child, `..`, a walk that finds one node) returns it instead of a fresh array. Sequences are never
   * mutated (the rule every shared list, memo and name table already follows).
   */
  get single(): XNode[] {
    let one = this.one;
    if (one === undefined) {
      one = [this];
      this.one = one;
    }
    return one;
  }

  get ns(): string {
    return NAME_NS[this.name];
  }

  get local(): string {
    return NAME_LOCAL[this.name];
  }

  /** The string value (XPath `string()`): text content for elements, the value for others. */
  get string(): string {
    const v = this.val;
    if (typeof v === 'string') return v;
    if (v !== undefined) return v.s;
    const doc = this.doc;
    const t = doc.index.table;
    const s =
      this.kind === ELEMENT
        ? textContentOf(doc.index.text, t.startTagEnd[this.el], t.end[this.el])
        : this.kind === DOCUMENT
          ? doc.root
            ? doc.root.string
            : ''
          : '';
    this.val = s;
    return s;
  }

  /**
   * Element children with this expanded name, in document order; never mutate the result (it may be
   * shared). An element with many children (the notice root with N lots, NoticeResult with N results)
   * answers from a table built once, so that `cac:ProcurementProjectLot` from the root costs the lots it
   * finds, not a scan of all children on every call.
   */
  childrenNamed(ns: string, local: string): XNode[] {
    return this.childrenWithName(nameId(ns, local));
  }

  /** childrenNamed by interned name. */
  childrenWithName(name: number): XNode[] {
    const kids = this.kids;
    if (kids.length < MANY_CHILDREN) {
      // Counted first, then a list of that length: most answers are one node, and a list grown by push
      // past one keeps room for 16 more.
      let found = 0;
      let first = -1;
      for (let i = 0; i < kids.length; i++) {
        if (kids[i].name === name) {
          if (found++ === 0) first = i;
        }
      }
      if (found === 0) return NONE;
      if (found === 1) return kids[first].single;
      const out: XNode[] = new Array(found);
      let j = 0;
      for (let i = first; j < found; i++) if (kids[i].name === name) out[j++] = kids[i];
      return out;
    }
    return this.nameTable().get(name) ?? NONE;
  }

  /** The first element child with this name, or undefined: existence without building a list. */
  firstChildWithName(name: number): XNode | undefined {
    const kids = this.kids;
    if (kids.length < MANY_CHILDREN) {
      for (let i = 0; i < kids.length; i++) if (kids[i].name === name) return kids[i];
      return undefined;
    }
    return this.nameTable().get(name)?.[0];
  }

  /** The element children by name, built on the first named lookup of an element with many children. */
  nameTable(): Map<number, XNode[]> {
    let extra = this.extra;
    if (extra === undefined) {
      extra = {};
      this.extra = extra;
    }
    let byName = extra.byName;
    if (byName === undefined) {
      byName = new Map();
      for (const k of this.kids) {
        const list = byName.get(k.name);
        if (list) list.push(k);
        else byName.set(k.name, [k]);
      }
      extra.byName = byName;
    }
    return byName;
  }

  /** Text-node children, computed on first use (rules read `text()` of leaf elements). */
  get texts(): XNode[] {
    if (this.kind !== ELEMENT) return NONE;
    let extra = this.extra;
    if (extra === undefined) {
      extra = {};
      this.extra = extra;
    }
    if (extra.texts === undefined) extra.texts = this.doc.textChildren(this);
    return extra.texts;
  }
}

export class XDocument {
  readonly node: XNode;
  /** The document element, undefined for an empty document. */
  readonly root: XNode | undefined;
  /** Every element in document order. */
  readonly elements: XNode[];
  /** Elements by interned name: `//x` never rescans. */
  #byName: Map<number, XNode[]> | undefined;

  /**
   * The interned name (nameId) of each of the index table's names, and whether it is a namespace
   * declaration (an attribute the model leaves out): the table names each element and attribute by a
   * small index, so a name resolves once per document, not once per element.
   */
  readonly #nameIds: Int32Array;
  readonly #declaration: Uint8Array;

  constructor(readonly index: XmlIndex) {
    this.node = new XNode(this, -1, null, 0, NOT_ELEMENT - DOCUMENT);
    const t = index.table;
    const count = t.count;
    const names = t.names;
    const ids = new Int32Array(names.length);
    const declaration = new Uint8Array(names.length);
    for (let i = 0; i < names.length; i++) {
      ids[i] = nameId(names[i].ns, names[i].local);
      declaration[i] = isNamespaceDeclaration(names[i].qname) ? 1 : 0;
    }
    this.#nameIds = ids;
    this.#declaration = declaration;
    // Every list at its exact length, allocated once: the children of each parent are counted first
    // (a list grown by push keeps room for 16 more and leaves its smaller copies as garbage, and a
    // notice has hundreds of thousands of lists). Slot 0 is the document node, k + 1 element k.
    const parents = t.parent;
    const kidCount = new Int32Array(count + 1);
    for (let k = 0; k < count; k++) kidCount[parents[k] + 1]++;
    const filled = new Int32Array(count + 1);
    const nodes: XNode[] = new Array(count);
    const starts = t.start;
    const elementNames = t.name;
    const firstAttribute = t.firstAttribute;
    const attributeNames = t.attributeName;
    for (let k = 0; k < count; k++) {
      const p = parents[k];
      const slot = p + 1;
      const parent = p < 0 ? this.node : nodes[p];
      const n = new XNode(this, starts[k], parent, ids[elementNames[k]], k);
      nodes[k] = n;
      const siblings = kidCount[slot];
      if (siblings === 1) {
        parent.kids = [n];
        n.one = parent.kids;
      } else {
        if (parent.kids === NONE) parent.kids = new Array(siblings);
        parent.kids[filled[slot]++] = n;
      }
      // Attribute nodes are made when first read (`attrs`); an element without any keeps NONE.
      for (let a = firstAttribute[k]; a < firstAttribute[k + 1]; a++) {
        if (declaration[attributeNames[a]] === 0) {
          n.attrList = undefined;
          break;
        }
      }
    }
    this.elements = nodes;
    this.root = this.node.kids[0];
  }

  /** The attribute nodes of an element (namespace declarations left out), in document order. */
  attributesOf(n: XNode): XNode[] {
    if (n.kind !== ELEMENT) return NONE;
    const index = this.index;
    const t = index.table;
    const names = t.attributeName;
    const ids = this.#nameIds;
    let out: XNode[] = NONE;
    for (let a = t.firstAttribute[n.el]; a < t.firstAttribute[n.el + 1]; a++) {
      if (this.#declaration[names[a]] === 1) continue;
      const value = decodeAttr(index.text, t.attributeValueStart[a], t.attributeValueEnd[a]);
      const an = new XNode(this, t.attributeStart[a], n, ids[names[a]], NOT_ELEMENT - ATTRIBUTE, value);
      if (out === NONE) out = [an];
      else out.push(an);
    }
    // Of its exact length (see the constructor).
    return out.length > 1 ? out.slice() : out;
  }

  /** Elements with this expanded name, in document order. */
  named(ns: string, local: string): XNode[] {
    return this.withName(nameId(ns, local));
  }

  /**
   * Drops the string values and one-item lists that the elements starting at an order in [from, to)
   * have kept: caches that a later read makes again. A large notice's run calls it when it is done with
   * a window of the document (engine.ts), so that what the rules read there dies young instead of
   * outliving the young generation with the model (which made a large notice's run cost more per lot
   * than a small one's, for the garbage collector's copying).
   */
  forgetValues(from: number, to: number): void {
    const t = this.index.table;
    const starts = t.start;
    const nodes = this.elements;
    for (let k = firstElementFrom(t, from); k < t.count && starts[k] < to; k++) {
      const n = nodes[k];
      n.val = undefined;
      n.one = undefined;
    }
  }

  /** named() by interned name. */
  withName(name: number): XNode[] {
    let map = this.#byName;
    if (!map) {
      map = new Map();
      for (const n of this.elements) {
        const list = map.get(n.name);
        if (list) list.push(n);
        else map.set(n.name, [n]);
      }
      this.#byName = map;
    }
    return map.get(name) ?? NONE;
  }

  textChildren(n: XNode): XNode[] {
    const text = this.index.text;
    const t = this.index.table;
    const end = contentEndOf(text, t.startTagEnd[n.el], t.end[n.el]);
    if (end < 0) return NONE;
    let out: XNode[] = NONE;
    let from = t.startTagEnd[n.el];
    const push = (a: number, b: number): void => {
      if (b <= a) return;
      const value = characterData(text, a, b);
      if (value === '') return;
      const t = new XNode(this, a, n, 0, NOT_ELEMENT - TEXT, value);
      if (out === NONE) out = [t];
      else out.push(t);
    };
    for (const kid of n.kids) {
      push(from, t.start[kid.el]);
      const kidEnd = t.end[kid.el];
      from = kidEnd < 0 ? end : kidEnd;
    }
    push(from, end);
    return out;
  }
}

function isNamespaceDeclaration(qname: string): boolean {
  return qname === 'xmlns' || qname.startsWith('xmlns:');
}

function decodeAttr(text: string, start: number, end: number): string {
  // Attribute-value normalization (XML 1.0 §3.3.3): literal white space characters read as spaces.
  const raw = text.slice(start, end);
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
    const t = n.doc.index.table;
    const first = t.firstAttribute[owner.el];
    for (let a = first; a < t.firstAttribute[owner.el + 1]; a++)
      if (t.attributeStart[a] === n.order) return { element: owner.el, attribute: a - first, start: n.order };
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
