// The notice's structure for the Outline, the breadcrumbs and workspace symbols (notice, procedure,
// lots and parts with their ids and titles, organisations with names, tenders, results, contracts), and
// navigation over its internal identifiers: go to definition, find references, and a rename that
// refuses an identifier already taken. No `vscode` import here, and no I/O.

import type { Range } from '../findings';
import type { XmlElement, XmlIndex } from '../notice';
import { type IdOccurrence, INTERNAL_ID, noticeFacts, placeAt, rangeOf } from './notice-facts';
import type { SdkKnowledge } from './sdk-knowledge';
import { canonicalName, directText } from './sdk-paths';

export type SymbolKind =
  | 'notice'
  | 'procedure'
  | 'lot'
  | 'organisation'
  | 'result'
  | 'tender'
  | 'contract'
  | 'party'
  | 'group';

export interface NoticeSymbol {
  name: string;
  detail?: string;
  kind: SymbolKind;
  range: Range;
  selectionRange: Range;
  children: NoticeSymbol[];
}

/** Elements that stand for an entity of the notice, by canonical name, with how to name them. */
interface Shape {
  kind: SymbolKind;
  /** Canonical child path of the identifier. */
  id?: string[];
  /** Canonical child path of the caption (title, name). */
  caption?: string[];
  label: string;
}

const SHAPES = new Map<string, Shape>(
  Object.entries({
    'cac:ProcurementProjectLot': {
      kind: 'lot',
      id: ['cbc:ID'],
      caption: ['cac:ProcurementProject', 'cbc:Name'],
      label: 'Lot',
    },
    'efac:Organization': {
      kind: 'organisation',
      id: ['efac:Company', 'cac:PartyIdentification', 'cbc:ID'],
      caption: ['efac:Company', 'cac:PartyName', 'cbc:Name'],
      label: 'Organisation',
    },
    'efac:TouchPoint': {
      kind: 'organisation',
      id: ['cac:PartyIdentification', 'cbc:ID'],
      caption: ['cac:PartyName', 'cbc:Name'],
      label: 'Touchpoint',
    },
    'efac:UltimateBeneficialOwner': {
      kind: 'party',
      id: ['cbc:ID'],
      caption: ['cbc:FamilyName'],
      label: 'Beneficial owner',
    },
    'efac:LotResult': {
      kind: 'result',
      id: ['cbc:ID'],
      caption: ['efac:TenderLot', 'cbc:ID'],
      label: 'Lot result',
    },
    'efac:LotTender': {
      kind: 'tender',
      id: ['cbc:ID'],
      caption: ['efac:TenderReference', 'cbc:ID'],
      label: 'Tender',
    },
    'efac:SettledContract': { kind: 'contract', id: ['cbc:ID'], caption: ['cbc:Title'], label: 'Contract' },
    'efac:TenderingParty': { kind: 'party', id: ['cbc:ID'], caption: ['cbc:Name'], label: 'Tendering party' },
    'cac:ContractingParty': {
      kind: 'organisation',
      id: ['cac:Party', 'cac:PartyIdentification', 'cbc:ID'],
      label: 'Buyer',
    },
    'efac:Organizations': { kind: 'group', label: 'Organisations' },
    'efac:NoticeResult': { kind: 'group', label: 'Results' },
    'cac:TenderingProcess': { kind: 'procedure', label: 'Tendering process' },
    'cac:TenderingTerms': { kind: 'procedure', label: 'Tendering terms' },
  } satisfies Record<string, Shape>),
);

/** The outline of a notice. */
export function documentSymbols(index: XmlIndex, sdk: SdkKnowledge | undefined): NoticeSymbol[] {
  const root = index.element(0);
  if (!root) return [];
  const facts = noticeFacts(index, sdk);
  const noticeId = child(index, root, 'cbc:ID');
  const top: NoticeSymbol = {
    name: root.local,
    detail: [facts.subtype ? `subtype ${facts.subtype}` : '', noticeId ? directText(index, noticeId) : '']
      .filter(Boolean)
      .join(' · '),
    kind: 'notice',
    range: extent(index, root),
    selectionRange: rangeOf(index, root.start + 1, root.nameEnd),
    children: [],
  };
  // The walk reads the index's columns, and makes an element object only for what the outline shows:
  // a 1,000-lot notice has 290,000 elements, and the outline is asked for again after every edit.
  const t = index.table;
  const names = t.names.map(canonicalName);
  const visit = (k: number, into: NoticeSymbol[], depth: number) => {
    for (let c = k + 1; c <= t.last[k]; c = t.last[c] + 1) {
      const name = names[t.name[c]] as string;
      let shape = SHAPES.get(name);
      // The procedure's own scope sits directly under the root; lots have their own.
      if (!shape && name === 'cac:ProcurementProject' && depth === 0)
        shape = { kind: 'procedure', caption: ['cbc:Name'], label: 'Procedure' };
      if (shape && (shape.kind !== 'procedure' || depth === 0)) {
        const sym = symbolOf(index, index.element(c) as XmlElement, shape);
        into.push(sym);
        visit(c, sym.children, depth + 1);
      } else if (t.last[c] > c && depth < 12) visit(c, into, depth + 1);
    }
  };
  visit(0, top.children, 0);
  return [top];
}

