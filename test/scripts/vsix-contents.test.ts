// What the .vsix ships is decided by .vscodeignore, which re-includes files one by one: a new bundle
// (such as the SDK rules' worker) or a new README picture is easily left out, and the packaged
// extension then fails where the development build works. This reads both lists independently.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from '../support/shared-data';

const ignore = readFileSync(join(PROJECT_ROOT, '.vscodeignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l.startsWith('!'))
  .map((l) => l.slice(1));

/** vsce's patterns as used here: `*` within a name, `**` across folders. */
function shipped(path: string): boolean {
  return ignore.some((p) => {
    const re = new RegExp(
      `^${p
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*\*/g, '§§')
        .replace(/\*/g, '[^/]*')
        .replace(/§§/g, '.*')}$`,
    );
    return re.test(path);
  });
}

test('every bundle scripts/build.mjs writes is shipped', () => {
  const build = readFileSync(join(PROJECT_ROOT, 'scripts', 'build.mjs'), 'utf8');
  const bundles = [...build.matchAll(/outfile: `\$\{outdir\}\/([^`]+)`/g)].map((m) => `dist/${m[1]}`);
  assert.ok(bundles.length >= 4, `bundles found in build.mjs: ${bundles.join(', ')}`);
  assert.ok(bundles.includes('dist/validation-worker.js'), bundles.join(', '));
  for (const b of bundles) assert.ok(shipped(b), `${b} is not re-included in .vscodeignore`);
});

test('every picture the README shows is shipped', () => {
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  const pictures = [...readme.matchAll(/\]\((media\/[^)]+\.png)\)/g)].map((m) => m[1] as string);
  assert.ok(pictures.length >= 4, pictures.join(', '));
  for (const p of pictures) assert.ok(shipped(p), `${p} is not re-included in .vscodeignore`);
});
