// A notice longer than a stretch runs its rules stretch by stretch (engine.ts, CHUNK_CHARS): every
// pattern's fired rules first, then each stretch of the document through every pattern, the results put
// back in the order of a run pattern by pattern. Checked against the run in one stretch, on every release
// in ../shared/eforms-sdk/ (two phases each, or #ALL), with the release's own real notices, the SDK
// samples and seeded faulty variants of each (every kind), cut into stretches of a few thousand
// characters: the same SVRL byte for byte (failures in order, not-evaluated comments), the same
// not-evaluated list and the same count of asserts. The 100-lot sample runs in 40 stretches. A context
// that fails in one window of lots only, and a notice whose contexts are of every shape, are checked
// on rules of their own.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ruleLayout } from '../../core/schematron';
import { clearRuleSetMemory, loadRuleSetSync } from '../../core/schematron/engine';
import { mulberry32, VARIANT_KINDS, variant } from '../support/notice-variants';
import { REAL_DIR, SDKS_DIR } from '../support/real-notices';
import { releaseNotices, reportOf, sdkVersions } from '../support/rule-reports';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDKS_DIR) ?? skipUnless(join(REAL_DIR, 'index.tsv')) ?? skipUnless(SAMPLES_DIR);

/** The notice and one seeded variant of each kind the notice allows. */
function variants(text: string, seed: number): { name: string; text: string }[] {
  const rand = mulberry32(seed);
  const out = [{ name: 'as published', text }];
  for (const kind of VARIANT_KINDS) {
    const v = variant(text, kind, rand);
    if (v) out.push(v);
  }
  return out;
}

describe('rules run in stretches give the report of a run in one stretch', { skip }, () => {
  for (const version of skip ? [] : sdkVersions()) {
    test(`SDK ${version}: stretches of 4,000 characters against one stretch`, () => {
      const sdkDir = join(SDKS_DIR, version);
      const { phases: declared } = ruleLayout(sdkDir, 'static');
      const phases =
        declared.length === 0 ? ['#ALL'] : declared.filter((p) => /(^|-)(16|29)$/.test(p)).slice(0, 2);
      let compared = 0;
      let failing = 0;
      for (const phase of phases) {
        const rules = loadRuleSetSync({ sdkDir, sdkVersion: version, phase, mode: 'static' });
        for (const [i, notice] of releaseNotices(version).entries())
          for (const v of variants(notice, 31 + i)) {
            const whole = reportOf(rules, v.text, { chunkChars: Number.POSITIVE_INFINITY });
            const stretched = reportOf(rules, v.text, { chunkChars: 4000 });
            assert.deepEqual(stretched, whole, `${phase}, notice ${i}, ${v.name}`);
            if ((whole as { svrl: string }).svrl.includes('failed-assert')) failing++;
            compared++;
          }
      }
      clearRuleSetMemory();
      assert.ok(compared >= 10, `compared ${compared} runs`);
      assert.ok(failing >= 5, `only ${failing} runs had failures to put in order`);
    });
  }

  test('the 100-lot sample in 40 stretches, and a stretched run cancelled halfway', {
    skip: skipUnless(SDK_DIR),
  }, () => {
    const text = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_maximal_100_lots.xml'), 'utf8');
    const rules = loadRuleSetSync({
      sdkDir: SDK_DIR,
      sdkVersion: '1.15.1',
      phase: 'eforms-16',
      mode: 'static',
    });
    const chunkChars = Math.ceil(text.length / 40);
    const faulty = variant(text, 'duplicate-lot', mulberry32(5))?.text ?? text;
    for (const t of [text, faulty])
      assert.deepEqual(
        reportOf(rules, t, { chunkChars }),
        reportOf(rules, t, { chunkChars: Number.POSITIVE_INFINITY }),
      );
    let polls = 0;
    const r = rules.evaluate(text, { today: '2024-01-01', chunkChars, isCancelled: () => ++polls > 20 });
    assert.equal(r.cancelled, true);
    const full = rules.evaluate(text, { today: '2024-01-01', chunkChars });
    assert.equal(full.cancelled, false);
    assert.ok(r.assertsEvaluated < full.assertsEvaluated, 'the cancelled run stopped early');
  });
});

