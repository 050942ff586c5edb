// The eForms SDK on disk: where releases are (a folder the user names, or the download cache), which
// release a notice needs, and (in later modules) what a release knows: its rules, fields, code lists
// and labels. Everything here is editor-free and reads only what it is pointed at; nothing is
// downloaded without the caller's explicit consent. No `vscode` import here.

export * from './sdk-download';
export * from './sdk-errors';
export { formatBudget, SdkError, type SdkErrorFields, type SdkErrorKind } from './sdk-errors';
export * from './sdk-folder';
export { minorOf } from './sdk-folder';
export * from './sdk-read';
export * from './sdk-store';
export { defaultSdkCacheRoot, resolveSdk, type SdkSources } from './sdk-store';
