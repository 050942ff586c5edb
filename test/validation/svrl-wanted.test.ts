// A caller that never prints the SVRL text (the CLI's text, JSON and SARIF output) asks for none
// (`svrl: false`): the local engine hands back the same failures with an empty text, in this thread
// and through a worker, and the pipeline never answers one request with the other's cached report.
// The failures are checked against the SVRL text the engine wrote (parsed back with core/svrl), not
// against themselves. Reads ../shared; writes only a temporary rule cache.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { indexXml } from '../../core/notice/xml-index';
import { loadRuleSet } from '../../core/schematron';
import { parseSvrl } from '../../core/svrl';
import { LocalSdkValidator } from '../../core/validation/local-validator';
import { ValidationPipeline } from '../../core/validation/pipeline';
import type { EngineReport, ValidationInput, Validator } from '../../core/validation/validator';
import { WorkerPool, WorkerValidator } from '../../core/validation/worker-pool';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDK_DIR) ?? skipUnless(SAMPLES_DIR);

function input(file: string, svrl?: boolean): ValidationInput {
  const text = readFileSync(join(SAMPLES_DIR, 'notices', file), 'utf8');
  return {
    index: indexXml(text),
    bytes: new TextEncoder().encode(text),
    language: 'en',
    mode: 'static',
    sdkVersion: '',
    pinned: false,
    timeoutMs: 60_000,
    today: '2024-06-01',
    ...(svrl === undefined ? {} : { svrl }),
  };
}

/** What identifies a failure in the SVRL text: id, role and location, in report order. */
const keyed = (r: EngineReport) => r.report.assertions.map((a) => `${a.id}|${a.role}|${a.location}`);

describe('the SVRL text only when it is wanted', { skip }, () => {
  const work = mkdtempSync(join(tmpdir(), 'svrl-wanted-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const sources = { path: SDK_DIR, cacheRoot: join(work, 'sdk') };
  const ruleCacheDir = join(work, 'rules');

  test('same failures, no text: in this thread and through a worker', async () => {
    const local = new LocalSdkValidator({ sources, ruleCacheDir });
    const pool = new WorkerPool(1);
    try {
      const worker = new WorkerValidator(pool, sources, ruleCacheDir);
      for (const file of ['INVALID_cn_24_multiple.xml', 'INVALID_can_24_stage-2.xml']) {
        const full = await local.validate(input(file));
        const truth = parseSvrl(full.svrl).assertions.map((a) => `${a.id}|${a.role}|${a.location}`);
        assert.ok(truth.length > 0, `${file} fails some rules`);
        assert.deepEqual(keyed(full), truth);
        for (const v of [local, worker] as Validator[]) {
          const bare = await v.validate(input(file, false));
          assert.equal(bare.svrl, '');
          assert.deepEqual(keyed(bare), truth);
          assert.deepEqual(bare.notEvaluated, full.notEvaluated);
          assert.equal(bare.phase, full.phase);
          assert.equal(bare.sdkVersion, full.sdkVersion);
        }
        const asked = await worker.validate(input(file, true));
        assert.equal(asked.svrl, full.svrl, 'asked for, the worker sends the text as written');
      }
    } finally {
      await pool.close();
    }
  });

  test('the engine itself writes no text when none is wanted, and finds the same failures', async () => {
    const rules = await loadRuleSet({
      sdkDir: SDK_DIR,
      sdkVersion: '1.15.1',
      phase: 'eforms-16',
      mode: 'static',
    });
    const text = readFileSync(join(SAMPLES_DIR, 'notices', 'INVALID_cn_24_multiple.xml'), 'utf8');
    const full = rules.evaluate(text, { today: '2024-06-01' });
    const truth = parseSvrl(full.svrl).assertions.map((a) => `${a.id}|${a.role}|${a.location}`);
    assert.ok(truth.length > 0);
    const bare = rules.evaluate(text, { today: '2024-06-01', svrl: false });
    assert.equal(bare.svrl, '');
    assert.deepEqual(
      bare.failures.map((a) => `${a.id}|${a.role}|${a.location}`),
      truth,
    );
    assert.deepEqual(bare.notEvaluated, full.notEvaluated);
  });

  test('the pipeline keeps the two requests apart', async () => {
    let runs = 0;
    const counting: Validator = {
      engine: 'local',
      validate: async (i) => {
        runs++;
        return {
          engine: 'local',
          sdkVersion: '1.15.1',
          svrl: i.svrl === false ? '' : '<svrl/>',
          report: { namespaces: new Map(), assertions: [] },
          notEvaluated: [],
        };
      },
    };
    const p = new ValidationPipeline(counting, SDK_DIR);
    const file = 'cn_24_minimal.xml';
    assert.notEqual(p.keyOf(input(file, false)), p.keyOf(input(file)));
    assert.equal(p.keyOf(input(file, true)), p.keyOf(input(file)), 'true is the default');
    assert.equal((await p.report(input(file, false))).svrl, '');
    assert.equal((await p.report(input(file))).svrl, '<svrl/>');
    assert.equal((await p.report(input(file, false))).svrl, '');
    assert.equal(runs, 2);
  });
});
