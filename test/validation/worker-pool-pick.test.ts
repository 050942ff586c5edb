// pickCold: which queued job a worker warm for none of them takes. A rule set no busy worker has loaded
// comes first; else the rule set with the most queued notices (its second load is shared by the most
// work); with no busy worker, the first job. A worker never waits while jobs are queued.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pickCold } from '../../core/validation/worker-pool';

const q = (...affinities: string[]) => affinities.map((affinity) => ({ affinity }));

test('a rule set no busy worker has loaded is taken first', () => {
  assert.equal(pickCold(q('a', 'a', 'b'), [new Set(['a'])]), 2);
});

test('no busy worker: the first job', () => {
  assert.equal(pickCold(q('a', 'b'), []), 0);
});

test('every rule set loaded elsewhere: the first of the largest group', () => {
  assert.equal(pickCold(q('b', 'a', 'a'), [new Set(['a']), new Set(['b'])]), 1);
  assert.equal(pickCold(q('b', 'a', 'a', 'a', 'a'), [new Set(['a', 'b'])]), 1);
});
