// `npm test`: builds, then runs every test file (out/test/**/*.test.js) with node:test, the
// in-editor suite included (test/vscode-host.test.ts drives it), so the run ends on one summary.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

function collect(dir) {
  const files = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    // The in-editor suite runs inside VS Code, driven by test/vscode-host.test.ts, not by node:test.
    if (e.isDirectory() && p === join('out', 'test', 'vscode', 'suite')) continue;
    if (e.isDirectory()) files.push(...collect(p));
    else if (e.name.endsWith('.test.js')) files.push(p);
  }
  return files;
}
const only = process.argv.slice(2);
const files = collect('out/test')
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
