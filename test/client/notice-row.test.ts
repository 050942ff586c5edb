// My Notices rows: the title (BT-21) and the buyer come from the notice's XML (eNotices2's search
// returns neither: see the Notice model of the publication API), and the date is the full one. The
// expected title and buyer are the ones written in the fixture (read by eye, not by this code); the
// buyer is the organisation cac:ContractingParty names, not the review body listed beside it.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fullDate, noticeRow, summarizeNotice } from '../../client/publication/notice-row';
import type { Notice } from '../../core/services';
import { PROJECT_ROOT } from '../support/shared-data';

const VALID = readFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'notices', 'valid-cn.xml'), 'utf8');

const NOTICE: Notice = {
  id: '3f2b8c1e-5d4a-4b6f-9e21-7c0a1d2e3f40',
  versionId: '01',
  status: 'SUBMITTED',
  submittedAt: '2026-11-24T14:03:27.512Z',
  noticeType: 'cn-standard',
  languages: ['ENG'],
};

test('title and buyer are read from the notice, the buyer being the contracting party', () => {
  const s = summarizeNotice(VALID);
  assert.deepEqual(s, {
    noticeId: '3f2b8c1e-5d4a-4b6f-9e21-7c0a1d2e3f40',
    title: 'Maintenance of municipal parks',
    buyer: 'City of Springfield & District',
  });
  assert.equal(summarizeNotice('<not-a-notice/>'), undefined);
  assert.equal(summarizeNotice('<ContractNotice'), undefined);
});

test('a row shows title, buyer, version and the full submission date', () => {
  const r = noticeRow(NOTICE, summarizeNotice(VALID));
  assert.equal(r.label, 'Maintenance of municipal parks');
  assert.equal(r.description, 'City of Springfield & District · v01 · submitted 2026-11-24 14:03 UTC');
});

test('without the XML, a row still says what it is and when; a publication date wins', () => {
  const r = noticeRow({ ...NOTICE, publicationDate: '2026-11-27' });
  assert.equal(r.label, 'cn-standard 3f2b8c1e…');
  assert.equal(r.description, 'v01 · published 2026-11-27');
  assert.equal(fullDate('2026-11-27Z'), '2026-11-27');
  assert.equal(fullDate('2026-11-24T23:59:00+02:00'), '2026-11-24 21:59 UTC');
  assert.equal(fullDate('soon'), 'soon');
  assert.equal(fullDate(undefined), undefined);
});
