// core/settings.ts and package.json's contributes.configuration hold the same settings with the same
// defaults. Derived from both sides, so a setting added to either one alone fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CLIENT_ONLY_SETTINGS, DEFAULT_SETTINGS, readSettings } from '../../core/settings/settings';
import { PROJECT_ROOT } from '../support/shared-data';

interface Contributed {
  default?: unknown;
  enum?: unknown[];
  markdownDescription?: string;
  pattern?: string;
}

function contributed(): Map<string, Contributed> {
  const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
  const sections = Array.isArray(pkg.contributes.configuration)
    ? pkg.contributes.configuration
    : [pkg.contributes.configuration];
  const out = new Map<string, Contributed>();
  for (const s of sections)
    for (const [key, v] of Object.entries(s.properties ?? {}))
      if (key.startsWith('eforms.')) out.set(key.slice('eforms.'.length), v as Contributed);
  return out;
}

function leaves(o: object, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(o)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v))
      for (const [kk, vv] of leaves(v, key)) out.set(kk, vv);
    else out.set(key, v);
  }
  return out;
}

/** `{a: {b: v}}` for `a.b`. */
function nested(key: string, value: unknown): Record<string, unknown> {
  return key
    .split('.')
    .reverse()
    .reduce<unknown>((acc, part) => ({ [part]: acc }), value) as Record<string, unknown>;
}

describe('settings: core/settings.ts and package.json agree', () => {
  const pkg = contributed();
  const core = leaves(DEFAULT_SETTINGS);

  test('every setting in core is contributed, with the same default and a markdownDescription', () => {
    for (const [key, value] of core) {
      const c = pkg.get(key);
      assert.ok(c, `eforms.${key} is in core/settings.ts but not in package.json`);
      assert.deepEqual(c.default, value, `default of eforms.${key}`);
      assert.ok(c.markdownDescription?.trim(), `eforms.${key} needs a markdownDescription`);
    }
  });

  test('every contributed setting is in core (or declared client-only), with a markdownDescription', () => {
    for (const [key, c] of pkg) {
      assert.ok(c.markdownDescription?.trim(), `eforms.${key} needs a markdownDescription`);
      if (CLIENT_ONLY_SETTINGS.includes(key)) continue;
      assert.ok(core.has(key), `eforms.${key} is in package.json but not in core/settings.ts`);
    }
    for (const key of CLIENT_ONLY_SETTINGS)
      assert.ok(pkg.has(key), `client-only eforms.${key} is not contributed`);
  });

  test('every value package.json offers is one core accepts as such', () => {
    for (const [key, c] of pkg) {
      if (CLIENT_ONLY_SETTINGS.includes(key)) continue;
      for (const value of c.enum ?? []) {
        const read = leaves(readSettings(nested(key, value))).get(key);
        assert.deepEqual(read, value, `eforms.${key} = ${JSON.stringify(value)} is offered but not accepted`);
      }
    }
  });

  test('eforms.validation.sdkVersion: both spellings pass the pattern and read as MAJOR.MINOR', () => {
    const pattern = new RegExp(pkg.get('validation.sdkVersion')?.pattern ?? '(?!)');
    for (const [input, read] of [
      ['1.15', '1.15'],
      ['eforms-sdk-1.15', '1.15'],
      ['', ''],
    ]) {
      assert.match(input, pattern, `the settings editor must accept "${input}"`);
      assert.equal(readSettings({ validation: { sdkVersion: input } }).validation.sdkVersion, read);
    }
    for (const bad of ['1.15.1', 'sdk-1.15', 'eforms-sdk-1']) {
      assert.doesNotMatch(bad, pattern, `"${bad}" must be refused`);
      assert.equal(readSettings({ validation: { sdkVersion: bad } }).validation.sdkVersion, '');
    }
  });
});
