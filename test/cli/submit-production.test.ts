// `eforms submit --env production` asks before publishing, naming the notice and the environment, run as
// a user runs it (dist/cli.js in its own process). Production's addresses are replaced by a sandbox's
// (--enotices-url, --cvs-url win over --env), so that nothing leaves this machine: what the sandbox
// stored tells whether the notice was sent. Without a terminal it refuses (exit 4) unless --yes; on a
// terminal (a pseudo-terminal from util-linux `script`, when the machine has it) it takes y or No.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type RunningSandbox, startSandbox } from '../../sandbox/server';
import { runCli } from '../support/cli-run';
import { readNoticeFixture, TEST_API_KEY } from '../support/sandbox-harness';
import { PROJECT_ROOT } from '../support/shared-data';

/** valid-cn.xml (no error for the sandbox's own rules) under a fresh notice id. */
function fresh(): { xml: string; noticeId: string } {
  const noticeId = crypto.randomUUID();
  const xml = readNoticeFixture('valid-cn.xml')
    .toString('utf8')
    .replace(/(<cbc:ID schemeName="notice-id">)[^<]*/, `$1${noticeId}`);
  return { xml, noticeId };
}

const scriptMissing = (() => {
  const r = spawnSync('script', ['--version'], { encoding: 'utf8' });
  return r.status === 0
    ? undefined
    : 'no util-linux `script` for a pseudo-terminal: the terminal cases are skipped';
})();

describe('eforms submit --env production asks first', () => {
  let work: string;
  let sandbox: RunningSandbox;
  let env: NodeJS.ProcessEnv;
  let args: (file: string) => string[];
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'submit-production-'));
    sandbox = await startSandbox({ port: 0, apiKeys: [TEST_API_KEY], dataDir: join(work, 'data') });
    env = {
      PATH: process.env.PATH,
      EFORMS_API_KEY: TEST_API_KEY,
      EFORMS_SDK_CACHE: join(work, 'no-sdk'),
    };
    args = (file) => [
      'submit',
      file,
      '--email',
      'buyer@example.org',
      '--env',
      'production',
      '--enotices-url',
      `${sandbox.origin}/esenders`,
      '--cvs-url',
      `${sandbox.origin}/cvs`,
    ];
  });
  after(async () => {
    await sandbox?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** Whether the sandbox's eNotices2 holds a notice with this id (what was sent). */
  async function sent(noticeId: string): Promise<boolean> {
    const r = await runCli(['search', '--env', 'sandbox', '--format', 'json'], {
      env: { ...env, EFORMS_SANDBOX_URL: sandbox.origin },
      cwd: work,
    });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout.includes(noticeId);
  }

  test('without a terminal and without --yes: not sent, exit 4, naming the notice and production', async () => {
    const { xml, noticeId } = fresh();
    writeFileSync(join(work, 'no-tty.xml'), xml);
    const r = await runCli(args('no-tty.xml'), { env, cwd: work });
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /no-tty\.xml/);
    assert.match(r.stderr, /production/i);
    assert.match(r.stderr, /--yes/);
    assert.doesNotMatch(r.stderr, /Submitting/);
    assert.equal(await sent(noticeId), false);
  });

  test('with --yes: sent without asking (exit 0)', async () => {
    const { xml, noticeId } = fresh();
    writeFileSync(join(work, 'yes.xml'), xml);
    const r = await runCli([...args('yes.xml'), '--yes'], { env, cwd: work });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /\[y\/N\]/);
    assert.equal(await sent(noticeId), true);
  });

  test('the sandbox is not production: no question, no --yes needed', async () => {
    const { xml, noticeId } = fresh();
    writeFileSync(join(work, 'sandbox.xml'), xml);
    const r = await runCli(['submit', 'sandbox.xml', '--email', 'buyer@example.org', '--env', 'sandbox'], {
      env: { ...env, EFORMS_SANDBOX_URL: sandbox.origin },
      cwd: work,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await sent(noticeId), true);
  });

  /** The CLI on a pseudo-terminal, `answer` typed once the question is shown. */
  function onTerminal(file: string, answer: string): Promise<{ code: number | null; output: string }> {
    const command = [process.execPath, join(PROJECT_ROOT, 'dist', 'cli.js'), ...args(file)]
      .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    return new Promise((resolve, reject) => {
      const child = spawn('script', ['-qefc', command, '/dev/null'], { env, cwd: work });
      let output = '';
      let typed = false;
      child.stdout.on('data', (d: Buffer) => {
        output += d.toString('utf8');
        if (!typed && output.includes('[y/N]')) {
          typed = true;
          child.stdin.write(`${answer}\r`);
        }
      });
      child.stderr.on('data', (d: Buffer) => {
        output += d.toString('utf8');
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, output }));
    });
  }

  test('on a terminal: Enter (No) does not send (exit 4); y sends (exit 0)', {
    skip: scriptMissing,
  }, async () => {
    const no = fresh();
    writeFileSync(join(work, 'tty-no.xml'), no.xml);
    const r1 = await onTerminal('tty-no.xml', '');
    assert.match(r1.output, /Publish tty-no\.xml \(notice [^)]+\) to PRODUCTION/);
    assert.equal(r1.code, 4, r1.output);
    assert.equal(await sent(no.noticeId), false);

    const yes = fresh();
    writeFileSync(join(work, 'tty-yes.xml'), yes.xml);
    const r2 = await onTerminal('tty-yes.xml', 'y');
    assert.equal(r2.code, 0, r2.output);
    assert.equal(await sent(yes.noticeId), true);
  });

  test('the help documents --yes and exit status 4', async () => {
    const r = await runCli(['submit', '--help'], { env, cwd: work });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /--yes/);
    assert.match(r.stdout, /4 not sent: publishing to production was not confirmed/);
  });
});
