// The publication feature's editor-free logic: which documents reach the server (notices only, and
// one that became a notice while typed), when My Notices refreshes by itself (sooner while SUBMITTED),
// when its empty view mentions a filter, the author prompt's silence before typing, the locale names,
// and which report findings are placed on a notice (none that live validation shows already).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NoticeSync } from '../../client/notice-sync';
import { emailValidation, localeChoices } from '../../client/publication/author';
import { autoRefreshDelay, isFiltered } from '../../client/publication/refresh-policy';
import { notShownLive } from '../../client/publication/report-overlap';
import { REPORT_LANGUAGES } from '../../core/settings/settings';

interface Doc {
  uri: string;
  notice: boolean;
}

test('only notices reach the server; a document that became one is opened first; known ones stay synced', () => {
  const sync = new NoticeSync<Doc>(
    (d) => d.uri,
    (d) => d.notice,
  );
  const other = { uri: 'file:///big.xml', notice: false };
  const notice = { uri: 'file:///cn.xml', notice: true };
  assert.equal(sync.open(other), false, 'didOpen of other XML is not sent');
  assert.equal(sync.change(other), 'drop', 'didChange of other XML is not sent');
  assert.equal(sync.close(other), false, 'didClose of other XML is not sent');
  assert.equal(sync.open(notice), true);
  assert.equal(sync.change(notice), 'send');
  // An edit that breaks the root still reaches the server, which must clear or update its diagnostics.
  notice.notice = false;
  assert.equal(sync.change(notice), 'send');
  assert.equal(sync.close(notice), true);
  const typed = { uri: 'untitled:Untitled-1', notice: false };
  assert.equal(sync.open(typed), false);
  typed.notice = true;
  assert.equal(sync.change(typed), 'open', 'a new file that became a notice is opened on the server');
  assert.equal(sync.change(typed), 'send');
});

test('My Notices refreshes sooner while a notice is SUBMITTED, at the setting while PUBLISHING', () => {
  assert.equal(autoRefreshDelay(['PUBLISHED', 'SUBMITTED'], 30), 5);
  assert.equal(autoRefreshDelay(['SUBMITTED'], 2), 2, 'never later than the setting');
  assert.equal(autoRefreshDelay(['PUBLISHING', 'DRAFT'], 30), 30);
  assert.equal(autoRefreshDelay(['PUBLISHED', 'VALIDATION_FAILED'], 30), undefined, 'nothing moves');
  assert.equal(autoRefreshDelay(['SUBMITTED'], 0), undefined, '0 turns it off');
});

test('the empty view mentions a filter only when one is set', () => {
  assert.equal(isFiltered({ statuses: [] }), false);
  assert.equal(isFiltered({ statuses: ['VALIDATION_FAILED'] }), true);
  assert.equal(isFiltered({ statuses: [], author: 'a@b.eu' }), true);
  assert.equal(isFiltered({ statuses: [], submittedAfter: '2025-01-01T00:00:00.000Z' }), true);
});

test('the author prompt says nothing before anything is typed', () => {
  assert.equal(emailValidation('', false), undefined);
  assert.match(emailValidation('', true) ?? '', /required/);
  assert.match(emailValidation('not-an-email', true) ?? '', /valid e-mail/);
  assert.equal(emailValidation('buyer@example.org', true), undefined);
});

test('the locale picker lists language names, English first, every code kept', () => {
  const items = localeChoices(REPORT_LANGUAGES);
  assert.equal(items.length, new Set(REPORT_LANGUAGES).size);
  assert.equal(items[0]?.code, 'en');
  assert.equal(items[0]?.label, 'English');
  const byCode = new Map(items.map((i) => [i.code, i]));
  assert.equal(byCode.get('fr')?.label, 'French');
  assert.equal(byCode.get('ga')?.label, 'Irish');
  assert.match(byCode.get('de')?.description ?? '', /Deutsch · de/);
  for (const i of items) assert.notEqual(i.label, i.code, `${i.code} is listed as a bare code`);
  const rest = items.slice(1).map((i) => i.label);
  assert.deepEqual(
    rest,
    [...rest].sort((a, b) => a.localeCompare(b, 'en')),
  );
});

test('report findings already shown by live validation at the same place are not placed again', () => {
  const place = (f: { id: string; line: number; ch: number }) => ({
    code: f.id,
    line: f.line,
    character: f.ch,
  });
  const report = [
    { id: 'BR-1', line: 3, ch: 4 },
    { id: 'BR-1', line: 9, ch: 4 },
    { id: 'BR-2', line: 3, ch: 4 },
  ];
  const live = [{ code: 'BR-1', line: 3, character: 4 }];
  assert.deepEqual(
    notShownLive(report, place, live).map((f) => `${f.id}@${f.line}`),
    ['BR-1@9', 'BR-2@3'],
  );
  assert.equal(notShownLive(report, place, []).length, 3);
});
