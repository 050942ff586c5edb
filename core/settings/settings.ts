// The `eforms` settings, typed, and the one function that turns whatever a client sends (VS Code's
// configuration, another editor's workspace/configuration answer) into them. Defaults, bounds and
// allowed values come from the one table (settings-table.ts), from which package.json's contribution
// is generated: none is written here a second time. No `vscode` import here.

import { isAbsolute, win32 } from 'node:path';
import { type EnvironmentName, isEnvironmentName, type ServiceUrls, serviceUrls } from '../http';
import { normalizeSdkVersion } from '../notice';
import { REPORT_LANGUAGES, SDK_REPOSITORY_URL, SETTINGS_TABLE, settingSpec } from './settings-table';

export { REPORT_LANGUAGES, SDK_REPOSITORY_URL };

export type ReportLanguage = (typeof REPORT_LANGUAGES)[number];

export type ValidationRun = 'onType' | 'onSave' | 'manual';
export type ValidationMode = 'static' | 'dynamic';
export type PublicationApiFamily = 'v2' | 'legacy';
/** Which engines validate as you type: the SDK's rules here (`local`), the service (`cvs`), or both. */
export type ValidationEngine = 'local' | 'cvs' | 'both';
export const VALIDATION_ENGINES: readonly ValidationEngine[] = ['local', 'cvs', 'both'];

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
    /** How long one run of the SDK's rules may take before it is stopped (its worker replaced). */
    timeBudgetMs: number;
    language: ReportLanguage;
    mode: ValidationMode;
    /** `MAJOR.MINOR` (normalized from `1.15` or `eforms-sdk-1.15`); empty: the notice's cbc:CustomizationID. */
    sdkVersion: string;
    engine: ValidationEngine;
  };
  sdk: {
    /** A folder holding one SDK release, or a folder of releases named by version; '' for none. */
    path: string;
    /** A relative `eforms.sdk.path` as given: refused (it would resolve inside an opened repository). */
    refusedPath?: string;
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
 * they have no field here: the table's `clientOnly` rows.
 */
export const CLIENT_ONLY_SETTINGS: readonly string[] = SETTINGS_TABLE.filter((s) => s.clientOnly).map(
  (s) => s.key,
);

type Raw = Record<string, unknown> | undefined | null;

function obj(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
/** A value of the enum the table gives `key`, else the table's default. */
function oneOf<T extends string>(flat: Record<string, unknown>, key: string): T {
  const spec = settingSpec(key);
  const v = flat[key];
  return (typeof v === 'string' && (spec.enum ?? []).includes(v) ? v : spec.default) as T;
}
/** An integer within the table's bounds for `key` (clamped), else its default. */
function int(flat: Record<string, unknown>, key: string): number {
  const spec = settingSpec(key);
  const v = flat[key];
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) return spec.default as number;
  return Math.min(spec.maximum ?? Number.MAX_SAFE_INTEGER, Math.max(spec.minimum ?? 0, Math.round(n)));
}
/** A trimmed string that matches the table's pattern for `key`, else its default. */
function matching(flat: Record<string, unknown>, key: string): string {
  const spec = settingSpec(key);
  const v = str(flat, key);
  return spec.pattern === undefined || new RegExp(spec.pattern).test(v) ? v : (spec.default as string);
}
/** A trimmed string, else the table's default (a blank string too when `blankIsDefault`). */
function str(flat: Record<string, unknown>, key: string, blankIsDefault = false): string {
  const d = settingSpec(key).default as string;
  const v = flat[key];
  if (typeof v !== 'string') return d;
  const t = v.trim();
  return blankIsDefault && t === '' ? d : t;
}

/**
 * Reads the `eforms` section as a client sends it. Both nested objects (`{validation: {run}}`, as
 * workspace/configuration answers) and dotted keys (`{'validation.run': …}`) are accepted, since
 * LSP clients other than VS Code send either. Anything invalid falls back to its default.
 */
export function readSettings(raw: Raw): EformsSettings {
  const flat = flatten(obj(raw));
  return {
    environment: isEnvironmentName(flat.environment)
      ? flat.environment
      : (settingSpec('environment').default as EnvironmentName),
    customUrls: {
      cvs: str(flat, 'customUrls.cvs'),
      enotices: str(flat, 'customUrls.enotices'),
      agrifood: str(flat, 'customUrls.agrifood'),
    },
    sandboxUrl: str(flat, 'sandboxUrl', true),
    validation: {
      run: oneOf(flat, 'validation.run'),
      debounceMs: int(flat, 'validation.debounceMs'),
      timeoutMs: int(flat, 'validation.timeoutMs'),
      timeBudgetMs: int(flat, 'validation.timeBudgetMs'),
      language: oneOf(flat, 'validation.language'),
      mode: oneOf(flat, 'validation.mode'),
      // Both spellings users meet: `1.15` and the CustomizationID form `eforms-sdk-1.15`.
      sdkVersion: normalizeSdkVersion(str(flat, 'validation.sdkVersion')) ?? '',
      engine: oneOf(flat, 'validation.engine'),
    },
    sdk: {
      ...sdkPath(str(flat, 'sdk.path')),
      allowDownload: flat['sdk.allowDownload'] === true,
      repositoryUrl: str(flat, 'sdk.repositoryUrl', true).replace(/\/+$/, '') || SDK_REPOSITORY_URL,
    },
    publication: {
      apiFamily: oneOf(flat, 'publication.apiFamily'),
      autoRefreshSeconds: int(flat, 'publication.autoRefreshSeconds'),
      pageSize: int(flat, 'publication.pageSize'),
    },
    agrifood: {
      cacheTtlHours: int(flat, 'agrifood.cacheTtlHours'),
      timeoutMs: int(flat, 'agrifood.timeoutMs'),
    },
    // A two-letter code; which ones exist depends on the SDK release, so anything else means "the notice's".
    preview: {
      language: matching(flat, 'preview.language'),
    },
  };
}

/** Every setting at its default: what readSettings gives for nothing. */
export const DEFAULT_SETTINGS: EformsSettings = readSettings({});

/** Only an absolute `eforms.sdk.path` is used: a relative one is refused and kept to say so. */
function sdkPath(p: string): { path: string; refusedPath?: string } {
  if (p === '' || isAbsolute(p) || win32.isAbsolute(p)) return { path: p };
  return { path: '', refusedPath: p };
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
