// A namespace-aware element tree over core/xml-index.ts, for the emulated CVS rules: child lookup by
// prefixed name (prefixes of the SVRL list, whatever prefixes the notice itself uses), text content
// with entities decoded, and the absolute paths the official reports print as `location`.
// It never throws on odd content and never reads anything outside the notice it is given.

import { contentEnd as endTagStart, type XmlElement, type XmlIndex } from '../../core/notice';

/** The prefixes of `svrl:ns-prefix-in-attribute-values`, in the order of the official reports. */
export const SVRL_NAMESPACES: readonly (readonly [string, string])[] = [
  ['xs', 'http://www.w3.org/2001/XMLSchema'],
  ['sch', 'http://purl.oclc.org/dsdl/schematron'],
  ['cbc', 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2'],
  ['cac', 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2'],
  ['ext', 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2'],
  ['efac', 'http://data.europa.eu/p27/eforms-ubl-extension-aggregate-components/1'],
  ['efext', 'http://data.europa.eu/p27/eforms-ubl-extensions/1'],
  ['efbc', 'http://data.europa.eu/p27/eforms-ubl-extension-basic-components/1'],
  ['can', 'urn:oasis:names:specification:ubl:schema:xsd:ContractAwardNotice-2'],
  ['cn', 'urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2'],
  ['pin', 'urn:oasis:names:specification:ubl:schema:xsd:PriorInformationNotice-2'],
  ['fn', 'http://www.w3.org/2005/xpath-functions'],
];

const URI_OF = new Map(SVRL_NAMESPACES.map(([p, u]) => [p, u]));
const PREFIX_OF = new Map(SVRL_NAMESPACES.map(([p, u]) => [u, p]));

/** Namespaces of the root elements the CVS accepts as eForms notices. */
export const NOTICE_ROOT_NAMESPACES: ReadonlySet<string> = new Set([
  'urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2',
  'urn:oasis:names:specification:ubl:schema:xsd:ContractAwardNotice-2',
  'urn:oasis:names:specification:ubl:schema:xsd:PriorInformationNotice-2',
  'http://data.europa.eu/p27/eforms-business-registration-information-notice/1',
]);

export class NoticeNode {
  readonly children: NoticeNode[] = [];
  private textCache: string | undefined;
  private locationCache: string | undefined;
  /** Place among the siblings of the same name (1-based), and how many there are; set by the parent. */
  private sameNameIndex = 0;
  private sameNameCount = 0;

  constructor(
    readonly index: XmlIndex,
    readonly el: XmlElement,
    readonly parent: NoticeNode | undefined,
  ) {}

  get local(): string {
    return this.el.local;
  }

  get ns(): string {
    return this.el.ns;
  }

  /** Attribute value by unprefixed local name (eForms attributes are in no namespace). */
  attr(name: string): string | undefined {
    for (const a of this.el.attributes) {
      if (a.ns === '' && a.local === name)
        return decodeXmlText(this.index.text.slice(a.valueStart, a.valueEnd));
    }
    return undefined;
  }

  hasAttr(name: string): boolean {
    return this.el.attributes.some((a) => a.ns === '' && a.local === name);
  }

  /** The element's own text (its text children, not its descendants'), entities decoded. */
  get text(): string {
    if (this.textCache !== undefined) return this.textCache;
    const src = this.index.text;
    const el = this.el;
    if (el.end < 0 || el.end <= el.startTagEnd) {
      this.textCache = '';
      return '';
    }
    // The own end tag's '<', found from the index: a search from el.end itself matched the parent's
    // end tag when it followed at once (`...</cbc:Note></cac:Lot>`), and took its name as text.
    const closeAt = endTagStart(this.index, el);
    const contentEnd = closeAt >= el.startTagEnd ? closeAt : el.end;
    let out = '';
    let pos = el.startTagEnd;
    for (const child of this.children) {
      out += decodeXmlText(src.slice(pos, child.el.start));
      pos = child.el.end < 0 ? contentEnd : child.el.end;
    }
    if (pos < contentEnd) out += decodeXmlText(src.slice(pos, contentEnd));
    this.textCache = out;
    return out;
  }

  /** normalize-space(.) of an element with no children (the leaf values rules look at). */
  get value(): string {
    return normalizeSpace(this.text);
  }

  /** Children named `prefix:local` (prefixes of SVRL_NAMESPACES); `*` matches any child. */
  kids(name: string): NoticeNode[] {
    if (name === '*') return this.children;
    const [uri, local] = resolveName(name);
    return this.children.filter((c) => c.el.local === local && c.el.ns === uri);
  }

  /**
   * Descendants along a relative path `a:b/c:d`, each step a name with optional predicates of the two
   * forms the rules use: `[@attr='value']` and `[child/path/@attr='value']`.
   */
  select(path: string): NoticeNode[] {
    let current: NoticeNode[] = [this];
    for (const step of splitSteps(path)) {
      const { name, predicates } = parseStep(step);
      const next: NoticeNode[] = [];
      for (const n of current) {
        for (const k of n.kids(name)) if (predicates.every((p) => p(k))) next.push(k);
      }
      current = next;
      if (current.length === 0) break;
    }
    return current;
  }

  has(path: string): boolean {
    return this.select(path).length > 0;
  }

  /** The absolute location as the official reports write it: `[n]` only where siblings share a name. */
  get location(): string {
    if (this.locationCache !== undefined) return this.locationCache;
    // Up to the nearest ancestor whose location is known, then down: no recursion, however deep.
    const chain: NoticeNode[] = [];
    for (let n: NoticeNode | undefined = this; n && n.locationCache === undefined; n = n.parent)
      chain.push(n);
    for (let k = chain.length - 1; k >= 0; k--) {
      const n = chain[k];
      n.locationCache = `${n.parent?.locationCache ?? ''}/${n.step()}`;
    }
    return this.locationCache as unknown as string;
  }

  /** This element's step in a location: `[n]` only where siblings share its name. */
  private step(): string {
    const step = qualified(this.el.ns, this.el.local);
    if (!this.parent) return step;
    // Positions among same-named siblings are counted once per parent, for all its children: a count
    // per finding was quadratic (20,000 failing siblings blocked the sandbox for 42 s).
    if (this.sameNameCount === 0) this.parent.numberChildren();
    return this.sameNameCount > 1 ? `${step}[${this.sameNameIndex}]` : step;
  }

  private numberChildren(): void {
    const seen = new Map<string, NoticeNode[]>();
    for (const c of this.children) {
      const key = `${c.el.ns}\u0000${c.el.local}`;
      let group = seen.get(key);
      if (group === undefined) {
        group = [];
        seen.set(key, group);
      }
      group.push(c);
      c.sameNameIndex = group.length;
    }
    for (const group of seen.values()) for (const c of group) c.sameNameCount = group.length;
  }

  /** Depth-first walk, the node itself first (document order). */
  *walk(): Generator<NoticeNode> {
    const stack: NoticeNode[] = [this];
    while (stack.length > 0) {
      const n = stack.pop() as NoticeNode;
      yield n;
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
    }
  }
}

/** Builds the tree of the index; undefined when the document has no root element. */
export function buildNoticeTree(index: XmlIndex): NoticeNode | undefined {
  if (index.elements.length === 0) return undefined;
  const nodes: NoticeNode[] = [];
  for (let i = 0; i < index.elements.length; i++) {
    const el = index.elements[i];
    const parent = el.parent >= 0 ? nodes[el.parent] : undefined;
    const node = new NoticeNode(index, el, parent);
    nodes.push(node);
    parent?.children.push(node);
  }
  return nodes[0];
}

/** Splits a path on the slashes that are not inside a predicate. */
export function splitSteps(path: string): string[] {
  const steps: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === '/' && depth === 0) {
      steps.push(path.slice(from, i));
      from = i + 1;
    }
  }
  steps.push(path.slice(from));
  return steps.filter((s) => s !== '');
}

type Predicate = (n: NoticeNode) => boolean;

function parseStep(step: string): { name: string; predicates: Predicate[] } {
  const bracket = step.indexOf('[');
  if (bracket < 0) return { name: step, predicates: [] };
  const name = step.slice(0, bracket);
  const predicates: Predicate[] = [];
  for (const m of step.slice(bracket).matchAll(/\[([^\]]*)\]/g)) {
    const p = /^(?:(.+)\/)?@([\w-]+)\s*=\s*'([^']*)'$/.exec(m[1].trim());
    if (!p) throw new Error(`rule uses an unsupported predicate in ${step}`);
    const [, rel, attr, value] = p;
    predicates.push(
      rel ? (n) => n.select(rel).some((d) => d.attr(attr) === value) : (n) => n.attr(attr) === value,
    );
  }
  return { name, predicates };
}

