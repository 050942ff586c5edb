// The `eforms` settings, typed, with their defaults, and the one function that turns whatever a client
// sends (VS Code's configuration, another editor's workspace/configuration answer) into them.
// The same keys are contributed in package.json. No `vscode` import here.

import {
  type EnvironmentName,
  isEnvironmentName,
  SANDBOX_DEFAULT_PORT,
  type ServiceUrls,
  serviceUrls,
} from '../http';
import { normalizeSdkVersion } from '../notice';

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
export type ReportLanguage = (typeof REPORT_LANGUAGES)[number];

export type ValidationRun = 'onType' | 'onSave' | 'manual';
export type ValidationMode = 'static' | 'dynamic';
export type PublicationApiFamily = 'v2' | 'legacy';
/** Which engines validate as you type: the SDK's rules here (`local`), the service (`cvs`), or both. */
export type ValidationEngine = 'local' | 'cvs' | 'both';
export const VALIDATION_ENGINES: readonly ValidationEngine[] = ['local', 'cvs', 'both'];
/** The official Maven repository of the SDK artifact (eu.europa.ted.eforms:eforms-sdk). */
export const SDK_REPOSITORY_URL = 'https://repo1.maven.org/maven2';

export interface EformsSettings {
  environment: EnvironmentName;
  /** Base URLs used when environment is `custom` (empty: preview's). */
  customUrls: { cvs: string; enotices: string; agrifood: string };
  /** Origin of the local sandbox when environment is `sandbox`. */
  sandboxUrl: string;
  validation: {
    run: ValidationRun;
    debounceMs: number;
    timeoutMs: number;
    language: ReportLanguage;
    mode: ValidationMode;
    /** `MAJOR.MINOR` (normalized from `1.15` or `eforms-sdk-1.15`); empty: the notice's cbc:CustomizationID. */
    sdkVersion: string;
    engine: ValidationEngine;
  };
  sdk: {
    /** A folder holding one SDK release, or a folder of releases named by version; '' for none. */
    path: string;
    /** Whether a missing release may be downloaded from `repositoryUrl` (asked once in VS Code). */
    allowDownload: boolean;
    /** Base of the Maven repository the SDK is downloaded from. */
    repositoryUrl: string;
  };
  publication: { apiFamily: PublicationApiFamily; autoRefreshSeconds: number; pageSize: number };
  agrifood: { cacheTtlHours: number; timeoutMs: number };
  /** `language`: of the preview's labels (`en`, `de`); '' for the notice's own language. */
  preview: { language: string };
}

/**
 * Contributed `eforms.*` settings that only the VS Code client reads (never the server or the CLI), so
 * they have no field here. Every other contributed key must be in DEFAULT_SETTINGS with the same default
 * (test/unit/settings-contract.test.ts).
 */
export const CLIENT_ONLY_SETTINGS: readonly string[] = ['trace.server'];

export const DEFAULT_SETTINGS: EformsSettings = {
  environment: 'preview',
  customUrls: { cvs: '', enotices: '', agrifood: '' },
  sandboxUrl: `http://127.0.0.1:${SANDBOX_DEFAULT_PORT}`,
  validation: {
    run: 'onType',
    debounceMs: 800,
    timeoutMs: 60000,
    language: 'en',
    mode: 'static',
    sdkVersion: '',
    engine: 'both',
  },
  sdk: { path: '', allowDownload: false, repositoryUrl: SDK_REPOSITORY_URL },
  publication: { apiFamily: 'v2', autoRefreshSeconds: 30, pageSize: 20 },
  agrifood: { cacheTtlHours: 12, timeoutMs: 120000 },
  preview: { language: '' },
};

type Raw = Record<string, unknown> | undefined | null;

function obj(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
function oneOf<T extends string>(v: unknown, allowed: readonly T[], d: T): T {
  return typeof v === 'string' && (allowed as readonly string[]).includes(v) ? (v as T) : d;
}
function int(v: unknown, d: number, min: number, max: number): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? Math.min(max, Math.max(min, Math.round(n))) : d;
}
function str(v: unknown, d: string): string {
  return typeof v === 'string' ? v.trim() : d;
}

/**
 * Reads the `eforms` section as a client sends it. Both nested objects (`{validation: {run}}`, as
 * workspace/configuration answers) and dotted keys (`{'validation.run': …}`) are accepted, since
 * LSP clients other than VS Code send either. Anything invalid falls back to its default.
 */
export function readSettings(raw: Raw): EformsSettings {
  const flat = flatten(obj(raw));
  const d = DEFAULT_SETTINGS;
  return {
    environment: isEnvironmentName(flat.environment) ? flat.environment : d.environment,
    customUrls: {
      cvs: str(flat['customUrls.cvs'], ''),
      enotices: str(flat['customUrls.enotices'], ''),
      agrifood: str(flat['customUrls.agrifood'], ''),
    },
    sandboxUrl: str(flat.sandboxUrl, '') || d.sandboxUrl,
    validation: {
      run: oneOf(flat['validation.run'], ['onType', 'onSave', 'manual'] as const, d.validation.run),
      debounceMs: int(flat['validation.debounceMs'], d.validation.debounceMs, 0, 60000),
      timeoutMs: int(flat['validation.timeoutMs'], d.validation.timeoutMs, 1000, 600000),
      language: oneOf(flat['validation.language'], REPORT_LANGUAGES, d.validation.language),
      mode: oneOf(flat['validation.mode'], ['static', 'dynamic'] as const, d.validation.mode),
      // Both spellings users meet: `1.15` and the CustomizationID form `eforms-sdk-1.15`.
      sdkVersion: normalizeSdkVersion(str(flat['validation.sdkVersion'], '')) ?? '',
      engine: oneOf(flat['validation.engine'], VALIDATION_ENGINES, d.validation.engine),
    },
    sdk: {
      path: str(flat['sdk.path'], ''),
      allowDownload: flat['sdk.allowDownload'] === true,
      repositoryUrl: str(flat['sdk.repositoryUrl'], '').replace(/\/+$/, '') || d.sdk.repositoryUrl,
    },
    publication: {
      apiFamily: oneOf(flat['publication.apiFamily'], ['v2', 'legacy'] as const, d.publication.apiFamily),
      autoRefreshSeconds: int(
        flat['publication.autoRefreshSeconds'],
        d.publication.autoRefreshSeconds,
        0,
        3600,
      ),
      pageSize: int(flat['publication.pageSize'], d.publication.pageSize, 1, 200),
    },
    agrifood: {
      cacheTtlHours: int(flat['agrifood.cacheTtlHours'], d.agrifood.cacheTtlHours, 0, 24 * 365),
      timeoutMs: int(flat['agrifood.timeoutMs'], d.agrifood.timeoutMs, 1000, 3600000),
    },
    // A two-letter code; which ones exist depends on the SDK release, so anything else means "the notice's".
    preview: {
      language: /^[a-z]{2}$/.test(str(flat['preview.language'], '')) ? str(flat['preview.language'], '') : '',
    },
  };
}

function flatten(
  o: Record<string, unknown>,
  prefix = '',
  into: Record<string, unknown> = {},
): Record<string, unknown> {
  for (const [k, v] of Object.entries(o)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) flatten(v as Record<string, unknown>, key, into);
    else into[key] = v;
  }
  return into;
}

/** The base URLs these settings point at. */
export function urlsOf(s: EformsSettings): ServiceUrls {
  const overrides = s.environment === 'custom' ? s.customUrls : {};
  return serviceUrls(s.environment, overrides, s.sandboxUrl);
}
