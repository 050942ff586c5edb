// TODO room comment
export {
  type EngineStatus,
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