function resolveName(name: string): [string, string] {
  const colon = name.indexOf(':');
  if (colon < 0) return ['', name];
  const uri = URI_OF.get(name.slice(0, colon));
  if (uri === undefined) throw new Error(`rule uses unknown prefix in ${name}`);
  return [uri, name.slice(colon + 1)];
}

/** Name in a location: the SVRL prefix, or the form Schematron uses for namespaces it has no prefix for. */
function qualified(ns: string, local: string): string {
  const prefix = PREFIX_OF.get(ns);
  if (prefix) return `${prefix}:${local}`;
  if (ns === '') return local;
  return `*:${local}[namespace-uri()='${ns}']`;
}

export function normalizeSpace(s: string): string {
  return s.replace(/[ \t\r\n]+/g, ' ').trim();
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Character data of a content slice: comments and processing instructions dropped, CDATA kept raw. */
export function decodeXmlText(raw: string): string {
  if (!raw.includes('&') && !raw.includes('<')) return raw;
  let out = '';
  let i = 0;
  while (i < raw.length) {
    const lt = raw.indexOf('<', i);
    const chunk = lt < 0 ? raw.slice(i) : raw.slice(i, lt);
    out += decodeEntities(chunk);
    if (lt < 0) break;
    if (raw.startsWith('<![CDATA[', lt)) {
      const close = raw.indexOf(']]>', lt + 9);
      out += raw.slice(lt + 9, close < 0 ? raw.length : close);
      i = close < 0 ? raw.length : close + 3;
    } else if (raw.startsWith('<!--', lt)) {
      const close = raw.indexOf('-->', lt + 4);
      i = close < 0 ? raw.length : close + 3;
    } else if (raw.startsWith('<?', lt)) {
      const close = raw.indexOf('?>', lt + 2);
      i = close < 0 ? raw.length : close + 2;
    } else {
      // A stray `<` cannot be here in a well-formed document; keep it rather than lose text.
      out += '<';
      i = lt + 1;
    }
  }
  return out;
}

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}
