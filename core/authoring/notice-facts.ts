// Facts about one indexed notice that every authoring feature asks for: what sits under a position
// (element name, attribute, value, text), the notice subtype and language, and the notice's internal
// identifiers (ORG-0001, LOT-0002…) with where each is defined and referenced. Computed once per index
// and kept beside it (a WeakMap), so a hover on a 40,000-line notice does not rescan it.
// No `vscode` import here, and no I/O.

import type { Range } from '../finding';
import { contentEnd, type XmlAttribute, type XmlElement, type XmlIndex } from '../xml-index';
import type { Entry, SdkKnowledge } from './sdk-knowledge';
import { LANGUAGE_CODES } from './sdk-knowledge';
import { canonicalName, directText } from './sdk-paths';

export type Place =
  | { kind: 'element-name'; element: XmlElement; index: number }
  | { kind: 'attribute-name'; element: XmlElement; index: number; attribute: XmlAttribute }
  | { kind: 'attribute-value'; element: XmlElement; index: number; attribute: XmlAttribute }
  /** Inside a start tag, between attributes: where a new attribute may go. */
  | { kind: 'in-tag'; element: XmlElement; index: number }
  /** Character data directly inside an element (the element is the innermost one around it). */
  | { kind: 'text'; element: XmlElement; index: number };

/** What is at an offset; undefined outside the root or in a comment-free gap the index does not cover. */
export function placeAt(index: XmlIndex, offset: number): Place | undefined {
  let at = -1;
  let i = 0;
  const els = index.elements;
  const root = els[0];
  if (!root || offset < root.start) return undefined;
  if (root.end >= 0 && offset > root.end) return undefined;
  at = 0;
  // Descend: the deepest element whose extent holds the offset.
  for (;;) {
    const e = els[at] as XmlElement;
    let next = -1;
    for (const c of e.children) {
      const ch = els[c] as XmlElement;
      if (ch.start > offset) break;
      const end = ch.end < 0 ? Number.POSITIVE_INFINITY : ch.end;
      if (offset >= ch.start && offset < end) next = c;
      else if (offset === end && ch.end >= 0 && offset <= ch.start) next = c;
    }
    if (next < 0) break;
    at = next;
    i++;
    if (i > 10000) break;
  }
  const element = els[at] as XmlElement;
  if (offset <= element.nameEnd && offset > element.start)
    return { kind: 'element-name', element, index: at };
  if (offset < element.startTagEnd) {
    for (const a of element.attributes) {
      if (offset >= a.start && offset <= a.nameEnd)
        return { kind: 'attribute-name', element, index: at, attribute: a };
      if (offset >= a.valueStart && offset <= a.valueEnd)
        return { kind: 'attribute-value', element, index: at, attribute: a };
    }
    return { kind: 'in-tag', element, index: at };
  }
  const close = contentEnd(index, element);
  if (close >= 0 && offset > close && offset <= element.end)
    return { kind: 'element-name', element, index: at };
  return { kind: 'text', element, index: at };
}

/** The range of text[start, end). */
export function rangeOf(index: XmlIndex, start: number, end: number): Range {
  return { start: index.positionAt(start), end: index.positionAt(end) };
}

export interface IdOccurrence {
  id: string;
  /** The element whose text is the identifier. */
  element: XmlElement;
  /** Offsets of the identifier itself inside the element's text. */
  start: number;
  end: number;
  /** The field it is: a definition (`type: id`) or a reference (`id-ref`); undefined without an SDK. */
  field?: string;
  definition: boolean;
}

export interface NoticeFacts {
  /** OPP-070 `cbc:SubTypeCode` of the notice (`16`), undefined when absent. */
  subtype?: string;
  /** Two-letter language of `cbc:NoticeLanguageCode` (`ENG` → `en`), undefined when absent. */
  language?: string;
  /** Every identifier occurrence, in document order. */
  ids: IdOccurrence[];
  /** Occurrences by identifier. */
  byId: Map<string, IdOccurrence[]>;
}

/** An internal identifier: a scheme of capitals, a dash, four digits (`ORG-0001`, `TPO-0012`). */
export const INTERNAL_ID = /^[A-Z]{3}-\d{4}$/;

const factsCache = new WeakMap<XmlIndex, WeakMap<object, NoticeFacts>>();
const NO_SDK = {};

const FROM_THREE: Record<string, string> = Object.fromEntries(
  Object.entries(LANGUAGE_CODES).map(([two, three]) => [three.toUpperCase(), two]),
);

