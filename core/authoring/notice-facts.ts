// Facts about one indexed notice that every authoring feature asks for: what sits under a position
// (element name, attribute, value, text), the notice subtype and language, and the notice's internal
// identifiers (ORG-0001, LOT-0002…) with where each is defined and referenced. Computed once per index
// and kept beside it (a WeakMap), so a hover on a 40,000-line notice does not rescan it.
// No `vscode` import here, and no I/O.

import type { Range } from '../findings';
import { contentEnd, noticeSubType, type XmlAttribute, type XmlElement, type XmlIndex } from '../notice';
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
  // Objects only for the elements on the way down; the children's starts are read from the table.
  const starts = index.table.start;
  const root = index.element(0);
  if (!root || offset < root.start) return undefined;
  if (root.end >= 0 && offset > root.end) return undefined;
  at = 0;
  // Descend: the deepest element whose extent holds the offset.
  for (;;) {
    const e = index.element(at) as XmlElement;
    // Children are in document order: the last one starting at or before the offset is the candidate.
    const kids = e.children;
    let lo = 0;
    let hi = kids.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[kids[mid] as number] <= offset) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    let next = -1;
    if (found >= 0) {
      const c = kids[found] as number;
      const chEnd = index.table.end[c];
      const end = chEnd < 0 ? Number.POSITIVE_INFINITY : chEnd;
      if (offset < end) next = c;
    }
    if (next < 0) break;
    at = next;
    i++;
    if (i > 10000) break;
  }
  const element = index.element(at) as XmlElement;
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
  readonly subtype?: string;
  /** Two-letter language of `cbc:NoticeLanguageCode` (`ENG` → `en`), undefined when absent. */
  readonly language?: string;
  /** Every identifier occurrence, in document order. Found on the first read (see noticeFacts). */
  readonly ids: IdOccurrence[];
  /** Occurrences by identifier. Found with `ids`. */
  readonly byId: Map<string, IdOccurrence[]>;
}

/** An internal identifier: a scheme of capitals, a dash, four digits (`ORG-0001`, `TPO-0012`). */
export const INTERNAL_ID = /^[A-Z]{3}-\d{4}$/;

const factsCache = new WeakMap<XmlIndex, WeakMap<object, NoticeFacts>>();
const NO_SDK = {};

const FROM_THREE: Record<string, string> = Object.fromEntries(
  Object.entries(LANGUAGE_CODES).map(([two, three]) => [three.toUpperCase(), two]),
);

/**
 * The facts of a notice, kept per index (each version of a document has its own). The subtype and the
 * language are found at once; the identifiers on the first read of `ids` or `byId`, as only the features
 * about identifiers need them (their hover, completion, definition, references, rename): finding them
 * visits every identifier of the notice, 0.1 s on a 1,000-lot notice, which a hover on anything else, an
 * outline or a quick fix paid after every edit.
 */
export function noticeFacts(index: XmlIndex, sdk: SdkKnowledge | undefined): NoticeFacts {
  let perSdk = factsCache.get(index);
  if (!perSdk) {
    perSdk = new WeakMap();
    factsCache.set(index, perSdk);
  }
  const key = sdk ?? NO_SDK;
  const cached = perSdk.get(key);
  if (cached) return cached;
  const text = index.text;
  const sub = noticeSubType(index);
  const lang = /<(?:[\w.-]+:)?NoticeLanguageCode\b[^>]*>\s*([A-Za-z]{3})\s*</.exec(text);
  const language = lang?.[1] ? FROM_THREE[lang[1].toUpperCase()] : undefined;
  let found: { ids: IdOccurrence[]; byId: Map<string, IdOccurrence[]> } | undefined;
  const occurrences = () => {
    found ??= identifiers(index, sdk);
    return found;
  };
  const facts: NoticeFacts = {
    ...(sub ? { subtype: sub } : {}),
    ...(language ? { language } : {}),
    get ids() {
      return occurrences().ids;
    },
    get byId() {
      return occurrences().byId;
    },
  };
  perSdk.set(key, facts);
  return facts;
}

/** Every internal identifier of the notice, with the field it is and whether it is its definition. */
function identifiers(
  index: XmlIndex,
  sdk: SdkKnowledge | undefined,
): { ids: IdOccurrence[]; byId: Map<string, IdOccurrence[]> } {
  const ids: IdOccurrence[] = [];
  const byId = new Map<string, IdOccurrence[]>();
  const text = index.text;
  // The text is searched, not every element visited: the index makes element objects only when
  // asked, and a 100-lot notice has tens of thousands of them but only a few places that matter here.
  const candidates = />\s*([A-Z]{3}-\d{4})\s*<\//g;
  for (let m = candidates.exec(text); m; m = candidates.exec(text)) {
    const id = m[1] as string;
    const start = m.index + m[0].indexOf(id);
    const place = placeAt(index, start);
    if (place?.kind !== 'text') continue;
    const e = place.element;
    if (e.children.length > 0) continue;
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
        index.element(e.parent)?.local !== 'ProcurementProjectLotReference' &&
        isDefinitionShape(index, e);
    }
    const occ: IdOccurrence = { id, element: e, start, end: start + id.length, field, definition };
    ids.push(occ);
    const list = byId.get(id);
    if (list) list.push(occ);
    else byId.set(id, [occ]);
  }
  return { ids, byId };
}

/** Without an SDK: an id is defined where its parent is the entity (`efac:Organization/.../cbc:ID`). */
function isDefinitionShape(index: XmlIndex, e: XmlElement): boolean {
  const parent = index.element(e.parent);
  if (!parent) return false;
  const p = canonicalName(parent);
  return (
    p === 'cac:ProcurementProjectLot' ||
    p === 'efac:LotResult' ||
    p === 'efac:LotTender' ||
    p === 'efac:SettledContract' ||
    p === 'efac:TenderingParty' ||
    (p === 'cac:PartyIdentification' &&
      ['efac:Company', 'efac:TouchPoint'].includes(canonicalName(index.element(parent.parent) as XmlElement)))
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
      e = index.element(e.parent);
    }
    chain.reverse();
    const entity = chain[depth - 1];
    if (entity) return { element: entity, node };
  }
  return { element: index.element(occ.element.parent) ?? occ.element };
}

/** The text of the first descendant reached by a relative path of canonical names, or undefined. */
export function textAt(index: XmlIndex, from: XmlElement, names: readonly string[]): string | undefined {
  let current: XmlElement | undefined = from;
  for (const name of names) {
    const next: XmlElement | undefined = current?.children
      .map((c) => index.element(c) as XmlElement)
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
  // The names are read from the table; objects are made only for the elements with that local name.
  const t = index.table;
  for (let k = 0; k < t.count; k++) {
    if (t.names[t.name[k]].local !== local) continue;
    const e = index.element(k);
    if (e === undefined) continue;
    if (attr && !e.attributes.some((a) => a.local === attr)) continue;
    if (sdk.identify(index, e, attr)?.id === fieldId) return e;
  }
  return undefined;
}
