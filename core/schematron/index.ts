// The official eForms SDK rules, run in our own process.
//
// README. The SDK publishes its business rules as ISO Schematron with XPath 2.0
// (`schematrons/<static|dynamic>/complete-validation.sch` and its includes). This folder compiles them:
//   - schema.ts      reads the .sch files: ns declarations, phases, patterns, rules, asserts, lets,
//                    diagnostics (no XPath here);
//   - xpath-parser.ts parses the XPath 2.0 subset the SDK uses into a small AST;
//   - xpath-compile.ts turns each AST into a JavaScript closure over a document model;
//   - document.ts    the XPath data model (document, elements, attributes, text) over core/xml-index,
//                    built once per evaluation with elements indexed by expanded name;
//   - xpath-values.ts atomic values and XPath 2.0 semantics (untypedAtomic, dates, durations, regexes);
//   - engine.ts      runs a phase (first matching rule per pattern) and collects failures;
//   - report.ts      writes the SVRL report (official locations) and the messages;
//   - rule-cache.ts  keeps the parsed rules of a phase on disk so that a second start is fast.
// An expression outside the subset is never skipped silently: it is found when the phase is compiled,
// and every report names its rule in `notEvaluated` (and in a comment of the SVRL) and counts it.
// No `vscode` import here; the only I/O is reading the SDK folder and the cache the caller names.

import type { XmlIndex } from '../notice';
import type { SvrlAssertion } from '../svrl';
import { loadCompiledRuleSet } from './engine';

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
  /** Every failed assertion, as core/svrl.ts reads them from a report. */
  failures: SvrlAssertion[];
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

/**
 * The compiled rules of one phase. Compiled once per SDK version, phase and mode and kept in memory;
 * with `cacheDir`, the parsed rules are also kept on disk so that a second process starts fast.
 * Rejects with a RuleSetError when the SDK folder has no rules or no such phase.
 */
export function loadRuleSet(key: RuleSetKey, opts: { cacheDir?: string } = {}): Promise<CompiledRuleSet> {
  return loadCompiledRuleSet(key, opts);
}
