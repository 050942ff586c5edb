// `npm start`: the extension as a user gets it, in a real VS Code in the browser, against the sandbox,
// offline. Packages the .vsix, prepares the toolchain, starts the sandbox (its default port, or a free
// one when taken) and code-server on loopback with the .vsix installed, on a workspace of test notices
// (.cache/start-workspace/) set to the sandbox, with the sandbox demo key in the editor's environment.
// Runs until Ctrl-C, then stops everything it started. It never binds a non-loopback address.

import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageExtension } from './package.mjs';
import { installVsix, startCodeServer } from './vscode/code-server.mjs';
import {
  copyFixtures,
  createRunDir,
  editorEnv,
  freePort,
  onInterrupt,
  SANDBOX_DEMO_KEY,
  startSandbox,
  writeUserSettings,
} from './vscode/session.mjs';
import { PROJECT_ROOT } from './vscode/toolchain.mjs';

const log = (m) => console.log(`[start] ${m}`);
const fail = (m) => {
  console.error(`[start] ${m}`);
  process.exit(1);
};

log('packaging the extension…');
let vsix;
try {
  vsix = packageExtension();
} catch (err) {
  fail(err.message);
}

const prepared = spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts', 'vscode', 'prepare.mjs')], {
  stdio: 'inherit',
});
if (prepared.status !== 0) fail('the offline VS Code toolchain could not be prepared (see above).');

const dirs = createRunDir(undefined, join(PROJECT_ROOT, '.cache', 'start'));
const workspace = join(PROJECT_ROOT, '.cache', 'start-workspace');
const logs = join(dirs.root, 'logs');
mkdirSync(logs, { recursive: true });
// The sandbox from the packaged CLI: the same code the .vsix ships, and dist/ may be mid-rebuild.
const cli = join(PROJECT_ROOT, '.cache', 'package', 'dist', 'cli.js');

let sandbox;
let server;
let stopping = false;
async function stopAll() {
  stopping = true;
  await server?.stop();
  await sandbox?.stop();
}
onInterrupt(async () => {
  await stopAll();
  log('stopped.');
});

try {
  // The official SDK rules when the user has an SDK in the cache (eforms validate --local --download).
  const sandboxOptions = {
    dataDir: dirs.sandboxData,
    logFile: join(logs, 'sandbox.log'),
    cli,
    useSdkCache: true,
  };
  try {
    sandbox = await startSandbox({ ...sandboxOptions, port: undefined });
  } catch {
    log('the default sandbox port is taken: using a free one');
    sandbox = await startSandbox({ ...sandboxOptions, port: 0 });
  }
  log(`sandbox at ${sandbox.origin} (demo API key: ${SANDBOX_DEMO_KEY})`);

  mkdirSync(workspace, { recursive: true });
  copyFixtures(workspace);
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(
    join(workspace, '.vscode', 'settings.json'),
    `${JSON.stringify({ 'eforms.environment': 'sandbox', 'eforms.sandboxUrl': sandbox.origin }, null, 2)}\n`,
  );
  writeUserSettings(dirs.userData, {});

  // The key goes to the editor's environment (the extension's fallback), never into settings or logs.
  const env = editorEnv(dirs, { EFORMS_API_KEY: SANDBOX_DEMO_KEY });
  installVsix(dirs, vsix, env);
  const port = await freePort();
  server = await startCodeServer({ dirs, port, workspace, env, logFile: join(logs, 'code-server.log') });
  const url = `${server.origin}/?folder=${encodeURIComponent(workspace)}`;
  log('VS Code with the eForms extension is ready. Open:');
  console.log(`\n    ${url}\n`);
  log(`logs in ${logs}. Press Ctrl-C to stop.`);
  server.child.once('exit', async (code) => {
    if (stopping) return;
    log(`code-server exited (code ${code}); stopping the sandbox.`);
    await sandbox?.stop();
    process.exit(code ?? 1);
  });
} catch (err) {
  await stopAll();
  fail(err.message);
}
