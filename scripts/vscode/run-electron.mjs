// The same in-editor suite (out/test/vscode/suite/index.js) under desktop VS Code through
// @vscode/test-electron, with the same sandbox, settings, workspace and environment as run-tests.mjs
// (session.mjs): one suite, two hosts. It never downloads VS Code: VSCODE_EXECUTABLE_PATH must point at
// an installed desktop VS Code; without it, it says how to use it and exits 0.

import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import {
  copyFixtures,
  createRunDir,
  editorEnv,
  onInterrupt,
  removeRunDir,
  SANDBOX_DEMO_KEY,
  SUITE_ENTRY,
  startSandbox,
  suiteEnv,
  testSettings,
  writeUserSettings,
} from './session.mjs';
import { PROJECT_ROOT } from './toolchain.mjs';

const exe = process.env.VSCODE_EXECUTABLE_PATH;
if (!exe) {
  console.log(`run-electron: runs the in-editor suite under a desktop VS Code (the same suite npm run test:vscode
runs in code-server). Point VSCODE_EXECUTABLE_PATH at an installed VS Code, then:

  npm run build && VSCODE_EXECUTABLE_PATH=/usr/share/code/code node scripts/vscode/run-electron.mjs [--api-key KEY]

Nothing is downloaded. Without the variable there is nothing to do.`);
  process.exit(0);
}
if (!existsSync(exe)) {
  console.error(`run-electron: VSCODE_EXECUTABLE_PATH=${exe} does not exist.`);
  process.exit(2);
}
if (!existsSync(SUITE_ENTRY)) {
  console.error(`run-electron: ${SUITE_ENTRY} is missing: run \`npm run build\` first.`);
  process.exit(2);
}

const keyAt = process.argv.indexOf('--api-key');
const apiKey = keyAt > 0 ? process.argv[keyAt + 1] : SANDBOX_DEMO_KEY;
const resultsDir = join(PROJECT_ROOT, 'test-results', 'vscode-electron');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

const dirs = createRunDir();
let sandbox;
async function cleanup() {
  await sandbox?.stop();
  removeRunDir(dirs);
}
onInterrupt(cleanup);

let code = 1;
try {
  sandbox = await startSandbox({
    port: 0,
    dataDir: dirs.sandboxData,
    logFile: join(resultsDir, 'sandbox.log'),
  });
  writeUserSettings(dirs.userData, testSettings(sandbox.origin));
  copyFixtures(dirs.workspace);
  // The editor inherits this process's environment: isolate it like run-tests.mjs does (no EFORMS_API_KEY).
  const env = editorEnv(dirs, suiteEnv({ sandboxOrigin: sandbox.origin, apiKey, resultsDir }));
  for (const k of Object.keys(process.env)) if (!(k in env)) delete process.env[k];
  Object.assign(process.env, env);
  code = await runTests({
    vscodeExecutablePath: exe,
    extensionDevelopmentPath: PROJECT_ROOT,
    extensionTestsPath: SUITE_ENTRY,
    extensionTestsEnv: suiteEnv({ sandboxOrigin: sandbox.origin, apiKey, resultsDir }),
    launchArgs: [
      dirs.workspace,
      '--disable-extensions',
      '--disable-workspace-trust',
      '--skip-welcome',
      '--skip-release-notes',
      '--disable-telemetry',
      '--user-data-dir',
      dirs.userData,
      '--extensions-dir',
      dirs.extensions,
    ],
  });
} catch (err) {
  console.error(`run-electron: ${err.message}`);
  code = 1;
} finally {
  await cleanup();
}
console.log(`run-electron: ${code === 0 ? 'passed' : 'FAILED'}; results in ${resultsDir}`);
process.exit(code);
