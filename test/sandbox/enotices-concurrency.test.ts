// Concurrency and durability of the eNotices2 emulation, through the client: 50 parallel stops of one
// notice (exactly one succeeds), 50 parallel submits of distinct notices (all stored, all found), 50
// parallel submits of the same notice (exactly one stored), then a restart on the same data folder
// loses nothing that was acknowledged.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EnoticesError } from '../../core/services/enotices-client';
import { freshNotice, invalidNotice, META, OTHER_KEY, startTestSandbox } from './enotices-kit';

const N = 50;

test('parallel stops, parallel submits, restart: exactly-once and nothing lost', async () => {
  let s = await startTestSandbox();
  const c = s.client({ apiKey: OTHER_KEY });
  try {
    // 50 parallel submits of distinct notices: every one is 201 and found afterwards.
    const notices = Array.from({ length: N }, () => freshNotice());
    const results = await Promise.all(notices.map((n) => c.submit(n.xml, META)));
    assert.ok(results.every((r) => r.success === true));
    assert.deepEqual(
      results.map((r) => r.businessId),
      notices.map((n) => n.businessId),
    );
    const all = await c.search({}, { size: 200 });
    assert.equal(all.totalSize, N);
    assert.deepEqual(
      new Set(all.content.map((n) => `${n.id}-${n.versionId}`)),
      new Set(notices.map((n) => n.businessId)),
    );
    assert.ok(all.content.every((n) => n.status === 'SUBMITTED'));

    // 50 parallel stops of one notice: exactly one 200, the others 423 (locked) or 403 (no longer SUBMITTED).
    const target = notices[0].businessId;
    const stops = await Promise.allSettled(Array.from({ length: N }, () => c.stopPublication(target)));
    const ok = stops.filter((r) => r.status === 'fulfilled');
    assert.equal(ok.length, 1);
    for (const r of stops) {
      if (r.status === 'rejected') {
        assert.ok(r.reason instanceof EnoticesError);
        assert.ok(r.reason.status === 423 || r.reason.status === 403, `unexpected ${r.reason.status}`);
      }
    }
    const stopped = await c.search({ id: notices[0].noticeId });
    assert.equal(stopped.content[0].status, 'STOPPED');

    // 50 parallel submits of the same notice: exactly one is stored; the others are refused.
    const same = freshNotice();
    const dup = await Promise.allSettled(Array.from({ length: N }, () => c.submit(same.xml, META)));
    assert.equal(dup.filter((r) => r.status === 'fulfilled').length, 1);
    for (const r of dup)
      if (r.status === 'rejected') assert.ok([400, 409].includes((r.reason as EnoticesError).status ?? 0));

    // A notice stored as not submitted (validation failed) is kept too.
    const draft = invalidNotice();
    assert.equal((await c.submit(draft.xml, META)).success, false);
    const before = await c.search({}, { size: 200 });
    const reportBefore = await c.validationReport(draft.businessId);

    // Restart on the same data folder: every acknowledged notice is there, in the same state.
    await s.close();
    s = await startTestSandbox(s.dataDir, s.clock.t);
    const c2 = s.client({ apiKey: OTHER_KEY });
    const afterRestart = await c2.search({}, { size: 200 });
    assert.equal(afterRestart.totalSize, N + 2);
    const key = (n: { id: string; versionId: string; status: string }) =>
      `${n.id}-${n.versionId}:${n.status}`;
    assert.deepEqual(new Set(afterRestart.content.map(key)), new Set(before.content.map(key)));
    assert.equal(await c2.validationReport(draft.businessId), reportBefore);
    // Stopping the already-stopped notice after the restart is still refused: the state persisted.
    await assert.rejects(c2.stopPublication(target), (e: EnoticesError) => e.status === 403);
  } finally {
    await s.close();
  }
});