describe('rule contexts found window by window', () => {
  const temp = mkdtempSync(join(tmpdir(), 'eforms-stretches-'));
  after(() => rmSync(temp, { recursive: true, force: true }));

  // Contexts of the window's shape (a child of the root element, then steps down), with a constant
  // filter, and of other shapes (`//`, the root element, a climb, a union); one whose predicate fails on
  // one lot only (`xs:integer('x')`), so that it fails in one window and not in the others.
  const SCHEMA = `<?xml version="1.0" encoding="UTF-8"?>
<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2">
  <ns prefix="cbc" uri="urn:cbc"/>
  <ns prefix="xs" uri="http://www.w3.org/2001/XMLSchema"/>
  <let name="kind" value="'16'"/>
  <phase id="eforms-16"><active pattern="claims"/><active pattern="shapes"/><active pattern="results"/><active pattern="again"/></phase>
  <pattern id="claims">
    <rule context="/*/cbc:Lot[xs:integer(cbc:N) mod 3 = 0]">
      <assert id="R-THIRD" role="ERROR" test="false()">rule|text|R-THIRD</assert>
    </rule>
    <rule context="/*/cbc:Lot">
      <assert id="R-EVERY" role="ERROR" test="cbc:N != '7'">rule|text|R-EVERY</assert>
    </rule>
  </pattern>
  <pattern id="shapes">
    <rule context="/*/cbc:Lot/cbc:Part[$kind = '16']/@id">
      <report id="R-PART" role="INFO" test=". = 'p2'">rule|text|R-PART</report>
    </rule>
    <rule context="//cbc:Part[not(child::*) and normalize-space(text()) = '']">
      <report id="R-EMPTY" role="WARN" test="true()">rule|text|R-EMPTY</report>
    </rule>
    <rule context="/*">
      <assert id="R-ROOT" role="ERROR" test="count(cbc:Lot) &lt; 5">rule|text|R-ROOT</assert>
    </rule>
    <rule context="/*/cbc:Lot/cbc:Part/../cbc:N | /*/cbc:Head">
      <report id="R-UNION" role="INFO" test=". = ('4', 'head')">rule|text|R-UNION</report>
    </rule>
  </pattern>
  <pattern id="results">
    <rule context="/*/cbc:Ext/cbc:Results/cbc:Result[cbc:N = /*/cbc:Lot/cbc:N]/cbc:N">
      <report id="R-RESULT" role="INFO" test=". mod 5 = 0">rule|text|R-RESULT</report>
    </rule>
    <rule context="/*/cbc:Ext/cbc:Results">
      <assert id="R-RESULTS" role="ERROR" test="count(cbc:Result) &lt; 10">rule|text|R-RESULTS</assert>
    </rule>
    <rule context="/*/cbc:Ext/cbc:Results/cbc:Result">
      <assert id="R-LOT" role="ERROR" test="cbc:N = /*/cbc:Lot/cbc:N">rule|text|R-LOT</assert>
    </rule>
    <rule context="//cbc:Result[cbc:N mod 7 = 0] | /*/cbc:Head">
      <assert id="R-CLAIMED" role="ERROR" test="false()">rule|text|R-CLAIMED</assert>
    </rule>
  </pattern>
  <pattern id="again">
    <rule context="/*/cbc:Ext/cbc:Results/cbc:Result">
      <report id="R-AGAIN" role="INFO" test="cbc:N = '40'">rule|text|R-AGAIN</report>
    </rule>
  </pattern>
</schema>`;

  const notice = (badLot?: number): string => {
    const lots = Array.from({ length: 30 }, (_, i) => {
      const n = i === badLot ? 'x' : String(i + 1);
      const parts =
        i % 4 === 0 ? '<cbc:Part id="p1"/><cbc:Part id="p2">  </cbc:Part>' : '<cbc:Part id="p1">a</cbc:Part>';
      return `  <cbc:Lot><cbc:N>${n}</cbc:N>${parts}</cbc:Lot>`;
    });
    // The results sit in one child of the root, longer than a window: the windows cut it between them.
    const results = Array.from(
      { length: 40 },
      (_, i) => `    <cbc:Result><cbc:N>${i + 1}</cbc:N></cbc:Result>`,
    );
    const ext = `  <cbc:Ext><cbc:Results>\n${results.join('\n')}\n  </cbc:Results></cbc:Ext>`;
    return `<Notice xmlns:cbc="urn:cbc"><cbc:Head>head</cbc:Head>\n${ext}\n${lots.join('\n')}\n</Notice>`;
  };

  const rules = () => {
    const dir = join(temp, 'sdk');
    mkdirSync(join(dir, 'schematrons', 'static'), { recursive: true });
    writeFileSync(join(dir, 'schematrons', 'static', 'complete-validation.sch'), SCHEMA);
    return loadRuleSetSync({ sdkDir: dir, sdkVersion: '0.0.1', phase: 'eforms-16', mode: 'static' });
  };

  test('every shape of context, in windows of a few lots, gives the report of one stretch', () => {
    const set = rules();
    const text = notice();
    const whole = reportOf(set, text, { chunkChars: Number.POSITIVE_INFINITY }) as { svrl: string };
    // The results are claimed by the rule before the last (R-CLAIMED fires on the head alone).
    assert.equal(whole.svrl.split('id="R-CLAIMED"').length, 2);
    for (const chunkChars of [1, 150, 400, 1000])
      assert.deepEqual(reportOf(set, text, { chunkChars }), whole);
    for (const id of [
      'R-THIRD',
      'R-EVERY',
      'R-PART',
      'R-EMPTY',
      'R-ROOT',
      'R-UNION',
      'R-RESULT',
      'R-RESULTS',
      'R-LOT',
      'R-CLAIMED',
      'R-AGAIN',
    ])
      assert.ok(whole.svrl.includes(`id="${id}"`), `${id} fails somewhere`);
  });

  test('a notice nested 100,000 deep is cut into windows without a stack of that depth', () => {
    const set = rules();
    const depth = 100_000;
    const text = `<Notice xmlns:cbc="urn:cbc">${'<cbc:Ext>'.repeat(depth)}<cbc:Lot><cbc:N>3</cbc:N></cbc:Lot>${'</cbc:Ext>'.repeat(depth)}\n${notice().slice(notice().indexOf('<cbc:Head>'))}`;
    const whole = reportOf(set, text, { chunkChars: Number.POSITIVE_INFINITY });
    assert.deepEqual(reportOf(set, text, { chunkChars: 5000 }), whole);
  });

  test('a context that fails in one window fails for the whole notice, and the run starts again in one stretch', () => {
    const set = rules();
    const text = notice(20);
    const whole = reportOf(set, text, { chunkChars: Number.POSITIVE_INFINITY }) as {
      svrl: string;
      notEvaluated: { ruleId: string; reason: string }[];
    };
    // The failing context selects nothing: its assert is not evaluated, and the next rule of its
    // pattern takes every lot, those numbered 3, 6, 9… included (which R-THIRD would otherwise claim in
    // the windows before the one that fails).
    assert.ok(whole.notEvaluated.some((n) => n.ruleId === 'R-THIRD' && /rule context/.test(n.reason)));
    assert.ok(!whole.svrl.includes('id="R-THIRD"'));
    assert.ok(whole.svrl.includes('id="R-EVERY"'));
    for (const chunkChars of [150, 400]) assert.deepEqual(reportOf(set, text, { chunkChars }), whole);
  });
});
