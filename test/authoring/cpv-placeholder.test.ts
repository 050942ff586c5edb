// The CPV placeholder of a new notice can be filled from the editor in every SDK release at hand: none
// of them ships codelists/cpv.gc, so the codes come from the translations (`code|name|cpv.55524000`),
// and a long list is narrowed by what is typed (code prefix or words of the label). Without any list
// (an SDK folder with fields.json only), the quick fix says what to write and where the codes are.
// The truth is the SDK's translation files, read here with a regex, not with the reader under test.

import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CPV_URL, codeActions } from '../../core/authoring/code-actions';
import { completeAt } from '../../core/authoring/completion';
import { newNotice } from '../../core/authoring/new-notice';
import { SdkKnowledge } from '../../core/authoring/sdk-knowledge';
import { indexXml } from '../../core/notice';
import { SHARED_DIR, skipUnless } from '../support/shared-data';

const SDKS = join(SHARED_DIR, 'eforms-sdk');
const RELEASES = ['1.7.5', '1.8.5', '1.9.5', '1.10.5', '1.15.1'];
const EMPTY_CPV = '<cbc:ItemClassificationCode listName="cpv"></cbc:ItemClassificationCode>';

/** Code -> English label of the CPV codes a release's translations name. */
function cpvLabels(dir: string): Map<string, string> {
  const xml = readFileSync(join(dir, 'translations', 'code_en.xml'), 'utf8');
  const out = new Map<string, string>();
  for (const m of xml.matchAll(/<entry key="code\|name\|cpv\.(\d{8})">([^<]*)<\/entry>/g))
    out.set(m[1] as string, (m[2] as string).replace(/&amp;/g, '&'));
  return out;
}

/** The notice with `text` in its first CPV placeholder, and the offset just after that text. */
function withCpvText(xml: string, text: string): { xml: string; offset: number } {
  const at = xml.indexOf(EMPTY_CPV);
  assert.ok(at > 0, 'the notice has an empty CPV code');
  const inside = at + EMPTY_CPV.indexOf('></') + 1;
  return { xml: xml.slice(0, inside) + text + xml.slice(inside), offset: inside + text.length };
}

describe('the CPV placeholder', { skip: skipUnless(SDKS) }, () => {
  for (const v of RELEASES) {
    const dir = join(SDKS, v);
    test(`SDK ${v}: completion offers the CPV codes with their labels, narrowed by what is typed`, {
      skip: existsSync(join(dir, 'fields', 'fields.json')) ? undefined : `no SDK ${v} in ../shared`,
    }, () => {
      assert.equal(existsSync(join(dir, 'codelists', 'cpv.gc')), false, 'the release has no cpv.gc');
      const truth = cpvLabels(dir);
      assert.ok(truth.size > 9000, `${truth.size} CPV codes in the translations`);
      // A fresh knowledge per release folder, so that nothing read before answers.
      const sdk = new SdkKnowledge(dir, v);
      const r = newNotice(sdk, { subtype: '16', today: '2026-11-24', uuid: () => 'x' });
      assert.ok(r.ok);
      const ctx = { today: '2026-11-24', uuid: () => 'x' };
      const empty = withCpvText(r.xml, '');
      const all = completeAt(indexXml(empty.xml), sdk, empty.offset, 'en', ctx);
      assert.ok(all.length > 100, `${all.length} offered`);
      for (const i of all) assert.equal(i.detail, truth.get(i.label), i.label);
      // The codes past the first ones offered are reached by typing.
      for (const typed of ['5552', 'school catering']) {
        const t = withCpvText(r.xml, typed);
        const items = completeAt(indexXml(t.xml), sdk, t.offset, 'en', ctx);
        const school = items.find((i) => i.label === '55524000');
        assert.equal(school?.detail, truth.get('55524000'), `'${typed}' offers 55524000`);
        assert.equal(school?.detail, 'School catering services');
        for (const i of items)
          assert.ok(
            i.label.startsWith(typed) || (truth.get(i.label) ?? '').toLowerCase().includes(typed),
            `${i.label} matches '${typed}'`,
          );
      }
    });
  }

  test('without any list, the quick fix says how to write a CPV code and where to find one', (t) => {
    const from = join(SDKS, '1.15.1');
    if (!existsSync(join(from, 'fields', 'fields.json'))) return t.skip('no SDK 1.15.1 in ../shared');
    // A release folder with fields.json and notice types only: no codelists/, no translations/.
    const dir = mkdtempSync(join(tmpdir(), 'eforms-sdk-bare-'));
    try {
      for (const f of [join('fields', 'fields.json'), join('notice-types', 'notice-types.json')]) {
        mkdirSync(join(dir, f, '..'), { recursive: true });
        copyFileSync(join(from, f), join(dir, f));
      }
      const sdk = new SdkKnowledge(dir, '1.15.1');
      const r = newNotice(sdk, { subtype: '16', today: '2026-11-24', uuid: () => 'x' });
      assert.ok(r.ok);
      const index = indexXml(r.xml);
      const at = r.xml.indexOf(EMPTY_CPV);
      const line = r.xml.slice(0, at).split('\n').length - 1;
      const col = at - (r.xml.lastIndexOf('\n', at - 1) + 1);
      const range = { start: { line, character: col }, end: { line, character: col + EMPTY_CPV.length } };
      // No completion to offer: there is no list.
      const inside = at + EMPTY_CPV.indexOf('></') + 1;
      assert.deepEqual(completeAt(index, sdk, inside, 'en', { today: '2026-11-24', uuid: () => 'x' }), []);
      const d = { range, code: 'BR-BT-00262-0208', message: 'The main classification is missing' };
      const actions = codeActions({ index, sdk, language: 'en', today: '2026-11-24' }, [d], [d], range);
      const how = actions.find((a) => a.title.startsWith('How to write a code of'));
      assert.ok(how, actions.map((a) => a.title).join('\n'));
      const edit = how.edits[0];
      assert.ok(edit);
      assert.match(edit.newText, /8 digits/);
      assert.ok(edit.newText.includes(CPV_URL));
      // Applied, the notice stays well-formed: the hint is a comment before the element.
      const offset = index.offsetAt(edit.range.start.line, edit.range.start.character);
      const fixed = r.xml.slice(0, offset) + edit.newText + r.xml.slice(offset);
      assert.deepEqual(indexXml(fixed).errors, []);
      assert.ok(fixed.includes(`-->\n      ${EMPTY_CPV}`) || fixed.includes(`-->\n    ${EMPTY_CPV}`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
