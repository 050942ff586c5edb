// The custom LSP messages between the eForms language server and its clients, declared once and
// imported by both sides (the vscode-eslint pattern) so a renamed message cannot drift.
// Standard LSP covers everything else. No `vscode` import here.

import { type Diagnostic, NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { FailureFields, ServiceName } from '../http';
import type { RenderedNotice } from '../preview';

/** What the status item shows about the service side of validation. */
export type ValidationState =
  /** Nothing to do yet (no eForms notice open). */
  | 'idle'
  /** A request to the validation service is under way. */
  | 'validating'
  /** The latest content was validated; counts are set. */
  | 'validated'
  /** No API key: only local diagnostics are shown. */
  | 'needsKey'
  /** The service could not be reached (refused, timeout, DNS); backing off. */
  | 'offline'
  /** The service answered with an error (400/401/403/5xx, non-XML answer); `message` says what to do. */
  | 'error'
  /** The notice is not well-formed XML: only local checks run until the syntax error is fixed. */
  | 'malformed'
  /** `eforms.validation.run` is `manual` and nothing was requested yet, or the environment is unusable. */
  | 'paused';

export interface ValidationStatusParams {
  state: ValidationState;
  /** The document this status is about (the last one validated or attempted). */
  uri?: string;
  errors: number;
  warnings: number;
  infos: number;
  /** Epoch milliseconds of the last successful validation. */
  validatedAt?: number;
  /** One clear sentence for the user when state is error/offline/needsKey/paused. */
  message?: string;
  /** Base URL of the validation service in use (never contains the key). */
  serviceUrl?: string;
  /** The failure behind error/offline/needsKey, for clients that word it themselves (no key inside). */
  failure?: FailureInfo;
  /** Which engine this status is about: absent for the CVS, `local` for the SDK's rules in the server. */
  engine?: 'local';
  /** With engine `local` and state `validated`: what the SDK's rules found with. */
  local?: EngineStatus;
  /** With engine `local` and a failure: the SdkError's kind and the version wanted, for the client to act on. */
  sdkProblem?: { kind: string; wanted?: string };
  /** Once the service's version range is known: where the notice's SDK stands at TED today. */
  sdkLifecycle?: SdkLifecycleStatus;
}

/** The notice's SDK at TED (core/services' SdkLifecycle as data): accepted today, until when, instead. */
export interface SdkLifecycleStatus {
  /** `MAJOR.MINOR` the notice declares; absent when none. */
  declared?: string;
  acceptedToday: boolean;
  place?: 'below' | 'inside' | 'above';
  /** Last day accepted, when the service gives dates. */
  until?: string;
  /** First day it will be accepted, when that is after today. */
  from?: string;
  /** What TED accepts today, oldest first; `onDisk`: the newest release of it found locally. */
  accepted: { version: string; onDisk?: string; from?: string; until?: string }[];
  /** Changes from today on, in date order. */
  switches: { date: string; version: string; change: 'accepted' | 'withdrawn' }[];
  /** The accepted version the quick fix moves the notice to. */
  moveTo?: string;
}

/** A ServiceError as data: what crosses the LSP connection instead of a sentence to parse. */
export interface FailureInfo {
  service: ServiceName;
  kind: string;
  fields: FailureFields;
}

/** How the local engine produced its findings (the counts are the status's own). */
export interface EngineStatus {
  /** The diagnostics' source, e.g. "eForms SDK 1.15.1". */
  source: string;
  sdkVersion: string;
  /** Rules the engine could not evaluate (named in the server's log). */
  notEvaluated: number;
  /**
   * The sentence about them, when there are some ("3 rules could not be checked here: 'tomorrow' is not
   * a date (BR-…)."): the status's tooltip says it, as the command line does.
   */
  notEvaluatedText?: string;
  /** `declares-none`: the notice declares no SDK version; the only (or pinned) SDK was used. */
  versionNote?: 'declares-none';
}

/** server -> client: the validation status changed. */
export namespace ValidationStatusNotification {
  export const method = 'eforms/validationStatus';
  export const type = new NotificationType<ValidationStatusParams>(method);
}

export interface ValidateNowParams {
  uri: string;
}
export interface ValidateNowResult {
  /** false when the document is not an open eForms notice, or no key/environment is set. */
  started: boolean;
  message?: string;
}

/** client -> server: validate this document now with the service, whatever the run setting. */
export namespace ValidateNowRequest {
  export const method = 'eforms/validateNow';
  export const type = new RequestType<ValidateNowParams, ValidateNowResult, void>(method);
}

// Authoring (issue 10).

export interface NewNoticeParams {
  /** Notice subtype (`16`, `E3`, `X01`). */
  subtype: string;
  /** A document whose settings (eforms.sdk.path, language) apply; absent: the workspace's. */
  scopeUri?: string;
  /** The SDK version to write it for (`1.10`, `1.10.5`), as chosen from NoticeSdkVersionsRequest; absent: as settings say. */
  sdkVersion?: string;
  /** BT-105-Procedure (`open`); absent: left empty to fill. */
  procedureType?: string;
  /** The buyer's country (BT-514, `FRA`); absent: left empty to fill. */
  buyerCountry?: string;
  /** The notice language (`ENG`); absent: the settings' language. */
  language?: string;
}
/** The notice's XML, or a problem with a kind and fields that the client words. */
export type NewNoticeResult =
  | { ok: true; xml: string; sdkVersion: string /** `cn-standard-16.xml` */; fileName?: string }
  | {
      ok: false;
      kind: 'no-sdk' | 'version-missing' | 'no-version' | 'unknown-subtype' | 'sdk-unreadable';
      detail?: string;
    };

/** client -> server: write a new notice of a subtype from the SDK's structure. */
export namespace NewNoticeRequest {
  export const method = 'eforms/newNotice';
  export const type = new RequestType<NewNoticeParams, NewNoticeResult, void>(method);
}

export interface NoticeSubtypesParams {
  scopeUri?: string;
  /** The SDK version chosen for the new notice; absent: as settings say. */
  sdkVersion?: string;
}

export interface NoticeSdkVersionsParams {
  scopeUri?: string;
}
/** One SDK version a new notice can be written for: a release on disk, and what TED says of it. */
export interface NoticeSdkVersionItem {
  /** `MAJOR.MINOR`, as cbc:CustomizationID names it. */
  version: string;
  /** The newest release of it on disk (`1.15.1`). */
  release: string;
  /** Whether TED accepts it for publication today; absent when the service's range is not known. */
  accepted?: boolean;
  /** Last day TED accepts it, when the service gives dates. */
  until?: string;
}

/** client -> server: the SDK versions New Notice can use (releases on disk), newest first. */
export namespace NoticeSdkVersionsRequest {
  export const method = 'eforms/noticeSdkVersions';
  export const type = new RequestType<NoticeSdkVersionsParams, NoticeSdkVersionItem[], void>(method);
}

/** A code with its label, for New Notice's pickers. */
export interface CodeChoiceItem {
  code: string;
  label: string;
}
export interface NewNoticeChoicesParams {
  scopeUri?: string;
  subtype: string;
  sdkVersion?: string;
}
export interface NewNoticeChoicesResult {
  /** The SDK releases on this machine, newest first, and the one the lists come from. */
  sdkVersions: string[];
  sdkVersion?: string;
  procedureTypes: CodeChoiceItem[];
  countries: CodeChoiceItem[];
  languages: CodeChoiceItem[];
}

/** client -> server: the choices that decide a new notice of a subtype, with the SDK's labels. */
export namespace NewNoticeChoicesRequest {
  export const method = 'eforms/newNoticeChoices';
  export const type = new RequestType<NewNoticeChoicesParams, NewNoticeChoicesResult, void>(method);
}
export interface NoticeSubtypeItem {
  id: string;
  label: string;
  description?: string;
}

/** client -> server: the notice subtypes of the SDK in use, for the New Notice picker. */
export namespace NoticeSubtypesRequest {
  export const method = 'eforms/noticeSubtypes';
  export const type = new RequestType<NoticeSubtypesParams, NoticeSubtypeItem[], void>(method);
}

/** client -> server: an SDK release appeared (downloaded, or a folder chosen): run the local rules again. */
export namespace SdkChangedNotification {
  export const method = 'eforms/sdkChanged';
  export const type = new NotificationType<Record<string, never>>(method);
}

// Preview (issue 20): the notice rendered as TED publishes it, for the editor's preview panel.

export interface RenderPreviewParams {
  uri: string;
  /** Language of the labels (`en`, `de`); absent: `eforms.preview.language`, else the notice's own. */
  language?: string;
}
/** Why a preview could not be rendered; `superseded` means a newer request for the document replaced it. */
export type RenderPreviewErrorKind =
  | 'no-document'
  | 'not-a-notice'
  | 'no-sdk'
  | 'version-missing'
  | 'superseded'
  | 'failed';
export type RenderPreviewResult =
  | (RenderedNotice & {
      /** The document version rendered: ranges are offsets in that version's text. */
      version?: number;
      /** Milliseconds the server spent rendering (after the SDK was loaded). */
      ms?: number;
    })
  | { error: string; kind?: RenderPreviewErrorKind };

/** client -> server: render the open notice as TED publishes it, in a language of its SDK release. */
export namespace RenderPreviewRequest {
  export const method = 'eforms/renderPreview';
  export const type = new RequestType<RenderPreviewParams, RenderPreviewResult, void>(method);
}

// Submit (issue 18): the pre-submit check counts exactly what the editor shows.

export interface NoticeFindingsParams {
  uri: string;
}
export type NoticeFindingsResult =
  | { ok: false; message: string }
  | {
      ok: true;
      /** The document version the diagnostics are for. */
      version: number;
      /** Exactly the diagnostics published for that version (textDocument/publishDiagnostics). */
      diagnostics: Diagnostic[];
      /** Engines that ran, each with why it could not validate when it could not. */
      engines: { engine: 'local' | 'cvs'; problem?: string }[];
    };

/**
 * client -> server: run every engine the settings enable on the document's current text now (whatever
 * the run mode and any back-off), wait for their answers, publish, and return what was published.
 */
export namespace NoticeFindingsRequest {
  export const method = 'eforms/noticeFindings';
  export const type = new RequestType<NoticeFindingsParams, NoticeFindingsResult, void>(method);
}
