// Room: what a notice is, read from its text: the position-tracking XML index, the namespaces, its kind,
// its `cbc:CustomizationID`, identity and business id, and the size limits of every input. Pure reading:
// no `vscode` import, no I/O.

export { businessIdProblem, isBusinessId, isNoticeId, parseBusinessId } from './business-id';
export {
  type CustomizationIdResult,
  declaredSdkVersion,
  decodeSimpleEntities,
  findCustomizationId,
  normalizeSdkVersion,
  parseCustomizationId,
  sdkVersionParameter,
} from './customization-id';
export { noticeSubType } from './facts';
export { readNoticeIdentity } from './identity';
export { type NoticeKind, noticeKindOf } from './kind';
export { INPUT_LIMITS, type InputKind, overLimitMessage } from './limits';
export { NS, PREFIX_OF, type SdkPrefix } from './namespaces';
export {
  attributeValue,
  characterData,
  childrenOf,
  contentEnd,
  contentEndOf,
  decodeXmlText,
  type ElementTable,
  elementStartingAt,
  findAttribute,
  firstElementFrom,
  hasElementNamed,
  indexFromTable,
  indexXml,
  tableData,
  textContent,
  textContentOf,
  type WrittenName,
  type XmlAttribute,
  type XmlElement,
  type XmlIndex,
  type XmlSyntaxError,
} from './xml-index';
