// The rule set as the pipeline uses it: Schematron semantics on a small schema written here (first
// matching rule per pattern, lets, reports, an unsupported function named and counted, errors with a
// kind), the disk cache (second load from it, a corrupt entry ignored), and the messages: from a
// `rule_en.xml` when the SDK has one (a temporary copy of the 1.15.1 folder with a generated file),
// else composed from `field_en.xml` labels. Temporary folders only; ../shared is read, never written.

import assert from 'node:assert/strict';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadRuleSet, phaseForSubType, RuleSetError } from '../../core/schematron';
import { clearRuleSetMemory } from '../../core/schematron/engine';
import { clearMessageCache } from '../../core/schematron/report';
import { copySdkRelease } from '../support/sdk-copy';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const temp = mkdtempSync(join(tmpdir(), 'eforms-schematron-'));
after(() => rmSync(temp, { recursive: true, force: true }));

const SCHEMA = `<?xml version="1.0" encoding="UTF-8"?>
<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2">
  <title>test rules</title>
  <ns prefix="cbc" uri="urn:cbc"/>
  <ns prefix="fn" uri="http://www.w3.org/2005/xpath-functions"/>
  <let name="kind" value="/*/cbc:Kind/text()"/>
  <phase id="eforms-1"><active pattern="p1"/><active pattern="p2"/></phase>
  <phase id="eforms-2"><active pattern="p2"/></phase>
  <pattern id="p1">
    <let name="lots" value="count(/*/cbc:Lot)"/>
    <rule context="/*/cbc:Lot[@id = 'first']">
      <assert id="R-FIRST" role="ERROR" diagnostics="D-ID" test="false()">rule|text|R-FIRST</assert>
    </rule>
    <rule context="/*/cbc:Lot">
      <assert id="R-OTHER" role="WARN" test="$lots &lt; 2">rule|text|R-OTHER</assert>
      <report id="R-REPORT" role="INFO" flag="LAWFULNESS" test="$kind = 'x'">rule|text|R-REPORT</report>
    </rule>
  </pattern>
  <pattern id="p2">
    <rule context="cbc:Lot">
      <assert id="R-TOKENS" role="ERROR" test="count(fn:tokenize(@id, 'i')) = 2">rule|text|R-TOKENS</assert>
      <assert id="R-DATE" role="ERROR" test="xs:date(cbc:Date) &gt; current-date()">rule|text|R-DATE</assert>
    </rule>
  </pattern>
  <diagnostics><diagnostic id="D-ID" see="field:BT-137-Lot">@id</diagnostic></diagnostics>
</schema>`;

const NOTICE = `<Notice xmlns:cbc="urn:cbc"><cbc:Kind>x</cbc:Kind>
  <cbc:Lot id="first"><cbc:Date>2024-05-01Z</cbc:Date></cbc:Lot>
  <cbc:Lot id="second"><cbc:Date>2024-01-01Z</cbc:Date></cbc:Lot>
</Notice>`;

function writeSdk(name: string, schema: string): string {
  const dir = join(temp, name);
  mkdirSync(join(dir, 'schematrons', 'static'), { recursive: true });
  writeFileSync(
    join(dir, 'schematrons', 'static', 'complete-validation.sch'),
    schema.replace(
      '<ns prefix="fn"',
      '<ns prefix="xs" uri="http://www.w3.org/2001/XMLSchema"/><ns prefix="fn"',
    ),
  );
  return dir;
}

describe('phaseForSubType', () => {
  test('names the phase of a sub type', () => {
    assert.equal(phaseForSubType('16'), 'eforms-16');
    assert.equal(phaseForSubType(' E1 '), 'eforms-E1');
  });
});

