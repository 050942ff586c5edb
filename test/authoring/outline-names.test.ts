// The outline names each thing once: VS Code shows a symbol's name and then its detail, so a detail
// that the name already says reads twice ("Organisations Organisations"). Checked on every symbol of
// the project's notices and of the SDK's example notices in ../shared. The outline walks the index's
// columns: its lots, results, tenders and contracts are counted against the elements of the index,
// and elements named after an object's own members (`constructor`) are elements like any other.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { sdkKnowledge } from '../../core/authoring/sdk-knowledge';
import { documentSymbols, type NoticeSymbol } from '../../core/authoring/structure';
import { indexXml } from '../../core/notice/xml-index';
import { awardNotice } from '../bench/rules-scaling-bench';
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

/** Elements with this canonical name below the root, counted over the index's element objects. */
function countElements(text: string, ns: string, local: string): number {
  return indexXml(text).elements.filter((e) => e.ns === ns && e.local === local).length;
}

const EFAC = 'http://data.europa.eu/p27/eforms-ubl-extension-aggregate-components/1';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';

test('the outline has one symbol for each lot, result, tender and contract of the notice, generated notices too', {
  skip: skipUnless(SAMPLES_DIR) ?? skipUnless(SDK_DIR),
}, () => {
  const sdk = sdkKnowledge(SDK_DIR, '1.15.1');
  const notices = readdirSync(join(SAMPLES_DIR, 'notices'))
    .filter((f) => f.endsWith('.xml'))
    .map((f) => readFileSync(join(SAMPLES_DIR, 'notices', f), 'utf8'));
  const template = readFileSync(join(SAMPLES_DIR, 'notices', 'can_24_minimal.xml'), 'utf8');
  notices.push(awardNotice(template, 40));
  let lots = 0;
  for (const text of notices) {
    const kinds = [...all(documentSymbols(indexXml(text), sdk))].map((s) => s.kind);
    const count = (k: string) => kinds.filter((x) => x === k).length;
    assert.equal(count('lot'), countElements(text, CAC, 'ProcurementProjectLot'));
    assert.equal(count('result'), countElements(text, EFAC, 'LotResult'));
    assert.equal(count('tender'), countElements(text, EFAC, 'LotTender'));
    assert.equal(count('contract'), countElements(text, EFAC, 'SettledContract'));
    lots += count('lot');
  }
  assert.ok(lots >= 60, `only ${lots} lots`);
});

test("elements named after an object's members, in no namespace or in one of that name, are no symbols and break nothing", () => {
  const text = `<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2" xmlns:cac="${CAC}" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <constructor xmlns="constructor"><toString/></constructor>
  <__proto__ xmlns=""/>
  <hasOwnProperty xmlns=""><valueOf/></hasOwnProperty>
  <cac:ProcurementProjectLot><cbc:ID schemeName="Lot">LOT-0001</cbc:ID></cac:ProcurementProjectLot>
</ContractNotice>`;
  const [top] = documentSymbols(indexXml(text), undefined);
  assert.deepEqual(
    top?.children.map((s) => [s.kind, s.name]),
    [['lot', 'LOT-0001']],
  );
});
