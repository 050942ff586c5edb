// The CVS emulation with an SDK answers with the official rules, as the real service does: over HTTP,
// the report of an official sample carries exactly the rule ids of the report published with it
// (read from ../shared). A version the sandbox has no release for falls back to its own rules, and the
// log says so once. Without an SDK, nothing changes.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { EnoticesClient } from '../../core/services';
import { parseSvrl } from '../../core/svrl/report';
import { sandboxSdkRules } from '../../sandbox/sdk-rules';
import { type RunningSandbox, startSandbox } from '../../sandbox/server';
import { PROJECT_ROOT, SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const KEY = 'sdk-rules-key';
const skip = skipUnless(SDK_DIR) ?? skipUnless(SAMPLES_DIR);

function officialIds(name: string): string[] {
  return parseSvrl(readFileSync(join(SAMPLES_DIR, 'reports', `${name}.svrl`), 'utf8'))
    .assertions.filter((a) => a.kind === 'failed-assert')
    .map((a) => a.id)
    .sort();
}

async function validate(origin: string, notice: Buffer, extra: Record<string, string> = {}) {
  const res = await fetch(`${origin}/cvs/v1/notices/validation`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY },
    // The INVALID samples may lack cbc:CustomizationID: the version is said, as the samples' tests do.
    body: JSON.stringify({
      notice: notice.toString('base64'),
      validationMode: 'static',
      eFormsSdkVersion: '1.15',
      ...extra,
    }),
  });
  assert.equal(res.status, 200);
  return parseSvrl(await res.text());
}

describe('sandbox CVS with the official SDK rules', { skip }, () => {
  let work: string;
  let withSdk: RunningSandbox;
  let without: RunningSandbox;
  const log: string[] = [];
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'sandbox-sdk-'));
    const sdk = sandboxSdkRules({ path: SDK_DIR, cacheRoot: join(work, 'cache') }, undefined, (l) =>
      log.push(l),
    );
    assert.ok(sdk, 'the SDK folder is found');
    assert.deepEqual(sdk.versions, ['1.15.1']);
    withSdk = await startSandbox({ port: 0, apiKeys: [KEY], dataDir: join(work, 'a'), sdkRules: sdk.rules });
    without = await startSandbox({ port: 0, apiKeys: [KEY], dataDir: join(work, 'b') });
  });
  after(async () => {
    await withSdk?.close();
    await without?.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('no SDK under a folder: no rules object', () => {
    assert.equal(
      sandboxSdkRules({ path: '', cacheRoot: join(work, 'empty') }, undefined, () => {}),
      undefined,
    );
  });

  for (const name of ['INVALID_cn_24_empty', 'INVALID_cn_24_multiple', 'cn_24_minimal']) {
    test(`${name}: the official report's rule ids, over HTTP`, async () => {
      const notice = readFileSync(join(SAMPLES_DIR, 'notices', `${name}.xml`));
      const report = await validate(withSdk.origin, notice);
      assert.deepEqual(report.assertions.map((a) => a.id).sort(), officialIds(name));
    });
  }

  test('a release in the download cache alone is found: the official rules answer', async () => {
    // The cache holds releases by version; a link to the shared release stands for a downloaded one.
    const cacheRoot = join(work, 'download-cache');
    mkdirSync(cacheRoot, { recursive: true });
    symlinkSync(SDK_DIR, join(cacheRoot, '1.15.1'));
    const sdk = sandboxSdkRules({ path: '', cacheRoot }, undefined, () => {});
    assert.ok(sdk, 'the cached release is found');
    const cached = await startSandbox({
      port: 0,
      apiKeys: [KEY],
      dataDir: join(work, 'c'),
      sdkRules: sdk.rules,
    });
    try {
      const notice = readFileSync(join(SAMPLES_DIR, 'notices', 'INVALID_cn_24_multiple.xml'));
      const report = await validate(cached.origin, notice);
      assert.deepEqual(report.assertions.map((a) => a.id).sort(), officialIds('INVALID_cn_24_multiple'));
    } finally {
      await cached.close();
    }
  });

  test("the report says whose rules answered: official with an SDK, the sandbox's own without", async () => {
    const notice = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_minimal.xml'));
    const official = parseSvrl(readFileSync(join(SAMPLES_DIR, 'reports', 'cn_24_minimal.svrl'), 'utf8'));
    const withRules = await validate(withSdk.origin, notice);
    assert.equal(withRules.title, official.title);
    const own = await validate(without.origin, notice);
    assert.equal(own.title, 'Sandbox rules, not the official SDK rules');
  });

  test("eNotices2 judges a submission by the same rules: valid-cn.xml, which lacks the buyer's telephone (BR-BT-00503-0022), fails with the SDK and passes the sandbox's own rules", async () => {
    const text = readFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'notices', 'valid-cn.xml'), 'utf8');
    const meta = { noticeAuthorEmail: 'buyer@example.org', noticeAuthorLocale: 'en' };
    const submit = (origin: string) =>
      new EnoticesClient({ baseUrl: `${origin}/esenders`, apiKey: KEY }).submit(
        Buffer.from(text.replace(/(<cbc:ID schemeName="notice-id">)[^<]*/, `$1${crypto.randomUUID()}`)),
        meta,
      );
    assert.equal((await submit(withSdk.origin)).success, false);
    assert.equal((await submit(without.origin)).success, true);
  });

  test("without an SDK, the sandbox's own rules answer (a different report)", async () => {
    const notice = readFileSync(join(SAMPLES_DIR, 'notices', 'INVALID_cn_24_empty.xml'));
    const own = await validate(without.origin, notice);
    assert.notDeepEqual(own.assertions.map((a) => a.id).sort(), officialIds('INVALID_cn_24_empty'));
  });

  test('a version the sandbox has no release for: its own rules, said once in the log', async () => {
    const notice = readFileSync(join(SAMPLES_DIR, 'notices', 'INVALID_cn_24_empty.xml'));
    const own = await validate(without.origin, notice, { eFormsSdkVersion: '1.14' });
    const fallback = await validate(withSdk.origin, notice, { eFormsSdkVersion: '1.14' });
    await validate(withSdk.origin, notice, { eFormsSdkVersion: '1.14' });
    assert.deepEqual(
      fallback.assertions.map((a) => a.id),
      own.assertions.map((a) => a.id),
    );
    assert.equal(log.filter((l) => /own rules answer.*1\.14/.test(l)).length, 1, log.join('\n'));
  });
});
