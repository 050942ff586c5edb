// Runs the in-editor suite (test/vscode/suite/) from `npm test`: prepares the offline VS Code toolchain,
// then runs scripts/vscode/run-tests.mjs (code-server + Chromium + the sandbox) and checks each phase
// through the summary it writes. EFORMS_SKIP_VSCODE=1 skips it, saying so; otherwise a toolchain that
// cannot be prepared fails with the reason.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { PROJECT_ROOT } from './support/shared-data';

const SKIP = process.env.EFORMS_SKIP_VSCODE === '1';
const skip = SKIP
  ? 'EFORMS_SKIP_VSCODE=1: the in-editor suite (code-server + Chromium) is skipped'
  : undefined;
const SUMMARY = join(PROJECT_ROOT, 'test-results', 'vscode', 'summary.json');

interface RunSummary {
  suite: { exitCode: number | null; passes: number | null; failures: number | null; failed?: string[] };
  ui: { ran: boolean; checks: { name: string; ok: boolean; message: string }[] };
  error: string | null;
}

/** Runs a script of the project with the current Node, its output passed through; resolves its exit code. */
function runScript(script: string, args: string[] = []): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    // Not a node:test child: the editor's processes must not inherit node:test's context.
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const child = spawn(process.execPath, [join(PROJECT_ROOT, script), ...args], {
      cwd: PROJECT_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    // Output goes to stderr: node:test's TAP on stdout must stay parseable.
    const pass = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      process.stderr.write(chunk);
    };
    child.stdout.on('data', pass);
    child.stderr.on('data', pass);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
    child.on('error', (err) => resolve({ code: 1, output: err.message }));
  });
}

let prepared: { code: number; output: string } | undefined;
let run: { code: number; output: string } | undefined;
let summary: RunSummary | undefined;

before(async () => {
  if (SKIP) return;
  prepared = await runScript('scripts/vscode/prepare.mjs');
  if (prepared.code !== 0) return;
  // A runner that dies before writing its summary must not be judged by the previous run's.
  rmSync(SUMMARY, { force: true });
  run = await runScript('scripts/vscode/run-tests.mjs');
  if (existsSync(SUMMARY)) summary = JSON.parse(readFileSync(SUMMARY, 'utf8')) as RunSummary;
});

after(() => {
  if (!SKIP && run && run.code !== 0)
    process.stderr.write(
      `In-editor run failed: screenshots and logs are in ${join(PROJECT_ROOT, 'test-results', 'vscode')}\n`,
    );
});

test('the offline VS Code toolchain (Node 24, code-server, Chromium) is prepared', { skip }, () => {
  assert.ok(prepared, 'prepare did not run');
  const reason = prepared.output
    .split('\n')
    .filter((l) => l.startsWith('[prepare]'))
    .pop();
  assert.equal(
    prepared.code,
    0,
    `scripts/vscode/prepare.mjs failed: ${reason ?? 'see its output above'}. ` +
      'To run the other tests without an editor, set EFORMS_SKIP_VSCODE=1.',
  );
});

test('the extension-host suite passes inside a real VS Code', { skip }, () => {
  assert.ok(run, 'the runner did not start (the toolchain is not prepared)');
  assert.ok(
    summary,
    `the runner wrote no ${SUMMARY}: it failed before the editor started (exit ${run.code})`,
  );
  assert.equal(summary.error, null, `the runner failed: ${summary.error}`);
  assert.equal(
    summary.suite.failures,
    0,
    `in-editor failures:\n  ${(summary.suite.failed ?? []).join('\n  ')}`,
  );
  assert.ok((summary.suite.passes ?? 0) > 0, 'the in-editor suite ran no test');
  assert.equal(summary.suite.exitCode, 0, `the suite's exit code was ${summary.suite.exitCode}`);
  assert.equal(run.code, 0, `the runner exited with ${run.code}`);
});

test('the workbench passes the UI checks (squiggles, status bar, command palette)', { skip }, () => {
  assert.ok(summary, 'no run summary');
  assert.ok(
    summary.ui.ran,
    'the UI checks did not run (they run only after the extension-host suite passed)',
  );
  const failed = summary.ui.checks.filter((c) => !c.ok);
  assert.deepEqual(
    failed.map((c) => `${c.name}: ${c.message}`),
    [],
    'failed UI checks',
  );
  assert.ok(summary.ui.checks.length > 0, 'no UI check ran');
  assert.equal(run?.code, 0, `run-tests.mjs exited with ${run?.code}`);
});
