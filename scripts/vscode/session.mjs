// What every way of running the extension in a real editor shares: a throw-away run folder (profile,
// HOME, TMPDIR, XDG dirs, a workspace copied from test/fixtures/notices/), the sandbox services on a
// free loopback port, the environment the extension host sees, and stopping what was started.
// Long-lived children (the sandbox, code-server) run on a tether (tether.mjs), so they stop with
// whatever started them, even when it is killed outright.
// It never sets EFORMS_API_KEY for test runs: the suite exercises the no-key state itself.

import { spawn } from 'node:child_process';
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from './toolchain.mjs';

export const SANDBOX_DEMO_KEY = 'sandbox-demo-key';
/** The notices the test workspace is copied from ($EFORMS_VSCODE_FIXTURES overrides, for debugging). */
export const FIXTURES_DIR =
  process.env.EFORMS_VSCODE_FIXTURES ?? join(PROJECT_ROOT, 'test', 'fixtures', 'notices');
export const RESULTS_DIR = join(PROJECT_ROOT, 'test-results', 'vscode');
export const SUITE_ENTRY = join(PROJECT_ROOT, 'out', 'test', 'vscode', 'suite', 'index.js');

/** Settings that keep a fresh profile quiet and offline (no gallery, no telemetry, no welcome page). */
export const QUIET_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.startupEditor': 'none',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
};

/**
 * A fresh run folder with its own profile, extensions, HOME, TMPDIR and XDG folders: a new temporary
 * one, or `at` emptied first.
 */
export function createRunDir(prefix = 'eforms-vscode-', at = undefined) {
  if (at) rmSync(at, { recursive: true, force: true, maxRetries: 3 });
  const root = at ?? mkdtempSync(join(tmpdir(), prefix));
  const dirs = {
    root,
    userData: join(root, 'user-data'),
    extensions: join(root, 'extensions'),
    home: join(root, 'home'),
    tmp: join(root, 'tmp'),
    xdg: join(root, 'xdg'),
    workspace: join(root, 'workspace'),
    sandboxData: join(root, 'sandbox-data'),
  };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  return dirs;
}

export function removeRunDir(dirs) {
  rmSync(dirs.root, { recursive: true, force: true, maxRetries: 3 });
}

/** Whether `port` on loopback is free to listen on now. */
export function portIsFree(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, host, () => s.close(() => resolve(true)));
  });
}

/** Copies the test notices into `dest`, so that tests may edit and save them freely. */
export function copyFixtures(dest) {
  if (!existsSync(FIXTURES_DIR)) throw new Error(`${FIXTURES_DIR} is missing: the test notices are needed.`);
  cpSync(FIXTURES_DIR, dest, { recursive: true });
}

export function writeUserSettings(userDataDir, settings) {
  const dir = join(userDataDir, 'User');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'settings.json'),
    `${JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2)}\n`,
  );
}

/** The settings a test run gives the extension: the sandbox, a short debounce, a verbose trace. */
export function testSettings(sandboxOrigin) {
  return {
    'eforms.environment': 'sandbox',
    'eforms.sandboxUrl': sandboxOrigin,
    'eforms.validation.debounceMs': 200,
    'eforms.trace.server': 'verbose',
    // Authoring reads the official SDK in ../shared when it is there (never copied).
    ...(existsSync(SHARED_SDK) ? { 'eforms.sdk.path': SHARED_SDK } : {}),
  };
}

/** The folder of SDK releases beside the project (../shared/eforms-sdk), when it is there. */
export const SHARED_SDK_ROOT = join(
  process.env.EFORMS_SHARED_DIR ?? join(PROJECT_ROOT, '..', 'shared'),
  'eforms-sdk',
);
const SHARED_SDK = join(SHARED_SDK_ROOT, '1.15.1');

/**
 * The environment of the editor process, isolated in the run folder. EFORMS_API_KEY is removed
 * unless `apiKey` is given (npm start gives it; tests never do).
 */
export function editorEnv(dirs, extra = {}, base = process.env) {
  const env = { ...base };
  delete env.EFORMS_API_KEY;
  for (const k of Object.keys(env))
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE') delete env[k];
  return {
    ...env,
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    XDG_CONFIG_HOME: dirs.xdg,
    XDG_DATA_HOME: dirs.xdg,
    XDG_CACHE_HOME: join(dirs.xdg, 'cache'),
    XDG_RUNTIME_DIR: dirs.tmp,
    EXTENSIONS_GALLERY: '{}',
    ...extra,
  };
}

/** What the in-editor suite reads: where the sandbox is, the key to set, where to put its files. */
export function suiteEnv({ sandboxOrigin, apiKey, resultsDir }) {
  return {
    EFORMS_TEST_SANDBOX_URL: sandboxOrigin,
    EFORMS_TEST_API_KEY: apiKey,
    EFORMS_TEST_RESULTS: resultsDir,
  };
}

