// Entry of the in-editor suite: the editor's extension test runner (code-server's payload through
// scripts/vscode/run-tests.mjs, or @vscode/test-electron through run-electron.mjs) calls run() inside
// the extension host. It loads every *.test.js beside it, so adding a test file is all it takes.
// activation.test.js runs first: it needs a window where no notice was opened yet.
// These files are not node:test files: scripts/test.mjs leaves this folder to test/vscode-host.test.ts.

import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

const FIRST = 'activation.test.js';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60000, reporter: 'spec' });
  // run-tests.mjs --grep: run only the tests whose full title matches this regular expression.
  if (process.env.EFORMS_TEST_GREP) mocha.grep(new RegExp(process.env.EFORMS_TEST_GREP));
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort((a, b) => (a === FIRST ? -1 : b === FIRST ? 1 : a.localeCompare(b)));
  for (const f of files) mocha.addFile(join(__dirname, f));

  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        writeSummary({
          passes: runner.stats?.passes ?? 0,
          failures,
          pending: runner.stats?.pending ?? 0,
          tests: runner.stats?.tests ?? 0,
          files,
          failed: failedTitles,
        });
        if (failures > 0) reject(new Error(`${failures} in-editor test(s) failed.`));
        else resolve();
      });
      const failedTitles: string[] = [];
      runner.on('fail', (t, err: Error) => failedTitles.push(`${t.fullTitle()}: ${err.message}`));
    } catch (err) {
      reject(err);
    }
  });
}

/** The runner reads this to report mocha's counts next to the UI checks (summary.json). */
function writeSummary(summary: object): void {
  const dir = process.env.EFORMS_TEST_RESULTS;
  if (!dir) return;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'suite-summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  } catch (err) {
    console.error(`could not write the suite summary: ${(err as Error).message}`);
  }
}