export function noticeFacts(index: XmlIndex, sdk: SdkKnowledge | undefined): NoticeFacts {
  let perSdk = factsCache.get(index);
  if (!perSdk) {
    perSdk = new WeakMap();
    factsCache.set(index, perSdk);
  }
  const key = sdk ?? NO_SDK;
  const cached = perSdk.get(key);
  if (cached) return cached;
  const facts: NoticeFacts = { ids: [], byId: new Map() };
  const els = index.elements;
  for (let k = 1; k < els.length; k++) {
    const e = els[k] as XmlElement;
    if (e.children.length > 0) {
      if (facts.subtype === undefined && e.local === 'NoticeSubType') {
        const code = e.children.map((c) => els[c] as XmlElement).find((c) => c.local === 'SubTypeCode');
        if (code) facts.subtype = directText(index, code) || undefined;
      }
      continue;
    }
    if (e.local === 'NoticeLanguageCode' && e.parent === 0 && facts.language === undefined)
      facts.language = FROM_THREE[directText(index, e).toUpperCase()];
    if (e.end < 0 || e.end === e.startTagEnd) continue;
    // Cheap test first: most leaves are not identifiers.
    const from = e.startTagEnd;
    const to = contentEnd(index, e);
    if (to - from < 8 || to - from > 64) continue;
    const raw = index.text.slice(from, to);
    const id = raw.trim();
    if (!INTERNAL_ID.test(id)) continue;
    const start = from + raw.indexOf(id);
    let field: string | undefined;
    let definition = false;
    if (sdk) {
      const entry = sdk.identify(index, e);
      if (!entry?.field || (entry.field.type !== 'id' && entry.field.type !== 'id-ref')) continue;
      field = entry.id;
      definition = entry.field.type === 'id' && entry.field.idScheme !== undefined;
    } else {
      definition =
        e.local === 'ID' &&
        els[e.parent]?.local !== 'ProcurementProjectLotReference' &&
        isDefinitionShape(index, e);
    }
    const occ: IdOccurrence = { id, element: e, start, end: start + id.length, field, definition };
    facts.ids.push(occ);
    const list = facts.byId.get(id);
    if (list) list.push(occ);
    else facts.byId.set(id, [occ]);
  }
  perSdk.set(key, facts);
  return facts;
}

/** Without an SDK: an id is defined where its parent is the entity (`efac:Organization/.../cbc:ID`). */
function isDefinitionShape(index: XmlIndex, e: XmlElement): boolean {
  const parent = index.elements[e.parent];
  if (!parent) return false;
  const p = canonicalName(parent);
  return (
    p === 'cac:ProcurementProjectLot' ||
    p === 'efac:LotResult' ||
    p === 'efac:LotTender' ||
    p === 'efac:SettledContract' ||
    p === 'efac:TenderingParty' ||
    (p === 'cac:PartyIdentification' &&
      ['efac:Company', 'efac:TouchPoint'].includes(
        canonicalName(index.elements[parent.parent] as XmlElement),
      ))
  );
}

/** The entity element an identifier definition names: the node whose identifierFieldId it is. */
export function entityOf(
  index: XmlIndex,
  sdk: SdkKnowledge,
  occ: IdOccurrence,
): { element: XmlElement; node?: Entry } {
  const node = occ.field ? sdk.nodeIdentifiedBy(occ.field) : undefined;
  if (node) {
    const depth = node.steps.length;
    const chain: XmlElement[] = [];
    let e: XmlElement | undefined = occ.element;
    while (e && e.parent >= 0) {
      chain.push(e);
      e = index.elements[e.parent];
    }
    chain.reverse();
    const entity = chain[depth - 1];
    if (entity) return { element: entity, node };
  }
  return { element: index.elements[occ.element.parent] ?? occ.element };
}

/** The text of the first descendant reached by a relative path of canonical names, or undefined. */
export function textAt(index: XmlIndex, from: XmlElement, names: readonly string[]): string | undefined {
  let current: XmlElement | undefined = from;
  for (const name of names) {
    const next: XmlElement | undefined = current?.children
      .map((c) => index.elements[c] as XmlElement)
      .find((c) => canonicalName(c) === name);
    if (!next) return undefined;
    current = next;
  }
  return current ? directText(index, current) : undefined;
}

/** The caption of an entity (an organisation's name, a lot's title) from its node's captionFieldId. */
export function captionOf(
  index: XmlIndex,
  sdk: SdkKnowledge,
  entity: XmlElement,
  nodeId: string | undefined,
): string | undefined {
  const node = nodeId ? sdk.entries.get(nodeId) : undefined;
  const captionId = node?.node?.captionFieldId;
  const caption = captionId ? sdk.entries.get(captionId) : undefined;
  if (!node || !caption) return undefined;
  const rest = caption.steps.slice(node.steps.length).map((s) => s.name);
  if (rest.length === 0 || rest.some((n) => n.startsWith('@'))) return undefined;
  return textAt(index, entity, rest) || undefined;
}

/** The first element (or attribute's element) in the notice that is this field, or undefined. */
export function locateField(index: XmlIndex, sdk: SdkKnowledge, fieldId: string): XmlElement | undefined {
  const entry = sdk.entries.get(fieldId);
  if (!entry) return undefined;
  const elementSteps = entry.steps.filter((s) => !s.name.startsWith('@'));
  const last = elementSteps[elementSteps.length - 1]?.name;
  if (!last) return undefined;
  const local = last.slice(last.indexOf(':') + 1);
  const attr = entry.steps[entry.steps.length - 1]?.name.startsWith('@')
    ? entry.steps[entry.steps.length - 1]?.name.slice(1)
    : undefined;
  for (const e of index.elements) {
    if (e.local !== local) continue;
    if (attr && !e.attributes.some((a) => a.local === attr)) continue;
    if (sdk.identify(index, e, attr)?.id === fieldId) return e;
  }
  return undefined;
}
