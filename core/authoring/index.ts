// Authoring with the eForms SDK's knowledge, for any LSP editor and the CLI alike.
//
// README. One SdkKnowledge per SDK release folder (sdk-knowledge.ts) indexes fields/fields.json by
// element path once, and reads code lists and translations the first time they are asked for; the
// paths and predicates of fields.json are read by sdk-paths.ts. notice-facts.ts derives from one indexed
// notice what every feature asks (the place under the cursor, the subtype and language, the internal
// identifiers). On top of these: hover.ts, completion.ts, structure.ts (outline, workspace symbols,
// definition, references, rename), code-actions.ts (quick fixes), and new-notice.ts, which writes through
// skeleton.ts like the element snippets and the "insert missing element" fix.
// Nothing here imports `vscode` or talks to the network; only the SDK folder named by the caller is read.

export * from './code-actions';
export {
  type AuthoringAction,
  codeActions,
  type FixAllGroup,
  fixAllAction,
  isFixAllGroup,
  SDK_NOT_ACCEPTED,
  VERSION_EXISTS,
} from './code-actions';
export * from './completion';
export { completeAt } from './completion';
export { type CompletionContext, completeFinding, completeFindings, MAX_RELATED } from './finding-completion';
export * from './hover';
export { hoverAt, ruleDocUrl } from './hover';
export * from './new-notice';
export { newNotice } from './new-notice';
export * from './notice-facts';
export { locateField } from './notice-facts';
export * from './rule-codes';
export * from './sdk-knowledge';
export { SdkKnowledge, sdkKnowledge } from './sdk-knowledge';
export * from './sdk-paths';
export * from './skeleton';
export * from './structure';
export {
  definitionOf,
  documentSymbols,
  type NoticeSymbol,
  prepareRename,
  referencesOf,
  renameIdentifier,
} from './structure';
