// How many workers `eforms validate --local` starts for a batch (usefulJobs with the notices' sizes):
// a further worker compiles again what the first has, so it is started only for work that pays for
// it, and never beyond the cores and rule sets. The two shapes measured on SDK 1.15.1 (issue 19) are
// the truth here: 102 notices over 51 phases ran as fast with one worker as with two, and 520 notices
// over 8 phases faster with two.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { estimatedRuleMs, usefulJobs, WORKER_START_MS } from '../../cli/commands/validate';

/** The sizes of the 13 SDK samples under 100 KB (bytes), as in ../shared/eforms-sdk-samples/notices. */
const SAMPLES = [4475, 6573, 1361, 17023, 3257, 2808, 3475, 12776, 18665, 75242, 11308, 29152, 9847];

describe('workers for a batch', () => {
  test('every phase of 1.15.1, two notices each (the bench): one worker even when --jobs 2', () => {
    const phases = Array.from({ length: 51 }, (_, i) => `1.15.1|${i}|static`);
    const affinities = phases.flatMap((p) => [p, p]);
    const sizes = phases.flatMap(() => [75242, 12776]);
    assert.equal(usefulJobs(2, affinities, 2, sizes), 1);
    // Without sizes (EFORMS_JOBS_AS_GIVEN, per-phase rules) the cap alone decides, as before.
    assert.equal(usefulJobs(2, affinities, 2), 2);
  });

  test('the 13 samples ×40 over 8 phases: two workers', () => {
    const sizes = Array.from({ length: 40 }, () => SAMPLES).flat();
    const affinities = sizes.map((_, i) => `p${i % 8}`);
    assert.equal(usefulJobs(2, affinities, 2, sizes), 2);
    assert.equal(usefulJobs(8, affinities, 8, sizes), 2, 'not a third: its share would not pay its start');
  });

  test('a few large notices: as many workers as the cap allows', () => {
    const sizes = [100, 100, 100, 100].map((mb) => mb * 1024 * 1024);
    assert.equal(usefulJobs(4, ['a', 'b', 'c', 'd'], 4, sizes), 4);
    assert.equal(usefulJobs(4, ['a', 'a', 'a', 'a'], 4, sizes), 1, 'one rule set: one worker');
    assert.equal(usefulJobs(2, ['a', 'b', 'c', 'd'], 8, sizes), 2, 'never more than --jobs');
    assert.equal(usefulJobs(8, ['a', 'b', 'c', 'd'], 2, sizes), 2, 'never more than the cores');
  });

  test('notices that cannot run cost nothing and still leave one worker', () => {
    assert.equal(estimatedRuleMs([0, 0, -1]), 0);
    assert.equal(usefulJobs(4, ['', ''], 8, [0, 0]), 1);
    assert.equal(usefulJobs(4, [], 8, []), 1);
  });

  test('the estimate grows with the notices and their bytes, and crosses the start cost where said', () => {
    // 6 ms a notice and 0.15 ms a KB: 1,000 notices of 10 KB are 7.5 s.
    assert.equal(Math.round(estimatedRuleMs(Array(1000).fill(10 * 1024))), 7500);
    // Two workers from twice the start cost of work on.
    const notices = Math.ceil((2 * WORKER_START_MS) / 6);
    assert.equal(usefulJobs(2, ['a', 'b'], 2, Array(notices).fill(1)), 2);
    assert.equal(usefulJobs(2, ['a', 'b'], 2, Array(notices - 2).fill(1)), 1);
  });
});
