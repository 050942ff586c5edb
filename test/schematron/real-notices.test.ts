// The engine against the reference on real published notices: each of the notices in
// ../shared/real-notices/, run with the release its cbc:CustomizationID declares (from
// ../shared/eforms-sdk/, static rules, the phase that release's layout names for the subtype), gives
// exactly the failed-asserts of the reference run (Saxon-HE 12 + SchXslt 2, saxon-reports/<pubno>.tsv) as
// a multiset of (rule id, role, node), with current-dateTime() fixed at 2026-11-24T12:00:00Z as in the reference.
// Locations are compared as nodes: both sides are turned into `{uri}local[n]` steps, so that the
// prefixes and the `[1]` the reference writes do not matter. Reads ../shared; writes nothing.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadRuleSet, phaseFor, ruleLayout } from '../../core/schematron';
import { parseSvrl } from '../../core/svrl/report';
import {
  canonicalLocation,
  REAL_DIR,
  REFERENCE_NOW,
  realNotices,
  releaseFor,
  SDKS_DIR,
} from '../support/real-notices';
import { skipUnless } from '../support/shared-data';

const skip = skipUnless(join(REAL_DIR, 'index.tsv')) ?? skipUnless(SDKS_DIR);

describe('real notices: each with its own release, as Saxon-HE reports them', { skip }, () => {
  const notices = skip ? [] : realNotices();

  test('the index lists the 23 notices, each with its release on disk', () => {
    assert.equal(notices.length, 23);
    for (const n of notices) {
      assert.ok(existsSync(n.path), n.path);
      assert.ok(releaseFor(n.minor), `a release of ${n.minor}`);
    }
  });

  test('each release of the folder has the layout its version implies', () => {
    const expected: Record<string, string> = {
      '1.7': 'no-phases',
      '1.8': 'no-phases',
      '1.9': 'no-phases',
      '1.10': 'subtype-phases',
      '1.15': 'eforms-phases',
    };
    for (const [minor, layout] of Object.entries(expected)) {
      const r = releaseFor(minor);
      if (!r) continue;
      assert.equal(ruleLayout(r.dir, 'static').layout, layout, minor);
      assert.equal(ruleLayout(r.dir, 'dynamic').layout, layout, minor);
    }
  });

  for (const n of notices) {
    test(`${n.pubno} (SDK ${n.minor}, subtype ${n.subtype})`, async () => {
      const release = releaseFor(n.minor);
      assert.ok(release);
      const { phase } = phaseFor(release.dir, 'static', n.subtype);
      const rules = await loadRuleSet({
        sdkDir: release.dir,
        sdkVersion: release.version,
        phase,
        mode: 'static',
      });
      const r = rules.evaluate(readFileSync(n.path, 'utf8'), { now: REFERENCE_NOW });
      assert.deepEqual(r.notEvaluated, [], 'every rule is evaluated');
      assert.ok(r.assertsEvaluated > 0);
      const prefixes = parseSvrl(r.svrl).namespaces;
      const rows = readFileSync(join(REAL_DIR, 'saxon-reports', `${n.pubno}.tsv`), 'utf8')
        .split('\n')
        .slice(1)
        .filter((l) => l.trim() !== '');
      const key = (id: string, role: string, loc: string): string =>
        `${id} ${role} ${canonicalLocation(loc, prefixes)}`;
      const expected = rows.map((l) => {
        const [id, role, loc] = l.split('\t');
        return key(id, role, loc);
      });
      const actual = r.failures
        .filter((f) => f.kind === 'failed-assert')
        .map((f) => key(f.id, f.role, f.location));
      assert.deepEqual(actual.sort(), expected.sort());
    });
  }
});
