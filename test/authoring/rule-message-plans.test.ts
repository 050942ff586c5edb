// The plans of rule messages (core/authoring/rule-message.ts, planFor) are kept per SDK for every notice
// and language of a process: each finding of a batch must get the message, related places, link and node
// it gets composed on its own with no plan kept (forgetRuleMessagePlans before each finding), which is
// the truth here. The batch interleaves languages (en, fr, de), subtypes, and notices that break the
// same rules at the same places with other values (the value shown after the sentence is the notice's,
// never a kept one), empty ones included. Reads ../shared; writes only a temporary rule cache.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { completeFinding, completeFindings, sdkKnowledge } from '../../core/authoring';
import { forgetRuleMessagePlans } from '../../core/authoring/rule-message';
import type { Finding } from '../../core/findings';
import type { XmlIndex } from '../../core/notice';
import { indexXml } from '../../core/notice/xml-index';
import { LocalSdkValidator } from '../../core/validation/local-validator';
import { sdkFindings } from '../support/sdk-findings';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDK_DIR) ?? skipUnless(SAMPLES_DIR);

function withSubType(text: string, st: string): string {
  return text.replace(/(<efac:NoticeSubType>\s*<cbc:SubTypeCode[^>]*>)[^<]*(<)/, `$1${st}$2`);
}

/** The text with the first element named `name` holding `value` instead. */
function withValue(text: string, name: string, value: string): string {
  const re = new RegExp(`(<${name}(?:\\s[^>]*)?>)[^<]*(</${name}>)`);
  assert.match(text, re, name);
  return text.replace(re, `$1${value}$2`);
}

/** What completion gives a finding, as plain data. */
function shown(f: Finding): unknown {
  return JSON.parse(JSON.stringify([f.message, f.related ?? [], f.help ?? '', f.node ?? '']));
}

describe('rule message plans kept across notices and languages', { skip }, () => {
  const work = mkdtempSync(join(tmpdir(), 'rule-message-plans-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  test('each finding of the batch gets what it gets with no plan kept', { timeout: 300_000 }, async () => {
    const read = (f: string) => readFileSync(join(SAMPLES_DIR, 'notices', f), 'utf8');
    const max = read('cn_24_maximal.xml');
    const can = read('can_24_minimal.xml');
    const texts = [
      withSubType(max, '10'),
      withSubType(withValue(max, 'cbc:ProcedureCode', 'open'), '10'),
      withSubType(withValue(max, 'cbc:ProcedureCode', 'restricted'), '10'),
      withSubType(withValue(max, 'cbc:RegulatoryDomain', '32009L0081'), '10'),
      withSubType(withValue(max, 'cbc:ProcedureCode', ''), '16'),
      withSubType(withValue(max, 'cbc:ProcurementTypeCode', 'xyz'), '16'),
      withSubType(withValue(max, 'cbc:ProcurementTypeCode', ''), '16'),
      withSubType(withValue(can, 'cbc:ProcedureCode', 'comp-dial'), '29'),
      withSubType(can, '29'),
      withSubType(max, '29'),
    ];
    const v = new LocalSdkValidator({
      sources: { path: SDK_DIR, cacheRoot: join(work, 'sdk') },
      ruleCacheDir: join(work, 'rules'),
    });
    const sdk = sdkKnowledge(SDK_DIR, '1.15.1');
    const runs: { index: XmlIndex; findings: Finding[] }[] = [];
    for (const text of texts) runs.push(await sdkFindings(v, text));
    // The batch: every notice in every language, interleaved, the plans kept throughout.
    const batch = new Map<string, unknown[]>();
    for (const language of ['en', 'fr', 'de'])
      for (const [i, { index, findings }] of runs.entries())
        batch.set(`${i}/${language}`, completeFindings(findings, { index, sdk, language }).map(shown));
    let compared = 0;
    let valuesShown = 0;
    for (const [key, got] of batch) {
      const [i, language] = key.split('/') as [string, string];
      const { index, findings } = runs[Number(i)] as (typeof runs)[number];
      findings.forEach((f, k) => {
        forgetRuleMessagePlans();
        const alone = shown(completeFinding(f, { index, sdk, language }));
        assert.deepEqual(got[k], alone, `notice ${i} in ${language}, finding ${k} (${f.id})`);
        compared++;
        if (/ — /.test((alone as [string])[0])) valuesShown++;
      });
    }
    // Rules without a diagnostic field whose test names a child: the child's field depends on where the
    // element is (a cac:Country of an organisation's address is BT-514, of a place of performance
    // BT-5141), so the plan depends on the element's chain of names, not only on its own name.
    const index = indexXml(max);
    const synthetic: Finding[] = [];
    for (const test of ['count(cbc:IdentificationCode) = 0', 'cbc:ID', 'count(cbc:Name) > 1'])
      for (const e of index.elements)
        synthetic.push({
          id: 'X-PLAN-0001',
          severity: 'error',
          message: '',
          location: '',
          range: { start: index.positionAt(e.start), end: index.positionAt(e.nameEnd) },
          source: 'sdk',
          test,
          resolved: true,
        });
    const together = completeFindings(synthetic, { index, sdk, language: 'en' }).map(shown);
    const labels = new Set<string>();
    synthetic.forEach((f, k) => {
      forgetRuleMessagePlans();
      const alone = shown(completeFinding(f, { index, sdk, language: 'en' }));
      assert.deepEqual(together[k], alone, `synthetic finding ${k} (${f.test})`);
      labels.add((alone as [string])[0]);
      compared++;
    });
    assert.ok(labels.size > 20, `the synthetic findings name many fields (${labels.size})`);
    assert.ok(compared > 600, `enough findings compared (${compared})`);
    // Messages that show the notice's value: the part a kept plan must leave to each finding.
    assert.ok(valuesShown >= 20, `enough messages with the notice's value (${valuesShown})`);
  });
});
