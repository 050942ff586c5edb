// "Fix all" and a request over many findings, in core: one sample notice without its optional publication
// date (cn_24_minimal), and many diagnostics that each name that element as missing on the root, as
// findings of the SDK rules do. The truth is the request itself (how many diagnostics, which of them are
// copies) and the notice's text after the edits, read with a regular expression.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { codeActions, fixAllAction } from '../../core/authoring/code-actions';
import { sdkKnowledge } from '../../core/authoring/sdk-knowledge';
import { indexXml } from '../../core/notice';
import { applyEdits } from '../support/lsp-edits';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDK_DIR) ?? skipUnless(SAMPLES_DIR);

describe('"fix all" and a request over many findings', { skip }, () => {
  const text = skip ? '' : readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_minimal.xml'), 'utf8');
  const root = text.indexOf('<ContractNotice');
  const line = text.slice(0, root).split('\n').length - 1;
  const range = { start: { line, character: 0 }, end: { line, character: 15 } };
  /** Diagnostic k: the publication date missing on the root (each with its own code and message). */
  const missing = (k: number) => ({
    range,
    code: `BR-TEST-${k}`,
    message: `missing ${k}`,
    data: { missing: 'cbc:RequestedPublicationDate', field: 'BT-738-notice' },
  });
  const context = () => ({
    index: indexXml(text),
    sdk: sdkKnowledge(SDK_DIR, '1.15.1'),
    language: 'en',
    today: '2026-11-25',
  });

  test('a selection over 150 findings: the fixes of the first 100, and "fix all" of the 150', () => {
    assert.ok(root > 0 && !text.includes('RequestedPublicationDate'));
    const ds = Array.from({ length: 150 }, (_, k) => missing(k));
    const actions = codeActions(context(), ds, ds, range, { deferFixAll: true });
    const inserts = actions.filter((a) => a.title.startsWith('Insert'));
    assert.equal(inserts.length, 100);
    assert.deepEqual(
      inserts.map((a) => (a.diagnostics[0] as { code: string }).code),
      ds.slice(0, 100).map((d) => d.code),
    );
    const all = actions.filter((a) => a.title.startsWith('Fix all'));
    assert.deepEqual(
      all.map((a) => a.title),
      ['Fix all in this file: insert the missing mandatory elements (150)'],
    );
    assert.equal(all[0]?.fixAll, 'insert-missing');
    assert.deepEqual(all[0]?.edits, []);
  });

  test('copies of one diagnostic count once, in the title and in the edit', () => {
    const a = missing(1);
    const copy = { ...a, range: { start: { ...a.range.start }, end: { ...a.range.end } } };
    // Only the diagnostic and its copy: nothing else to fix, so no "fix all".
    const alone = codeActions(context(), [a], [copy], range);
    assert.deepEqual(
      alone.filter((x) => x.title.startsWith('Fix all')).map((x) => x.title),
      [],
    );
    // With a second diagnostic: two, however many copies the published list holds.
    const b = missing(2);
    const both = codeActions(context(), [a], [copy, b, { ...b }], range);
    const fix = both.find((x) => x.title.startsWith('Fix all'));
    assert.equal(fix?.title, 'Fix all in this file: insert the missing mandatory elements (2)');
    assert.equal(fix?.diagnostics.length, 2);
    // The same element for both: inserted once.
    const fixed = applyEdits(text, fix?.edits ?? []);
    assert.equal(fixed.match(/<cbc:RequestedPublicationDate>/g)?.length, 1);
    // fixAllAction, as codeAction/resolve calls it, gives the same edit.
    assert.deepEqual(fixAllAction(context(), 'insert-missing', [copy, a, b])?.edits, fix?.edits);
  });

  test('an information or a hint that names a missing element keeps its own fix but joins no "fix all"', () => {
    const error = missing(1);
    const info = { ...missing(2), severity: 3 };
    const hint = { ...missing(3), severity: 4 };
    const published = [error, info, hint, { ...missing(4), severity: 2 }];
    const forInfo = codeActions(context(), [info], published, range);
    assert.ok(forInfo.some((a) => a.title.startsWith('Insert cbc:RequestedPublicationDate')));
    // "Fix all" counts the error and the warning only, and is offered with them, not with it.
    assert.deepEqual(
      forInfo.filter((a) => a.title.startsWith('Fix all')).map((a) => a.title),
      [],
    );
    const forError = codeActions(context(), [error], published, range);
    const fix = forError.find((a) => a.title.startsWith('Fix all'));
    assert.equal(fix?.title, 'Fix all in this file: insert the missing mandatory elements (2)');
    assert.deepEqual(
      fix?.diagnostics.map((d) => (d as { code: string }).code),
      ['BR-TEST-1', 'BR-TEST-4'],
    );
  });
});
