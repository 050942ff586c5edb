// Reads who a notice is: its notice id, version, procedure id, type, SDK version, languages — the
// fields eNotices2 keys submissions on. Namespace-aware (matches cbc/cac/efac by URI, never by prefix).
// Never throws on bad input: it returns a `problem` instead. No I/O, no `vscode` import.

import { businessIdOf } from './business-id';
import { NS } from './namespaces';
import { attributeValue, findAttribute, hasElementNamed, indexXml, textContent } from './xml-index';

export interface NoticeIdentity {
  /** Local name of the root element (ContractNotice, ContractAwardNotice, PriorInformationNotice…). */
  rootName: string;
  rootNamespace: string;
  /** cbc:ID with schemeName="notice-id"; '' when absent. */
  noticeId: string;
  /** cbc:VersionID; '' when absent. */
  versionId: string;
  /** `{noticeId}-{versionId}` when both are well-formed. */
  businessId?: string;
  /** Why there is no businessId. */
  businessIdProblem?: string;
  /** cbc:ContractFolderID; '' when absent or empty. */
  procedureId: string;
  /** cbc:NoticeTypeCode (cn-standard, can-standard, pin-only…); '' when absent. */
  noticeType: string;
  /** cbc:CustomizationID as written (eforms-sdk-1.15). */
  customizationId: string;
  /** `MAJOR.MINOR` from the CustomizationID, '' when it is not `eforms-sdk-X.Y[.Z]`. */
  sdkVersion: string;
  /** cbc:RegulatoryDomain (legal basis). */
  legalBasis: string;
  /** cbc:NoticeLanguageCode then each cac:AdditionalNoticeLanguage/cbc:ID. */
  languages: string[];
  /** cbc:IssueDate as written. */
  issueDate: string;
  /** True when the notice carries efac:Changes (it modifies an earlier notice of its procedure). */
  isChange: boolean;
}

export type NoticeIdentityResult =
  | { ok: true; identity: NoticeIdentity }
  | { ok: false; reason: 'empty' | 'unparseable'; problem: string };

/** The identity of a notice given as text or bytes (UTF-8). */
export function readNoticeIdentity(input: string | Uint8Array): NoticeIdentityResult {
  const text = typeof input === 'string' ? input : Buffer.from(input).toString('utf8');
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return { ok: false, reason: 'empty', problem: 'The notice is empty.' };
  // One pass of the position index: namespace-resolved names and the first well-formedness error.
  const index = indexXml(body);
  if (index.errors.length > 0) {
    const e = index.errors[0];
    const at = index.positionAt(e.offset);
    return {
      ok: false,
      reason: 'unparseable',
      problem: `The notice is not well-formed XML (line ${at.line + 1}, column ${at.character + 1}: ${clip(e.message)}).`,
    };
  }
  const root = index.element(0);
  if (!root) return { ok: false, reason: 'unparseable', problem: 'The notice has no root element.' };
  const id: NoticeIdentity = {
    rootName: root.local,
    rootNamespace: root.ns,
    noticeId: '',
    versionId: '',
    procedureId: '',
    noticeType: '',
    customizationId: '',
    sdkVersion: '',
    legalBasis: '',
    languages: [],
    issueDate: '',
    isChange: false,
  };
  let noticeIdSeen = false;
  for (const c of root.children) {
    const child = index.element(c);
    if (child === undefined) continue;
    if (child.ns === NS.cbc) {
      const value = textContent(index, child).trim();
      switch (child.local) {
        case 'ID': {
          const scheme = findAttribute(child, 'schemeName');
          if (!noticeIdSeen && scheme && attributeValue(index, scheme) === 'notice-id') {
            noticeIdSeen = true;
            id.noticeId = value;
          }
          break;
        }
        case 'VersionID':
          id.versionId ||= value;
          break;
        case 'ContractFolderID':
          id.procedureId ||= value;
          break;
        case 'NoticeTypeCode':
          id.noticeType ||= value;
          break;
        case 'CustomizationID':
          id.customizationId ||= value;
          break;
        case 'RegulatoryDomain':
          id.legalBasis ||= value;
          break;
        case 'NoticeLanguageCode':
          if (value) id.languages.unshift(value);
          break;
        case 'IssueDate':
          id.issueDate ||= value;
          break;
      }
    } else if (child.ns === NS.cac && child.local === 'AdditionalNoticeLanguage') {
      for (const g of child.children) {
        const lang = index.element(g);
        const v =
          lang !== undefined && lang.ns === NS.cbc && lang.local === 'ID'
            ? textContent(index, lang).trim()
            : '';
        if (v) id.languages.push(v);
      }
    }
  }
  id.isChange = hasElementNamed(index, NS.efac, 'Changes');
  const m = /^eforms-sdk-(\d+)\.(\d+)(?:\.\d+)?$/.exec(id.customizationId);
  id.sdkVersion = m ? `${m[1]}.${m[2]}` : '';
  const b = businessIdOf(id.noticeId, id.versionId);
  if ('businessId' in b) id.businessId = b.businessId;
  else id.businessIdProblem = b.problem;
  return { ok: true, identity: id };
}

function clip(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must go.
  const clean = s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return clean.length > 200 ? `${clean.slice(0, 197)}…` : clean;
}
