// Starting and stopping code-server (the real VS Code workbench served to a browser) for one run
// folder, offline and isolated, on loopback only. It never binds a non-loopback address.

import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { spawnTethered, stopProcess, TETHER_STOP_MS, waitForHttp } from './session.mjs';
import { CODE_SERVER_ENTRY, codeServerEnv, NODE24 } from './toolchain.mjs';

function baseArgs(dirs) {
  return ['--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions];
}

/** Installs a packaged extension into the run folder's extensions dir (about a second). */
export function installVsix(dirs, vsix, env) {
  const r = spawnSync(
    NODE24,
    [CODE_SERVER_ENTRY, ...baseArgs(dirs), '--install-extension', vsix, '--force'],
    {
      env: codeServerEnv(env),
      encoding: 'utf8',
    },
  );
  if (r.status !== 0)
    throw new Error(`code-server could not install ${vsix}:\n${r.stdout ?? ''}${r.stderr ?? ''}`.trim());
}

/**
 * Starts code-server on 127.0.0.1:`port` opening `workspace`, and resolves once /healthz answers.
 * `env` is the editor environment (session.mjs editorEnv); its output goes to `logFile`.
 */
export async function startCodeServer({ dirs, port, workspace, env, logFile, smokeTestDriver = false }) {
  const args = [
    CODE_SERVER_ENTRY,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    ...baseArgs(dirs),
    '--reconnection-grace-time',
    '5',
  ];
  // Needed for the `payload` URL parameter (extensionDevelopmentPath/extensionTestsPath) to be honoured.
  if (smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  args.push(workspace);
  const log = createWriteStream(logFile);
  // Tethered: code-server leads its own process group, so stopping it also stops its extension hosts,
  // and the group stops when this process dies, however it dies.
  const child = spawnTethered(NODE24, args, { env: codeServerEnv(env) });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const origin = `http://127.0.0.1:${port}`;
  const stop = () => stopProcess(child, { graceMs: TETHER_STOP_MS });
  try {
    await waitForHttp(`${origin}/healthz`, 60000, () => child.exitCode === null);
  } catch (err) {
    await stop();
    throw new Error(`code-server did not start: ${err.message}; see ${logFile}`);
  }
  return { origin, child, stop };
}

/**
 * The workbench URL that opens `workspace` with the extension at `extensionDir` loaded as a development
 * extension and, when `testsEntry` is given, runs it as the extension tests (needs the smoke test driver).
 */
export function workbenchUrl(origin, workspace, extensionDir, testsEntry) {
  const host = new URL(origin).host;
  const remote = (p) => `vscode-remote://${host}${p}`;
  const payload = [['extensionDevelopmentPath', remote(extensionDir)]];
  if (testsEntry) payload.push(['extensionTestsPath', remote(testsEntry)]);
  return `${origin}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}
