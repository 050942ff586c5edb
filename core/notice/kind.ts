// Which eForms notice a document is, told by its root element's local name AND namespace URI
// (a `ContractNotice` in another namespace is not an eForms notice). Anything else is not ours to
// diagnose. No `vscode` import here, and no I/O.

import type { XmlIndex } from './xml-index';

export type NoticeKind =
  | 'ContractNotice'
  | 'ContractAwardNotice'
  | 'PriorInformationNotice'
  | 'BusinessRegistrationInformationNotice';

/** Root local name -> the one namespace URI that makes it an eForms notice. */
export const NOTICE_ROOT_NAMESPACES: Readonly<Record<NoticeKind, string>> = {
  ContractNotice: 'urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2',
  ContractAwardNotice: 'urn:oasis:names:specification:ubl:schema:xsd:ContractAwardNotice-2',
  PriorInformationNotice: 'urn:oasis:names:specification:ubl:schema:xsd:PriorInformationNotice-2',
  BusinessRegistrationInformationNotice:
    'http://data.europa.eu/p27/eforms-business-registration-information-notice/1',
};

export function noticeKindOfRoot(local: string, ns: string): NoticeKind | undefined {
  return Object.hasOwn(NOTICE_ROOT_NAMESPACES, local) && NOTICE_ROOT_NAMESPACES[local as NoticeKind] === ns
    ? (local as NoticeKind)
    : undefined;
}

/** The kind of notice the indexed document is, or undefined when its root is not an eForms root. */
export function noticeKindOf(index: XmlIndex): NoticeKind | undefined {
  const root = index.element(0);
  return root ? noticeKindOfRoot(root.local, root.ns) : undefined;
}
