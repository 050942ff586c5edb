// What a My Notices row says: the notice's title (BT-21), its buyer and its full date, instead of a
// UUID prefix. eNotices2's search returns neither title nor buyer (see the Notice model of the
// publication API), so they are read from the notice's own XML when the editor has it (a file of the
// workspace or an open document with the same notice id). Pure: no `vscode` import, nothing fetched.

import { indexXml, readNoticeIdentity, textContent, type XmlElement, type XmlIndex } from '../../core/notice';
import type { Notice } from '../../core/services';

/** What the notice's XML says about itself, for the row. */
export interface NoticeSummary {
  /** BT-701-notice, the id eNotices2 lists the notice under. */
  noticeId: string;
  /** BT-21-Procedure: the procedure's title. */
  title?: string;
  /** The buyer's official name (BT-500 of the organisation cac:ContractingParty names). */
  buyer?: string;
}

const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const EFAC = 'http://data.europa.eu/p27/eforms-ubl-extension-aggregate-components/1';

function kids(index: XmlIndex, e: XmlElement, ns: string, local: string): XmlElement[] {
  return e.children
    .map((c) => index.elements[c] as XmlElement)
    .filter((c) => c.local === local && c.ns === ns);
}

/** The elements reached by a path of [namespace, local name] steps, in document order. */
function all(index: XmlIndex, from: XmlElement[], path: [string, string][]): XmlElement[] {
  let at = from;
  for (const [ns, local] of path) at = at.flatMap((e) => kids(index, e, ns, local));
  return at;
}

function text(index: XmlIndex, e: XmlElement | undefined): string | undefined {
  const t = e ? textContent(index, e).replace(/\s+/g, ' ').trim() : '';
  return t || undefined;
}

/** Title and buyer of a notice's XML; undefined when it is not an eForms notice with an id. */
export function summarizeNotice(xml: string): NoticeSummary | undefined {
  const identity = readNoticeIdentity(xml);
  if (!identity.ok || !identity.identity.noticeId) return undefined;
  const index = indexXml(xml);
  const root = index.elements[0];
  if (!root) return undefined;
  const title = text(
    index,
    all(
      index,
      [root],
      [
        [CAC, 'ProcurementProject'],
        [CBC, 'Name'],
      ],
    )[0],
  );
  const buyerId = text(
    index,
    all(
      index,
      [root],
      [
        [CAC, 'ContractingParty'],
        [CAC, 'Party'],
        [CAC, 'PartyIdentification'],
        [CBC, 'ID'],
      ],
    )[0],
  );
  let buyer: string | undefined;
  // The organisations live in the UBL extension; the buyer is the one whose id the contracting party names.
  const orgs = index.elements.filter((e) => e.local === 'Organization' && e.ns === EFAC);
  for (const org of orgs) {
    const company = kids(index, org, EFAC, 'Company');
    const id = text(
      index,
      all(index, company, [
        [CAC, 'PartyIdentification'],
        [CBC, 'ID'],
      ])[0],
    );
    if (buyerId && id !== buyerId) continue;
    buyer = text(
      index,
      all(index, company, [
        [CAC, 'PartyName'],
        [CBC, 'Name'],
      ])[0],
    );
    if (buyer) break;
  }
  return { noticeId: identity.identity.noticeId, ...(title ? { title } : {}), ...(buyer ? { buyer } : {}) };
}

/** `2024-06-01 14:03 UTC` for a date-time, the date as it is for a date; undefined when unreadable. */
export function fullDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (/^\d{4}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})?$/.test(value)) return value.slice(0, 10);
  const t = Date.parse(value);
  if (Number.isNaN(t)) return value;
  const iso = new Date(t).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export interface NoticeRow {
  label: string;
  description: string;
}

/**
 * The row: the title when known (else the notice type and a short id, so rows still differ), then
 * the buyer, the version and the full date of the event that matters for its status.
 */
export function noticeRow(n: Notice, s?: NoticeSummary): NoticeRow {
  const shortId = `${n.id.slice(0, 8)}…`;
  const label = s?.title ?? `${n.noticeType ? `${n.noticeType} ` : ''}${shortId}`;
  const date = n.publicationDate
    ? `published ${fullDate(n.publicationDate)}`
    : n.submittedAt
      ? `submitted ${fullDate(n.submittedAt)}`
      : n.updatedAt
        ? `updated ${fullDate(n.updatedAt)}`
        : '';
  const description = [s?.buyer, `v${n.versionId}`, date].filter(Boolean).join(' · ');
  return { label, description };
}
