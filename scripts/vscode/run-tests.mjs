// `npm run test:vscode`: runs the in-editor suite (out/test/vscode/suite/index.js) inside a real VS Code
// workbench served by code-server and shown in headless Chromium, offline, against the sandbox
// services; then checks the workbench at user level. Exits with the suite's exit code (1 when a UI
// check fails). It builds nothing (npm scripts build first) and stops everything it started.
//
// Options: --api-key KEY (default: the sandbox demo key), --timeout SECONDS (default 300), --no-ui,
// --ui-always (UI checks even after suite failures), --grep REGEX (only the suite's tests and the UI checks whose title
// matches it), --keep (keep the temporary run folder). Results: test-results/vscode/ (summary.json, screenshots,
// code-server, sandbox and workbench logs).

import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { format, parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { startCodeServer, workbenchUrl } from './code-server.mjs';
import {
  copyFixtures,
  createRunDir,
  editorEnv,
  freePort,
  onInterrupt,
  RESULTS_DIR,
  removeRunDir,
  SANDBOX_DEMO_KEY,
  SUITE_ENTRY,
  startSandbox,
  suiteEnv,
  testSettings,
  writeUserSettings,
} from './session.mjs';
import { CHROMIUM, PROJECT_ROOT, toolchainProblem } from './toolchain.mjs';
import { runUiChecks } from './ui-checks.mjs';

export const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

const { values: opts } = parseArgs({
  options: {
    'api-key': { type: 'string' },
    timeout: { type: 'string' },
    'no-ui': { type: 'boolean' },
    'ui-always': { type: 'boolean' },
    grep: { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const apiKey = opts['api-key'] ?? SANDBOX_DEMO_KEY;
const timeoutMs = Number(opts.timeout ?? process.env.EFORMS_VSCODE_TIMEOUT_S ?? 300) * 1000;
const log = (m) => console.log(`[vscode] ${m}`);

function fatal(message) {
  console.error(`[vscode] ${message}`);
  process.exit(2);
}

const problem = toolchainProblem();
if (problem) fatal(problem);
if (!existsSync(SUITE_ENTRY)) fatal(`${SUITE_ENTRY} is missing: run \`npm run build\` (tsc) first.`);
const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
const main = join(PROJECT_ROOT, pkg.main ?? 'dist/client.js');
if (!existsSync(main)) fatal(`${main} (package.json "main") is missing: run \`npm run build\` first.`);

rmSync(RESULTS_DIR, { recursive: true, force: true });
mkdirSync(RESULTS_DIR, { recursive: true });
/** Everything the workbench page printed, unfiltered. */
const automationLog = createWriteStream(join(RESULTS_DIR, 'workbench-console.log'));

const started = Date.now();
const summary = {
  startedAt: new Date().toISOString(),
  suite: { exitCode: null, passes: null, failures: null, tests: null, ms: null },
  ui: { ran: false, checks: [] },
  error: null,
};
const dirs = createRunDir();
let sandbox;
let server;
let browser;

async function cleanup() {
  await browser?.close().catch(() => {});
  await server?.stop();
  await sandbox?.stop();
  // The workbench's own logs (extension host, language client output channels, remote server).
  const logs = join(dirs.userData, 'logs');
  if (existsSync(logs)) cpSync(logs, join(RESULTS_DIR, 'workbench-logs'), { recursive: true });
  if (opts.keep) log(`run folder kept: ${dirs.root}`);
  else removeRunDir(dirs);
}
const removeInterruptHandler = onInterrupt(cleanup);

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `${what} did not finish within ${ms / 1000} s: it is hung. See ${RESULTS_DIR} ` +
                '(timeout.png, code-server.log, sandbox.log, workbench-logs/).',
            ),
          ),
        ms,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}

/** The workbench's own chatter on the console, which says nothing about the suite. */
const WORKBENCH_NOISE =
  /^(Ignoring fetching additional builtin extensions|Updating additional builtin extensions cache|Resolving connection token|Resolved connection token|Creating a socket|\[reconnection-grace-time\]|\[Service Worker\]|\[AgentHost|\[AccountPolicyGate\])/;

/** Mocha's console output from the extension host arrives as console.log arguments: format them. */
function printAutomationLog(type, args) {
  const line = format(...(Array.isArray(args) ? args : [args]));
  automationLog.write(`[${type}] ${line}\n`);
  if (WORKBENCH_NOISE.test(line)) return;
  if (type === 'error') process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

let exitCode = 1;
try {
  sandbox = await startSandbox({
    port: 0,
    dataDir: dirs.sandboxData,
    logFile: join(RESULTS_DIR, 'sandbox.log'),
    // Short, so the suite watches a notice reach PUBLISHED; long enough to see it SUBMITTED first.
    publishDelaySeconds: 6,
  });
  log(`sandbox at ${sandbox.origin}`);
  writeUserSettings(dirs.userData, testSettings(sandbox.origin));
  copyFixtures(dirs.workspace);

  const port = await freePort();
  const env = editorEnv(dirs, {
    ...suiteEnv({ sandboxOrigin: sandbox.origin, apiKey, resultsDir: RESULTS_DIR }),
    ...(opts.grep ? { EFORMS_TEST_GREP: opts.grep } : {}),
  });
  server = await startCodeServer({
    dirs,
    port,
    workspace: dirs.workspace,
    env,
    logFile: join(RESULTS_DIR, 'code-server.log'),
    smokeTestDriver: true,
  });
  log(`code-server at ${server.origin} (pid ${server.child.pid})`);

  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });

  // Phase 1: the extension-host suite.
  const page = await context.newPage();
  let reportExit;
  const exited = new Promise((resolve) => {
    reportExit = resolve;
  });
  await page.exposeFunction('codeAutomationExit', (code) => reportExit(Number(code)));
  await page.exposeFunction('codeAutomationLog', printAutomationLog);
  const suiteStarted = Date.now();
  await page.goto(workbenchUrl(server.origin, dirs.workspace, PROJECT_ROOT, SUITE_ENTRY));
  try {
    summary.suite.exitCode = await withTimeout(exited, timeoutMs, 'The in-editor suite');
  } catch (err) {
    await page.screenshot({ path: join(RESULTS_DIR, 'timeout.png') }).catch(() => {});
    throw err;
  }
  summary.suite.ms = Date.now() - suiteStarted;
  const suiteFile = join(RESULTS_DIR, 'suite-summary.json');
  if (existsSync(suiteFile)) Object.assign(summary.suite, JSON.parse(readFileSync(suiteFile, 'utf8')));
  log(
    `extension-host suite: exit code ${summary.suite.exitCode}, ${summary.suite.passes ?? '?'} passed, ` +
      `${summary.suite.failures ?? '?'} failed in ${(summary.suite.ms / 1000).toFixed(1)} s`,
  );
  await page.screenshot({ path: join(RESULTS_DIR, 'suite-end.png') }).catch(() => {});
  await page.close();
  exitCode = summary.suite.exitCode;

  // Phase 2: user-level checks, only when the suite passed (a broken extension fails there first).
  if ((exitCode === 0 || opts['ui-always']) && !opts['no-ui']) {
    log('UI checks:');
    summary.ui.ran = true;
    const ui = await context.newPage();
    await ui.goto(workbenchUrl(server.origin, dirs.workspace, PROJECT_ROOT));
    summary.ui.checks = await withTimeout(
      runUiChecks(ui, {
        apiKey,
        resultsDir: RESULTS_DIR,
        log,
        grep: opts.grep,
        // The remote (machine) settings: where a machine-scoped setting such as eforms.sdk.path is read.
        machineSettingsFile: join(dirs.userData, 'Machine', 'settings.json'),
      }),
      Math.min(timeoutMs, 300000),
      'The UI checks',
    );
    if (summary.ui.checks.some((c) => !c.ok) && exitCode === 0) exitCode = 1;
  }
} catch (err) {
  summary.error = err.message;
  console.error(`[vscode] ${err.message}`);
  exitCode = exitCode === 0 ? 1 : exitCode || 1;
} finally {
  summary.ms = Date.now() - started;
  summary.exitCode = exitCode;
  writeFileSync(join(RESULTS_DIR, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  await cleanup();
  removeInterruptHandler();
}
log(
  `${exitCode === 0 ? 'passed' : 'FAILED'} in ${(summary.ms / 1000).toFixed(1)} s; results in ${RESULTS_DIR}`,
);
process.exit(exitCode);
