// What the rule tests compare of a run, and the SDK releases they run: shared by the tests that set two
// ways of running the same rules side by side (test/schematron/absent-contexts.test.ts).

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexXml } from '../../core/notice/xml-index';
import type { CompiledRuleSet, EvaluateOptions } from '../../core/schematron/rule-set';
import { REFERENCE_NOW, realNotices, SDKS_DIR } from './real-notices';
import { SAMPLES_DIR } from './shared-data';

/** Two official samples of 1.15, whatever their subtype (a phase's rules run on any notice). */
const SAMPLES = ['cn_24_maximal.xml', 'can_24_minimal.xml'];

/** The texts a release's rules run on in these tests: its own real notices (up to two), then the samples. */
export function releaseNotices(version: string): string[] {
  const minor = version.split('.').slice(0, 2).join('.');
  const real = realNotices()
    .filter((n) => n.minor === minor)
    .slice(0, 2)
    .map((n) => n.path);
  return [...real, ...SAMPLES.map((s) => join(SAMPLES_DIR, 'notices', s))].map((p) =>
    readFileSync(p, 'utf8'),
  );
}

/** The releases in ../shared/eforms-sdk/ (folders named by version), oldest first. */
export function sdkVersions(): string[] {
  return readdirSync(SDKS_DIR)
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v))
    .sort();
}

/** A run's SVRL, not-evaluated list and count of asserts evaluated, at the reference instant. */
export function reportOf(rules: CompiledRuleSet, notice: string, opts: EvaluateOptions = {}): unknown {
  const r = rules.evaluate(indexXml(notice), { now: REFERENCE_NOW, ...opts });
  return { svrl: r.svrl, notEvaluated: r.notEvaluated, asserts: r.assertsEvaluated };
}
