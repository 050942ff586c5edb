// `eforms submit` checks the notice before sending it and refuses one with errors (exit 3) unless
// given --force, run as a user runs it (dist/cli.js in its own process) against the sandbox. Which
// notices have errors is known independently of the CLI: invalid-cn.xml's own header lists the failures
// the sandbox's rules report; and valid-cn.xml gives its organisations no telephone, which the SDK's
// rule BR-BT-00503-0022 requires (and the sandbox's own 45 rules do not check), so a sandbox with the
// SDK in ../shared refuses it through the same check.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sandboxSdkRules } from '../../sandbox/sdk-rules';
import { type RunningSandbox, startSandbox } from '../../sandbox/server';
import { invalidNotice } from '../sandbox/enotices-kit';
import { runCli } from '../support/cli-run';
import { NOTICE_FIXTURES_DIR, readNoticeFixture, TEST_API_KEY } from '../support/sandbox-harness';
import { SDK_DIR, skipUnless } from '../support/shared-data';

function fresh(name: string): string {
  return readNoticeFixture(name)
    .toString('utf8')
    .replace(/(<cbc:ID schemeName="notice-id">)[^<]*/, `$1${crypto.randomUUID()}`);
}

/** The rule ids invalid-cn.xml's header says the sandbox's own rules report. */
function expectedIds(): string[] {
  const text = readFileSync(join(NOTICE_FIXTURES_DIR, 'invalid-cn.xml'), 'utf8');
  return [...text.matchAll(/expect: ERROR (\S+)/g)].map((m) => m[1]);
}

describe('eforms submit: the check before sending', () => {
  let work: string;
  let sandbox: RunningSandbox;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'submit-check-'));
    sandbox = await startSandbox({ port: 0, apiKeys: [TEST_API_KEY], dataDir: join(work, 'data') });
    env = {
      PATH: process.env.PATH,
      EFORMS_ENV: 'sandbox',
      EFORMS_SANDBOX_URL: sandbox.origin,
      EFORMS_API_KEY: TEST_API_KEY,
      EFORMS_SDK_CACHE: join(work, 'no-sdk'),
    };
  });
  after(async () => {
    await sandbox?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const submit = (file: string, ...extra: string[]) =>
    runCli(['submit', file, '--email', 'buyer@example.org', ...extra], { env, cwd: work });

  test('a notice with errors is refused with exit 3, its errors listed, and nothing is sent', async () => {
    writeFileSync(join(work, 'invalid.xml'), fresh('invalid-cn.xml'));
    const r = await submit('invalid.xml');
    assert.equal(r.code, 3, r.stderr);
    for (const id of expectedIds()) assert.match(r.stdout, new RegExp(`: error ${id} `));
    assert.match(r.stderr, new RegExp(`the notice has ${expectedIds().length} errors`));
    assert.match(r.stderr, /--force/);
    assert.doesNotMatch(r.stderr, /Submitting/);
  });

  test('--force sends it anyway: eNotices2 creates it but does not submit it (exit 1)', async () => {
    // With a procedure id, so that eNotices2 stores it.
    writeFileSync(join(work, 'forced.xml'), invalidNotice().xml);
    const r = await submit('forced.xml', '--force');
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /Created .* but NOT submitted: validation failed/, r.stderr);
  });

  test('--format json says why it was refused', async () => {
    writeFileSync(join(work, 'json.xml'), fresh('invalid-cn.xml'));
    const r = await submit('json.xml', '--format', 'json');
    assert.equal(r.code, 3, r.stderr);
    const body = JSON.parse(r.stdout) as {
      submitted: boolean;
      reason: string;
      errors: number;
      findings: { id: string }[];
    };
    assert.equal(body.submitted, false);
    assert.equal(body.reason, 'errors');
    assert.deepEqual(body.findings.map((f) => f.id).sort(), expectedIds().sort());
  });

  test('a notice without errors (for the rules that answer) is submitted (exit 0)', async () => {
    writeFileSync(join(work, 'valid.xml'), fresh('valid-cn.xml'));
    const r = await submit('valid.xml');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /is SUBMITTED|validation passed/);
  });

  test('the exit status is documented in the help', async () => {
    const r = await runCli(['submit', '--help'], { env, cwd: work });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /--force/);
    assert.match(r.stdout, /3 not sent: the notice has errors/);
  });
});

describe('eforms submit against a sandbox with the official rules', { skip: skipUnless(SDK_DIR) }, () => {
  let work: string;
  let sandbox: RunningSandbox;
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'submit-check-sdk-'));
    const sdk = sandboxSdkRules({ path: SDK_DIR, cacheRoot: join(work, 'cache') }, undefined, () => {});
    assert.ok(sdk);
    sandbox = await startSandbox({
      port: 0,
      apiKeys: [TEST_API_KEY],
      dataDir: join(work, 'data'),
      sdkRules: sdk.rules,
    });
  });
  after(async () => {
    await sandbox?.close();
    rmSync(work, { recursive: true, force: true });
  });

  test("valid-cn.xml, which the SDK's rules find errors in, is refused (3)", async () => {
    writeFileSync(join(work, 'valid.xml'), fresh('valid-cn.xml'));
    // JSON lists every error (the text shows the first 20, in the rules' order, as the service reports them).
    const r = await runCli(['submit', 'valid.xml', '--email', 'buyer@example.org', '--format', 'json'], {
      env: {
        PATH: process.env.PATH,
        EFORMS_ENV: 'sandbox',
        EFORMS_SANDBOX_URL: sandbox.origin,
        EFORMS_API_KEY: TEST_API_KEY,
      },
      cwd: work,
    });
    assert.equal(r.code, 3, r.stderr);
    // Rules of the SDK, absent from the sandbox's own 45: the official rules answered the check.
    const answer = JSON.parse(r.stdout) as { submitted: boolean; findings: { id?: string }[] };
    assert.equal(answer.submitted, false);
    assert.ok(
      answer.findings.some((f) => f.id === 'BR-BT-00503-0022'),
      r.stdout.slice(0, 2000),
    );
  });
});
