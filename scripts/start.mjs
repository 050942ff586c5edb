// `npm start`: the extension as a user gets it, in a real VS Code in the browser, against the sandbox,
// offline. Packages the .vsix, prepares the toolchain, starts the sandbox (its default port, or a free
// one when taken) and code-server on loopback with the .vsix installed, on a workspace of test notices
// plus generated samples (.cache/start-workspace/) set to the sandbox, with the sandbox demo key in the
// editor's environment. It never binds a non-loopback address.
// Whichever way it ends (Ctrl-C, SIGINT or SIGTERM to npm or to this process, SIGHUP, its parent dying,
// or even SIGKILL), nothing it started survives: it stops its children on every signal and when its
// parent goes, and each child runs on a tether (scripts/vscode/tether.mjs) that stops it when this
// process dies.
// For the test of that (test/scripts/start.test.ts): EFORMS_START_DIR puts the run folder and the
// workspace elsewhere, EFORMS_START_SANDBOX_PORT picks the sandbox port, and EFORMS_START_EDITOR names a
// stand-in for code-server (`node <script> <port> <workspace>`, answering /healthz), which skips the
// packaging and the toolchain.

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageExtension } from './package.mjs';
import { installVsix, startCodeServer } from './vscode/code-server.mjs';
import { writeSampleNotices } from './vscode/sample-notices.mjs';
import {
  copyFixtures,
  createRunDir,
  editorEnv,
  freePort,
  SANDBOX_DEMO_KEY,
  SHARED_SDK_ROOT,
  spawnTethered,
  startSandbox,
  stopProcess,
  TETHER_STOP_MS,
  waitForHttp,
  writeUserSettings,
} from './vscode/session.mjs';
import { PROJECT_ROOT } from './vscode/toolchain.mjs';

const log = (m) => console.log(`[start] ${m}`);

const fakeEditor = process.env.EFORMS_START_EDITOR;
const runBase = process.env.EFORMS_START_DIR ?? join(PROJECT_ROOT, '.cache');
const sandboxPort = process.env.EFORMS_START_SANDBOX_PORT;

let sandbox;
let server;
let stopping;
/** Stops what was started, once, then exits; every way of ending goes through here. */
function shutdown(why, code) {
  if (stopping) return stopping;
  if (why) console.error(`\n[start] ${why}: stopping what was started…`);
  stopping = (async () => {
    try {
      await Promise.all([server?.stop(), sandbox?.stop()]);
      log('stopped.');
    } finally {
      process.exit(code);
    }
  })();
  return stopping;
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => void shutdown(sig, 130));

// npm runs this through `sh -c`: a signal npm forwards may end the shell and leave this process to
// init. A changed parent means whoever started us is gone, so we go too.
const parentAtStart = parentPid();
setInterval(() => {
  if (parentPid() !== parentAtStart) void shutdown('the process that started npm start exited', 1);
}, 500).unref();

function parentPid() {
  try {
    // /proc is current; process.ppid is read once at startup.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return process.ppid;
  }
}

function fail(m) {
  console.error(`[start] ${m}`);
  void shutdown(undefined, 1);
}

async function main() {
  let vsix;
  let cli = join(PROJECT_ROOT, 'dist', 'cli.js');
  if (!fakeEditor) {
    log('packaging the extension…');
    vsix = packageExtension();
    const prepared = spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts', 'vscode', 'prepare.mjs')], {
      stdio: 'inherit',
    });
    if (prepared.status !== 0)
      throw new Error('the offline VS Code toolchain could not be prepared (see above).');
    // The sandbox from the packaged CLI: the same code the .vsix ships, and dist/ may be mid-rebuild.
    cli = join(PROJECT_ROOT, '.cache', 'package', 'dist', 'cli.js');
  }

  const dirs = createRunDir(undefined, join(runBase, 'start'));
  const workspace = join(runBase, 'start-workspace');
  const logs = join(dirs.root, 'logs');
  mkdirSync(logs, { recursive: true });

  // The official SDK rules when the user has an SDK in the cache (eforms validate --local --download).
  const sandboxOptions = {
    dataDir: dirs.sandboxData,
    logFile: join(logs, 'sandbox.log'),
    cli,
    useSdkCache: true,
    // The SDK releases in ../shared when they are there: the sandbox answers with the official rules.
    sdkDir: SHARED_SDK_ROOT,
  };
  if (sandboxPort !== undefined) {
    sandbox = await startSandbox({ ...sandboxOptions, port: Number(sandboxPort) });
  } else {
    try {
      sandbox = await startSandbox({ ...sandboxOptions, port: undefined });
    } catch {
      log('the default sandbox port is taken: using a free one');
      sandbox = await startSandbox({ ...sandboxOptions, port: 0 });
    }
  }
  log(`sandbox at ${sandbox.origin} (demo API key: ${SANDBOX_DEMO_KEY})`);

  mkdirSync(workspace, { recursive: true });
  copyFixtures(workspace);
  writeSampleNotices(workspace);
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(
    join(workspace, '.vscode', 'settings.json'),
    `${JSON.stringify({ 'eforms.environment': 'sandbox', 'eforms.sandboxUrl': sandbox.origin }, null, 2)}\n`,
  );
  writeUserSettings(dirs.userData, {});

  // The key goes to the editor's environment (the extension's fallback), never into settings or logs.
  const env = editorEnv(dirs, { EFORMS_API_KEY: SANDBOX_DEMO_KEY });
  const port = await freePort();
  server = fakeEditor
    ? await startFakeEditor(fakeEditor, port, workspace, env)
    : await (async () => {
        installVsix(dirs, vsix, env);
        return startCodeServer({ dirs, port, workspace, env, logFile: join(logs, 'code-server.log') });
      })();
  const url = `${server.origin}/?folder=${encodeURIComponent(workspace)}`;
  log('VS Code with the eForms extension is ready. Open:');
  console.log(`\n    ${url}\n`);
  log(`logs in ${logs}. Press Ctrl-C to stop.`);
  server.child.once('exit', (code) => {
    if (stopping) return;
    server = undefined;
    void shutdown(`code-server exited (code ${code})`, code ?? 1);
  });
}

/** The test's stand-in for code-server, on the same tether and the same readiness check. */
async function startFakeEditor(script, port, workspace, env) {
  const child = spawnTethered(process.execPath, [script, String(port), workspace], { env });
  child.stdout.resume();
  child.stderr.resume();
  const origin = `http://127.0.0.1:${port}`;
  const stop = () => stopProcess(child, { graceMs: TETHER_STOP_MS });
  await waitForHttp(`${origin}/healthz`, 20000, () => child.exitCode === null);
  return { origin, child, stop };
}

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));