function symbolOf(index: XmlIndex, e: XmlElement, shape: Shape): NoticeSymbol {
  const id = shape.id ? textAt(index, e, shape.id) : undefined;
  const caption = shape.caption ? textAt(index, e, shape.caption) : undefined;
  let label = shape.label;
  if (e.local === 'ProcurementProjectLot') {
    const scheme = child(index, e, 'cbc:ID')?.attributes.find((a) => a.local === 'schemeName');
    const v = scheme ? index.text.slice(scheme.valueStart, scheme.valueEnd) : '';
    label = v === 'Part' ? 'Part' : v === 'LotsGroup' ? 'Group of lots' : 'Lot';
  }
  const name = id
    ? `${id}${caption && caption !== id ? ` ${caption}` : ''}`
    : caption
      ? `${label}: ${caption}`
      : label;
  const idEl = shape.id ? elementAt(index, e, shape.id) : undefined;
  // The outline shows the detail beside the name: a label the name already says is left out, or a
  // group reads "Organisations Organisations".
  const shown = oneLine(name);
  return {
    name: shown,
    ...(shown === label || shown.startsWith(`${label}:`) ? {} : { detail: label }),
    kind: shape.kind,
    range: extent(index, e),
    selectionRange: idEl
      ? rangeOf(index, idEl.start, idEl.end < 0 ? idEl.nameEnd : idEl.end)
      : rangeOf(index, e.start + 1, e.nameEnd),
    children: [],
  };
}

function oneLine(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 120 ? `${t.slice(0, 117)}…` : t;
}

function extent(index: XmlIndex, e: XmlElement): Range {
  return rangeOf(index, e.start, e.end < 0 ? index.text.length : e.end);
}

function child(index: XmlIndex, e: XmlElement, name: string): XmlElement | undefined {
  for (const c of e.children) {
    const ch = index.element(c) as XmlElement;
    if (canonicalName(ch) === name) return ch;
  }
  return undefined;
}

function elementAt(index: XmlIndex, e: XmlElement, path: readonly string[]): XmlElement | undefined {
  let at: XmlElement | undefined = e;
  for (const n of path) {
    at = at ? child(index, at, n) : undefined;
    if (!at) return undefined;
  }
  return at;
}

function textAt(index: XmlIndex, e: XmlElement, path: readonly string[]): string | undefined {
  const at = elementAt(index, e, path);
  return at ? directText(index, at) || undefined : undefined;
}

/** The identifier occurrence under an offset, if any. */
export function identifierAt(
  index: XmlIndex,
  sdk: SdkKnowledge | undefined,
  offset: number,
): IdOccurrence | undefined {
  const place = placeAt(index, offset);
  if (place?.kind !== 'text') return undefined;
  const facts = noticeFacts(index, sdk);
  const value = directText(index, place.element);
  if (!INTERNAL_ID.test(value)) return undefined;
  return facts.byId.get(value)?.find((o) => o.element === place.element);
}

export function definitionOf(
  index: XmlIndex,
  sdk: SdkKnowledge | undefined,
  offset: number,
): Range | undefined {
  const occ = identifierAt(index, sdk, offset);
  if (!occ) return undefined;
  const def = noticeFacts(index, sdk)
    .byId.get(occ.id)
    ?.find((o) => o.definition);
  return def ? rangeOf(index, def.start, def.end) : undefined;
}

export function referencesOf(
  index: XmlIndex,
  sdk: SdkKnowledge | undefined,
  offset: number,
  includeDeclaration: boolean,
): Range[] {
  const occ = identifierAt(index, sdk, offset);
  if (!occ) return [];
  return (noticeFacts(index, sdk).byId.get(occ.id) ?? [])
    .filter((o) => includeDeclaration || !o.definition)
    .map((o) => rangeOf(index, o.start, o.end));
}

export type RenameResult =
  | { ok: true; edits: { range: Range; newText: string }[] }
  | { ok: false; kind: 'not-an-identifier' }
  | { ok: false; kind: 'bad-format'; wanted: string }
  | { ok: false; kind: 'taken'; id: string };

/** The range to rename and the current identifier, or undefined when the offset is on none. */
export function prepareRename(index: XmlIndex, sdk: SdkKnowledge | undefined, offset: number) {
  const occ = identifierAt(index, sdk, offset);
  return occ ? { range: rangeOf(index, occ.start, occ.end), placeholder: occ.id } : undefined;
}

/** Every occurrence renamed, or why not: a rename never merges two entities into one identifier. */
export function renameIdentifier(
  index: XmlIndex,
  sdk: SdkKnowledge | undefined,
  offset: number,
  newName: string,
): RenameResult {
  const occ = identifierAt(index, sdk, offset);
  if (!occ) return { ok: false, kind: 'not-an-identifier' };
  const scheme = occ.id.slice(0, 3);
  const wanted = newName.trim();
  if (!INTERNAL_ID.test(wanted) || wanted.slice(0, 3) !== scheme)
    return { ok: false, kind: 'bad-format', wanted: `${scheme}-0000` };
  const facts = noticeFacts(index, sdk);
  if (wanted !== occ.id && facts.byId.has(wanted)) return { ok: false, kind: 'taken', id: wanted };
  return {
    ok: true,
    edits: (facts.byId.get(occ.id) ?? []).map((o) => ({
      range: rangeOf(index, o.start, o.end),
      newText: wanted,
    })),
  };
}