describe('a small schema', () => {
  const sdkDir = writeSdk('small', SCHEMA);
  const key = { sdkDir, sdkVersion: '0.0.1', phase: 'eforms-1', mode: 'static' as const };

  test('only the first matching rule of a pattern fires on a node', async () => {
    const rules = await loadRuleSet(key);
    const r = rules.evaluate(NOTICE, { today: '2024-03-01' });
    const ids = r.failures.map((f) => `${f.id}@${f.location}`);
    assert.ok(ids.includes('R-FIRST@/Notice/cbc:Lot[1]'));
    assert.ok(!ids.includes('R-OTHER@/Notice/cbc:Lot[1]'), 'the second rule does not see the first lot');
    assert.ok(ids.includes('R-OTHER@/Notice/cbc:Lot[2]'), 'pattern lets are evaluated ($lots = 2)');
    assert.ok(ids.includes('R-REPORT@/Notice/cbc:Lot[2]'), 'a report fires when its test is true');
    const report = r.failures.find((f) => f.id === 'R-REPORT');
    assert.equal(report?.kind, 'successful-report');
    assert.equal(report?.flag, 'LAWFULNESS');
    assert.equal(report?.role, 'INFO');
  });

  test('a relative context matches anywhere, and current-date() is the date asked for', async () => {
    const rules = await loadRuleSet(key);
    const early = rules.evaluate(NOTICE, { today: '2023-12-01' }).failures.filter((f) => f.id === 'R-DATE');
    const late = rules.evaluate(NOTICE, { today: '2024-03-01' }).failures.filter((f) => f.id === 'R-DATE');
    assert.deepEqual(early, []);
    assert.deepEqual(
      late.map((f) => f.location),
      ['/Notice/cbc:Lot[2]'],
    );
  });

  test('an unsupported function is never skipped silently: the rule is named and counted', async () => {
    const rules = await loadRuleSet(key);
    const r = rules.evaluate(NOTICE, { today: '2024-03-01' });
    assert.deepEqual(
      r.notEvaluated.map((n) => n.ruleId),
      ['R-TOKENS'],
    );
    assert.match(r.notEvaluated[0].reason, /tokenize/);
    assert.match(r.svrl, /not evaluated: R-TOKENS/);
    assert.ok(!r.failures.some((f) => f.id === 'R-TOKENS'));
  });

  test('messages are composed when the SDK has no translations', async () => {
    const rules = await loadRuleSet(key);
    const first = rules.evaluate(NOTICE, { today: '2024-03-01' }).failures.find((f) => f.id === 'R-FIRST');
    assert.equal(first?.text, 'BT-137-Lot does not satisfy rule R-FIRST', 'no label: the field id');
    assert.deepEqual(first?.diagnosticReferences, [
      { diagnostic: 'D-ID', see: 'field:BT-137-Lot', path: '@id' },
    ]);
  });

  test('cancellation stops the run and says so', async () => {
    const rules = await loadRuleSet(key);
    const r = rules.evaluate(NOTICE, { isCancelled: () => true });
    assert.equal(r.cancelled, true);
    assert.deepEqual(r.failures, []);
  });

  test('errors carry a kind', async () => {
    await assert.rejects(loadRuleSet({ ...key, phase: 'eforms-99' }), (e: unknown) => {
      assert.ok(e instanceof RuleSetError);
      assert.equal(e.kind, 'unknown-phase');
      assert.deepEqual(e.fields.phases, ['eforms-1', 'eforms-2']);
      return true;
    });
    await assert.rejects(loadRuleSet({ ...key, sdkDir: join(temp, 'nowhere') }), (e: unknown) => {
      assert.ok(e instanceof RuleSetError);
      assert.equal(e.kind, 'no-schematron');
      return true;
    });
  });

  test('bad input never crashes: malformed notices and empty text give a report', async () => {
    const rules = await loadRuleSet(key);
    for (const bad of ['', '<Notice', '<<<', NOTICE.slice(0, 80)]) {
      const r = rules.evaluate(bad, { today: '2024-03-01' });
      assert.equal(typeof r.svrl, 'string');
    }
  });
});

describe('the disk cache', () => {
  const sdkDir = writeSdk('cached', SCHEMA);
  const cacheDir = join(temp, 'cache');
  const key = { sdkDir, sdkVersion: '0.0.2', phase: 'eforms-1', mode: 'static' as const };

  test('a second start reads the phase from the cache, with the same results', async () => {
    clearRuleSetMemory();
    const first = await loadRuleSet(key, { cacheDir });
    assert.equal(first.source, 'sdk');
    clearRuleSetMemory();
    const second = await loadRuleSet(key, { cacheDir });
    assert.equal(second.source, 'cache');
    assert.deepEqual(
      second.evaluate(NOTICE, { today: '2024-03-01' }).failures,
      first.evaluate(NOTICE, { today: '2024-03-01' }).failures,
    );
  });

  test('a corrupt entry is ignored and rewritten', async () => {
    const dir = join(cacheDir, '0.0.2', 'static');
    const [file] = readdirSync(dir);
    writeFileSync(join(dir, file), '{"fingerprint": "x", "prepa');
    clearRuleSetMemory();
    const r = await loadRuleSet(key, { cacheDir });
    assert.equal(r.source, 'sdk');
    assert.ok(JSON.parse(readFileSync(join(dir, file), 'utf8')).prepared, 'rewritten whole');
  });

  test('a changed schema is not served from the cache', async () => {
    writeFileSync(
      join(sdkDir, 'schematrons', 'static', 'complete-validation.sch'),
      SCHEMA.replace(
        '<ns prefix="fn"',
        '<ns prefix="xs" uri="http://www.w3.org/2001/XMLSchema"/><ns prefix="fn"',
      ).replace('test="false()"', 'test="true()"      '),
    );
    clearRuleSetMemory();
    const r = await loadRuleSet(key, { cacheDir });
    assert.equal(r.source, 'sdk');
    assert.ok(!r.evaluate(NOTICE, { today: '2024-03-01' }).failures.some((f) => f.id === 'R-FIRST'));
  });
});

