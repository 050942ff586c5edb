// Element completion after `<` offers only what may still be added: an element already in the parent
// is not offered again unless the SDK says it repeats (a lot does, the procedure type does not), and
// items are named in words, never with the SDK's XPath predicates (`[@listName='eu-funded']`). The
// truth is the sample notice's own children (read with a regex) and fields.json's repeatable flags.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { completeAt } from '../../core/authoring/completion';
import { newNotice } from '../../core/authoring/new-notice';
import { sdkKnowledge } from '../../core/authoring/sdk-knowledge';
import { indexXml } from '../../core/notice';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

describe('element completion', { skip: skipUnless(SDK_DIR) ?? skipUnless(SAMPLES_DIR) }, () => {
  const sdk = sdkKnowledge(SDK_DIR, '1.15.1');
  const base = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_maximal.xml'), 'utf8');

  function itemsAfter(marker: string, xml = base) {
    const at = xml.indexOf(marker) + marker.length;
    const text = `${xml.slice(0, at)}\n<${xml.slice(at)}`;
    return completeAt(indexXml(text), sdk, at + 2, 'en', { today: '2026-11-24', uuid: () => 'x' }).filter(
      (i) => i.kind === 'element',
    );
  }

  test('in the root, elements present once are not offered; repeating ones are', () => {
    const items = itemsAfter('<cbc:NoticeTypeCode listName="competition">cn-standard</cbc:NoticeTypeCode>');
    const names = items.map((i) => i.label.split(' · ')[0]);
    assert.ok(items.length > 0);
    // Present in the sample and not repeatable (fields.json): the procedure's identifiers and project.
    for (const once of [
      'cbc:ContractFolderID',
      'cbc:IssueDate',
      'cac:TenderingProcess',
      'cac:ProcurementProject',
    ])
      assert.ok(base.includes(`<${once}`) && !names.includes(once), `${once} is there: not offered`);
    // A lot repeats (ND-Lot is repeatable), so another may be added.
    assert.ok(names.includes('cac:ProcurementProjectLot'), names.join(', '));
  });

  test('no item shows an XPath predicate; variants are named by their field', () => {
    // A new notice has few elements, so most are still to add, variants among them.
    const fresh = newNotice(sdk, { subtype: '16', today: '2026-11-24' });
    assert.ok(fresh.ok);
    const all = [
      ...itemsAfter('<cac:TenderingTerms>', fresh.xml),
      ...itemsAfter('<cac:TenderingProcess>', fresh.xml),
    ];
    assert.ok(all.length > 5, all.map((i) => i.label).join(', '));
    assert.ok(
      all.some((i) => i.label === 'cac:ProcessJustification · The procedure is accelerated'),
      all.map((i) => i.label).join(', '),
    );
    for (const i of all) {
      assert.doesNotMatch(i.label, /[[\]@=']/, i.label);
      assert.doesNotMatch(i.detail ?? '', /[[\]@=]/, i.detail);
    }
  });
});
