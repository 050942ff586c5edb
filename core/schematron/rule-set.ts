// The public shapes of a compiled phase of the SDK rules: its key, options, report and errors. Kept apart
// from index.ts so that the room's own modules never import their entry (no cycle). No I/O here.

import type { XmlIndex } from '../notice';
import type { SvrlAssertion } from '../svrl';

/** The phase of a notice sub type: `16` -> `eforms-16`, `E1` -> `eforms-E1`. */
export function phaseForSubType(subTypeCode: string): string {
  return `eforms-${subTypeCode.trim()}`;
}

export interface RuleSetKey {
  /** The SDK release folder (it holds `schematrons/`). */
  sdkDir: string;
  sdkVersion: string;
  phase: string;
  mode: 'static' | 'dynamic';
}

export interface EvaluateOptions {
  /** The date `current-date()` returns, `YYYY-MM-DD`; today (UTC) when absent. */
  today?: string;
  /** Language of the messages (`en`, `fr`…); `en` when absent. */
  language?: string;
  /** Polled between patterns: when it answers true the run stops and the report says so. */
  isCancelled?: () => boolean;
}

export interface RuleReport {
  /** The SVRL report, shaped like the CVS's. */
  svrl: string;
  /** Every failed assertion, as core/svrl reads them from a report, each with its node (`node`). */
  failures: SvrlAssertion[];
  /** The schema's prefix declarations, which the failures' diagnostic paths are written with. */
  namespaces: [string, string][];
  /** Rules that could not be evaluated (outside the compiled subset, no fallback), named and counted. */
  notEvaluated: { ruleId: string; reason: string }[];
  sdkVersion: string;
  phase: string;
  mode: 'static' | 'dynamic';
  /** True when `isCancelled` stopped the run: the report is then incomplete. */
  cancelled: boolean;
  /** Number of asserts evaluated (every fired rule's asserts). */
  assertsEvaluated: number;
}

export interface CompiledRuleSet {
  readonly key: RuleSetKey;
  /** Number of rules and asserts in the phase. */
  readonly ruleCount: number;
  readonly assertCount: number;
  /** Where the rules came from: parsed from the SDK folder, or read from the disk cache. */
  readonly source: 'sdk' | 'cache';
  evaluate(notice: string | XmlIndex, opts?: EvaluateOptions): RuleReport;
}

/** Why a rule set could not be loaded; each front end words it. */
export type RuleSetErrorKind = 'no-schematron' | 'unknown-phase' | 'unreadable';

export class RuleSetError extends Error {
  override name = 'RuleSetError';
  constructor(
    readonly kind: RuleSetErrorKind,
    readonly fields: { path?: string; phase?: string; phases?: string[]; detail?: string },
  ) {
    super(
      kind === 'no-schematron'
        ? `no schematron rules at ${fields.path}`
        : kind === 'unknown-phase'
          ? `the SDK rules have no phase ${fields.phase}`
          : `cannot read the SDK rules at ${fields.path}: ${fields.detail}`,
    );
  }
}
