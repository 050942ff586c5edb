// The one formatter/linter (Biome) is part of the test run: a formatting or lint error fails `npm test`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from './support/shared-data';

test('biome check passes on the whole project', () => {
  const biome = join(PROJECT_ROOT, 'node_modules', '.bin', 'biome');
  const r = spawnSync(biome, ['check', '.'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, `biome check failed:\n${r.stdout}\n${r.stderr}`);
});
