// The release table (phases of one release sharing their compiled expressions and patterns, compiled
// lazily, kept on disk in one file per release) against each phase compiled on its own, as every phase
// was before: on every phase of every release in ../shared/eforms-sdk/, loaded one after another so that
// later phases reuse what earlier ones compiled, the same notices give the same SVRL byte for byte, the
// same not-evaluated list and the same count of asserts evaluated; and again when every phase is read
// back from the disk cache in a fresh memory. Notices: the release's own real notices (up to two) and
// two official samples, whatever their subtype (a phase's rules run on any notice).

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { indexXml } from '../../core/notice/xml-index';
import { ruleLayout } from '../../core/schematron';
import { clearRuleSetMemory, loadRuleSetSync } from '../../core/schematron/engine';
import type { CompiledRuleSet } from '../../core/schematron/rule-set';
import { REAL_DIR, REFERENCE_NOW, realNotices, SDKS_DIR } from '../support/real-notices';
import { SAMPLES_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDKS_DIR) ?? skipUnless(join(REAL_DIR, 'index.tsv')) ?? skipUnless(SAMPLES_DIR);
const SAMPLES = ['cn_24_maximal.xml', 'can_24_minimal.xml'];

const temp = mkdtempSync(join(tmpdir(), 'eforms-shared-expr-'));
after(() => rmSync(temp, { recursive: true, force: true }));

function run(rules: CompiledRuleSet, notice: string): unknown {
  const r = rules.evaluate(indexXml(notice), { now: REFERENCE_NOW });
  return { svrl: r.svrl, notEvaluated: r.notEvaluated, asserts: r.assertsEvaluated };
}

describe('shared compiled expressions equal per-phase compilation', { skip }, () => {
  const releases = skip
    ? []
    : readdirSync(SDKS_DIR)
        .filter((v) => /^\d+\.\d+\.\d+$/.test(v))
        .sort();
  for (const version of releases) {
    test(`SDK ${version}: every phase, shared, per phase, and from the one-file cache`, () => {
      const sdkDir = join(SDKS_DIR, version);
      const minor = version.split('.').slice(0, 2).join('.');
      const notices = [
        ...realNotices()
          .filter((n) => n.minor === minor)
          .slice(0, 2)
          .map((n) => n.path),
        ...SAMPLES.map((s) => join(SAMPLES_DIR, 'notices', s)),
      ].map((p) => readFileSync(p, 'utf8'));
      const { phases: declared } = ruleLayout(sdkDir, 'static');
      const phases = declared.length > 0 ? declared : ['#ALL'];
      const cacheDir = join(temp, version);
      clearRuleSetMemory();
      const expected = new Map<string, unknown[]>();
      let shared = 0;
      for (const phase of phases) {
        const key = { sdkDir, sdkVersion: version, phase, mode: 'static' as const };
        const alone = loadRuleSetSync(key, { shared: false });
        const together = loadRuleSetSync(key, { cacheDir });
        assert.equal(together.ruleCount, alone.ruleCount);
        assert.equal(together.assertCount, alone.assertCount);
        const want = notices.map((n) => run(alone, n));
        expected.set(phase, want);
        for (const [i, n] of notices.entries())
          assert.deepEqual(run(together, n), want[i], `phase ${phase}, notice ${i}: shared`);
        shared++;
      }
      clearRuleSetMemory();
      for (const phase of phases) {
        const key = { sdkDir, sdkVersion: version, phase, mode: 'static' as const };
        const cached = loadRuleSetSync(key, { cacheDir });
        assert.equal(cached.source, 'cache', `phase ${phase} from the one file of the release`);
        const want = expected.get(phase) as unknown[];
        for (const [i, n] of notices.entries())
          assert.deepEqual(run(cached, n), want[i], `phase ${phase}, notice ${i}: from the cache`);
      }
      assert.equal(shared, phases.length);
      clearRuleSetMemory();
    });
  }
});
