// Room: the custom LSP messages between the language server and its clients, declared once with their
// types; both sides call them through `.type`, never a method string. No `vscode` import here.
export {
  type EngineStatus,
  type NewNoticeParams,
  NewNoticeRequest,
  type NewNoticeResult,
  type NoticeFindingsParams,
  NoticeFindingsRequest,
  type NoticeFindingsResult,
  type NoticeSdkVersionItem,
  type NoticeSdkVersionsParams,
  NoticeSdkVersionsRequest,
  type NoticeSubtypeItem,
  type NoticeSubtypesParams,
  NoticeSubtypesRequest,
  SdkChangedNotification,
  type SdkLifecycleStatus,
  type ValidateNowParams,
  ValidateNowRequest,
  type ValidateNowResult,
  ValidationStatusNotification,
  type ValidationStatusParams,
} from './protocol';
