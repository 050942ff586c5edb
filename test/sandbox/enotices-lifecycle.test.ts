// The eNotices2 emulation over time and across accounts, through the client: the publication clock
// (SUBMITTED -> PUBLISHING -> PUBLISHED, driven by the sandbox's ctx.now), stopped notices staying
// STOPPED, search criteria, paging and sorting, account isolation, validation reports, and convert.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readNoticeIdentity } from '../../core/notice/identity';
import type { EnoticesError } from '../../core/services/enotices-client';
import {
  freshNotice,
  invalidNotice,
  LEGACY_F02,
  META,
  OTHER_KEY,
  startTestSandbox,
  type TestSandbox,
} from './enotices-kit';

const STEP_S = 7;
let s: TestSandbox;
before(async () => {
  process.env.EFORMS_SANDBOX_PUBLISH_STEP_SECONDS = String(STEP_S);
  s = await startTestSandbox();
});
after(async () => {
  delete process.env.EFORMS_SANDBOX_PUBLISH_STEP_SECONDS;
  await s.close();
});

async function statusOf(noticeId: string, key?: string): Promise<string> {
  const r = await s.client(key ? { apiKey: key } : {}).search({ id: noticeId });
  assert.equal(r.totalSize, 1);
  return r.content[0].status;
}

describe('publication clock', () => {
  test('SUBMITTED -> PUBLISHING -> PUBLISHED, one configured step each', async () => {
    const t0 = s.clock.t;
    const n = freshNotice();
    assert.equal((await s.client().submit(n.xml, META)).success, true);
    assert.equal(await statusOf(n.noticeId), 'SUBMITTED');
    s.clock.t = t0 + STEP_S * 1000 - 1;
    assert.equal(await statusOf(n.noticeId), 'SUBMITTED');
    s.clock.t = t0 + STEP_S * 1000;
    assert.equal(await statusOf(n.noticeId), 'PUBLISHING');
    // Publishing cannot be stopped.
    await assert.rejects(s.client().stopPublication(n.businessId), (e: EnoticesError) => e.status === 403);
    s.clock.t = t0 + 2 * STEP_S * 1000;
    const r = await s.client().search({ id: n.noticeId });
    assert.equal(r.content[0].status, 'PUBLISHED');
    assert.equal(r.content[0].publicationDate, new Date(t0 + 2 * STEP_S * 1000).toISOString().slice(0, 10));
    assert.match(r.content[0].publicationId ?? '', /^\d{8}-\d{4}$/);
  });

  test('a stopped notice stays STOPPED however far the clock moves', async () => {
    const n = freshNotice();
    await s.client().submit(n.xml, META);
    await s.client().stopPublication(n.businessId);
    s.clock.t += 100 * STEP_S * 1000;
    assert.equal(await statusOf(n.noticeId), 'STOPPED');
    await assert.rejects(s.client().stopPublication(n.businessId), (e: EnoticesError) => e.status === 403);
  });

  test('a notice whose validation failed is created, not submitted, and never published', async () => {
    const n = invalidNotice();
    const r = await s.client().submit(n.xml, META);
    assert.equal(r.success, false);
    assert.ok(r.validationReportUrl?.includes(n.businessId));
    // TED's lifecycle: validation failed is final.
    assert.equal(await statusOf(n.noticeId), 'VALIDATION_FAILED');
    s.clock.t += 10 * STEP_S * 1000;
    assert.equal(await statusOf(n.noticeId), 'VALIDATION_FAILED');
    await assert.rejects(s.client().stopPublication(n.businessId), (e: EnoticesError) => e.status === 403);
    const listed = await s.client().search({ statuses: ['VALIDATION_FAILED'] });
    assert.ok(
      listed.content.some((x) => x.id === n.noticeId),
      'the status filter finds it',
    );
    const svrl = await s.client().validationReport(n.businessId);
    assert.match(svrl, /failed-assert/);
    // The fixture documents its static failures; the report holds a failed ERROR assertion.
    assert.match(svrl, /role="ERROR"/);
  });
});

