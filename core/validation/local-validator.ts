// The official eForms SDK rules, run in this process, as a Validator. The release follows the notice's
// cbc:CustomizationID unless a version is pinned (a notice that declares none gets the pinned or the
// only SDK, and the report says so); the phase follows efac:NoticeSubType/cbc:SubTypeCode in the layout of the release (ruleLayout); static or
// dynamic as asked. Compiled rule sets are kept per release, phase and mode. Rules the engine cannot
// evaluate are named in the report, never skipped silently. No `vscode` import here.

import { textContent, type XmlIndex } from '../notice';
import { type CompiledRuleSet, loadRuleSet, phaseFor, RuleSetError, ruleLayout } from '../schematron';
import { resolveSdk, SdkError, type SdkSources } from '../sdk';
import { parseSvrl, type SvrlReport } from '../svrl';
import type { EngineReport, ValidationInput, Validator } from './validator';

const EFAC_NS = 'http://data.europa.eu/p27/eforms-ubl-extension-aggregate-components/1';
const CBC_NS = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

/** The notice's efac:NoticeSubType/cbc:SubTypeCode (`16`, `E3`), or undefined. */
export function noticeSubTypeOf(index: XmlIndex): string | undefined {
  for (const el of index.elements) {
    if (el.local !== 'SubTypeCode' || el.ns !== CBC_NS) continue;
    const parent = index.elements[el.parent];
    if (parent?.local === 'NoticeSubType' && parent.ns === EFAC_NS) {
      const code = textContent(index, el).trim();
      if (code) return code;
    }
  }
  return undefined;
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
}

export class LocalSdkValidator implements Validator {
  readonly engine = 'local' as const;
  private readonly ruleSets = new Map<string, Promise<CompiledRuleSet>>();

  constructor(private readonly o: LocalValidatorOptions) {}

  private runsEveryPattern(dir: string, mode: 'static' | 'dynamic'): boolean {
    try {
      return ruleLayout(dir, mode).layout === 'no-phases';
    } catch {
      return false; // the load below words a release without rules
    }
  }

  async validate(input: ValidationInput): Promise<EngineReport> {
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
        report: parseSvrl(svrl),
        notEvaluated: [
          {
            ruleId: '*',
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
              ? `eForms SDK ${release.version} has no rules for notice subtype ${subType}`
              : err.message,
        });
      throw err;
    }
    const r = compiled.evaluate(input.index, {
      today: input.today,
      language: input.language,
      isCancelled: () => input.signal?.aborted === true || input.isCancelled?.() === true,
    });
    if (r.cancelled) throw abortError();
    let report: SvrlReport;
    try {
      report = r.svrl ? parseSvrl(r.svrl) : { namespaces: new Map(), assertions: r.failures };
    } catch {
      report = { namespaces: new Map(), assertions: r.failures };
    }
    return { ...base, phase, svrl: r.svrl || emptySvrl(phase), report, notEvaluated: r.notEvaluated };
  }
}

function abortError(): Error {
  const e = new Error('The run was cancelled by a newer edit.');
  e.name = 'AbortError';
  return e;
}

function emptySvrl(phase?: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl" title="eForms schematron rules"${phase ? ` phase="${phase}"` : ''}/>\n`;
}