describe('messages from the SDK', { skip: skipUnless(SDK_DIR) ?? skipUnless(SAMPLES_DIR) }, () => {
  const notice = (): string => readFileSync(join(SAMPLES_DIR, 'notices', 'INVALID_cn_24_empty.xml'), 'utf8');
  const fieldLabel = (id: string): string | undefined => {
    const xml = readFileSync(join(SDK_DIR, 'translations', 'field_en.xml'), 'utf8');
    const m = new RegExp(`key="field\\|name\\|${id.replace(/[()]/g, '\\$&')}">([^<]*)<`).exec(xml);
    return m?.[1];
  };

  test('without rule_en.xml (as ../shared has it): composed from field labels and the test shape', async () => {
    clearMessageCache();
    const rules = await loadRuleSet({
      sdkDir: SDK_DIR,
      sdkVersion: '1.15.1',
      phase: 'eforms-16',
      mode: 'static',
    });
    const f = rules
      .evaluate(notice(), { today: '2024-01-01' })
      .failures.find((x) => x.id === 'BR-BT-00005-0022');
    assert.ok(f, 'the empty notice has no issue date');
    assert.equal(f.test, 'count(cbc:IssueDate) > 0');
    const label = fieldLabel('BT-05(a)-notice');
    assert.ok(label);
    assert.equal(f.text, `${label} (BT-05(a)-notice) is mandatory`);
  });

  test('a run is cancelled inside a pattern, not only between patterns', async () => {
    const rules = await loadRuleSet({
      sdkDir: SDK_DIR,
      sdkVersion: '1.15.1',
      phase: 'eforms-16',
      mode: 'static',
    });
    const text = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_maximal.xml'), 'utf8');
    let calls = 0;
    const full = rules.evaluate(text, {
      today: '2024-01-01',
      isCancelled: () => {
        calls++;
        return false;
      },
    });
    assert.equal(full.cancelled, false);
    const between = rules.ruleCount > 0 ? calls : 0;
    let seen = 0;
    const r = rules.evaluate(text, { today: '2024-01-01', isCancelled: () => ++seen > 3 });
    assert.equal(r.cancelled, true);
    assert.ok(between > 12, `polled ${between} times in a full run, more often than once per pattern`);
    assert.ok(r.assertsEvaluated < full.assertsEvaluated);
  });

  test('with a rule_en.xml: its messages', async () => {
    // A copy of the release whose translations folder also holds a small generated rule_en.xml.
    const copy = join(temp, 'sdk-with-rules');
    copySdkRelease(SDK_DIR, copy, ['translations', 'view-templates', 'schemas', 'codelists']);
    mkdirSync(join(copy, 'translations'), { recursive: true });
    copyFileSync(join(SDK_DIR, 'translations', 'field_en.xml'), join(copy, 'translations', 'field_en.xml'));
    writeFileSync(
      join(copy, 'translations', 'rule_en.xml'),
      `<?xml version="1.0" encoding="UTF-8"?>
<properties><entry key="rule|text|BR-BT-00005-0022">The notice must have a dispatch date &amp; time.</entry></properties>`,
    );
    clearMessageCache();
    const rules = await loadRuleSet({
      sdkDir: copy,
      sdkVersion: '1.15.1',
      phase: 'eforms-16',
      mode: 'static',
    });
    const failures = rules.evaluate(notice(), { today: '2024-01-01' }).failures;
    assert.equal(
      failures.find((x) => x.id === 'BR-BT-00005-0022')?.text,
      'The notice must have a dispatch date & time.',
    );
    const other = failures.find((x) => x.id === 'ND-ProcedureTenderingProcess-16');
    assert.equal(
      other?.text,
      'ND-ProcedureTenderingProcess is mandatory',
      'a rule the file lacks is composed',
    );
  });
});
