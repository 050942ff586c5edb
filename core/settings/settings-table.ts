// The one table of the `eforms` settings: key, type, default, bounds, allowed values, scope and the
// words the settings editor shows. readSettings (settings.ts) clamps and falls back by it, the VS Code
// client reads the sections it names, and package.json's contributes.configuration is generated from it
// (`node scripts/settings.mjs --write`; test/settings/settings-table.test.ts checks it field by field).
// Add or change a setting here, never in package.json alone. No `vscode` import here, no I/O.

import { ENVIRONMENTS, SANDBOX_DEFAULT_PORT } from '../http';

export const REPORT_LANGUAGES = [
  'bg',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'es',
  'et',
  'fi',
  'fr',
  'ga',
  'hu',
  'it',
  'lt',
  'lv',
  'mt',
  'nl',
  'pl',
  'pt',
  'ro',
  'sk',
  'sl',
  'sv',
  'hr',
] as const;

/** The official Maven repository of the SDK artifact (eu.europa.ted.eforms:eforms-sdk). */
export const SDK_REPOSITORY_URL = 'https://repo1.maven.org/maven2';

/** The settings editor's groups, in package.json's order. */
export const SETTING_SECTIONS = [
  { title: 'Services', order: 1 },
  { title: 'Validation', order: 2 },
  { title: 'eForms SDK', order: 2 },
  { title: 'Publication', order: 3 },
  { title: 'Market Data', order: 4 },
  { title: 'Preview', order: 5 },
] as const;

export type SettingSection = (typeof SETTING_SECTIONS)[number]['title'];

/** One `eforms.*` setting, as package.json contributes it (the key without `eforms.`). */
export interface SettingSpec {
  readonly key: string;
  readonly section: SettingSection;
  readonly type: 'string' | 'integer' | 'boolean';
  readonly default: string | number | boolean;
  readonly enum?: readonly string[];
  readonly enumDescriptions?: readonly string[];
  /** Integers: what readSettings clamps to, and what the settings editor accepts. */
  readonly minimum?: number;
  readonly maximum?: number;
  readonly pattern?: string;
  readonly scope?: 'application' | 'machine' | 'machine-overridable' | 'window' | 'resource';
  readonly markdownDescription: string;
  readonly tags?: readonly string[];
  /** Read only by the VS Code client (the language client library's trace), never by readSettings. */
  readonly clientOnly?: boolean;
}

