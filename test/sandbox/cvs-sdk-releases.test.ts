// The CVS emulation over a folder of releases (../shared/eforms-sdk): each notice posted without
// eFormsSdkVersion is answered with the newest patch of the MAJOR.MINOR its cbc:CustomizationID
// declares, and an eFormsSdkVersion in the request overrides it, as the real service does. The
// release expected for each notice comes from ../shared/real-notices/index.tsv and the folder's
// README, never from the code under test. Which release answered is read from the report's header
// comment, or from the log when that release's rules could not run (the emulation's own rules then
// answer, and the log names the release).

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sandboxSdkRules } from '../../sandbox/sdk-rules';
import { type RunningSandbox, startSandbox } from '../../sandbox/server';
import { SAMPLES_DIR, SDK_DIR, SHARED_DIR, skipUnless } from '../support/shared-data';

const KEY = 'sdk-releases-key';
const SDK_ROOT = dirname(SDK_DIR);
const REAL = join(SHARED_DIR, 'real-notices');
const skip = skipUnless(SDK_ROOT) ?? skipUnless(REAL) ?? skipUnless(SAMPLES_DIR);

/** One notice per declared version (index.tsv), with the release the shared folder holds for it. */
function noticesByRelease(): { file: string; release: string }[] {
  const newest: Record<string, string> = { '1.7': '1.7.5', '1.8': '1.8.5', '1.9': '1.9.5', '1.10': '1.10.5' };
  const seen = new Set<string>();
  const out: { file: string; release: string }[] = [];
  for (const row of readFileSync(join(REAL, 'index.tsv'), 'utf8').trim().split('\n').slice(1)) {
    const [pubno, customization] = row.split('\t');
    const v = (customization ?? '').replace(/^eforms-sdk-/, '');
    if (seen.has(v) || !newest[v]) continue;
    seen.add(v);
    out.push({ file: join(REAL, 'notices', `${pubno}.xml`), release: newest[v] as string });
  }
  out.push({ file: join(SAMPLES_DIR, 'notices', 'cn_24_minimal.xml'), release: '1.15.1' });
  return out;
}

describe('sandbox CVS over a folder of releases', { skip }, () => {
  let work: string;
  let sandbox: RunningSandbox;
  const log: string[] = [];
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'sandbox-releases-'));
    const sdk = sandboxSdkRules({ path: SDK_ROOT, cacheRoot: join(work, 'cache') }, undefined, (l) =>
      log.push(l),
    );
    assert.ok(sdk);
    assert.deepEqual(sdk.versions, ['1.15.1', '1.10.5', '1.9.5', '1.8.5', '1.7.5']);
    sandbox = await startSandbox({ port: 0, apiKeys: [KEY], dataDir: join(work, 'd'), sdkRules: sdk.rules });
  });
  after(async () => {
    await sandbox?.close();
    rmSync(work, { recursive: true, force: true });
  });

  async function post(file: string, extra: Record<string, string> = {}): Promise<string> {
    const res = await fetch(`${sandbox.origin}/cvs/v1/notices/validation`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body: JSON.stringify({
        notice: readFileSync(file).toString('base64'),
        validationMode: 'static',
        ...extra,
      }),
    });
    assert.equal(res.status, 200, file);
    return res.text();
  }

  /** The release that answered: the report's header, else the log line about this version. */
  function answeredWith(svrl: string, logFrom: number): string[] {
    const header = /<!-- eForms SDK (\d+\.\d+\.\d+) /.exec(svrl)?.[1];
    if (header) return [header];
    return log
      .slice(logFrom)
      .flatMap((l) => [...l.matchAll(/eForms SDK (\d+\.\d+\.\d+)/g)].map((m) => m[1] as string));
  }

  test('each notice is answered with the release of its own MAJOR.MINOR', async () => {
    const notices = noticesByRelease();
    assert.equal(notices.length, 5);
    for (const n of notices) {
      const from = log.length;
      const svrl = await post(n.file);
      const used = answeredWith(svrl, from);
      assert.ok(used.length > 0, `${n.file}: no release named (log: ${log.slice(from).join(' | ')})`);
      assert.deepEqual([...new Set(used)], [n.release], `${n.file}`);
    }
  });

  test('eFormsSdkVersion in the request picks that release instead', async () => {
    const sample = join(SAMPLES_DIR, 'notices', 'cn_24_minimal.xml');
    assert.match(readFileSync(sample, 'utf8'), /eforms-sdk-1\.15/);
    const from = log.length;
    const svrl = await post(sample, { eFormsSdkVersion: 'eforms-sdk-1.10' });
    assert.deepEqual([...new Set(answeredWith(svrl, from))], ['1.10.5']);
  });
});
