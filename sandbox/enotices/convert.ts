// The emulated convert operation: reads a legacy TED XML notice (TED_EXPORT, TED_ESENDERS or a bare
// Fnn_2014 form) and writes a simple, well-formed eForms ContractNotice (SDK 1.15, subtype 16) carrying
// over title, description, buyer, CPV code, contract nature, estimated value, deadline and language.
// It is not the real mapping of TED forms to eForms; it never throws on bad input (it returns a problem).
// Never imports client or server code.

import { randomUUID } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

type Obj = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/** ISO 639-1 (legacy forms) -> ISO 639-2/B as eForms writes languages. */
const LANGUAGES: Record<string, string> = {
  BG: 'BUL',
  CS: 'CES',
  DA: 'DAN',
  DE: 'DEU',
  EL: 'ELL',
  EN: 'ENG',
  ES: 'SPA',
  ET: 'EST',
  FI: 'FIN',
  FR: 'FRA',
  GA: 'GLE',
  HR: 'HRV',
  HU: 'HUN',
  IT: 'ITA',
  LT: 'LIT',
  LV: 'LAV',
  MT: 'MLT',
  NL: 'NLD',
  PL: 'POL',
  PT: 'POR',
  RO: 'RON',
  SK: 'SLK',
  SL: 'SLV',
  SV: 'SWE',
};

/** ISO 3166 alpha-2 -> alpha-3 for the EU/EEA countries legacy forms carry. */
const COUNTRIES: Record<string, string> = {
  AT: 'AUT',
  BE: 'BEL',
  BG: 'BGR',
  CY: 'CYP',
  CZ: 'CZE',
  DE: 'DEU',
  DK: 'DNK',
  EE: 'EST',
  EL: 'GRC',
  GR: 'GRC',
  ES: 'ESP',
  FI: 'FIN',
  FR: 'FRA',
  HR: 'HRV',
  HU: 'HUN',
  IE: 'IRL',
  IS: 'ISL',
  IT: 'ITA',
  LI: 'LIE',
  LT: 'LTU',
  LU: 'LUX',
  LV: 'LVA',
  MT: 'MLT',
  NL: 'NLD',
  NO: 'NOR',
  PL: 'POL',
  PT: 'PRT',
  RO: 'ROU',
  SE: 'SWE',
  SI: 'SVN',
  SK: 'SVK',
  UK: 'GBR',
  GB: 'GBR',
  CH: 'CHE',
};

export interface LegacyFields {
  form: string;
  language: string;
  title: string;
  description: string;
  buyerName: string;
  town: string;
  postalCode: string;
  country: string;
  email: string;
  url: string;
  cpv: string;
  nature: 'works' | 'supplies' | 'services';
  estimatedValue?: { amount: string; currency: string };
  deadline?: string;
  legalBasis: string;
  reference: string;
}

export type ConvertResult = { ok: true; xml: string; fields: LegacyFields } | { ok: false; problem: string };

export function convertLegacyNotice(body: Buffer, opts: { now: number }): ConvertResult {
  const text = body.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '')
    return { ok: false, problem: 'the request body is empty: send the legacy TED XML notice.' };
  const v = XMLValidator.validate(text);
  if (v !== true)
    return {
      ok: false,
      problem: `the legacy notice is not well-formed XML (line ${v.err.line}: ${v.err.msg.slice(0, 120)}).`,
    };
  let doc: Obj;
  try {
    doc = parser.parse(text) as Obj;
  } catch {
    return { ok: false, problem: 'the legacy notice cannot be parsed.' };
  }
  const form = findForm(doc);
  if (!form)
    return {
      ok: false,
      problem:
        'no legacy TED form found: expected TED_EXPORT, TED_ESENDERS or an Fnn_2014 form element (e.g. F02_2014).',
    };
  const f = form.node;
  const buyer = obj(path(f, 'CONTRACTING_BODY', 'ADDRESS_CONTRACTING_BODY'));
  const oc = obj(path(f, 'OBJECT_CONTRACT'));
  const title = paragraphs(oc.TITLE);
  const cpv = attr(path(oc, 'CPV_MAIN', 'CPV_CODE'), 'CODE');
  const buyerName = txt(buyer.OFFICIALNAME);
  const missing = [
    !title && 'OBJECT_CONTRACT/TITLE',
    !buyerName && 'OFFICIALNAME',
    !cpv && 'CPV_MAIN/CPV_CODE',
  ]
    .filter(Boolean)
    .join(', ');
  if (missing) return { ok: false, problem: `the legacy notice is incomplete: ${missing} missing.` };
  const ctype = attr(oc.TYPE_CONTRACT, 'CTYPE').toUpperCase();
  const val = oc.VAL_ESTIMATED_TOTAL;
  const lg = (attr(f, 'LG') || 'EN').toUpperCase();
  const fields: LegacyFields = {
    form: form.name,
    language: LANGUAGES[lg] ?? 'ENG',
    title,
    description: paragraphs(oc.SHORT_DESCR) || title,
    buyerName,
    town: txt(buyer.TOWN),
    postalCode: txt(buyer.POSTAL_CODE),
    country: COUNTRIES[attr(buyer.COUNTRY, 'VALUE').toUpperCase()] ?? '',
    email: txt(buyer.E_MAIL),
    url: txt(buyer.URL_GENERAL),
    cpv: cpv.replace(/-\d$/, ''),
    nature: ctype === 'WORKS' ? 'works' : ctype === 'SUPPLIES' ? 'supplies' : 'services',
    estimatedValue: txt(val) ? { amount: txt(val), currency: attr(val, 'CURRENCY') || 'EUR' } : undefined,
    deadline: txt(path(f, 'PROCEDURE', 'DATE_RECEIPT_TENDERS')) || undefined,
    legalBasis: attr(f.LEGAL_BASIS, 'VALUE') || '32014L0024',
    reference: txt(oc.REFERENCE_NUMBER),
  };
  return { ok: true, xml: writeContractNotice(fields, opts.now), fields };
}

