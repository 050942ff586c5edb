// Where the offline VS Code toolchain lives (Node 24 for code-server, code-server, Chromium) and the
// versions it is pinned to. Shared by prepare.mjs, the test runners and start.mjs; it installs nothing.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CACHE_DIR = join(PROJECT_ROOT, '.cache', 'vscode');

/** Node 24 from the npm registry, for this machine's processor (x64 or arm64). */
const NODE_PACKAGE = `node-linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;
export const NODE_SPEC = `${NODE_PACKAGE}@24`;
export const CODE_SERVER_VERSION = '4.139.1';
export const CHROMIUM = process.env.EFORMS_CHROMIUM ?? '/usr/bin/chromium';

/** Debian packages code-server's native modules compile against, plus the browser. */
export const BUILD_PACKAGES = [
  'libkrb5-dev',
  'libx11-dev',
  'libxkbfile-dev',
  'libsecret-1-dev',
  'pkg-config',
];
export const TOOL_PACKAGES = ['python3', 'make', 'g++'];
export const BROWSER_PACKAGE = 'chromium';

export const NODE_DIR = join(CACHE_DIR, 'node24');
/** The package folder of that Node: node-gyp takes its headers from here (npm_config_nodedir). */
export const NODE_PKG = join(NODE_DIR, 'node_modules', NODE_PACKAGE);
export const NODE_BIN_DIR = join(NODE_PKG, 'bin');
export const NODE24 = join(NODE_BIN_DIR, 'node');

export const CODE_SERVER_DIR = join(CACHE_DIR, 'code-server');
export const CODE_SERVER_ENTRY = join(
  CODE_SERVER_DIR,
  'node_modules',
  'code-server',
  'out',
  'node',
  'entry.js',
);

export const STAMP = join(CACHE_DIR, 'stamp.json');

/** What a complete preparation records; a different value means prepare must run again. */
export function wantedStamp() {
  return { node: NODE_SPEC, codeServer: CODE_SERVER_VERSION, chromium: CHROMIUM };
}

/** undefined when the toolchain is ready, else one sentence saying what to run. */
export function toolchainProblem() {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return 'The offline VS Code toolchain is not prepared: run `node scripts/vscode/prepare.mjs`.';
  }
  const want = wantedStamp();
  for (const k of Object.keys(want)) {
    if (stamp[k] !== want[k])
      return `The prepared toolchain is outdated (${k}): run \`node scripts/vscode/prepare.mjs\`.`;
  }
  for (const f of [NODE24, CODE_SERVER_ENTRY, CHROMIUM]) {
    if (!existsSync(f)) return `${f} is missing: run \`node scripts/vscode/prepare.mjs\`.`;
  }
  return undefined;
}

/** Environment for running code-server: Node 24 first on PATH and native builds against its headers. */
export function codeServerEnv(base = process.env) {
  return { ...base, PATH: `${NODE_BIN_DIR}:${base.PATH ?? ''}`, npm_config_nodedir: NODE_PKG };
}