export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, host, () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts `eforms sandbox` (dist/cli.js) and resolves once it printed its origin. `port` 0 takes a free
 * one, undefined the CLI's default. Its output goes to `logFile`.
 */
export function startSandbox({
  // No default here: undefined must reach the CLI as "no --port" (its fixed default port).
  port,
  dataDir,
  logFile,
  apiKeys = [],
  cli = join(PROJECT_ROOT, 'dist', 'cli.js'),
  // Seconds a submitted notice stays SUBMITTED, then PUBLISHING (undefined: the sandbox's default).
  publishDelaySeconds = undefined,
  // false (tests): the sandbox never finds an SDK in the user's cache, so it answers with its own rules,
  // which the fixtures' expectations describe; npm start passes true to get the official rules.
  useSdkCache = false,
  // A folder of SDK releases (or one release) for the official rules (eforms sandbox --sdk-dir);
  // ignored when it does not exist.
  sdkDir = undefined,
}) {
  if (!existsSync(cli)) return Promise.reject(new Error(`${cli} is missing: run \`npm run build\` first.`));
  // port undefined: the CLI's own default port (what `--env sandbox` points at).
  const args = [
    cli,
    'sandbox',
    ...(port === undefined ? [] : ['--port', String(port)]),
    '--data-dir',
    dataDir,
  ];
  for (const k of apiKeys) args.push('--api-key', k);
  if (publishDelaySeconds !== undefined) args.push('--publish-delay', String(publishDelaySeconds));
  if (sdkDir && existsSync(sdkDir)) args.push('--sdk-dir', sdkDir);
  const env = { ...process.env };
  if (!useSdkCache) env.EFORMS_SDK_CACHE = join(dataDir, 'no-sdk-cache', 'sdk');
  const child = spawnTethered(process.execPath, args, { cwd: PROJECT_ROOT, env });
  const log = createWriteStream(logFile);
  child.stderr.pipe(log);
  return new Promise((resolve, reject) => {
    let buffered = '';
    let settled = false;
    const timer = setTimeout(
      () => finish(new Error('the sandbox did not report its address within 20 s')),
      20000,
    );
    function finish(err, origin) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        child.kill('SIGTERM');
        reject(err);
      } else resolve({ origin, child, stop: () => stopProcess(child, { graceMs: TETHER_STOP_MS }) });
    }
    child.stdout.on('data', (chunk) => {
      log.write(chunk);
      if (settled) return;
      buffered += chunk.toString('utf8');
      const m = /sandbox listening on (http:\/\/[^\s]+)/.exec(buffered);
      if (m) finish(undefined, m[1]);
    });
    child.once('error', (err) => finish(new Error(`the sandbox could not start: ${err.message}`)));
    child.once('exit', (code) =>
      finish(new Error(`the sandbox exited (code ${code}) before listening; see ${logFile}`)),
    );
  });
}

const TETHER = join(PROJECT_ROOT, 'scripts', 'vscode', 'tether.mjs');
/** Longer than the tether's own grace, so the tether can stop its group before it is killed itself. */
export const TETHER_STOP_MS = 5000;

/**
 * Spawns `command` through tether.mjs: the returned child is the tether, whose stdin is a pipe from
 * this process. Stopping the tether stops the command's whole process group, and so does this
 * process's death (the pipe closes). stdout and stderr are pipes to read or to forward.
 */
export function spawnTethered(command, args, options = {}) {
  return spawn(process.execPath, [TETHER, command, ...args], {
    ...options,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: false,
  });
}

/**
 * Sends SIGTERM, then SIGKILL after `graceMs`, to one process we started. With `group` (the child
 * was spawned detached, so it leads its own process group) its descendants get the signal too.
 */
export function stopProcess(child, { group = false, graceMs = 3000 } = {}) {
  if (!child) return Promise.resolve();
  if (child.exitCode !== null || child.signalCode !== null) {
    // The leader is gone; what it started (extension hosts) may not be.
    if (group) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // nothing left in the group
      }
    }
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const kill = (sig) => {
      try {
        if (group) process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    kill('SIGTERM');
  });
}

/** Polls `url` until it answers 2xx, or rejects after `timeoutMs`. */
export async function waitForHttp(url, timeoutMs, isAlive = () => true) {
  const until = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < until) {
    if (!isAlive()) throw new Error(`the process serving ${url} exited`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
      last = `HTTP ${r.status}`;
    } catch (err) {
      last = err.cause?.code ?? err.message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s (${last})`);
}

/** Runs `fn` on SIGINT/SIGTERM once, then exits; returns a function that removes the handlers. */
export function onInterrupt(fn) {
  let done = false;
  const handler = async (sig) => {
    if (done) return;
    done = true;
    console.error(`\n${sig}: stopping what was started…`);
    try {
      await fn();
    } finally {
      process.exit(130);
    }
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
