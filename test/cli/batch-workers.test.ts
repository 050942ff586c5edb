// How many workers `eforms validate --local` starts for a batch (usefulJobs with the notices' sizes):
// a further worker compiles again what the first has, so it is started only for work that pays for
// it, and never beyond the cores and rule sets. The truth is what was measured on two cores with SDK
// 1.15.1 (issue 19), one worker against two in the same minutes: 102 notices over 51 phases, 520
// small notices over 8 phases and 24 notices of 1.7 MB over 2 phases were no faster with two, and
// took 20 to 40 % more CPU.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { estimatedRuleMs, usefulJobs, WORKER_START_MS } from '../../cli/commands/validate';

/** The sizes of the 13 SDK samples under 100 KB (bytes), as in ../shared/eforms-sdk-samples/notices. */
const SAMPLES = [4475, 6573, 1361, 17023, 3257, 2808, 3475, 12776, 18665, 75242, 11308, 29152, 9847];
const LOTS_100 = 1762438;

describe('workers for a batch', () => {
  test('every phase of 1.15.1, two notices each (the bench): one worker even when --jobs 2', () => {
    const phases = Array.from({ length: 51 }, (_, i) => `1.15.1|${i}|static`);
    const affinities = phases.flatMap((p) => [p, p]);
    const sizes = phases.flatMap(() => [75242, 12776]);
    assert.equal(usefulJobs(2, affinities, 2, sizes), 1);
    // Without sizes (EFORMS_JOBS_AS_GIVEN, per-phase rules) the cap alone decides, as before.
    assert.equal(usefulJobs(2, affinities, 2), 2);
  });

  test('the measured shapes that one worker ran as fast: one worker', () => {
    const small = Array.from({ length: 40 }, () => SAMPLES).flat();
    assert.equal(
      usefulJobs(
        2,
        small.map((_, i) => `p${i % 8}`),
        2,
        small,
      ),
      1,
    );
    const large = Array(24).fill(LOTS_100);
    assert.equal(
      usefulJobs(
        2,
        large.map((_, i) => `p${i % 2}`),
        2,
        large,
      ),
      1,
    );
  });

  test('a day of notices, or a few very large ones: more workers, up to the cap', () => {
    const day = Array.from({ length: 3000 }, (_, i) => SAMPLES[i % SAMPLES.length] as number);
    assert.equal(
      usefulJobs(
        2,
        day.map((_, i) => `p${i % 20}`),
        2,
        day,
      ),
      2,
    );
    // 13.4 s estimated: a fourth worker's quarter (3.4 s) is still twice its start, a fifth's is not.
    assert.equal(
      usefulJobs(
        8,
        day.map((_, i) => `p${i % 20}`),
        8,
        day,
      ),
      4,
    );
    const huge = [100, 100, 100, 100].map((mb) => mb * 1024 * 1024);
    assert.equal(usefulJobs(4, ['a', 'b', 'c', 'd'], 4, huge), 4);
    assert.equal(usefulJobs(4, ['a', 'a', 'a', 'a'], 4, huge), 1, 'one rule set: one worker');
    assert.equal(usefulJobs(2, ['a', 'b', 'c', 'd'], 8, huge), 2, 'never more than --jobs');
    assert.equal(usefulJobs(8, ['a', 'b', 'c', 'd'], 2, huge), 2, 'never more than the cores');
  });

  test('notices that cannot run cost nothing and still leave one worker', () => {
    assert.equal(estimatedRuleMs([0, 0, -1]), 0);
    assert.equal(usefulJobs(4, ['', ''], 8, [0, 0]), 1);
    assert.equal(usefulJobs(4, [], 8, []), 1);
  });

  test('the estimate grows with the notices and their bytes, and crosses where said', () => {
    // 3 ms a notice and 0.1 ms a KB: 1,000 notices of 10 KB are 4 s.
    assert.equal(Math.round(estimatedRuleMs(Array(1000).fill(10 * 1024))), 4000);
    // Two workers once the second one's half is twice its start.
    const notices = Math.ceil((4 * WORKER_START_MS) / 3);
    assert.equal(usefulJobs(2, ['a', 'b'], 2, Array(notices).fill(1)), 2);
    assert.equal(usefulJobs(2, ['a', 'b'], 2, Array(notices - 2).fill(1)), 1);
  });
});
