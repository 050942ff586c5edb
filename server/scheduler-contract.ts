// The validation scheduler's contract with the language server: what it is given (settings, the API
// key, the transports, where to publish, report and log, the clock and its tunables) and what it
// answers the pre-submit check. Types only: no behaviour, and no value that could hold the key.

import type { Finding } from '../core/findings';
import type { XmlIndex } from '../core/notice';
import type { ValidationStatusParams } from '../core/protocol';
import type {
  SdkVersionRange,
  ValidateNoticeOptions,
  ValidateNoticeResult,
  VersionRangeOptions,
} from '../core/services';
import type { EformsSettings } from '../core/settings';
import type { EngineName, LocalEngine } from '../core/validation';
import type { Clock } from './clock';

export interface SchedulerDeps {
  settings(uri: string): Promise<EformsSettings>;
  /** The API key from the server's environment; undefined or '' when none is set. */
  apiKey: string | undefined;
  /** The CVS transport (core/cvs-client's validateNotice, or a fake in tests). */
  validate(o: ValidateNoticeOptions): Promise<ValidateNoticeResult>;
  /** The SDK's rules for these settings; absent: the local engine never runs. */
  localEngine?(settings: EformsSettings): LocalEngine;
  /**
   * Publishes the complete diagnostics of a document, computed for `version`; `index` is the text the
   * findings are placed on (absent when clearing), for completing them without indexing again.
   */
  publish(uri: string, version: number | undefined, findings: Finding[], index?: XmlIndex): void;
  status(s: ValidationStatusParams): void;
  log(message: string): void;
  clock?: Clock;
  /** First back-off delay after a failure; doubles up to backoffMaxMs. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Notices larger than this (UTF-8 bytes) get local checks only. */
  maxServiceBytes?: number;
  /** Quiet typing before the SDK's rules run (they are cheap and run off the main thread). */
  localDebounceMs?: number;
  /** The SDK versions the service accepts for publication (cached by the caller); none: no warning. */
  versionRange?(o: VersionRangeOptions): Promise<SdkVersionRange | undefined>;
}

/** What NoticeFindingsRequest answers: the findings published, and why each engine could not run. */
export type NoticeFindingsOutcome =
  | { ok: false; message: string }
  | { ok: true; version: number; findings: Finding[]; engines: { engine: EngineName; problem?: string }[] };
