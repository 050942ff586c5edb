// A notice longer than a stretch runs its rules stretch by stretch (engine.ts, CHUNK_CHARS): every
// pattern's fired rules first, then each stretch of the document through every pattern, the results put
// back in the order of a run pattern by pattern. Checked against the run in one stretch, on every release
// in ../shared/eforms-sdk/ (two phases each, or #ALL), with the release's own real notices, the SDK
// samples and seeded faulty variants of each (every kind), cut into stretches of a few thousand
// characters: the same SVRL byte for byte (failures in order, not-evaluated comments), the same
// not-evaluated list and the same count of asserts. The 100-lot sample runs in 40 stretches.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ruleLayout } from '../../core/schematron';
import { clearRuleSetMemory, loadRuleSetSync } from '../../core/schematron/engine';
import { mulberry32, VARIANT_KINDS, variant } from '../support/notice-variants';
import { REAL_DIR, SDKS_DIR } from '../support/real-notices';
import { releaseNotices, reportOf, sdkVersions } from '../support/rule-reports';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDKS_DIR) ?? skipUnless(join(REAL_DIR, 'index.tsv')) ?? skipUnless(SAMPLES_DIR);

/** The notice and one seeded variant of each kind the notice allows. */
function variants(text: string, seed: number): { name: string; text: string }[] {
  const rand = mulberry32(seed);
  const out = [{ name: 'as published', text }];
  for (const kind of VARIANT_KINDS) {
    const v = variant(text, kind, rand);
    if (v) out.push(v);
  }
  return out;
}

describe('rules run in stretches give the report of a run in one stretch', { skip }, () => {
  for (const version of skip ? [] : sdkVersions()) {
    test(`SDK ${version}: stretches of 4,000 characters against one stretch`, () => {
      const sdkDir = join(SDKS_DIR, version);
      const { phases: declared } = ruleLayout(sdkDir, 'static');
      const phases =
        declared.length === 0 ? ['#ALL'] : declared.filter((p) => /(^|-)(16|29)$/.test(p)).slice(0, 2);
      let compared = 0;
      let failing = 0;
      for (const phase of phases) {
        const rules = loadRuleSetSync({ sdkDir, sdkVersion: version, phase, mode: 'static' });
        for (const [i, notice] of releaseNotices(version).entries())
          for (const v of variants(notice, 31 + i)) {
            const whole = reportOf(rules, v.text, { chunkChars: Number.POSITIVE_INFINITY });
            const stretched = reportOf(rules, v.text, { chunkChars: 4000 });
            assert.deepEqual(stretched, whole, `${phase}, notice ${i}, ${v.name}`);
            if ((whole as { svrl: string }).svrl.includes('failed-assert')) failing++;
            compared++;
          }
      }
      clearRuleSetMemory();
      assert.ok(compared >= 10, `compared ${compared} runs`);
      assert.ok(failing >= 5, `only ${failing} runs had failures to put in order`);
    });
  }

  test('the 100-lot sample in 40 stretches, and a stretched run cancelled halfway', {
    skip: skipUnless(SDK_DIR),
  }, () => {
    const text = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_maximal_100_lots.xml'), 'utf8');
    const rules = loadRuleSetSync({
      sdkDir: SDK_DIR,
      sdkVersion: '1.15.1',
      phase: 'eforms-16',
      mode: 'static',
    });
    const chunkChars = Math.ceil(text.length / 40);
    const faulty = variant(text, 'duplicate-lot', mulberry32(5))?.text ?? text;
    for (const t of [text, faulty])
      assert.deepEqual(
        reportOf(rules, t, { chunkChars }),
        reportOf(rules, t, { chunkChars: Number.POSITIVE_INFINITY }),
      );
    let polls = 0;
    const r = rules.evaluate(text, { today: '2024-01-01', chunkChars, isCancelled: () => ++polls > 20 });
    assert.equal(r.cancelled, true);
    const full = rules.evaluate(text, { today: '2024-01-01', chunkChars });
    assert.equal(full.cancelled, false);
    assert.ok(r.assertsEvaluated < full.assertsEvaluated, 'the cancelled run stopped early');
  });
});
