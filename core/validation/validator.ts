// What every validation engine implements, and what it hands back: an SVRL report plus how it was
// produced (engine, SDK release, why that release, rules it could not evaluate). Engines never place
// findings on the text (the pipeline does) and never word errors for a front end: they throw errors
// that carry a kind (CvsError, SdkError). No `vscode` import here.

import type { XmlIndex } from '../notice';
import type { NotEvaluated } from '../schematron';
import type { ValidationMode } from '../settings';
import type { SvrlReport } from '../svrl';

export type EngineName = 'cvs' | 'local';

export interface ValidationInput {
  index: XmlIndex;
  /** The exact bytes of the notice: the CVS receives them unchanged. */
  bytes: Uint8Array;
  language: string;
  mode: ValidationMode;
  /** `MAJOR.MINOR` or a full version: pinned by the user, else declared by the notice; '' when neither. */
  sdkVersion: string;
  /** True when `sdkVersion` comes from the user, not from the notice. */
  pinned: boolean;
  timeoutMs: number;
  /** Aborted when a newer edit takes over; engines stop as soon as they can. */
  signal?: AbortSignal;
  /** `YYYY-MM-DD` for current-date() (local engine), so that runs are reproducible. */
  today?: string;
  /**
   * false: the caller never reads EngineReport.svrl (the CLI's text, JSON and SARIF output), so the
   * local engine hands it back empty and a worker does not copy it across threads (in a batch over
   * every phase of 1.15.1 it was two thirds of what the workers sent). Absent: the SVRL text as written.
   */
  svrl?: boolean;
  /**
   * Polled by CPU-bound engines besides `signal`: a worker busy evaluating cannot receive the abort
   * message, so its caller flips shared memory instead.
   */
  isCancelled?(): boolean;
}

export interface EngineReport {
  engine: EngineName;
  report: SvrlReport;
  /** The SVRL text as the engine produced it (for `--format svrl` and the report view). */
  svrl: string;
  /** Local: the exact release (`1.15.1`); CVS: the version asked for, '' for the service's default. */
  sdkVersion: string;
  /** How the local engine chose its release; undefined for the CVS. */
  because?: 'pinned' | 'declared' | 'only';
  phase?: string;
  /** Rules the engine could not evaluate: named, never skipped silently. */
  notEvaluated: NotEvaluated[];
}

export interface Validator {
  readonly engine: EngineName;
  validate(input: ValidationInput): Promise<EngineReport>;
}
