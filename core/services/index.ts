// Room: the clients of TED's services (the Central Validation Service, eNotices2, the CVS's version
// range), all over core/http, each failure a ServiceError with a kind and fields. No `vscode` import here.

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
  type AcceptedVersion,
  describeAccepted,
  describeLifecycle,
  describeSwitches,
  type SdkLifecycle,
  type SdkSwitch,
  sdkLifecycle,
  VERSION_RANGE_FINDING_ID,
  versionRangeFinding,
} from './sdk-lifecycle';
export {
  type AcceptanceWindow,
  fetchVersionRange,
  parseVersionRange,
  placeInRange,
  type SdkVersionRange,
  VersionRangeCache,
  type VersionRangeOptions,
} from './version-range';
