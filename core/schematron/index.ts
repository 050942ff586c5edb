// The official eForms SDK rules, run in our own process.
//
// README. The SDK publishes its business rules as ISO Schematron with XPath 2.0
// (`schematrons/<static|dynamic>/complete-validation.sch` and its includes). This room runs them, with
// core/xpath's one engine (parser, compiler, document model, values) evaluating every expression:
//   - schema.ts          reads the .sch files: ns declarations, phases, patterns, rules, asserts, lets,
//                        diagnostics (no XPath here);
//   - rule-set.ts        the public shapes: key, options, report, rules not evaluated, errors;
//   - engine.ts          compiles a phase's expressions once per release (shared across phases), runs
//                        it (first matching rule per pattern) and collects failures;
//   - incremental.ts     the editor's path: after an edit, re-evaluates only what the edit can change;
//   - report.ts          writes the SVRL report (official locations) and the messages;
//   - rule-cache.ts      keeps a release's parsed rules on disk (one file per release) so that a second
//                        start is fast; prepared-shape.ts checks such a file's shape when read back;
//   - not-evaluated-wording.ts the buyer's sentence about rules that could not be evaluated.
// Releases differ in how they select a subtype's rules (RuleLayout: no phases up to 1.9, phases named
// `16` in 1.10, `eforms-16` from 1.11 on): `ruleLayout()` reads it from the release's files once, and
// `phaseFor()` names the phase to load for a notice subtype, as the reference (Saxon-HE + SchXslt) runs it.
// An expression outside the subset is never skipped silently: it is found when the phase is compiled,
// and every report names its rule in `notEvaluated` (and in a comment of the SVRL) and counts it.
// No `vscode` import here; the only I/O is reading the SDK folder and the cache the caller names.

import { type LoadOptions, loadCompiledRuleSet, ruleLayout } from './engine';
import { type CompiledRuleSet, phaseForSubType, type RuleLayout, type RuleSetKey } from './rule-set';

export { type LoadOptions, ruleLayout } from './engine';
export { changeBetween, IncrementalRules, type IncrementalStats } from './incremental';
export { describeNotEvaluated } from './not-evaluated-wording';

export {
  type CompiledRuleSet,
  type EvaluateOptions,
  type NotEvaluated,
  phaseForSubType,
  type RuleLayout,
  type RuleReport,
  RuleSetError,
  type RuleSetErrorKind,
  type RuleSetKey,
} from './rule-set';

/**
 * The compiled rules of one phase. Compiled once per SDK version, phase and mode and kept in memory;
 * with `cacheDir`, the parsed rules are also kept on disk so that a second process starts fast.
 * Rejects with a RuleSetError when the SDK folder has no rules or no such phase.
 */
export function loadRuleSet(key: RuleSetKey, opts: LoadOptions = {}): Promise<CompiledRuleSet> {
  return loadCompiledRuleSet(key, opts);
}

/**
 * The phase that selects a notice subtype's rules in the release at `sdkDir`, from the layout its files
 * declare (`#ALL` for releases without phases). Throws a RuleSetError when the release has no rules.
 */
export function phaseFor(
  sdkDir: string,
  mode: 'static' | 'dynamic',
  subTypeCode: string,
): { layout: RuleLayout; phase: string } {
  const { layout } = ruleLayout(sdkDir, mode);
  return { layout, phase: phaseForSubType(subTypeCode, layout) };
}
