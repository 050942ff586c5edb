// package.json's contributes.configuration, generated from the one settings table
// (core/settings/settings-table.ts, compiled by `tsc -p .` into out/): `--write` rewrites it,
// `--check` (the default) exits 1 when package.json differs, naming the first differing setting.
// test/settings/settings-table.test.ts makes the same check in the test run.

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pkgUrl = new URL('../package.json', import.meta.url);
let table;
try {
  table = require('../out/core/settings/settings-table.js');
} catch {
  console.error('settings: out/core/settings/settings-table.js is missing: run `npx tsc -p .` first.');
  process.exit(2);
}
const text = readFileSync(pkgUrl, 'utf8');
const pkg = JSON.parse(text);
const wanted = table.contributedConfiguration();
if (process.argv.includes('--write')) {
  pkg.contributes.configuration = wanted;
  const out = `${JSON.stringify(pkg, null, 2)}\n`;
  if (out !== text) writeFileSync(pkgUrl, out);
  console.log(out === text ? 'settings: package.json is up to date.' : 'settings: package.json rewritten.');
} else {
  const have = JSON.stringify(pkg.contributes.configuration);
  if (have === JSON.stringify(wanted)) {
    console.log('settings: package.json matches the settings table.');
  } else {
    const flat = (c) => Object.assign({}, ...c.map((s) => s.properties));
    const a = flat(pkg.contributes.configuration);
    const b = flat(wanted);
    const key =
      [...new Set([...Object.keys(a), ...Object.keys(b)])].find(
        (k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]),
      ) ?? '(the sections)';
    console.error(
      `settings: package.json differs from core/settings/settings-table.ts at ${key}: run \`node scripts/settings.mjs --write\`.`,
    );
    process.exit(1);
  }
}