export const SETTINGS_TABLE: readonly SettingSpec[] = [
  {
    key: 'environment',
    section: 'Services',
    type: 'string',
    enum: ENVIRONMENTS,
    default: 'preview',
    scope: 'window',
    enumDescriptions: [
      'TED preview (acceptance) environment: cvs.preview.ted.europa.eu, enotices2.preview.ted.europa.eu.',
      'TED production: notices submitted here are published in the Official Journal.',
      'The local emulation started by `eforms sandbox` (`npm start` does it for you).',
      'Your own base URLs, from the `eforms.customUrls.*` settings.',
    ],
    markdownDescription:
      'Which services the extension talks to. Your API key must belong to the same environment. See [the TED developer docs](https://docs.ted.europa.eu/api/latest/index.html).',
    tags: ['usesOnlineServices'],
  },
  {
    key: 'customUrls.cvs',
    section: 'Services',
    type: 'string',
    default: '',
    scope: 'window',
    markdownDescription:
      "Base URL of the Central Validation Service when `#eforms.environment#` is `custom` (empty: preview's). Must be https, or http to a loopback address.",
  },
  {
    key: 'customUrls.enotices',
    section: 'Services',
    type: 'string',
    default: '',
    scope: 'window',
    markdownDescription:
      "Base URL of eNotices2 (ending in `/esenders`) when `#eforms.environment#` is `custom` (empty: preview's).",
  },
  {
    key: 'customUrls.agrifood',
    section: 'Services',
    type: 'string',
    default: '',
    scope: 'window',
    markdownDescription:
      'Base URL of the agri-food market data service when `#eforms.environment#` is `custom` (empty: `https://api.tech.ec.europa.eu/agrifood`).',
  },
  {
    key: 'sandboxUrl',
    section: 'Services',
    type: 'string',
    default: `http://127.0.0.1:${SANDBOX_DEFAULT_PORT}`,
    scope: 'window',
    markdownDescription:
      'Address of the local sandbox (`eforms sandbox`, `npm run sandbox`) used when `#eforms.environment#` is `sandbox`.',
  },
  {
    key: 'validation.run',
    section: 'Validation',
    type: 'string',
    enum: ['onType', 'onSave', 'manual'],
    default: 'onType',
    enumDescriptions: [
      'Validate with the service after you stop typing (see debounce).',
      'Validate with the service when the file is saved.',
      'Validate with the service only through "eForms: Validate Notice".',
    ],
    markdownDescription:
      'When the notice is sent to the Central Validation Service. Local checks (well-formedness, `cbc:CustomizationID`) always run as you type.',
    tags: ['usesOnlineServices'],
  },
  {
    key: 'validation.debounceMs',
    section: 'Validation',
    type: 'integer',
    default: 800,
    minimum: 0,
    maximum: 60000,
    markdownDescription:
      'Milliseconds of quiet typing before the notice is sent for validation (with `onType`).',
  },
  {
    key: 'validation.timeoutMs',
    section: 'Validation',
    type: 'integer',
    default: 60000,
    minimum: 1000,
    maximum: 600000,
    markdownDescription: 'How long to wait for the validation service before reporting a timeout.',
  },
  {
    key: 'validation.timeBudgetMs',
    section: 'Validation',
    type: 'integer',
    default: 60000,
    minimum: 1000,
    maximum: 600000,
    markdownDescription:
      'How long one run of the local eForms SDK rules may take. A run still going after it is stopped (its worker is replaced), and the status bar says that the rules did not check the notice. They run on it again when a setting changes or when you validate it on demand (eForms: Validate Notice).',
  },
  {
    key: 'validation.language',
    section: 'Validation',
    type: 'string',
    enum: REPORT_LANGUAGES,
    default: 'en',
    markdownDescription: 'Language of the validation messages.',
  },
  {
    key: 'validation.mode',
    section: 'Validation',
    type: 'string',
    enum: ['static', 'dynamic'],
    default: 'static',
    enumDescriptions: [
      'Rules that depend only on the notice.',
      'Also the rules that depend on the time of validation and on earlier notices.',
    ],
    markdownDescription:
      'Which group of rules the service applies. Submissions are validated in `static` mode unless configured otherwise.',
  },
  {
    key: 'validation.sdkVersion',
    section: 'Validation',
    type: 'string',
    default: '',
    pattern: '^((eforms-sdk-)?\\d+\\.\\d+)?$',
    markdownDescription:
      'eForms SDK version whose rules are applied, as `MAJOR.MINOR` (`1.15`) or as in `cbc:CustomizationID` (`eforms-sdk-1.15`); it is sent as `eforms-sdk-1.15`. Empty: not sent, and the service uses the version the notice declares in `cbc:CustomizationID`.',
  },
  {
    key: 'validation.engine',
    section: 'Validation',
    type: 'string',
    enum: ['both', 'local', 'cvs'],
    default: 'both',
    enumDescriptions: [
      "The SDK's own rules as you type, offline and without a key; the CVS as `eforms.validation.run` says (it stays the authority). A finding both report appears once.",
      "Only the SDK's own rules, run in the language server: no key, no network.",
      'Only the Central Validation Service, as before.',
    ],
    markdownDescription:
      'Which engines validate the notice. `local` runs the official eForms SDK schematron rules in the language server (needs an SDK: `#eforms.sdk.path#` or a download allowed by `#eforms.sdk.allowDownload#`).',
  },
  {
    key: 'trace.server',
    section: 'Validation',
    type: 'string',
    enum: ['off', 'messages', 'verbose'],
    default: 'off',
    scope: 'window',
    markdownDescription:
      'Traces the messages between VS Code and the eForms language server in the log (the API key is never part of them).',
    clientOnly: true,
  },
  {
    key: 'sdk.path',
    section: 'eForms SDK',
    type: 'string',
    default: '',
    scope: 'machine',
    markdownDescription:
      "An absolute path (a relative one is refused) to a folder holding one eForms SDK release (with `schematrons/`, `fields/`, `codelists/`…, as the official archive unpacks), or a folder of releases named by version (`1.15.1/`, `1.14.0/`). The local rules use the release the notice's `cbc:CustomizationID` asks for, unless `#eforms.validation.sdkVersion#` pins one. Hover, completion, quick fixes and **New Notice** read field, code list and label metadata from it. Empty: none (releases downloaded before are still used).",
  },
  {
    key: 'sdk.allowDownload',
    section: 'eForms SDK',
    type: 'boolean',
    default: false,
    scope: 'machine',
    markdownDescription:
      "Allow downloading a missing SDK release (the `eu.europa.ted.eforms:eforms-sdk` jar, checked against its published SHA-1) from `#eforms.sdk.repositoryUrl#` into the extension's storage. VS Code asks once when a notice needs one.",
    tags: ['usesOnlineServices'],
  },
  {
    key: 'sdk.repositoryUrl',
    section: 'eForms SDK',
    type: 'string',
    default: SDK_REPOSITORY_URL,
    scope: 'machine',
    markdownDescription:
      'Base URL of the Maven repository the SDK is downloaded from (https, or http to a loopback address).',
    tags: ['usesOnlineServices'],
  },
  {
    key: 'publication.apiFamily',
    section: 'Publication',
    type: 'string',
    enum: ['v2', 'legacy'],
    default: 'v2',
    enumDescriptions: [
      '`/api/v2/notice/...` (current).',
      'The earlier `/api/notice/...` family: key and account problems come back as HTTP 500.',
    ],
    markdownDescription: 'Which eNotices2 path family to use.',
  },
  {
    key: 'publication.autoRefreshSeconds',
    section: 'Publication',
    type: 'integer',
    default: 30,
    minimum: 0,
    maximum: 3600,
    markdownDescription:
      'While a notice is PUBLISHING, refresh "My Notices" this often; while one is SUBMITTED (when Stop Publication is still possible), every 5 seconds at most (0: never refresh by itself).',
  },
  {
    key: 'publication.pageSize',
    section: 'Publication',
    type: 'integer',
    default: 20,
    minimum: 1,
    maximum: 200,
    markdownDescription: 'Notices fetched per page in "My Notices".',
  },
  {
    key: 'agrifood.cacheTtlHours',
    section: 'Market Data',
    type: 'integer',
    default: 12,
    minimum: 0,
    maximum: 8760,
    markdownDescription:
      'How long answers of the agri-food service are kept in the on-disk cache (0: no cache).',
  },
  {
    key: 'agrifood.timeoutMs',
    section: 'Market Data',
    type: 'integer',
    default: 120000,
    minimum: 1000,
    maximum: 3600000,
    markdownDescription:
      'How long one agri-food query may take, waits between retries of a busy service included (broad queries return 100,000+ records).',
  },
  {
    key: 'preview.language',
    section: 'Preview',
    type: 'string',
    default: '',
    pattern: '^([a-z]{2})?$',
    markdownDescription:
      "Language of the labels in the notice preview (**eForms: Open Preview**), as a two-letter code (`en`, `de`, `fr`…) among those the notice's SDK release translates. The preview's language picker sets it. Empty: the notice's own language (`cbc:NoticeLanguageCode`), else English.",
  },
];

