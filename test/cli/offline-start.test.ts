// What an offline command loads: `eforms validate --local` sends no request, so it must not load the
// HTTP client (undici: about 25 ms of every start). Run in a child process on the tsc build (out/), where
// each module is its own file in Node's module cache: the test reads that cache after a real run of the
// command on an SDK sample. The control run asks for undici through core/http and must see it, so a
// check that could never see undici would fail.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { PROJECT_ROOT, SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

/** Runs `eforms ARGS` in a fresh process from out/ and returns its exit code and the undici files it loaded. */
function modulesAfter(
  args: string[],
  cacheDir: string,
  touchHttp: boolean,
): { code: number; undici: string[] } {
  const script = `
    const { main } = require(${JSON.stringify(join(PROJECT_ROOT, 'out', 'cli', 'main.js'))});
    const io = { out: () => {}, err: () => {}, env: process.env, cwd: process.cwd() };
    main(${JSON.stringify(args)}, io).then((code) => {
      if (${touchHttp}) require(${JSON.stringify(join(PROJECT_ROOT, 'out', 'core', 'http'))}).undici();
      const undici = Object.keys(require.cache).filter((f) => /[\\\\/]node_modules[\\\\/]undici[\\\\/]index\\.js$/.test(f));
      process.stdout.write(JSON.stringify({ code, undici }));
    });`;
  const r = spawnSync(process.execPath, ['-e', script], {
    env: { ...process.env, EFORMS_SDK_CACHE: join(cacheDir, 'sdk'), EFORMS_CODE_CACHE: '0' },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { code: number; undici: string[] };
}

describe('an offline start', { skip: skipUnless(SDK_DIR) }, () => {
  const work = mkdtempSync(join(tmpdir(), 'offline-start-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const args = [
    'validate',
    '--local',
    '--sdk-dir',
    SDK_DIR,
    '--today',
    '2024-01-01',
    join(SAMPLES_DIR, 'notices', 'cn_24_maximal.xml'),
  ];

  test('validate --local loads no HTTP client', () => {
    const run = modulesAfter(args, work, false);
    assert.equal(run.code, 0, 'the sample has no findings on this date');
    assert.deepEqual(run.undici, []);
  });

  test('control: the same run, then a request path, does load it (the check sees undici)', () => {
    const run = modulesAfter(args, work, true);
    assert.equal(run.code, 0);
    assert.equal(run.undici.length, 1);
  });
});
