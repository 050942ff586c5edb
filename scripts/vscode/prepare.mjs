// Prepares the offline toolchain that runs the extension in a real VS Code: Node 24 (for code-server
// only), code-server and Chromium, into .cache/vscode/. Idempotent: a recorded stamp makes a second
// run a no-op. It never touches the project's own node_modules or the machine's Node.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BROWSER_PACKAGE,
  BUILD_PACKAGES,
  CACHE_DIR,
  CHROMIUM,
  CODE_SERVER_DIR,
  CODE_SERVER_ENTRY,
  CODE_SERVER_VERSION,
  codeServerEnv,
  NODE_DIR,
  NODE_SPEC,
  NODE24,
  STAMP,
  TOOL_PACKAGES,
  toolchainProblem,
  wantedStamp,
} from './toolchain.mjs';

const started = Date.now();
const quiet = process.argv.includes('--quiet');
const log = (m) => console.log(`[prepare] ${m}`);

if (!toolchainProblem()) {
  if (!quiet) log(`offline VS Code toolchain ready (${Date.now() - started} ms)`);
  process.exit(0);
}

function fail(message) {
  console.error(`[prepare] ${message}`);
  process.exit(1);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.error) fail(`${cmd} could not start: ${r.error.message}`);
  return r.status ?? 1;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function missingDebs(names) {
  return names.filter((n) => {
    const r = spawnSync('dpkg-query', ['--status', n], { encoding: 'utf8' });
    return !(r.status === 0 && /^Status: install ok installed$/m.test(r.stdout));
  });
}

let aptUpdated = false;
function aptInstall(names, why) {
  const missing = missingDebs(names);
  if (missing.length === 0) return;
  if (!isRoot)
    fail(
      `${why} needs these Debian packages: ${missing.join(' ')}. Install them as root ` +
        `(sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}), then run this again.`,
    );
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated && run('apt-get', ['update', '-qq'], { env }) !== 0)
    fail('apt-get update failed: check the network access to the Debian mirror, then run this again.');
  aptUpdated = true;
  if (run('apt-get', ['install', '-y', '-qq', ...missing], { env }) !== 0)
    fail(`apt-get install ${missing.join(' ')} failed: install them by hand, then run this again.`);
}

// 1. Chromium, the browser that shows the workbench.
if (!existsSync(CHROMIUM)) {
  aptInstall([BROWSER_PACKAGE], 'Chromium (the browser that drives the VS Code workbench)');
  if (!existsSync(CHROMIUM)) fail(`${CHROMIUM} is still missing after installing ${BROWSER_PACKAGE}.`);
}

mkdirSync(CACHE_DIR, { recursive: true });
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npmFlags = ['--no-audit', '--no-fund', '--loglevel=error', '--no-package-lock'];

// 2. Node 24: code-server's postinstall refuses other majors; the project itself stays on Node 20.
if (!existsSync(NODE24)) {
  log(`installing ${NODE_SPEC} into ${NODE_DIR}`);
  mkdirSync(NODE_DIR, { recursive: true });
  writeFileSync(join(NODE_DIR, 'package.json'), '{"private": true}\n');
  if (
    run(npm, ['install', ...npmFlags, '--no-save', NODE_SPEC], { cwd: NODE_DIR }) !== 0 ||
    !existsSync(NODE24)
  )
    fail(`npm install ${NODE_SPEC} failed: check access to the npm registry, then run this again.`);
}

// 3. code-server, its native modules compiled against Node 24's headers.
if (!existsSync(CODE_SERVER_ENTRY)) {
  aptInstall([...BUILD_PACKAGES, ...TOOL_PACKAGES], `code-server's native modules`);
  log(`installing code-server@${CODE_SERVER_VERSION} (native builds: a few minutes)`);
  rmSync(join(CODE_SERVER_DIR, 'node_modules'), { recursive: true, force: true });
  mkdirSync(CODE_SERVER_DIR, { recursive: true });
  writeFileSync(join(CODE_SERVER_DIR, 'package.json'), '{"private": true}\n');
  const status = run(
    npm,
    ['install', ...npmFlags, '--no-save', '--foreground-scripts', `code-server@${CODE_SERVER_VERSION}`],
    { cwd: CODE_SERVER_DIR, env: codeServerEnv() },
  );
  if (status !== 0 || !existsSync(CODE_SERVER_ENTRY))
    fail(
      `npm install code-server@${CODE_SERVER_VERSION} failed (see above). The usual cause is a missing ` +
        `Debian package: ${[...BUILD_PACKAGES, ...TOOL_PACKAGES].join(' ')}.`,
    );
}

writeFileSync(
  STAMP,
  `${JSON.stringify({ ...wantedStamp(), preparedAt: new Date().toISOString() }, null, 2)}\n`,
);
const problem = toolchainProblem();
if (problem) fail(problem);
log(`offline VS Code toolchain ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
