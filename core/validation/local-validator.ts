// The official eForms SDK rules, run in this process, as a Validator. The release follows the notice's
// cbc:CustomizationID unless a version is pinned (a notice that declares none gets the pinned or the
// only SDK, and the report says so); the phase follows efac:NoticeSubType/cbc:SubTypeCode in the layout of the release (ruleLayout); static or
// dynamic as asked. Compiled rule sets are kept per release, phase and mode. Rules the engine cannot
// evaluate are named in the report, never skipped silently. No `vscode` import here.

import { INPUT_LIMITS, noticeSubType, overLimitMessage, type XmlIndex } from '../notice';
import {
  type CompiledRuleSet,
  IncrementalRules,
  loadRuleSet,
  phaseFor,
  RuleSetError,
  ruleLayout,
} from '../schematron';
import { resolveSdk, SdkError, type SdkSources } from '../sdk';
import type { SvrlReport } from '../svrl';
import { clip } from '../text';
import { abortError } from './abort';
import type { EngineReport, ValidationInput, Validator } from './validator';

/** The notice's efac:NoticeSubType/cbc:SubTypeCode (`16`, `E3`), or undefined: core/notice's one reader. */
export const noticeSubTypeOf: (index: XmlIndex) => string | undefined = noticeSubType;

/**
 * The notice's element count and the limit, when it has more elements than the rules' model of it can
 * hold in memory (INPUT_LIMITS.localNoticeElements): a dense text under the size limit would otherwise
 * exhaust the heap. The front ends meet it as a preflight verdict (policy.ts), before any run.
 */
export function elementsOverLimit(index: XmlIndex): { elements: number; limit: number } | undefined {
  const elements = index.table.count;
  const limit = INPUT_LIMITS.localNoticeElements.max;
  return elements > limit ? { elements, limit } : undefined;
}

/**
 * The same limit for a caller that runs a validator without the preflight: a refusal before any work,
 * with the limits table's words.
 */
export function checkElementCount(index: XmlIndex): void {
  const over = elementsOverLimit(index);
  if (over) throw new SdkError('engine', { reason: overLimitMessage('localNoticeElements', over.elements) });
}

export interface LocalValidatorOptions {
  sources: SdkSources;
  /** Where compiled rules are kept on disk between processes; absent: memory only. */
  ruleCacheDir?: string;
  /**
   * Compile each phase on its own, with a per-phase disk cache, as before the release table
   * (EFORMS_RULES_PER_PHASE=1: the bench runs both side by side). Default: phases share a release table.
   */
  perPhaseRules?: boolean;
  /**
   * Keep what each run found so that the next run of a nearly equal text (an edit) re-evaluates only the
   * rules the change can reach (core/schematron's IncrementalRules): the editor's worker sets it.
   */
  incremental?: boolean;
}

export class LocalSdkValidator implements Validator {
  readonly engine = 'local' as const;
  private readonly ruleSets = new Map<string, Promise<CompiledRuleSet>>();
  private readonly incremental: IncrementalRules | undefined;

  constructor(private readonly o: LocalValidatorOptions) {
    this.incremental = o.incremental ? new IncrementalRules() : undefined;
  }

  private runsEveryPattern(dir: string, mode: 'static' | 'dynamic'): boolean {
    try {
      return ruleLayout(dir, mode).layout === 'no-phases';
    } catch {
      return false; // the load below words a release without rules
    }
  }

  async validate(input: ValidationInput): Promise<EngineReport> {
    checkElementCount(input.index);
    const want = input.pinned ? { pinned: input.sdkVersion } : { declared: input.sdkVersion || undefined };
    const { release, because } = await resolveSdk(this.o.sources, want);
    if (input.signal?.aborted) throw abortError();
    const subType = noticeSubTypeOf(input.index);
    const base = { engine: 'local' as const, sdkVersion: release.version, because };
    // A release without phases (up to 1.9) runs every pattern whatever the subtype, as the reference does.
    if (!subType && !this.runsEveryPattern(release.dir, input.mode)) {
      const svrl = emptySvrl();
      return {
        ...base,
        svrl,
        report: { namespaces: new Map(), assertions: [], phase: undefined },
        notEvaluated: [
          {
            ruleId: '*',
            cause: 'no-phase',
            reason: 'the notice has no efac:NoticeSubType/cbc:SubTypeCode, so no phase applies',
          },
        ],
      };
    }
    let compiled: CompiledRuleSet;
    let phase: string;
    try {
      // The release's own layout names the phase (`#ALL`, `16` or `eforms-16`): read from its files.
      phase = phaseFor(release.dir, input.mode, subType ?? '').phase;
      const key = { sdkDir: release.dir, sdkVersion: release.version, phase, mode: input.mode };
      const id = JSON.stringify(key);
      let rules = this.ruleSets.get(id);
      if (!rules) {
        rules = loadRuleSet(key, { cacheDir: this.o.ruleCacheDir, shared: !this.o.perPhaseRules });
        this.ruleSets.set(id, rules);
        rules.catch(() => this.ruleSets.delete(id));
      }
      compiled = await rules;
    } catch (err) {
      if (err instanceof RuleSetError)
        throw new SdkError('engine', {
          wanted: release.version,
          reason:
            err.kind === 'unknown-phase'
              ? `eForms SDK ${release.version} has no rules for notice subtype ${JSON.stringify(clip(subType ?? '', 40))}`
              : err.message,
        });
      throw err;
    }
    const opts = {
      today: input.today,
      language: input.language,
      // Not written at all when the caller will not read it (ValidationInput.svrl).
      svrl: input.svrl !== false,
      isCancelled: () => input.signal?.aborted === true || input.isCancelled?.() === true,
    };
    const r = this.incremental
      ? this.incremental.evaluate(compiled, input.index, opts)
      : compiled.evaluate(input.index, opts);
    if (r.cancelled) throw abortError();
    // The failures as the engine found them, each with its node: no SVRL text written and read back.
    const report: SvrlReport = { namespaces: new Map(r.namespaces), assertions: r.failures, phase: r.phase };
    const svrl = input.svrl === false ? '' : r.svrl || emptySvrl(phase);
    return { ...base, phase, svrl, report, notEvaluated: r.notEvaluated };
  }
}

function emptySvrl(phase?: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl" title="eForms schematron rules"${phase ? ` phase="${phase}"` : ''}/>\n`;
}