function findForm(doc: Obj): { name: string; node: Obj } | undefined {
  const isForm = (k: string) =>
    /^F\d\d_20\d\d$/.test(k) || /^(CONTRACT|CONTRACT_AWARD|PRIOR_INFORMATION)$/.test(k);
  const search = (o: Obj, depth: number): { name: string; node: Obj } | undefined => {
    if (depth > 4) return undefined;
    for (const [k, v] of Object.entries(o)) {
      if (k.startsWith('@_')) continue;
      const first = Array.isArray(v) ? v[0] : v;
      if (!first || typeof first !== 'object') continue;
      if (isForm(k)) return { name: k, node: first as Obj };
      const inner = search(first as Obj, depth + 1);
      if (inner) return inner;
    }
    return undefined;
  };
  return search(doc, 0);
}

function obj(v: unknown): Obj {
  const first = Array.isArray(v) ? v[0] : v;
  return first && typeof first === 'object' ? (first as Obj) : {};
}
function path(o: unknown, ...keys: string[]): unknown {
  let cur: unknown = o;
  for (const k of keys) cur = obj(cur)[k];
  return cur;
}
function txt(v: unknown): string {
  const first = Array.isArray(v) ? v[0] : v;
  if (typeof first === 'string' || typeof first === 'number') return String(first).trim();
  if (first && typeof first === 'object' && '#text' in first) return String((first as Obj)['#text']).trim();
  return '';
}
function attr(v: unknown, name: string): string {
  const o = obj(v);
  const a = o[`@_${name}`];
  return typeof a === 'string' ? a.trim() : '';
}
/** Legacy texts are <P> paragraphs; eForms has one text per field, so they are joined. */
function paragraphs(v: unknown): string {
  const o = obj(v);
  const ps = o.P;
  if (ps === undefined) return txt(v);
  return (Array.isArray(ps) ? ps : [ps])
    .map((p) => txt(p))
    .filter(Boolean)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function esc(s: string): string {
  return (
    s
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must go.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

function writeContractNotice(f: LegacyFields, now: number): string {
  const lang = f.language;
  const day = new Date(now).toISOString().slice(0, 10);
  const time = new Date(now).toISOString().slice(11, 19);
  const line = (cond: unknown, s: string) => (cond ? `${s}\n` : '');
  const deadline = f.deadline && /^\d{4}-\d{2}-\d{2}$/.test(f.deadline) ? f.deadline : undefined;
  const amount =
    f.estimatedValue && /^\d+(\.\d+)?$/.test(f.estimatedValue.amount) ? f.estimatedValue : undefined;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- Converted by the eNotices2 sandbox from a legacy ${esc(f.form)} notice. Review every field before submitting. -->
<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2" xmlns:ext="urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2" xmlns:efac="http://data.europa.eu/p27/eforms-ubl-extension-aggregate-components/1" xmlns:efext="http://data.europa.eu/p27/eforms-ubl-extensions/1" xmlns:efbc="http://data.europa.eu/p27/eforms-ubl-extension-basic-components/1">
  <ext:UBLExtensions>
    <ext:UBLExtension>
      <ext:ExtensionContent>
        <efext:EformsExtension>
          <efac:NoticeSubType>
            <cbc:SubTypeCode listName="notice-subtype">16</cbc:SubTypeCode>
          </efac:NoticeSubType>
          <efac:Organizations>
            <efac:Organization>
              <efac:Company>
${line(f.url, `                <cbc:WebsiteURI>${esc(f.url)}</cbc:WebsiteURI>`)}                <cac:PartyIdentification>
                  <cbc:ID schemeName="organization">ORG-0001</cbc:ID>
                </cac:PartyIdentification>
                <cac:PartyName>
                  <cbc:Name languageID="${lang}">${esc(f.buyerName)}</cbc:Name>
                </cac:PartyName>
                <cac:PostalAddress>
${line(f.town, `                  <cbc:CityName>${esc(f.town)}</cbc:CityName>`)}${line(f.postalCode, `                  <cbc:PostalZone>${esc(f.postalCode)}</cbc:PostalZone>`)}${line(f.country, `                  <cac:Country>\n                    <cbc:IdentificationCode listName="country">${f.country}</cbc:IdentificationCode>\n                  </cac:Country>`)}                </cac:PostalAddress>
${line(f.email, `                <cac:Contact>\n                  <cbc:ElectronicMail>${esc(f.email)}</cbc:ElectronicMail>\n                </cac:Contact>`)}              </efac:Company>
            </efac:Organization>
          </efac:Organizations>
        </efext:EformsExtension>
      </ext:ExtensionContent>
    </ext:UBLExtension>
  </ext:UBLExtensions>
  <cbc:UBLVersionID>2.3</cbc:UBLVersionID>
  <cbc:CustomizationID>eforms-sdk-1.15</cbc:CustomizationID>
  <cbc:ID schemeName="notice-id">${randomUUID()}</cbc:ID>
  <cbc:ContractFolderID>${randomUUID()}</cbc:ContractFolderID>
  <cbc:IssueDate>${day}Z</cbc:IssueDate>
  <cbc:IssueTime>${time}Z</cbc:IssueTime>
  <cbc:VersionID>01</cbc:VersionID>
  <cbc:RegulatoryDomain>${esc(f.legalBasis)}</cbc:RegulatoryDomain>
  <cbc:NoticeTypeCode listName="competition">cn-standard</cbc:NoticeTypeCode>
  <cbc:NoticeLanguageCode>${lang}</cbc:NoticeLanguageCode>
  <cac:ContractingParty>
    <cac:Party>
      <cac:PartyIdentification>
        <cbc:ID schemeName="organization">ORG-0001</cbc:ID>
      </cac:PartyIdentification>
    </cac:Party>
  </cac:ContractingParty>
  <cac:TenderingProcess>
    <cbc:ProcedureCode listName="procurement-procedure-type">open</cbc:ProcedureCode>
  </cac:TenderingProcess>
  <cac:ProcurementProject>
${line(f.reference, `    <cbc:ID schemeName="InternalID">${esc(f.reference)}</cbc:ID>`)}    <cbc:Name languageID="${lang}">${esc(f.title)}</cbc:Name>
    <cbc:Description languageID="${lang}">${esc(f.description)}</cbc:Description>
    <cbc:ProcurementTypeCode listName="contract-nature">${f.nature}</cbc:ProcurementTypeCode>
    <cac:MainCommodityClassification>
      <cbc:ItemClassificationCode listName="cpv">${esc(f.cpv)}</cbc:ItemClassificationCode>
    </cac:MainCommodityClassification>
  </cac:ProcurementProject>
  <cac:ProcurementProjectLot>
    <cbc:ID schemeName="Lot">LOT-0001</cbc:ID>
${line(deadline, `    <cac:TenderingProcess>\n      <cac:TenderSubmissionDeadlinePeriod>\n        <cbc:EndDate>${deadline}Z</cbc:EndDate>\n      </cac:TenderSubmissionDeadlinePeriod>\n    </cac:TenderingProcess>`)}    <cac:ProcurementProject>
      <cbc:Name languageID="${lang}">${esc(f.title)}</cbc:Name>
      <cbc:ProcurementTypeCode listName="contract-nature">${f.nature}</cbc:ProcurementTypeCode>
      <cac:MainCommodityClassification>
        <cbc:ItemClassificationCode listName="cpv">${esc(f.cpv)}</cbc:ItemClassificationCode>
      </cac:MainCommodityClassification>
${line(amount, `      <cac:RequestedTenderTotal>\n        <cbc:EstimatedOverallContractAmount currencyID="${esc(amount?.currency ?? 'EUR')}">${amount?.amount}</cbc:EstimatedOverallContractAmount>\n      </cac:RequestedTenderTotal>`)}    </cac:ProcurementProject>
  </cac:ProcurementProjectLot>
</ContractNotice>
`;
}
