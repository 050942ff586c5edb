// TODO room comment
export {
  DEFAULT_SETTINGS,
  type EformsSettings,
  REPORT_LANGUAGES,
  readSettings,
  SDK_REPOSITORY_URL,
  urlsOf,
  type ValidationMode,
} from './settings';
