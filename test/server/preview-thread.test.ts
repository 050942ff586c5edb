// The preview's render thread (server/preview/preview-thread.ts): with its worker script a job runs on
// a worker and gives the same render as on the calling thread; without it (a missing script) the job
// still runs, on the calling thread, and says so once in the log; a job on a missing SDK folder fails
// with a message rather than a crash. Skips when ../shared has no SDK 1.15.1.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runPreviewJob } from '../../server/preview/preview-job';
import { PreviewThread } from '../../server/preview/preview-thread';
import { PROJECT_ROOT, SDK_DIR, skipUnless } from '../support/shared-data';

const text = readFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'notices', 'valid-cn.xml'), 'utf8');
const WORKER = join(PROJECT_ROOT, 'out', 'server', 'preview', 'preview-worker.js');

test('a job on the worker renders as on the calling thread', { skip: skipUnless(SDK_DIR) }, async () => {
  const logs: string[] = [];
  const thread = new PreviewThread((m) => logs.push(m), WORKER);
  try {
    assert.equal(thread.threaded, true);
    const job = { sdkDir: SDK_DIR, text, requested: 'de' };
    const [there, here] = await Promise.all([thread.run(job), runPreviewJob(job)]);
    assert.ok(there.ok && here.ok, JSON.stringify([there, here]).slice(0, 300));
    assert.deepEqual(there.rendered, here.rendered);
    assert.equal(there.rendered.language, 'de');
    assert.deepEqual(logs, []);
  } finally {
    await thread.close();
  }
});

test('without its script, jobs run on the calling thread', { skip: skipUnless(SDK_DIR) }, async () => {
  const logs: string[] = [];
  const thread = new PreviewThread((m) => logs.push(m), join(PROJECT_ROOT, 'no-such-worker.js'));
  const r = await thread.run({ sdkDir: SDK_DIR, text });
  assert.ok(r.ok);
  assert.equal(thread.threaded, false);
  assert.equal(logs.length, 1);
  assert.match(logs[0] ?? '', /missing/);
});

test('a job on a folder that is no SDK fails with a message', async () => {
  const thread = new PreviewThread(() => {}, WORKER);
  try {
    const r = await thread.run({ sdkDir: join(PROJECT_ROOT, 'no-such-sdk'), text: '<not-xml' });
    // The placeholder renderer tolerates an empty folder; the real one reports it: either is an answer.
    assert.ok(r.ok || (typeof r.message === 'string' && r.message.length > 0));
  } finally {
    await thread.close();
  }
});
