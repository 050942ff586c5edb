// The settings table cannot drift: every setting core/settings.ts knows is contributed in package.json
// with the same default and a markdownDescription, and every contributed `eforms.*` setting that the
// server reads is one core/settings.ts knows.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../core/settings/settings';
import { PROJECT_ROOT } from '../support/shared-data';

function flatten(o: Record<string, unknown>, prefix = '', into: Record<string, unknown> = {}) {
  for (const [k, v] of Object.entries(o)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) flatten(v as Record<string, unknown>, key, into);
    else into[key] = v;
  }
  return into;
}

const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  contributes: {
    configuration: { properties: Record<string, { default?: unknown; markdownDescription?: string }> }[];
  };
};
const contributed = Object.assign({}, ...pkg.contributes.configuration.map((c) => c.properties)) as Record<
  string,
  { default?: unknown; markdownDescription?: string }
>;

test('every setting of core/settings.ts is contributed with the same default and a markdownDescription', () => {
  const defaults = flatten(DEFAULT_SETTINGS as unknown as Record<string, unknown>);
  assert.ok(Object.keys(defaults).length > 10);
  for (const [key, value] of Object.entries(defaults)) {
    const c = contributed[`eforms.${key}`];
    assert.ok(c, `eforms.${key} is not contributed in package.json`);
    assert.deepEqual(c.default, value, `eforms.${key}: default`);
    assert.ok(c.markdownDescription?.trim(), `eforms.${key}: markdownDescription`);
  }
});

test('every contributed eforms.* setting is known to core/settings.ts (the trace setting is the client library’s)', () => {
  const known = new Set(
    Object.keys(flatten(DEFAULT_SETTINGS as unknown as Record<string, unknown>)).map((k) => `eforms.${k}`),
  );
  const unknown = Object.keys(contributed).filter((k) => !known.has(k) && k !== 'eforms.trace.server');
  assert.deepEqual(unknown, []);
});
