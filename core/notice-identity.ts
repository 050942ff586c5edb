// Reads who a notice is: its notice id, version, procedure id, type, SDK version, languages — the
// fields eNotices2 keys submissions on. Namespace-aware (matches cbc/cac/efac by URI, never by prefix).
// Never throws on bad input: it returns a `problem` instead. No I/O, no `vscode` import.

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { businessIdOf } from './business-id';

export const NS = {
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  efac: 'http://data.europa.eu/p27/eforms-ubl-extension-aggregate-components/1',
} as const;

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

type Node = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: '#comment',
});

/** The identity of a notice given as text or bytes (UTF-8). */
export function readNoticeIdentity(input: string | Uint8Array): NoticeIdentityResult {
  const text = typeof input === 'string' ? input : Buffer.from(input).toString('utf8');
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return { ok: false, reason: 'empty', problem: 'The notice is empty.' };
  const valid = XMLValidator.validate(body);
  if (valid !== true) {
    const e = valid.err;
    return {
      ok: false,
      reason: 'unparseable',
      problem: `The notice is not well-formed XML (line ${e.line}, column ${e.col}: ${clip(e.msg)}).`,
    };
  }
  let doc: Node[];
  try {
    doc = parser.parse(body) as Node[];
  } catch (err) {
    return { ok: false, reason: 'unparseable', problem: `The notice cannot be parsed: ${clip(String(err))}` };
  }
  const root = doc.find((n) => tagOf(n) !== undefined);
  if (!root) return { ok: false, reason: 'unparseable', problem: 'The notice has no root element.' };
  const rootScope = scopeOf(root, new Map());
  const rootTag = tagOf(root) as string;
  const rootQ = resolve(rootTag, rootScope);

  const id: NoticeIdentity = {
    rootName: rootQ.local,
    rootNamespace: rootQ.ns,
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
  for (const child of childrenOf(root)) {
    const tag = tagOf(child);
    if (!tag) continue;
    const scope = scopeOf(child, rootScope);
    const q = resolve(tag, scope);
    if (q.ns === NS.cbc) {
      const value = textOf(child);
      switch (q.local) {
        case 'ID':
          if (!noticeIdSeen && attrsOf(child)['@_schemeName'] === 'notice-id') {
            noticeIdSeen = true;
            id.noticeId = value;
          }
          break;
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
    } else if (q.ns === NS.cac && q.local === 'AdditionalNoticeLanguage') {
      for (const g of childrenOf(child)) {
        const gt = tagOf(g);
        if (gt && resolve(gt, scopeOf(g, scope)).local === 'ID' && textOf(g)) id.languages.push(textOf(g));
      }
    }
  }
  id.isChange = containsElement(root, rootScope, NS.efac, 'Changes');
  const m = /^eforms-sdk-(\d+)\.(\d+)(?:\.\d+)?$/.exec(id.customizationId);
  id.sdkVersion = m ? `${m[1]}.${m[2]}` : '';
  const b = businessIdOf(id.noticeId, id.versionId);
  if ('businessId' in b) id.businessId = b.businessId;
  else id.businessIdProblem = b.problem;
  return { ok: true, identity: id };
}

function tagOf(n: Node): string | undefined {
  for (const k of Object.keys(n)) if (k !== ':@' && k !== '#text' && k !== '#comment') return k;
  return undefined;
}
function childrenOf(n: Node): Node[] {
  const tag = tagOf(n);
  const c = tag ? n[tag] : undefined;
  return Array.isArray(c) ? (c as Node[]) : [];
}
function attrsOf(n: Node): Record<string, string> {
  const a = n[':@'];
  return a && typeof a === 'object' ? (a as Record<string, string>) : {};
}
function textOf(n: Node): string {
  let s = '';
  for (const c of childrenOf(n))
    if (typeof c['#text'] === 'string' || typeof c['#text'] === 'number') s += String(c['#text']);
  return s.trim();
}
function scopeOf(n: Node, parent: Map<string, string>): Map<string, string> {
  let scope = parent;
  for (const [k, v] of Object.entries(attrsOf(n))) {
    if (k === '@_xmlns' || k.startsWith('@_xmlns:')) {
      if (scope === parent) scope = new Map(parent);
      scope.set(k === '@_xmlns' ? '' : k.slice('@_xmlns:'.length), String(v));
    }
  }
  return scope;
}
function resolve(qname: string, scope: Map<string, string>): { ns: string; local: string } {
  const i = qname.indexOf(':');
  return i < 0
    ? { ns: scope.get('') ?? '', local: qname }
    : { ns: scope.get(qname.slice(0, i)) ?? '', local: qname.slice(i + 1) };
}
function containsElement(n: Node, scope: Map<string, string>, ns: string, local: string): boolean {
  for (const c of childrenOf(n)) {
    const tag = tagOf(c);
    if (!tag) continue;
    const s = scopeOf(c, scope);
    const q = resolve(tag, s);
    if (q.ns === ns && q.local === local) return true;
    if (containsElement(c, s, ns, local)) return true;
  }
  return false;
}
function clip(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must go.
  const clean = s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return clean.length > 200 ? `${clean.slice(0, 197)}…` : clean;
}
