// TODO room comment

export {
  CvsError,
  elementsNamedIn,
  type ValidateNoticeOptions,
  type ValidateNoticeResult,
  validateNotice,
  validationUrl,
} from './cvs-client';
export {
  businessIdOfNotice,
  EnoticesClient,
  EnoticesError,
  isNoticeStatus,
  NOTICE_STATUSES,
  type Notice,
  type SearchCriteria,
} from './enotices-client';
export { type EnoticesCode, EnoticesCodes, OPERATION_LABELS } from './enotices-messages';
export {
  fetchVersionRange,
  placeInRange,
  type SdkVersionRange,
  VersionRangeCache,
  type VersionRangeOptions,
  versionRangeFinding,
} from './version-range';
