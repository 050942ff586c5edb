// `npm run package`: production bundles, then the .vsix (vsce package --no-dependencies: the bundles
// already include their dependencies). .vscodeignore keeps the .vsix to the manifest, the docs, the
// three bundles and the assets. Prints where the .vsix is and its size. It never publishes anything.
// It stages in .cache/package/ so that it never rewrites the dev bundles in dist/ that others are
// running, and a concurrent `npm run build` cannot change a file while vsce zips it.
// Importable: packageExtension() returns the .vsix path (scripts/start.mjs uses it).

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const STAGE = join(ROOT, '.cache', 'package');
/** What the .vsix may hold besides the bundles (.vscodeignore filters again inside the stage). */
const SHIPPED = [
  'package.json',
  'README.md',
  'CHANGELOG.md',
  'LICENSE',
  'LICENSE.md',
  'media',
  'syntaxes',
  '.vscodeignore',
];

/** Quiet: the output (vsce's file tree) is kept back, and shown only when the step fails. */
function run(cmd, args, what, cwd = ROOT, quiet = false) {
  const r = spawnSync(cmd, args, { cwd, stdio: quiet ? 'pipe' : 'inherit', encoding: 'utf8' });
  if (r.status !== 0) {
    if (quiet) process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
    throw new Error(`${what} failed (exit ${r.status ?? r.signal ?? r.error?.message}).`);
  }
}

export function packageExtension({ quiet = false } = {}) {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  rmSync(STAGE, { recursive: true, force: true });
  mkdirSync(STAGE, { recursive: true });
  for (const f of SHIPPED) {
    if (existsSync(join(ROOT, f))) cpSync(join(ROOT, f), join(STAGE, f), { recursive: true });
  }
  run(
    process.execPath,
    [join(ROOT, 'scripts', 'build.mjs'), '--production', '--outdir', join(STAGE, 'dist')],
    'The production build',
    ROOT,
    quiet,
  );
  // The Market Explorer webview bundles into dist/market-explorer/ (its output folder is fixed): build
  // it there for production, then stage a copy.
  const webview = join(ROOT, 'scripts', 'build-webview.mjs');
  if (existsSync(webview)) {
    run(process.execPath, [webview, '--production'], 'The webview build', ROOT, quiet);
    const built = join(ROOT, 'dist', 'market-explorer');
    if (existsSync(built)) cpSync(built, join(STAGE, 'dist', 'market-explorer'), { recursive: true });
  }
  const vsix = join(ROOT, `${pkg.name}-${pkg.version}.vsix`);
  const args = [
    join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'),
    'package',
    '--no-dependencies',
    '--out',
    vsix,
  ];
  // Without a repository vsce cannot turn the README's relative image links into URLs; the screenshots
  // ship in the .vsix instead, where the extension details page resolves them relative to the package.
  if (!pkg.repository) args.push('--allow-missing-repository', '--no-rewrite-relative-links');
  run(process.execPath, args, 'vsce package', STAGE, quiet);
  const kb = statSync(vsix).size / 1024;
  if (!quiet)
    console.log(
      `${relative(ROOT, vsix)}: ${kb < 1024 ? `${kb.toFixed(0)} KB` : `${(kb / 1024).toFixed(2)} MB`}`,
    );
  return vsix;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    packageExtension();
  } catch (err) {
    console.error(`package: ${err.message}`);
    process.exit(1);
  }
}
