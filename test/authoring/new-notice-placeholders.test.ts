// Every code New Notice leaves empty can be filled from the editor: completion inside the empty
// element offers the code list's values with their labels, and the quick fix for a rule's diagnostic
// there offers "Choose 'x' (label)". The truth is the SDK's code list files (labels as the .gc files
// write them), read here independently of the code under test.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { codeActions } from '../../core/authoring/code-actions';
import { completeAt } from '../../core/authoring/completion';
import { newNotice } from '../../core/authoring/new-notice';
import { sdkKnowledge } from '../../core/authoring/sdk-knowledge';
import { indexXml } from '../../core/notice';
import { SDK_DIR, skipUnless } from '../support/shared-data';

/** Code -> English name of a .gc file, read with a regex (not the SDK reader under test). */
function gcLabels(file: string): Map<string, string> {
  const xml = readFileSync(join(SDK_DIR, 'codelists', file), 'utf8');
  const out = new Map<string, string>();
  for (const row of xml.split(/<Row>/).slice(1)) {
    const code = /ColumnRef="code">\s*<SimpleValue>([^<]*)</.exec(row)?.[1];
    const eng = /ColumnRef="eng_label">\s*<SimpleValue>([^<]*)</.exec(row)?.[1];
    if (code && eng) out.set(code, eng.replace(/&amp;/g, '&'));
  }
  return out;
}

describe('the empty codes of a new notice', { skip: skipUnless(SDK_DIR) }, () => {
  const sdk = sdkKnowledge(SDK_DIR, '1.15.1');
  const r = newNotice(sdk, {
    subtype: '16',
    today: '2026-11-24',
    uuid: () => '3f2b8c1e-5d4a-4b6f-9e21-7c0a1d2e3f40',
  });
  assert.ok(r.ok);
  const xml = r.xml;
  const index = indexXml(xml);
  const empty = '<cbc:ActivityTypeCode listName="authority-activity"></cbc:ActivityTypeCode>';
  const at = xml.indexOf(empty);
  const inside = at + empty.indexOf('></') + 1;

  test('completion in an empty code offers its list with labels', () => {
    assert.ok(at > 0, 'the activity is left empty');
    const labels = gcLabels('main-activity_authority-activity.gc');
    const items = completeAt(index, sdk, inside, 'en', { today: '2026-11-24', uuid: () => 'x' });
    const codes = new Map(items.map((i) => [i.label, i.detail]));
    assert.ok(labels.size > 5);
    for (const [code, label] of labels) {
      assert.ok(codes.has(code), `${code} offered`);
      assert.equal(codes.get(code), label, `${code}'s label`);
    }
  });

  test('the quick fix on a diagnostic there offers the values by name', () => {
    const line = xml.slice(0, at).split('\n').length - 1;
    const col = at - (xml.lastIndexOf('\n', at - 1) + 1);
    const range = { start: { line, character: col }, end: { line, character: col + empty.length } };
    const d = { range, code: 'BR-BT-00610-0052', message: 'not in the list' };
    const actions = codeActions({ index, sdk, language: 'en', today: '2026-11-24' }, [d], [d], range);
    const labels = gcLabels('main-activity_authority-activity.gc');
    const choose = actions.filter((a) => a.title.startsWith('Choose '));
    assert.ok(choose.length > 0, actions.map((a) => a.title).join('\n'));
    for (const a of choose) {
      const m = /^Choose '([^']+)' \((.+)\)$/.exec(a.title);
      assert.ok(m, a.title);
      assert.equal(labels.get(m[1] as string), m[2]);
      assert.equal(a.edits[0]?.newText, m[1]);
    }
  });
});
