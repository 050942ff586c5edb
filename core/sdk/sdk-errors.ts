// The one error type of the SDK subsystem: a kind and the fields a front end needs to word it (the CLI
// names its flags, the editor its settings and commands). Its own message is a plain default for logs;
// no front end parses it. No `vscode` import here.

import type { ServiceError } from '../http';

export type SdkErrorKind =
  /** No release is available: none named, none cached, and no download allowed or possible. */
  | 'no-sdk'
  /** Releases exist, but not the version wanted (`wanted`, `available`). */
  | 'version-missing'
  /** Several releases and the notice declares no version (`available`). */
  | 'no-version'
  /** A download is needed and the user has not allowed downloads (`wanted`). */
  | 'consent-needed'
  /** The repository cannot be reached (`url`, `reason`). */
  | 'offline'
  /** The repository answered, but not with the release (`url`, `status`). */
  | 'not-found'
  /** The archive does not match its published checksum, or is not a readable SDK archive. */
  | 'corrupt'
  /** The user cancelled the download. */
  | 'cancelled'
  /** The rule engine failed on this release (`reason`). */
  | 'engine'
  /**
   * The rules ran longer than their time budget (`budgetMs`: eforms.validation.timeBudgetMs,
   * --time-budget) and were stopped: the notice was not checked by them.
   */
  | 'time-budget';

export interface SdkErrorFields {
  wanted?: string;
  available?: string[];
  url?: string;
  status?: number;
  reason?: string;
  budgetMs?: number;
}

export class SdkError extends Error {
  constructor(
    readonly kind: SdkErrorKind,
    readonly fields: SdkErrorFields = {},
    /**
     * When the repository could not be reached or answered too much: the transport's failure, as
     * core/http's ServiceError of service `sdk`, which front ends word like any service's failure.
     */
    readonly failure?: ServiceError,
  ) {
    super(defaultMessage(kind, fields));
    this.name = 'SdkError';
  }

  /** True when the same call may succeed later without the user changing anything. */
  get retryable(): boolean {
    return this.kind === 'offline';
  }
}

function defaultMessage(kind: SdkErrorKind, f: SdkErrorFields): string {
  const avail = f.available?.length ? ` (available: ${f.available.join(', ')})` : '';
  switch (kind) {
    case 'no-sdk':
      return 'No eForms SDK is available: name a folder that holds one, or allow its download.';
    case 'version-missing':
      return `eForms SDK ${f.wanted} is not available${avail}.`;
    case 'no-version':
      return `The notice declares no SDK version and several SDKs are available${avail}: pin one.`;
    case 'consent-needed':
      return `eForms SDK ${f.wanted} must be downloaded, and downloads are not allowed.`;
    case 'offline':
      return `The SDK repository ${f.url ?? ''} cannot be reached (${f.reason ?? 'network error'}): name a folder that holds the SDK, or connect.`;
    case 'not-found':
      return `The SDK repository has no ${f.wanted ?? 'such release'} (${f.status ?? '?'} at ${f.url ?? ''}).`;
    case 'corrupt':
      return `The downloaded SDK archive is corrupt (${f.reason ?? 'checksum mismatch'}); nothing was kept.`;
    case 'cancelled':
      return 'The SDK download was cancelled.';
    case 'engine':
      return `The SDK rules could not be run (${f.reason ?? 'unknown reason'}).`;
    case 'time-budget':
      return `The SDK rules ran longer than their time budget of ${formatBudget(f.budgetMs ?? 0)} and were stopped; the notice was not checked by them.`;
  }
}

/** `60 s`, `1.5 s`: a time budget as the messages state it. */
export function formatBudget(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
