// The outline names each thing once: VS Code shows a symbol's name and then its detail, so a detail
// that the name already says reads twice ("Organisations Organisations"). Checked on every symbol of
// the project's notices and of the SDK's example notices in ../shared.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { sdkKnowledge } from '../../core/authoring/sdk-knowledge';
import { documentSymbols, type NoticeSymbol } from '../../core/authoring/structure';
import { indexXml } from '../../core/notice/xml-index';
import { PROJECT_ROOT, SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

function* all(symbols: NoticeSymbol[]): Generator<NoticeSymbol> {
  for (const s of symbols) {
    yield s;
    yield* all(s.children);
  }
}

/** What the outline shows for a symbol: its name, then its detail. */
const shown = (s: NoticeSymbol) => `${s.name}${s.detail ? ` ${s.detail}` : ''}`;

function check(file: string, text: string, sdk: Parameters<typeof documentSymbols>[1]): number {
  let n = 0;
  for (const s of all(documentSymbols(indexXml(text), sdk))) {
    n++;
    // A name that is the label, or the label and a caption, leaves nothing for the detail to add.
    if (s.detail)
      assert.ok(
        s.name !== s.detail && !s.name.startsWith(`${s.detail}:`),
        `${file}: "${shown(s)}" says ${s.detail} twice`,
      );
    const words = shown(s).split(' ');
    const half = words.length / 2;
    assert.ok(
      !(Number.isInteger(half) && words.slice(0, half).join(' ') === words.slice(half).join(' ')),
      `${file}: "${shown(s)}" repeats itself`,
    );
  }
  return n;
}

test('the outline of the project notices names each thing once', () => {
  const dir = join(PROJECT_ROOT, 'test', 'fixtures', 'notices');
  let n = 0;
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.xml')))
    n += check(f, readFileSync(join(dir, f), 'utf8'), undefined);
  assert.ok(n > 10, `only ${n} symbols`);
  // The group that read "Organisations Organisations" is one word now.
  const v = documentSymbols(indexXml(readFileSync(join(dir, 'valid-cn.xml'), 'utf8')), undefined);
  const orgs = [...all(v)].find((s) => s.name === 'Organisations');
  assert.ok(orgs, 'the organisations group is in the outline');
  assert.equal(shown(orgs), 'Organisations');
});

test('the outline of every SDK example notice names each thing once', {
  skip: skipUnless(SAMPLES_DIR) ?? skipUnless(SDK_DIR),
}, () => {
  const sdk = sdkKnowledge(SDK_DIR, '1.15.1');
  const dir = join(SAMPLES_DIR, 'notices');
  let n = 0;
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.xml')))
    n += check(f, readFileSync(join(dir, f), 'utf8'), sdk);
  assert.ok(n > 100, `only ${n} symbols`);
});
