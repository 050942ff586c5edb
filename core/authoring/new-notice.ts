// A new notice of a chosen subtype, written from the SDK: the root element its document type needs,
// the eForms namespaces, cbc:CustomizationID of the release, fresh UUIDs, today's date, and every field
// the subtype makes mandatory without condition (with the elements and fixed attributes their paths
// require), in schema order, with placeholders to fill. No `vscode` import here, and no I/O.

import { randomUUID } from 'node:crypto';
import type { SdkKnowledge } from './sdk-knowledge';
import { SDK_NAMESPACES } from './sdk-paths';
import {
  addPath,
  type PlaceholderContext,
  placeholder,
  type SkeletonNode,
  skeletonNode,
  sortSkeleton,
  writeSkeleton,
} from './skeleton';

const ROOTS: Record<string, { name: string; ns: string }> = {
  CN: { name: 'ContractNotice', ns: 'urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2' },
  PIN: {
    name: 'PriorInformationNotice',
    ns: 'urn:oasis:names:specification:ubl:schema:xsd:PriorInformationNotice-2',
  },
  CAN: {
    name: 'ContractAwardNotice',
    ns: 'urn:oasis:names:specification:ubl:schema:xsd:ContractAwardNotice-2',
  },
  BRIN: {
    name: 'BusinessRegistrationInformationNotice',
    ns: 'http://data.europa.eu/p27/eforms-business-registration-information-notice/1',
  },
};

export type NewNoticeResult =
  | { ok: true; xml: string; subtype: string; root: string }
  | { ok: false; kind: 'unknown-subtype'; subtype: string; available: string[] }
  | { ok: false; kind: 'sdk-unreadable'; problem: string };

export interface NewNoticeOptions {
  subtype: string;
  /** Two-letter language of the notice (cbc:NoticeLanguageCode, languageID attributes). */
  language?: string;
  /** yyyy-mm-dd; defaults to today (UTC). */
  today?: string;
  uuid?: () => string;
}

export function newNotice(sdk: SdkKnowledge, o: NewNoticeOptions): NewNoticeResult {
  if (sdk.problem) return { ok: false, kind: 'sdk-unreadable', problem: sdk.problem };
  const subtypes = sdk.noticeSubtypes();
  const st = subtypes.find((s) => s.subTypeId === o.subtype);
  const root = st?.documentType ? ROOTS[st.documentType] : undefined;
  if (!st || !root)
    return {
      ok: false,
      kind: 'unknown-subtype',
      subtype: o.subtype,
      available: subtypes.map((s) => s.subTypeId),
    };
  const ctx: PlaceholderContext = {
    sdk,
    subtype: st.subTypeId,
    today: o.today ?? new Date().toISOString().slice(0, 10),
    uuid: o.uuid ?? randomUUID,
    language: o.language ?? 'en',
    known: Object.fromEntries(
      Object.entries({
        'OPP-070-notice': st.subTypeId,
        'BT-02-notice': st.type,
        'BT-03-notice': st.formType,
        'BT-01-notice': st.legalBasis,
      }).filter((e): e is [string, string] => typeof e[1] === 'string'),
    ),
  };
  const form = sdk.formFields(st.subTypeId);
  const top = skeletonNode(root.name, '');
  // The notice's identity comes first, whatever the form lists: eNotices2 and the CVS need it.
  const always = new Set([
    'OPT-001-notice',
    'OPT-002-notice',
    'BT-701-notice',
    'BT-04-notice',
    'BT-757-notice',
    'OPP-070-notice',
  ]);
  for (const entry of sdk.entries.values()) {
    if (entry.kind !== 'field' || !entry.field) continue;
    const f = entry.field;
    if (f.attributeOf) continue;
    const mandatory = sdk.presence(f.id, st.subTypeId).mandatory === 'always';
    if (!always.has(f.id) && !(mandatory && (!form || form.has(f.id)))) continue;
    if (sdk.presence(f.id, st.subTypeId).forbidden === 'always') continue;
    addPath(top, entry, 0, ctx);
  }
  // UBL's DocumentReference types require a cbc:ID that fields.json leaves optional: add it.
  // A lot result must name its lot (the schema wants one of its children; the SDK leaves it optional).
  const resultLot = sdk.entries.get('BT-13713-LotResult');
  const withIds = (n: SkeletonNode) => {
    // An element a predicate required (`[cbc:CompanyID/@schemeName = 'national']`) gets its field's value.
    if (n.children.length === 0 && n.text === undefined && n.key) {
      const f = sdk.byKey.get(n.key)?.find((e) => e.kind === 'field')?.field;
      n.text = f ? placeholder(f, ctx) : 'TODO';
    }
    if (n.name === 'efac:LotResult' && resultLot && !n.children.some((c) => c.name === 'efac:TenderLot'))
      addPath(top, resultLot, 0, ctx);
    // An entity (a tender, a lot result) carries its identifier, which references to it need.
    for (const e of sdk.byKey.get(n.key) ?? []) {
      const idField = e.node?.identifierFieldId ? sdk.entries.get(e.node.identifierFieldId) : undefined;
      if (
        idField &&
        e.node?.repeatable &&
        !n.children.some((c) => idField.steps[e.steps.length]?.name === c.name)
      )
        addPath(top, idField, 0, ctx);
    }
    if (n.name.endsWith('DocumentReference') && !n.children.some((c) => c.name === 'cbc:ID')) {
      const id = sdk.byKey.get(`${n.key}/cbc:ID`)?.find((e) => e.kind === 'field');
      if (id) addPath(top, id, 0, ctx);
    }
    for (const c of n.children) withIds(c);
  };
  withIds(top);
  sortSkeleton(top);
  const ns = [
    ` xmlns="${root.ns}"`,
    ...['cac', 'cbc', 'ext', 'efac', 'efbc', 'efext'].map((p) => ` xmlns:${p}="${SDK_NAMESPACES[p]}"`),
  ].join('');
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n${writeSkeleton(top, '', '  ', ns)}\n`;
  return { ok: true, xml, subtype: st.subTypeId, root: root.name };
}
