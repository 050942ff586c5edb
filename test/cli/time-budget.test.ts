// Issue 21, item 1 (CLI): `eforms validate --local --time-budget SEC` stops a notice whose rules run
// past the budget (a generated SDK whose phase never finishes) and says so once, naming the notice and
// the budget; the other notices of the same run are validated. The built CLI, piped.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { PROJECT_ROOT } from '../support/shared-data';
import { slowSdkNotice, writeSlowSdk } from '../support/slow-sdk';

const CLI = join(PROJECT_ROOT, 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'eforms-cli-budget-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a notice past its time budget fails with one line naming it and the budget', {
  timeout: 120_000,
}, () => {
  writeSlowSdk(join(dir, 'sdk'));
  writeFileSync(join(dir, 'slow.xml'), slowSdkNotice('1', 'slow'));
  writeFileSync(join(dir, 'fast.xml'), slowSdkNotice('2', 'fast'));
  const r = spawnSync(
    process.execPath,
    [CLI, 'validate', '--local', '--sdk-dir', 'sdk', '--time-budget', '1', 'slow.xml', 'fast.xml'],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, EFORMS_SDK_CACHE: join(dir, 'cache') } },
  );
  assert.equal(r.status, 2, r.stderr);
  const lines = r.stderr.split('\n').filter((l) => l.includes('time budget'));
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0] as string, /slow\.xml/);
  assert.match(lines[0] as string, /time budget of 1 s/);
  assert.match(r.stdout, /fast\.xml.*FAST-1/);
});

test('--time-budget takes seconds from 1 to 3600, with --local', () => {
  for (const bad of ['0', 'x', '4000']) {
    const r = spawnSync(process.execPath, [CLI, 'validate', '--local', '--time-budget', bad, 'a.xml'], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--time-budget/);
  }
  const r = spawnSync(process.execPath, [CLI, 'validate', '--time-budget', '5', 'a.xml'], {
    cwd: dir,
    encoding: 'utf8',
  });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--time-budget goes with --local/);
});
