// Room: the one table of the `eforms` settings: types, defaults, bounds and descriptions, from which
// package.json's contribution is checked, and the reader that turns what a client sends into settings.
// No `vscode` import here, no I/O.
export {
  DEFAULT_SETTINGS,
  type EformsSettings,
  REPORT_LANGUAGES,
  readSettings,
  SDK_REPOSITORY_URL,
  urlsOf,
  type ValidationMode,
} from './settings';
export {
  contributedConfiguration,
  SETTING_SECTIONS,
  SETTINGS_ROOTS,
  SETTINGS_TABLE,
  type SettingSpec,
  settingSpec,
} from './settings-table';
