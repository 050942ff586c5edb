// package.json's contributes.configuration is the settings table (core/settings/settings-table.ts),
// field by field, bounds and allowed values included; and readSettings keeps to what package.json
// states: integers clamped to its minimum and maximum, strings outside its enum read as its default.
// package.json is read as a file, independently of the table, so a setting edited in one place alone
// fails here (`node scripts/settings.mjs --write` regenerates package.json from the table).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { contributedConfiguration, SETTINGS_ROOTS } from '../../core/settings';
import { readSettings } from '../../core/settings/settings';
import { PROJECT_ROOT } from '../support/shared-data';

interface Section {
  title: string;
  order: number;
  properties: Record<string, Record<string, unknown>>;
}

const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  contributes: { configuration: Section[] };
};
const sections = pkg.contributes.configuration;
const contributed = Object.assign({}, ...sections.map((s) => s.properties)) as Record<
  string,
  Record<string, unknown>
>;

/** `{a: {b: v}}` for `a.b`. */
function nested(key: string, value: unknown): Record<string, unknown> {
  return key
    .split('.')
    .reverse()
    .reduce<unknown>((acc, part) => ({ [part]: acc }), value) as Record<string, unknown>;
}

function leaf(o: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((acc, k) => (acc as Record<string, unknown>)?.[k], o);
}

test('package.json contributes exactly the table: sections, keys and every field', () => {
  const table = contributedConfiguration();
  assert.deepEqual(
    sections.map((s) => [s.title, s.order]),
    table.map((s) => [s.title, s.order]),
    'the sections and their order',
  );
  for (const [i, s] of table.entries()) {
    const have = (sections[i] as Section).properties;
    assert.deepEqual(Object.keys(have), Object.keys(s.properties), `the keys of section ${s.title}`);
    for (const [key, spec] of Object.entries(s.properties)) {
      const fields = new Set([...Object.keys(spec), ...Object.keys(have[key] ?? {})]);
      for (const f of fields)
        assert.deepEqual(
          have[key]?.[f],
          spec[f],
          `${key}.${f}: package.json differs from the settings table`,
        );
    }
  }
});

test('readSettings clamps every integer setting to the bounds package.json states', () => {
  const integers = Object.entries(contributed).filter(([, c]) => c.type === 'integer');
  assert.ok(integers.length >= 5);
  for (const [full, c] of integers) {
    const key = full.slice('eforms.'.length);
    const min = c.minimum as number;
    const max = c.maximum as number;
    assert.equal(typeof min, 'number', `${full} states a minimum`);
    assert.equal(typeof max, 'number', `${full} states a maximum`);
    assert.equal(leaf(readSettings(nested(key, min - 1)), key), min, `${full} below its minimum`);
    assert.equal(leaf(readSettings(nested(key, max + 1)), key), max, `${full} above its maximum`);
    assert.equal(leaf(readSettings(nested(key, min)), key), min, `${full} at its minimum`);
    assert.equal(leaf(readSettings(nested(key, max)), key), max, `${full} at its maximum`);
    assert.equal(leaf(readSettings(nested(key, 'many')), key), c.default, `${full} not a number`);
    assert.equal(leaf(readSettings({ [key]: String(max + 5) }), key), max, `${full} as a dotted key`);
  }
});

test('readSettings reads a value outside an enum as package.json’s default', () => {
  for (const [full, c] of Object.entries(contributed)) {
    if (!Array.isArray(c.enum) || full === 'eforms.trace.server') continue;
    const key = full.slice('eforms.'.length);
    assert.equal(leaf(readSettings(nested(key, 'no-such-value')), key), c.default, full);
  }
});

test('the client reads every section the server reads: the roots of the contributed keys', () => {
  const roots = new Set(
    Object.keys(contributed)
      .filter((k) => k !== 'eforms.trace.server')
      .map((k) => k.slice('eforms.'.length).split('.')[0]),
  );
  assert.deepEqual([...SETTINGS_ROOTS].sort(), [...roots].sort());
  const config = readFileSync(join(PROJECT_ROOT, 'client', 'config.ts'), 'utf8');
  assert.match(config, /for \(const key of SETTINGS_ROOTS\)/, 'client/config.ts reads the table’s sections');
});