/** The spec of `key` (without `eforms.`); throws for a key not in the table (a programming error). */
export function settingSpec(key: string): SettingSpec {
  const s = SETTINGS_TABLE.find((x) => x.key === key);
  if (!s) throw new Error(`eforms.${key} is not in the settings table`);
  return s;
}

/** The top-level names under `eforms` that readSettings reads (`validation`, `sdk`, `environment`…). */
export const SETTINGS_ROOTS: readonly string[] = [
  ...new Set(SETTINGS_TABLE.filter((s) => !s.clientOnly).map((s) => s.key.split('.')[0] as string)),
];

/** package.json's `contributes.configuration`, generated from the table: sections in order, keys in order. */
export function contributedConfiguration(): {
  title: string;
  order: number;
  properties: Record<string, Record<string, unknown>>;
}[] {
  return SETTING_SECTIONS.map((section) => {
    const properties: Record<string, Record<string, unknown>> = {};
    for (const s of SETTINGS_TABLE.filter((x) => x.section === section.title)) {
      const p: Record<string, unknown> = { type: s.type };
      if (s.enum) p.enum = [...s.enum];
      p.default = s.default;
      if (s.scope) p.scope = s.scope;
      if (s.enumDescriptions) p.enumDescriptions = [...s.enumDescriptions];
      if (s.minimum !== undefined) p.minimum = s.minimum;
      if (s.maximum !== undefined) p.maximum = s.maximum;
      if (s.pattern !== undefined) p.pattern = s.pattern;
      p.markdownDescription = s.markdownDescription;
      if (s.tags) p.tags = [...s.tags];
      properties[`eforms.${s.key}`] = p;
    }
    return { title: section.title, order: section.order, properties };
  });
}
