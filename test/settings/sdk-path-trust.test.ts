// Issue 21, item 2: opening a repository must not be enough to point the tools at hostile SDK files.
// eforms.sdk.path is machine-scoped (a workspace cannot set it) and restricted (ignored in untrusted
// workspaces), per package.json; a relative path, which would resolve inside the opened repository,
// is refused and kept only to say so. The time budget of the rules is a setting with its default.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_SETTINGS, readSettings } from '../../core/settings/settings';
import { PROJECT_ROOT } from '../support/shared-data';

const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
const props = Object.assign(
  {},
  ...pkg.contributes.configuration.map((c: { properties: object }) => c.properties),
);

test('eforms.sdk.path is machine-scoped and restricted in untrusted workspaces', () => {
  assert.equal(props['eforms.sdk.path'].scope, 'machine');
  assert.ok(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('eforms.sdk.path'));
});

test('a relative eforms.sdk.path is refused and kept to say so; an absolute one is used', () => {
  for (const rel of ['sdk', './sdk', '../../etc', 'a/b/c']) {
    const s = readSettings({ sdk: { path: rel } });
    assert.equal(s.sdk.path, '', rel);
    assert.equal(s.sdk.refusedPath, rel);
  }
  for (const abs of ['/opt/eforms-sdk', 'C:\\eforms\\sdk', '\\\\server\\share\\sdk']) {
    const s = readSettings({ sdk: { path: abs } });
    assert.equal(s.sdk.path, abs);
    assert.equal(s.sdk.refusedPath, undefined);
  }
  assert.deepEqual(readSettings({}).sdk, DEFAULT_SETTINGS.sdk);
});

test('the time budget of the rules: a setting with the default of package.json, bounded', () => {
  assert.equal(props['eforms.validation.timeBudgetMs'].default, DEFAULT_SETTINGS.validation.timeBudgetMs);
  assert.equal(readSettings({ validation: { timeBudgetMs: 5000 } }).validation.timeBudgetMs, 5000);
  assert.equal(readSettings({ validation: { timeBudgetMs: 1 } }).validation.timeBudgetMs, 1000);
  assert.equal(readSettings({ validation: { timeBudgetMs: 'x' } }).validation.timeBudgetMs, 60000);
});
