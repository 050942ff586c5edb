// The crash counting of the language client against a fake clock: five restarts within three minutes
// are allowed, the sixth crash inside the window gives up; crashes spread out keep being restarted.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gaveUpMessage, RestartBudget } from '../../client/restart-policy';

const MIN = 60_000;

test('five crashes in three minutes restart; the sixth gives up', () => {
  let t = 0;
  const b = new RestartBudget(() => t);
  for (let i = 0; i < 5; i++) {
    t += 10_000;
    assert.deepEqual(b.crashed(), { restart: true }, `crash ${i + 1}`);
  }
  t += 10_000;
  const d = b.crashed();
  assert.equal(d.restart, false);
  assert.ok(!d.restart && d.crashes === 6 && d.withinMs === 50_000);
  if (!d.restart) assert.match(gaveUpMessage(d), /crashed 6 times .* will not be restarted/);
});

test('crashes more than three minutes apart from the oldest keep restarting', () => {
  let t = 0;
  const b = new RestartBudget(() => t);
  // One crash a minute for an hour: never six inside any three-minute window.
  for (let i = 0; i < 60; i++) {
    t += MIN;
    assert.deepEqual(b.crashed(), { restart: true }, `crash at minute ${i + 1}`);
  }
});

test('the window is measured from the oldest of the last six crashes', () => {
  let t = 0;
  const b = new RestartBudget(() => t);
  for (let i = 0; i < 5; i++) {
    b.crashed();
    t += 40_000; // crashes at 0, 40, 80, 120, 160 s
  }
  // The sixth at 200 s: 200 s after the first (> 180 s): restart, the first is forgotten.
  assert.deepEqual(b.crashed(), { restart: true });
  // The seventh at 210 s: six crashes from 40 s to 210 s (170 s): give up.
  t += 10_000;
  assert.equal(b.crashed().restart, false);
});

test('a deliberate restart resets the count', () => {
  let t = 0;
  const b = new RestartBudget(() => t);
  for (let i = 0; i < 5; i++) b.crashed();
  b.reset();
  t += 1;
  assert.deepEqual(b.crashed(), { restart: true });
});