describe('search', () => {
  let ids: string[] = [];
  let t0 = 0;
  before(async () => {
    // OTHER_KEY's account holds only these five: the other tests submit with KEY.
    t0 = s.clock.t;
    ids = [];
    for (let i = 0; i < 5; i++) {
      s.clock.t = t0 + i * 1000;
      const n = freshNotice();
      ids.push(n.noticeId);
      await s.client({ apiKey: OTHER_KEY }).submit(n.xml, {
        noticeAuthorEmail: i % 2 ? 'odd@example.org' : 'even@example.org',
        noticeAuthorLocale: 'en',
      });
    }
    s.clock.t = t0 + 5000;
  });
  const c = () => s.client({ apiKey: OTHER_KEY });

  test('only the notices of the key account', async () => {
    const mine = await c().search({}, { size: 100 });
    const theirs = await s.client().search({}, { size: 100 });
    const mineIds = new Set(mine.content.map((n) => n.id));
    assert.ok(ids.every((id) => mineIds.has(id)));
    assert.ok(theirs.content.every((n) => !mineIds.has(n.id)));
  });

  test('paging: totalSize counts all, pages are disjoint and cover everything', async () => {
    const total = (await c().search({}, { size: 1 })).totalSize;
    const seen: string[] = [];
    for (let p = 0; p * 2 < total; p++) {
      const page = await c().search({}, { page: p, size: 2 });
      assert.equal(page.totalSize, total);
      assert.ok(page.content.length <= 2);
      seen.push(...page.content.map((n) => `${n.id}-${n.versionId}`));
    }
    assert.equal(seen.length, total);
    assert.equal(new Set(seen).size, total);
  });

  test('sorting by submittedAt in both directions', async () => {
    const asc = await c().search({}, { size: 100, sortProperty: 'submittedAt', sortDirection: 'ASC' });
    const desc = await c().search({}, { size: 100, sortProperty: 'submittedAt', sortDirection: 'DESC' });
    const times = (r: typeof asc) => r.content.map((n) => Date.parse(n.submittedAt ?? ''));
    const a = times(asc);
    assert.deepEqual(
      a,
      [...a].sort((x, y) => x - y),
    );
    const d = times(desc);
    assert.deepEqual(
      d,
      [...d].sort((x, y) => y - x),
    );
  });

  test('criteria: submittedAfter/Before, noticeAuthor, statuses, id', async () => {
    const window = await c().search(
      {
        submittedAfter: new Date(t0 + 1000).toISOString(),
        submittedBefore: new Date(t0 + 3000).toISOString(),
      },
      { size: 100 },
    );
    assert.deepEqual(new Set(window.content.map((n) => n.id)), new Set(ids.slice(1, 4)));
    const odd = await c().search({ noticeAuthor: 'odd@example.org' }, { size: 100 });
    assert.deepEqual(new Set(odd.content.map((n) => n.id)), new Set([ids[1], ids[3]]));
    await c().stopPublication(`${ids[0]}-01`);
    const stopped = await c().search({ statuses: ['STOPPED'] }, { size: 100 });
    assert.ok(stopped.content.some((n) => n.id === ids[0]));
    assert.ok(stopped.content.every((n) => n.status === 'STOPPED'));
    const one = await c().search({ id: ids[2], versionId: '01' });
    assert.equal(one.totalSize, 1);
    assert.equal(one.content[0].noticeAuthor, 'even@example.org');
  });

  test('an unknown status is refused with advice', async () => {
    await assert.rejects(c().search({ statuses: ['SENT'] }), (e: EnoticesError) => {
      return e.status === 400 && /NoticeStatus values/.test(e.message);
    });
  });
});

describe('convert', () => {
  test('a legacy F02 form becomes a well-formed eForms contract notice carrying its data', async () => {
    const xml = await s.client().convert(LEGACY_F02);
    const id = readNoticeIdentity(xml);
    assert.ok(id.ok, id.ok ? '' : id.problem);
    assert.equal(id.identity.rootName, 'ContractNotice');
    assert.equal(id.identity.noticeType, 'cn-standard');
    assert.deepEqual(id.identity.languages, ['FRA']);
    assert.ok(id.identity.businessId);
    // Values from the fixture, escaped once: & becomes &amp; and paragraphs are joined.
    assert.ok(xml.includes('Régie des Bâtiments &amp; Entretien de Wiltz'));
    assert.ok(xml.includes('Nettoyage des bâtiments communaux 2024–2027'));
    assert.ok(xml.includes('>90911200<'));
    assert.ok(xml.includes('>LUX<'));
    // The result is accepted by submit as a notice (well-formed, ids, procedure).
    const r = await s.client().submit(xml, META);
    assert.equal(typeof r.success, 'boolean');
  });

  test('a convert answer of one byte-array list chunked in several parts is joined in order', async () => {
    // The sandbox splits answers into 4 KB chunks: a large legacy notice proves the joining.
    const big = LEGACY_F02.replace(
      '<P>Nettoyage quotidien de',
      `<P>${'Très long texte. '.repeat(800)}</P><P>Nettoyage quotidien de`,
    );
    const xml = await s.client().convert(big);
    assert.ok(xml.length > 8192);
    assert.ok(xml.includes('Très long texte. Très long texte.'));
    assert.ok(xml.trimEnd().endsWith('</ContractNotice>'));
  });
});
