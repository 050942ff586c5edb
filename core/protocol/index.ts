// Room: the custom LSP messages between the language server and its clients, declared once with their
// types; both sides call them through `.type`, never a method string. No `vscode` import here.
export {
  type CodeChoiceItem,
  type EngineStatus,
  type NewNoticeChoicesParams,
  NewNoticeChoicesRequest,
  type NewNoticeChoicesResult,
  type NewNoticeParams,
  NewNoticeRequest,
  type NewNoticeResult,
  type NoticeSubtypeItem,
  type NoticeSubtypesParams,
  NoticeSubtypesRequest,
  SdkChangedNotification,
  type ValidateNowParams,
  ValidateNowRequest,
  type ValidateNowResult,
  ValidationStatusNotification,
  type ValidationStatusParams,
} from './protocol';
