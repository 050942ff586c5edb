// The SDK model's parts on their own: XPath steps and predicates of fields.json read against notices we
// write here, the identification of elements against the official fields.json (checked on every field
// of a sample: each element the SDK names by an unambiguous path is found as that field), Genericode
// parsing, the nearest-code search, and bad input (a missing or broken SDK folder) answered without
// exceptions.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { nearestCodes } from '../../core/authoring/code-actions';
import { hoverAt } from '../../core/authoring/hover';
import { noticeFacts } from '../../core/authoring/notice-facts';
import { parseGenericode, SdkKnowledge, sdkKnowledge } from '../../core/authoring/sdk-knowledge';
import { evaluatePredicate, parsePredicate, parseSdkPath, pathKey } from '../../core/authoring/sdk-paths';
import { renameIdentifier } from '../../core/authoring/structure';
import { indexXml } from '../../core/notice/xml-index';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const NS =
  'xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2" xmlns:c="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2" xmlns:a="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"';

describe('SDK paths and predicates', () => {
  test('steps keep their predicates; the key drops them', () => {
    const steps = parseSdkPath(
      "/*/cac:ProcurementProjectLot[cbc:ID/@schemeName='Lot']/cac:ProcurementProject/cbc:Name",
    );
    assert.equal(pathKey(steps), 'cac:ProcurementProjectLot/cac:ProcurementProject/cbc:Name');
    assert.equal(steps[0]?.predicates.length, 1);
    assert.equal(pathKey(parseSdkPath('/*/cbc:ProcedureCode/@listName')), 'cbc:ProcedureCode/@listName');
  });

  test('predicates are evaluated against the notice, whatever its prefixes', () => {
    // Other prefixes (c:, a:) than the SDK's (cbc:, cac:): the namespace decides.
    const text = `<ContractNotice ${NS}><a:ProcurementProjectLot><c:ID schemeName="Part">PAR-0001</c:ID></a:ProcurementProjectLot></ContractNotice>`;
    const index = indexXml(text);
    const lot = index.elements[1];
    assert.ok(lot);
    assert.equal(evaluatePredicate(index, lot, parsePredicate("cbc:ID/@schemeName='Lot'")), false);
    assert.equal(evaluatePredicate(index, lot, parsePredicate("cbc:ID/@schemeName='Part'")), true);
    assert.equal(evaluatePredicate(index, lot, parsePredicate("not(cbc:ID/@schemeName='Part')")), false);
    assert.equal(evaluatePredicate(index, lot, parsePredicate("cbc:ID/text()='PAR-0001' and cbc:ID")), true);
    assert.equal(
      evaluatePredicate(index, lot, parsePredicate("cbc:X = 'a' or cbc:ID/@schemeName = 'Part'")),
      true,
    );
    assert.equal(evaluatePredicate(index, lot, parsePredicate('count(cbc:ID) > 1')), undefined);
  });

  test('nearest codes: a one-letter typo finds its code first', () => {
    const codes = ['cn-standard', 'cn-social', 'can-standard', 'pin-only', 'veat'];
    assert.equal(nearestCodes('cn-standrd', codes, 3)[0], 'cn-standard');
    assert.equal(nearestCodes('CN-SOCIAL', codes, 3)[0], 'cn-social');
    fc.assert(
      fc.property(fc.constantFrom(...codes), fc.nat({ max: 10 }), (code, at) => {
        const i = at % code.length;
        const typo = code.slice(0, i) + code.slice(i + 1);
        // One deleted character is at distance 1; no other code is closer than the original.
        const first = nearestCodes(typo, codes, 1)[0];
        return first === code || Math.abs((first ?? '').length - typo.length) <= 1;
      }),
    );
  });

  test('Genericode rows: codes in order, labels by language', () => {
    const gc = `<gc:CodeList xmlns:gc="x"><SimpleCodeList>
      <Row><Value ColumnRef="code"><SimpleValue>a</SimpleValue></Value><Value ColumnRef="Name"><SimpleValue>Alpha &amp; co</SimpleValue></Value><Value ColumnRef="fra_label"><SimpleValue>Alpha FR</SimpleValue></Value></Row>
      <Row><Value ColumnRef="code"><SimpleValue>b</SimpleValue></Value></Row>
    </SimpleCodeList></gc:CodeList>`;
    const l = parseGenericode('x', gc);
    assert.deepEqual(l.codes, ['a', 'b']);
    assert.equal(l.labels.get('a')?.Name, 'Alpha & co');
    assert.equal(l.labels.get('a')?.fra, 'Alpha FR');
  });

  test('a missing or broken SDK folder gives an empty model and a problem, never an exception', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eforms-bad-sdk-'));
    try {
      const missing = new SdkKnowledge(join(dir, 'nothing'), '1.0.0');
      assert.ok(missing.problem);
      assert.equal(missing.fields.size, 0);
      mkdirSync(join(dir, 'fields'));
      writeFileSync(
        join(dir, 'fields', 'fields.json'),
        '{ "fields": [ { "id": 1 }, null, { "id": "X", "xpathAbsolute": 5 } ',
      );
      const broken = new SdkKnowledge(dir, '1.0.0');
      assert.ok(broken.problem);
      assert.equal(broken.codeList('country'), undefined);
      assert.equal(broken.fieldLabel('BT-1', 'en'), 'BT-1');
      const index = indexXml(`<ContractNotice ${NS}><c:ID>ORG-0001</c:ID></ContractNotice>`);
      assert.doesNotThrow(() => hoverAt(index, broken, 30, 'en'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('rename without an SDK: refuses a taken identifier and a wrong scheme', () => {
    const text = `<ContractNotice ${NS}><a:ProcurementProjectLot><c:ID schemeName="Lot">LOT-0001</c:ID></a:ProcurementProjectLot><a:ProcurementProjectLot><c:ID schemeName="Lot">LOT-0002</c:ID></a:ProcurementProjectLot></ContractNotice>`;
    const index = indexXml(text);
    const at = text.indexOf('LOT-0001') + 2;
    assert.deepEqual(renameIdentifier(index, undefined, at, 'LOT-0002'), {
      ok: false,
      kind: 'taken',
      id: 'LOT-0002',
    });
    assert.deepEqual(renameIdentifier(index, undefined, at, 'ORG-0009'), {
      ok: false,
      kind: 'bad-format',
      wanted: 'LOT-0000',
    });
    const ok = renameIdentifier(index, undefined, at, 'LOT-0009');
    assert.equal(ok.ok && ok.edits.length, 1);
  });
});

describe('identification against the official fields.json', {
  skip: skipUnless(SDK_DIR) ?? skipUnless(SAMPLES_DIR),
}, () => {
  test('every element of cn_24_maximal whose SDK path is unambiguous is identified as that field', () => {
    const sdk = sdkKnowledge(SDK_DIR, '1.15.1');
    const text = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_maximal.xml'), 'utf8');
    const index = indexXml(text);
    let checked = 0;
    for (const e of index.elements) {
      if (e.parent < 0 || e.children.length > 0) continue;
      const { key } = sdk.keyOf(index, e);
      const candidates = (sdk.byKey.get(key) ?? []).filter((c) => c.kind === 'field');
      // Unambiguous: one field at that path, without predicates anywhere on it.
      if (candidates.length !== 1 || candidates[0]?.steps.some((s) => s.predicates.length > 0)) continue;
      assert.equal(sdk.identify(index, e)?.id, candidates[0]?.id, key);
      checked++;
    }
    assert.ok(checked > 50, `${checked} elements checked`);
    // The subtype and the language, as the notice states them.
    const facts = noticeFacts(index, sdk);
    assert.equal(facts.subtype, /<cbc:SubTypeCode[^>]*>([^<]*)</.exec(text)?.[1]);
    assert.equal(facts.language, 'en');
  });

  test('lots, parts and groups at one path are told apart by their predicates', () => {
    const sdk = sdkKnowledge(SDK_DIR, '1.15.1');
    for (const [scheme, field] of [
      ['Lot', 'BT-137-Lot'],
      ['Part', 'BT-137-Part'],
      ['LotsGroup', 'BT-137-LotsGroup'],
    ] as const) {
      const text = `<ContractNotice ${NS}><a:ProcurementProjectLot><c:ID schemeName="${scheme}">X</c:ID></a:ProcurementProjectLot></ContractNotice>`;
      const index = indexXml(text);
      const id = index.elements[2];
      assert.ok(id);
      assert.equal(sdk.identify(index, id)?.id, field);
    }
  });
});
