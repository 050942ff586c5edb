// The rule set as the pipeline uses it: Schematron semantics on a small schema written here (first
// matching rule per pattern, lets, reports, an unsupported function named and counted, errors with a
// kind), the three layouts releases have used (phases `eforms-N`, `N`, none), the disk cache (second load
// from it, a corrupt entry ignored, releases and layouts never mixed), and the messages: from a
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
import { loadRuleSet, phaseFor, phaseForSubType, RuleSetError, ruleLayout } from '../../core/schematron';
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
      <assert id="R-UNSUPPORTED" role="ERROR" test="fn:doc-available(@id)">rule|text|R-UNSUPPORTED</assert>
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
  test('names the phase of a sub type in each layout', () => {
    assert.equal(phaseForSubType('16'), 'eforms-16');
    assert.equal(phaseForSubType(' E1 '), 'eforms-E1');
    assert.equal(phaseForSubType('16', 'eforms-phases'), 'eforms-16');
    assert.equal(phaseForSubType(' 16 ', 'subtype-phases'), '16');
    assert.equal(phaseForSubType('16', 'no-phases'), '#ALL');
  });
});

describe('the layout of a release, read from its files', () => {
  // The three layouts the SDK has used: 1.11 on (eforms-16), 1.10 (16), up to 1.9 (no phase: each
  // rule context tests the subtype itself, so every pattern runs).
  const subtypePhases = SCHEMA.replace('<phase id="eforms-1">', '<phase id="1">').replace(
    '<phase id="eforms-2">',
    '<phase id="2">',
  );
  const noPhases = SCHEMA.replace(/<phase id="[^"]+">.*?<\/phase>/g, '');

  test('eforms-phases, subtype-phases and no-phases', () => {
    assert.deepEqual(ruleLayout(writeSdk('layout-eforms', SCHEMA), 'static'), {
      layout: 'eforms-phases',
      phases: ['eforms-1', 'eforms-2'],
    });
    assert.equal(ruleLayout(writeSdk('layout-subtype', subtypePhases), 'static').layout, 'subtype-phases');
    assert.deepEqual(ruleLayout(writeSdk('layout-none', noPhases), 'static'), {
      layout: 'no-phases',
      phases: [],
    });
  });

  test('phaseFor names the phase the release defines, and #ALL runs every pattern of a release without phases', async () => {
    const dir = writeSdk('layout-run-subtype', subtypePhases);
    assert.deepEqual(phaseFor(dir, 'static', '2'), { layout: 'subtype-phases', phase: '2' });
    const two = await loadRuleSet({ sdkDir: dir, sdkVersion: '0.0.9', phase: '2', mode: 'static' });
    assert.equal(two.layout, 'subtype-phases');
    assert.ok(
      !two.evaluate(NOTICE, { today: '2024-03-01' }).failures.some((f) => f.id === 'R-FIRST'),
      'p1 is not in phase 2',
    );
    const none = writeSdk('layout-run-none', noPhases);
    const all = await loadRuleSet({
      sdkDir: none,
      sdkVersion: '0.0.9',
      ...phaseFor(none, 'static', '2'),
      mode: 'static',
    });
    assert.equal(all.key.phase, '#ALL');
    const ids = all.evaluate(NOTICE, { today: '2024-03-01' }).failures.map((f) => f.id);
    assert.ok(ids.includes('R-FIRST') && ids.includes('R-DATE'), 'every pattern runs');
  });

  test('without phases, every pattern runs, even those without an id', async () => {
    const dir = writeSdk(
      'layout-no-ids',
      noPhases.replace('<pattern id="p1">', '<pattern>').replace('<pattern id="p2">', '<pattern>'),
    );
    const all = await loadRuleSet({ sdkDir: dir, sdkVersion: '0.0.8', phase: '#ALL', mode: 'static' });
    const ids = all.evaluate(NOTICE, { today: '2024-03-01' }).failures.map((f) => f.id);
    assert.ok(ids.includes('R-FIRST') && ids.includes('R-DATE'), ids.join(', '));
  });

  test('a release without rules is a RuleSetError', () => {
    assert.throws(
      () => ruleLayout(join(temp, 'nowhere'), 'static'),
      (e: unknown) => {
        assert.ok(e instanceof RuleSetError);
        assert.equal(e.kind, 'no-schematron');
        return true;
      },
    );
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
      ['R-UNSUPPORTED'],
    );
    assert.match(r.notEvaluated[0].reason, /doc-available/);
    assert.match(r.svrl, /not evaluated: R-UNSUPPORTED/);
    assert.ok(!r.failures.some((f) => f.id === 'R-UNSUPPORTED'));
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

describe('the clock of a run', () => {
  const clock = `<?xml version="1.0" encoding="UTF-8"?>
<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2">
  <ns prefix="fn" uri="http://www.w3.org/2005/xpath-functions"/>
  <pattern id="p"><rule context="/*">
    <assert id="R-BEFORE-ONE" role="ERROR" test="current-dateTime() &lt; xs:dateTime('2026-11-24T13:00:00Z')">x</assert>
    <assert id="R-TODAY" role="ERROR" test="current-date() = xs:date('2026-11-24Z')">x</assert>
    <assert id="R-NOON" role="ERROR" test="current-time() = xs:time('12:00:00Z')">x</assert>
  </rule></pattern>
</schema>`;
  test('`now` sets current-dateTime(), current-time() and, without `today`, current-date()', async () => {
    const dir = writeSdk('clock', clock);
    const rules = await loadRuleSet({ sdkDir: dir, sdkVersion: '0.0.7', phase: '#ALL', mode: 'static' });
    const failed = (opts: { today?: string; now?: string }): string[] =>
      rules.evaluate('<Notice/>', opts).failures.map((f) => f.id);
    assert.deepEqual(failed({ now: '2026-11-24T12:00:00Z' }), []);
    assert.deepEqual(failed({ now: '2026-11-24T14:00:00Z' }), ['R-BEFORE-ONE', 'R-NOON']);
    assert.deepEqual(failed({ now: '2026-11-25T12:00:00Z' }), ['R-BEFORE-ONE', 'R-TODAY']);
    assert.deepEqual(failed({ today: '2026-11-24' }), ['R-NOON'], 'today alone: its first instant');
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
    const [file] = (readdirSync(cacheDir, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.rules'))
      .map((f) => join(cacheDir, f));
    writeFileSync(file, '{"fingerprint": "x", "prepa');
    clearRuleSetMemory();
    const r = await loadRuleSet(key, { cacheDir });
    assert.equal(r.source, 'sdk');
    // Format 12: the fingerprint, the header's length and digest, then the header they cover.
    const [id, head] = readFileSync(file, 'utf8').split('\n') as [string, string];
    assert.match(JSON.parse(id).digest, /^crc32:/);
    assert.ok(JSON.parse(head).phases?.[key.phase], 'rewritten whole');
  });

  test('rules of different releases and layouts never mix, even under one version number', async () => {
    const shared = join(temp, 'cache-mix');
    const eforms = writeSdk('mix-eforms', SCHEMA);
    const none = writeSdk('mix-none', SCHEMA.replace(/<phase id="[^"]+">.*?<\/phase>/g, ''));
    const k1 = { sdkDir: eforms, sdkVersion: '0.0.4', phase: 'eforms-2', mode: 'static' as const };
    const k2 = { sdkDir: none, sdkVersion: '0.0.4', phase: '#ALL', mode: 'static' as const };
    clearRuleSetMemory();
    const a1 = (await loadRuleSet(k1, { cacheDir: shared })).evaluate(NOTICE, { today: '2024-03-01' });
    const a2 = (await loadRuleSet(k2, { cacheDir: shared })).evaluate(NOTICE, { today: '2024-03-01' });
    clearRuleSetMemory();
    const c1 = await loadRuleSet(k1, { cacheDir: shared });
    const c2 = await loadRuleSet(k2, { cacheDir: shared });
    assert.equal(c1.source, 'cache');
    assert.equal(c2.source, 'cache');
    assert.equal(c1.layout, 'eforms-phases');
    assert.equal(c2.layout, 'no-phases');
    assert.deepEqual(c1.evaluate(NOTICE, { today: '2024-03-01' }).failures, a1.failures);
    assert.deepEqual(c2.evaluate(NOTICE, { today: '2024-03-01' }).failures, a2.failures);
    assert.ok(a2.failures.some((f) => f.id === 'R-FIRST') && !a1.failures.some((f) => f.id === 'R-FIRST'));
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
