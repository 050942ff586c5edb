// Rule contexts that name an element the notice lacks are neither compiled nor run (engine.ts,
// leadingNames): such a context selects nothing. Checked against the engine running every context
// (`everyContext`), on every release in ../shared/eforms-sdk/ (two phases each, or #ALL), with the
// release's own real notices, two SDK samples, and variants of each without every element of one name
// (the names a rule context requires, among others) or with one element removed (seeded): the same SVRL
// byte for byte, the same not-evaluated list, the same count of asserts evaluated.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { indexXml } from '../../core/notice/xml-index';
import { ruleLayout } from '../../core/schematron';
import { clearRuleSetMemory, loadRuleSetSync } from '../../core/schematron/engine';
import type { CompiledRuleSet } from '../../core/schematron/rule-set';
import { mulberry32, variant } from '../support/notice-variants';
import { REAL_DIR, SDKS_DIR } from '../support/real-notices';
import { releaseNotices, reportOf, sdkVersions } from '../support/rule-reports';
import { SAMPLES_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDKS_DIR) ?? skipUnless(join(REAL_DIR, 'index.tsv')) ?? skipUnless(SAMPLES_DIR);

const temp = mkdtempSync(join(tmpdir(), 'eforms-absent-contexts-'));
after(() => rmSync(temp, { recursive: true, force: true }));

/**
 * A phase as a cold start has it: read back from the disk cache, each rule compiled when a run first
 * reaches it (a phase read from the SDK compiles every rule at once).
 */
function lazyPhase(sdkDir: string, version: string, phase: string): CompiledRuleSet {
  const key = { sdkDir, sdkVersion: version, phase, mode: 'static' as const };
  const cacheDir = join(temp, version);
  loadRuleSetSync(key, { cacheDir });
  clearRuleSetMemory();
  const rules = loadRuleSetSync(key, { cacheDir });
  assert.equal(rules.source, 'cache');
  return rules;
}

/** The notice without any element named `qname` (the outermost of nested ones). */
function without(text: string, qname: string): string {
  const els = indexXml(text)
    .elements.filter((e) => e.qname === qname)
    .sort((a, b) => b.start - a.start);
  let out = text;
  let floor = Number.POSITIVE_INFINITY;
  for (const e of els) {
    if (e.end > floor) continue; // inside one removed already
    out = out.slice(0, e.start) + out.slice(e.end);
    floor = e.start;
  }
  return out;
}

/** The notice and its variants: every element of one name gone (seeded names), one element removed. */
function variants(text: string, seed: number): { name: string; text: string }[] {
  const rand = mulberry32(seed);
  const names = [
    ...new Set(
      indexXml(text)
        .elements.slice(1)
        .map((e) => e.qname),
    ),
  ];
  const out = [{ name: 'as published', text }];
  for (let i = 0; i < 6 && names.length > 0; i++) {
    const q = names.splice(Math.floor(rand() * names.length), 1)[0] as string;
    out.push({ name: `without ${q}`, text: without(text, q) });
  }
  for (let i = 0; i < 3; i++) {
    const v = variant(text, 'remove', rand);
    if (v) out.push(v);
  }
  return out;
}

const run = (rules: CompiledRuleSet, notice: string, everyContext: boolean) =>
  reportOf(rules, notice, { everyContext });

describe('contexts that name an absent element are skipped without changing a report', { skip }, () => {
  for (const version of skip ? [] : sdkVersions()) {
    test(`SDK ${version}: skipped contexts against every context run`, () => {
      const sdkDir = join(SDKS_DIR, version);
      const notices = releaseNotices(version);
      const { phases: declared } = ruleLayout(sdkDir, 'static');
      const phases =
        declared.length === 0 ? ['#ALL'] : declared.filter((p) => /(^|-)(16|29)$/.test(p)).slice(0, 2);
      assert.ok(phases.length > 0, 'a phase to run');
      let compared = 0;
      for (const phase of phases) {
        const rules = lazyPhase(sdkDir, version, phase);
        for (const [i, notice] of notices.entries())
          for (const [k, v] of variants(notice, 19 + i).entries()) {
            // Both orders: skipping first (a skipped rule is compiled by a later run that needs it), and
            // every context first (a compiled context is skipped all the same).
            const where = `${phase}, notice ${i}, ${v.name}`;
            if (k % 2 === 0) {
              const skipped = run(rules, v.text, false);
              assert.deepEqual(run(rules, v.text, true), skipped, where);
            } else {
              const all = run(rules, v.text, true);
              assert.deepEqual(run(rules, v.text, false), all, where);
            }
            compared++;
          }
      }
      clearRuleSetMemory();
      assert.ok(compared >= notices.length * phases.length * 4);
    });
  }
});
