// WorkerPool with a scripted worker (the pool takes its script as a parameter): each job's text says
// what the worker does, so concurrency, cancellation, a crash and the order of answers are observed
// from the jobs themselves (files each running job writes), never from timings.
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { indexXml } from '../../core/notice';
import { SdkError } from '../../core/sdk';
import { type WorkerInput, WorkerPool } from '../../core/validation';

/**
 * Jobs: one sent with the caller's index answers the names of the elements the worker reads from that
 * table (through indexFromTable, as the real worker does); `echo:X` answers X; `crash` exits the thread; `hold:DIR:N` writes DIR/running-N (and the
 * number of running-* files it saw, itself included, into DIR/max-N), then waits until DIR/release-N
 * exists or its cancel flag is set, removes running-N and answers.
 */
const SCRIPT = `
const { parentPort } = require('node:worker_threads');
const { indexFromTable } = require(${JSON.stringify(join(__dirname, '..', '..', 'core', 'notice', 'xml-index'))});
const fs = require('node:fs');
const path = require('node:path');
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
parentPort.on('message', (job) => {
  const flag = new Int32Array(job.cancel);
  const t = job.text;
  const ok = (svrl) => parentPort.postMessage({ id: job.id, ok: true, report: {
    engine: 'local', report: { assertions: [] }, svrl, sdkVersion: '', notEvaluated: [] } });
  if (job.table) {
    const index = indexFromTable(t, job.table, job.errors);
    return ok(index ? index.elements.map((e) => e.qname + e.attributes.map((a) => '@' + a.qname).join('')).join(' ') : 'no index');
  }
  if (t === 'crash') process.exit(3);
  if (t.startsWith('echo:')) return ok(t.slice(5));
  if (t.startsWith('hold:')) {
    const [, dir, n] = t.split(':');
    fs.writeFileSync(path.join(dir, 'running-' + n), '');
    const running = fs.readdirSync(dir).filter((f) => f.startsWith('running-')).length;
    fs.writeFileSync(path.join(dir, 'max-' + n), String(running));
    fs.writeFileSync(path.join(dir, 'started-' + n), '');
    while (!fs.existsSync(path.join(dir, 'release-' + n)) && Atomics.load(flag, 0) === 0) sleep(5);
    fs.rmSync(path.join(dir, 'running-' + n));
    return ok('held ' + n);
  }
  parentPort.postMessage({ id: job.id, ok: false, name: 'Error', message: 'unknown job ' + t });
});
`;

const INPUT: WorkerInput = { language: 'en', mode: 'static', sdkVersion: '', pinned: false, timeoutMs: 0 };
const SOURCES = { path: '', cacheRoot: '' };

/** Resolves once `file` exists (polling: the worker writes it from another thread). */
async function until(file: string): Promise<void> {
  while (!existsSync(file)) await new Promise((r) => setTimeout(r, 5));
}

describe('WorkerPool', () => {
  let dir: string;
  let script: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'eforms-pool-'));
    script = join(dir, 'worker.js');
    writeFileSync(script, SCRIPT);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function jobsDir(name: string): string {
    const d = join(dir, name);
    mkdirSync(d);
    return d;
  }

  test("a caller's index crosses to the worker as its table: the worker reads the same elements", async () => {
    const pool = new WorkerPool(1, script);
    try {
      const text = '<p:r xmlns:p="urn:p"><a x="1"/><p:b/><c y="2" z="3"><d/></c></p:r>';
      const report = await pool.run(indexXml(text), INPUT, SOURCES);
      assert.equal(report.svrl, 'p:r@xmlns:p a@x p:b c@y@z d');
    } finally {
      await pool.close();
    }
  });

  test('answers each job with its own result, in the order the jobs were given', async () => {
    const pool = new WorkerPool(3, script);
    try {
      const texts = Array.from({ length: 9 }, (_, i) => `echo:${i}`);
      const reports = await Promise.all(texts.map((t) => pool.run(t, INPUT, SOURCES)));
      assert.deepEqual(
        reports.map((r) => r.svrl),
        texts.map((t) => t.slice(5)),
      );
    } finally {
      await pool.close();
    }
  });

  test('never runs more jobs at once than its size, and does run that many', async () => {
    const d = jobsDir('concurrency');
    const pool = new WorkerPool(2, script);
    try {
      const runs = [0, 1, 2, 3].map((n) => pool.run(`hold:${d}:${n}`, INPUT, SOURCES));
      await until(join(d, 'started-0'));
      await until(join(d, 'started-1'));
      assert.ok(
        !existsSync(join(d, 'started-2')) && !existsSync(join(d, 'started-3')),
        'a third job started',
      );
      for (let n = 0; n < 4; n++) writeFileSync(join(d, `release-${n}`), '');
      await Promise.all(runs);
      const max = [0, 1, 2, 3].map((n) => Number(readFileSync(join(d, `max-${n}`), 'utf8')));
      assert.ok(
        max.every((m) => m <= 2),
        `at most 2 at once: ${max.join(',')}`,
      );
      assert.ok(max.includes(2), 'two jobs ran at the same time');
    } finally {
      await pool.close();
    }
  });

  test('cancellation: a queued job never runs; a running job is stopped and never answered', async () => {
    const d = jobsDir('cancel');
    const pool = new WorkerPool(1, script);
    try {
      const running = new AbortController();
      const queued = new AbortController();
      const first = pool.run(`hold:${d}:0`, INPUT, SOURCES, undefined, running.signal);
      const second = pool.run(`hold:${d}:1`, INPUT, SOURCES, undefined, queued.signal);
      await until(join(d, 'started-0'));
      queued.abort();
      await assert.rejects(second, { name: 'AbortError' });
      running.abort();
      await assert.rejects(first, { name: 'AbortError' });
      // The worker is free again: the next job runs, and the cancelled one never started.
      assert.equal((await pool.run('echo:after', INPUT, SOURCES)).svrl, 'after');
      assert.ok(!existsSync(join(d, 'started-1')));
      // Aborted before it was given: rejected at once.
      const gone = new AbortController();
      gone.abort();
      await assert.rejects(pool.run('echo:x', INPUT, SOURCES, undefined, gone.signal), {
        name: 'AbortError',
      });
    } finally {
      await pool.close();
    }
  });

  test('a crashed worker fails its job with an SdkError and is replaced for the next', async () => {
    const pool = new WorkerPool(1, script);
    try {
      await assert.rejects(pool.run('crash', INPUT, SOURCES), (e: unknown) => {
        assert.ok(e instanceof SdkError);
        assert.equal(e.kind, 'engine');
        assert.match(e.fields.reason ?? '', /exited/);
        return true;
      });
      const after = await Promise.all(['echo:a', 'echo:b'].map((t) => pool.run(t, INPUT, SOURCES)));
      assert.deepEqual(
        after.map((r) => r.svrl),
        ['a', 'b'],
      );
    } finally {
      await pool.close();
    }
  });

  test('a closed pool refuses work; a missing script fails each run with a reason', async () => {
    const pool = new WorkerPool(1, script);
    await pool.close();
    await assert.rejects(pool.run('echo:x', INPUT, SOURCES), SdkError);
    const broken = new WorkerPool(1, join(dir, 'absent.js'));
    await assert.rejects(broken.run('echo:x', INPUT, SOURCES), /missing/);
    await broken.close();
    assert.ok(readdirSync(dir).length > 0);
  });
});
