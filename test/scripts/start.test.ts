// `npm start` stops everything it started, whichever way it ends: SIGINT to npm's process, SIGTERM to
// start.mjs, SIGKILL to start.mjs (its children are tethered), and the death of its parent. It runs
// the real scripts/start.mjs and the real sandbox (dist/cli.js) with a stand-in for code-server that
// starts a child of its own (as code-server starts extension hosts). The truth is the kernel's: every
// process carrying this run's marker in its environment is gone, and the ports are free again.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { PROJECT_ROOT, SHARED_DIR } from '../support/shared-data';

const CLI = join(PROJECT_ROOT, 'dist', 'cli.js');
const skip = !existsSync('/proc/self/environ')
  ? 'needs Linux /proc to find every process a run started'
  : !existsSync(CLI)
    ? 'dist/cli.js is missing: run `npm run build` first'
    : undefined;

const work = mkdtempSync(join(tmpdir(), 'eforms-start-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** The stand-in for code-server: answers /healthz on loopback and keeps a child process running. */
const FAKE_EDITOR = join(work, 'fake-editor.mjs');
writeFileSync(
  FAKE_EDITOR,
  `import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)'], { stdio: 'ignore' });
createServer((_q, r) => r.end('ok')).listen(Number(process.argv[2]), '127.0.0.1');
`,
);

/** Pids of the live processes whose environment holds `marker` (zombies excluded). */
function marked(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(marker))
        pids.push(Number(name));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Run {
  marker: string;
  child: ChildProcess;
  sandboxPort: number;
  editorPort: number;
  output: () => string;
}

/** Starts `command args` (npm start, or start.mjs under some parent) and waits until it is ready. */
async function startRun(
  id: string,
  command: string,
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Run> {
  const marker = `EFORMS_START_TEST_MARK=${id}-${process.pid}-${Date.now()}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    [marker.split('=')[0] as string]: marker.split('=')[1],
    EFORMS_START_DIR: join(work, id),
    EFORMS_START_SANDBOX_PORT: '0',
    EFORMS_START_EDITOR: FAKE_EDITOR,
    ...extraEnv,
  };
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(command, args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const collect = (c: Buffer) => {
    out += c.toString('utf8');
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const ready = await new Promise<boolean>((resolve) => {
    const check = () => {
      if (/Press Ctrl-C/.test(out)) resolve(true);
    };
    child.stdout?.on('data', check);
    child.once('exit', () => resolve(false));
  });
  assert.ok(ready, `npm start did not become ready:\n${out}`);
  const sandboxPort = Number(/sandbox at http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]);
  const editorPort = Number(/http:\/\/127\.0\.0\.1:(\d+)\/\?folder=/.exec(out)?.[1]);
  assert.ok(sandboxPort > 0 && editorPort > 0, `ports not reported:\n${out}`);
  return { marker, child, sandboxPort, editorPort, output: () => out };
}

/** Waits until nothing of the run is left (a bound on the wait, not on the speed), then checks. */
async function assertAllStopped(run: Run): Promise<void> {
  let left = marked(run.marker);
  for (let i = 0; i < 300 && left.length > 0; i++) {
    await sleep(100);
    left = marked(run.marker);
  }
  assert.deepEqual(
    left.map((p) => `${p} ${cmdline(p)}`),
    [],
    `processes survived:\n${run.output()}`,
  );
  assert.ok(await portIsFree(run.sandboxPort), `the sandbox port ${run.sandboxPort} is still taken`);
  assert.ok(await portIsFree(run.editorPort), `the editor port ${run.editorPort} is still taken`);
}

function startMjsPid(run: Run): number {
  const pid = marked(run.marker).find((p) => cmdline(p).includes('scripts/start.mjs'));
  assert.ok(pid, 'start.mjs is not running');
  return pid;
}

test('npm start: a SIGINT to npm stops everything it started', { skip }, async () => {
  const run = await startRun('npm-sigint', 'npm', ['run', '--silent', 'start']);
  // The sandbox, the editor and its child, and the tethers are all up before the signal.
  assert.ok(
    marked(run.marker).length >= 5,
    `too few processes: ${marked(run.marker).map(cmdline).join('\n')}`,
  );
  run.child.kill('SIGINT');
  await assertAllStopped(run);
});

test('npm start: a SIGTERM to start.mjs stops everything it started', { skip }, async () => {
  const run = await startRun('sigterm', process.execPath, [join(PROJECT_ROOT, 'scripts', 'start.mjs')]);
  process.kill(startMjsPid(run), 'SIGTERM');
  await assertAllStopped(run);
});

test('npm start: SIGKILL of start.mjs still stops its children (they are tethered)', { skip }, async () => {
  const run = await startRun('sigkill', process.execPath, [join(PROJECT_ROOT, 'scripts', 'start.mjs')]);
  process.kill(startMjsPid(run), 'SIGKILL');
  await assertAllStopped(run);
});

test('npm start: when its parent dies, start.mjs stops everything and exits', { skip }, async () => {
  // A parent that starts start.mjs and can be killed without any chance to forward a signal.
  const parent = `const c=require('node:child_process').spawn(process.execPath,[${JSON.stringify(join(PROJECT_ROOT, 'scripts', 'start.mjs'))}],{stdio:'inherit'});setInterval(()=>{},1e9);`;
  const run = await startRun('parent-dies', process.execPath, ['-e', parent]);
  run.child.kill('SIGKILL');
  await assertAllStopped(run);
});

const SHARED_SDKS = join(SHARED_DIR, 'eforms-sdk');

test('npm start: the SDK beside the project reaches the sandbox and the editor settings', {
  skip: skip ?? (existsSync(SHARED_SDKS) ? undefined : `${SHARED_SDKS} is absent`),
}, async () => {
  const run = await startRun('with-sdk', process.execPath, [join(PROJECT_ROOT, 'scripts', 'start.mjs')], {
    EFORMS_START_SDK_DIR: SHARED_SDKS,
  });
  try {
    // A machine setting: in code-server's machine settings (the workspace may not set it).
    const machine = JSON.parse(
      readFileSync(join(work, 'with-sdk', 'start', 'user-data', 'Machine', 'settings.json'), 'utf8'),
    );
    assert.equal(machine['eforms.sdk.path'], SHARED_SDKS);
    const sandbox = marked(run.marker)
      .map(cmdline)
      .find((c) => / sandbox /.test(`${c} `));
    assert.ok(sandbox?.includes(`--sdk-dir ${SHARED_SDKS}`), `sandbox command line: ${sandbox}`);
    assert.match(run.output(), /eForms SDK: /);
  } finally {
    run.child.kill('SIGINT');
    await assertAllStopped(run);
  }
});

test('npm start: without an SDK it says how to get one, and sets none', { skip }, async () => {
  const none = join(work, 'no-sdk-here');
  const run = await startRun('no-sdk', process.execPath, [join(PROJECT_ROOT, 'scripts', 'start.mjs')], {
    EFORMS_START_SDK_DIR: none,
  });
  try {
    const machine = JSON.parse(
      readFileSync(join(work, 'no-sdk', 'start', 'user-data', 'Machine', 'settings.json'), 'utf8'),
    );
    assert.equal(machine['eforms.sdk.path'], undefined);
    assert.ok(run.output().includes(`no eForms SDK in ${none}`), run.output());
    assert.match(run.output(), /download|github\.com\/OP-TED\/eForms-SDK/);
    const sandbox = marked(run.marker)
      .map(cmdline)
      .find((c) => / sandbox /.test(`${c} `));
    assert.doesNotMatch(sandbox ?? '', /--sdk-dir/);
  } finally {
    run.child.kill('SIGINT');
    await assertAllStopped(run);
  }
});
