// WorkerPool with prefetch (the CLI's batches): each busy worker is given its next job while it runs
// one, so that it never waits for the calling thread between notices. A scripted worker (the pool takes
// its script as a parameter) records each job it receives and runs its jobs in turn, like
// validation-worker.ts; the tests observe the order of events from files it writes, never timings. A
// job held ahead is answered, by a new worker, when the worker it waited on is stopped or dies.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SdkError } from '../../core/sdk';
import { RuleBudgetError, type WorkerInput, WorkerPool } from '../../core/validation/worker-pool';

/**
 * Jobs: `echo:DIR:X` answers X; `crash:DIR:N` exits the thread; `hold:DIR:N` writes DIR/running-N and
 * waits (without blocking the thread) until DIR/release-N exists or its cancel flag is set. Every job
 * writes DIR/got-<its last field> as soon as its message arrives.
 */
const SCRIPT = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
let turn = Promise.resolve();
parentPort.on('message', (job) => {
  const [kind, dir, n] = job.text.split(':');
  fs.writeFileSync(path.join(dir, 'got-' + n), '');
  turn = turn.then(() => run(job, kind, dir, n));
});
async function run(job, kind, dir, n) {
  const flag = new Int32Array(job.cancel);
  const ok = (svrl) => parentPort.postMessage({ id: job.id, ok: true, report: {
    engine: 'local', report: { assertions: [] }, svrl, sdkVersion: '', notEvaluated: [] } });
  if (kind === 'crash') process.exit(3);
  if (kind === 'echo') return ok(n);
  fs.writeFileSync(path.join(dir, 'running-' + n), '');
  while (!fs.existsSync(path.join(dir, 'release-' + n)) && Atomics.load(flag, 0) === 0)
    await new Promise((r) => setTimeout(r, 5));
  return ok('held ' + n);
}
`;

const INPUT: WorkerInput = { language: 'en', mode: 'static', sdkVersion: '', pinned: false, timeoutMs: 0 };
const SOURCES = { path: '', cacheRoot: '' };

async function until(file: string): Promise<void> {
  while (!existsSync(file)) await new Promise((r) => setTimeout(r, 5));
}

describe('WorkerPool with prefetch', { timeout: 60_000 }, () => {
  let dir: string;
  let script: string;
  let n = 0;
  const pools: WorkerPool[] = [];
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'eforms-prefetch-'));
    script = join(dir, 'worker.js');
    writeFileSync(script, SCRIPT);
  });
  after(async () => {
    await Promise.all(pools.map((p) => p.close()));
    rmSync(dir, { recursive: true, force: true });
  });
  function jobsDir(): string {
    const d = join(dir, `jobs-${++n}`);
    mkdirSync(d);
    return d;
  }
  function pool(size = 1): WorkerPool {
    const p = new WorkerPool(size, script, 0, false, true);
    pools.push(p);
    return p;
  }
  const run = (p: WorkerPool, text: string, o: { signal?: AbortSignal; budgetMs?: number } = {}) =>
    p.run(text, INPUT, SOURCES, undefined, o.signal, 'same', o.budgetMs ?? 0).then((r) => r.svrl);

  test('the next job reaches the busy worker while it runs one; answers stay each its own', async () => {
    const d = jobsDir();
    const p = pool();
    const first = run(p, `hold:${d}:1`);
    const rest = [2, 3, 4].map((i) => run(p, `echo:${d}:${i}`));
    await until(join(d, 'running-1'));
    await until(join(d, 'got-2'));
    assert.ok(!existsSync(join(d, 'got-3')), 'one job ahead, not the whole queue');
    writeFileSync(join(d, 'release-1'), '');
    assert.deepEqual(await Promise.all([first, ...rest]), ['held 1', '2', '3', '4']);
    assert.equal(p.workers, 1);
  });

  test('a worker stopped by its budget: the job it held ahead is answered by a new worker', async () => {
    const d = jobsDir();
    const p = pool();
    const stuck = run(p, `hold:${d}:1`, { budgetMs: 300 });
    const next = run(p, `echo:${d}:2`);
    await until(join(d, 'got-2'));
    await assert.rejects(stuck, RuleBudgetError);
    assert.equal(await next, '2');
  });

  test('a worker that dies: its job fails, the one held ahead is answered', async () => {
    const d = jobsDir();
    const p = pool();
    const hold = run(p, `hold:${d}:0`);
    const crash = run(p, `crash:${d}:1`);
    const next = run(p, `echo:${d}:2`);
    await until(join(d, 'got-1'));
    writeFileSync(join(d, 'release-0'), '');
    assert.equal(await hold, 'held 0');
    await assert.rejects(crash, SdkError);
    assert.equal(await next, '2');
  });

  test('a job aborted while held ahead is never answered as done', async () => {
    const d = jobsDir();
    const p = pool();
    const first = run(p, `hold:${d}:1`);
    const c = new AbortController();
    const second = run(p, `echo:${d}:2`, { signal: c.signal });
    await until(join(d, 'got-2'));
    c.abort();
    writeFileSync(join(d, 'release-1'), '');
    assert.equal(await first, 'held 1');
    await assert.rejects(second, { name: 'AbortError' });
    assert.equal(await run(p, `echo:${d}:3`), '3', 'the pool goes on');
  });

  test('without prefetch (the editor), a busy worker gets nothing ahead', { timeout: 30_000 }, async () => {
    const d = jobsDir();
    const p = new WorkerPool(1, script);
    pools.push(p);
    const first = run(p, `hold:${d}:1`);
    const c = new AbortController();
    const second = run(p, `echo:${d}:2`, { signal: c.signal });
    await until(join(d, 'running-1'));
    // Still in the pool's queue: aborted, it fails while the first job holds its worker (held ahead, it
    // would wait for the first to finish, and this test would time out).
    c.abort();
    await assert.rejects(second, { name: 'AbortError' });
    writeFileSync(join(d, 'release-1'), '');
    assert.equal(await first, 'held 1');
    assert.ok(!existsSync(join(d, 'got-2')), 'never sent to the worker');
  });
});
