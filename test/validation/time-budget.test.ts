// Issue 21, item 1: a run of the SDK's rules that does not yield is stopped for real. A generated SDK
// whose phase eforms-1 never finishes (one expression over 10^10 pairs, which polls no cancellation
// flag) stands for any stuck rule. The worker pool must let another notice's run finish while the
// stuck one still runs, stop the stuck one when its signal aborts (a closed document, a newer edit)
// and when its time budget passes, and go on working after. Only the order of events is checked;
// the test timeouts only turn a hang into a failure.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { SdkError } from '../../core/sdk';
import {
  RuleBudgetError,
  type WorkerInput,
  WorkerPool,
  type WorkerSources,
} from '../../core/validation/worker-pool';
import { slowSdkNotice, writeSlowSdk } from '../support/slow-sdk';

const GUARD = { timeout: 90_000 };
const work = mkdtempSync(join(tmpdir(), 'eforms-budget-'));
const sdk = writeSlowSdk(join(work, 'sdk'));
const sources: WorkerSources = { path: sdk, cacheRoot: join(work, 'cache') };
const input: WorkerInput = { language: 'en', mode: 'static', sdkVersion: '', pinned: false, timeoutMs: 0 };
const pools: WorkerPool[] = [];
after(async () => {
  await Promise.all(pools.map((p) => p.close()));
  rmSync(work, { recursive: true, force: true });
});

function pool(size: number, spares: number): WorkerPool {
  const p = new WorkerPool(size, undefined, spares);
  pools.push(p);
  return p;
}

describe('a run that does not yield', () => {
  test('does not hold another notice, and aborting it stops it (its worker replaced)', GUARD, async () => {
    const p = pool(1, 1);
    const events: string[] = [];
    const stuck = new AbortController();
    const a = p.run(slowSdkNotice('1'), input, sources, undefined, stuck.signal, 'slow').then(
      () => events.push('slow finished'),
      (e: Error) => events.push(`slow ${e.name}`),
    );
    const b = await p.run(slowSdkNotice('2'), input, sources, undefined, undefined, 'fast');
    events.push('fast finished');
    assert.deepEqual(
      b.report.assertions.map((x) => x.id),
      ['FAST-1'],
      'the other notice got its own report',
    );
    assert.deepEqual(events, ['fast finished'], 'the stuck run is still going');
    stuck.abort();
    await a;
    assert.deepEqual(events, ['fast finished', 'slow AbortError']);
    // The pool goes on: a new run is answered.
    const c = await p.run(slowSdkNotice('2'), input, sources, undefined, undefined, 'fast');
    assert.deepEqual(
      c.report.assertions.map((x) => x.id),
      ['FAST-1'],
    );
    assert.ok(p.workers <= 2, `at most the worker and its spare (${p.workers})`);
  });

  test('past its time budget it fails with one error naming the budget', GUARD, async () => {
    const p = pool(1, 0);
    const err = await p.run(slowSdkNotice('1'), input, sources, undefined, undefined, 'slow', 1000).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof RuleBudgetError, String(err));
    assert.ok(err instanceof SdkError && err.kind === 'time-budget');
    assert.equal(err.budgetMs, 1000);
    assert.match(err.message, /time budget of 1 s/);
    const next = await p.run(slowSdkNotice('2'), input, sources, undefined, undefined, 'fast', 60_000);
    assert.deepEqual(
      next.report.assertions.map((x) => x.id),
      ['FAST-1'],
      'the replaced worker answers the next notice',
    );
  });
});
