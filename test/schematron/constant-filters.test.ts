// A rule context `P[$noticeSubType = '16']` runs as P filtered by its last predicate compiled on its
// own (engine.ts constantFilter), from the SDK and from the parts the release file keeps (format 11).
// Truth: the same phase with every context compiled whole (the per-phase path, `shared: false`), and
// for the plain cases the nodes worked out by hand. The cases aim at where the two could part: a
// predicate that is false, one that raises an error (only when P selects a node, as a predicate that
// never runs raises nothing: the notice has lots, none with that id), an empty variable, an unknown
// variable (not evaluated, with the same reason), a positional predicate before it, a relative context,
// the literal on the left.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { clearRuleSetMemory, loadRuleSetSync } from '../../core/schematron/engine';
import type { CompiledRuleSet } from '../../core/schematron/rule-set';
import { smallSchema } from '../support/small-schema';

const temp = mkdtempSync(join(tmpdir(), 'eforms-constant-filters-'));
after(() => rmSync(temp, { recursive: true, force: true }));

const CONTEXTS = [
  "/*/cbc:Lot[$kind = 'x']",
  "/*/cbc:Lot[$kind = 'y']",
  '/*/cbc:Lot[$word = 1]',
  "/*/cbc:Lot[@id = 'z'][$word = 1]",
  "/*/cbc:Lot[@id = 'a'][$two eq 1]",
  "/*/cbc:Lot[$none = 'x']",
  "cbc:Lot['x' = $kind]",
  "/*/cbc:Lot[$undeclared = 'x']",
  "/*/cbc:Lot[1][$kind = 'x']",
  "/*[$kind != 'x']",
  "/*/cbc:Lot/@id[$word = 'x']",
];

const SCHEMA = smallSchema(
  'constant filters',
  [
    ['kind', '/*/cbc:Kind/text()'],
    ['word', "'x'"],
    ['two', '(1, 2)'],
    ['none', '()'],
  ],
  CONTEXTS.map((c, i) => [
    `p${i}`,
    `<rule context="${c}">
      <assert id="A${i}" role="ERROR" test="string(.) = 'a' or string(@id) = 'a'">rule|text|A${i}</assert>
    </rule>`,
  ]),
);

const NOTICE =
  '<N xmlns:cbc="urn:cbc"><cbc:Kind>x</cbc:Kind><cbc:Lot id="a"/><cbc:Lot id="b"/><cbc:Lot id="c"/></N>';

const sdkDir = join(temp, 'sdk');
mkdirSync(join(sdkDir, 'schematrons', 'static'), { recursive: true });
writeFileSync(join(sdkDir, 'schematrons', 'static', 'complete-validation.sch'), SCHEMA);
const key = { sdkDir, sdkVersion: '0.0.1', phase: 'eforms-1', mode: 'static' as const };

function report(rules: CompiledRuleSet) {
  const r = rules.evaluate(NOTICE, { today: '2024-06-01' });
  return {
    svrl: r.svrl,
    failures: r.failures.map((f) => `${f.id}@${f.location}`),
    notEvaluated: r.notEvaluated,
    asserts: r.assertsEvaluated,
  };
}

describe('contexts filtered by a predicate of one value', () => {
  clearRuleSetMemory();
  const whole = report(loadRuleSetSync(key, { shared: false }));

  test('the whole contexts give the nodes worked out by hand', () => {
    const failed = (i: number) => whole.failures.filter((f) => f.startsWith(`A${i}@`));
    assert.deepEqual(failed(0), ['A0@/N/cbc:Lot[2]', 'A0@/N/cbc:Lot[3]']);
    assert.deepEqual(failed(1), []);
    assert.deepEqual(failed(6), ['A6@/N/cbc:Lot[2]', 'A6@/N/cbc:Lot[3]']);
    assert.deepEqual(failed(8), []);
    assert.deepEqual(failed(9), []);
    assert.deepEqual(failed(10), ['A10@/N/cbc:Lot[2]/@id', 'A10@/N/cbc:Lot[3]/@id']);
    const reasons = new Map(whole.notEvaluated.map((n) => [n.ruleId, n.reason]));
    // An error of the predicate (a string compared with a number, a value comparison of two items)
    // where P selects nodes; none where it selects nothing.
    assert.match(reasons.get('A2') ?? '', /^rule context: /);
    assert.ok(!reasons.has('A3'));
    assert.match(reasons.get('A4') ?? '', /^rule context: /);
    assert.match(reasons.get('A7') ?? '', /undeclared/);
    assert.equal(whole.notEvaluated.length, 3);
  });

  test('split from the SDK, and from the parts the release file keeps: the same report', () => {
    clearRuleSetMemory();
    assert.deepEqual(report(loadRuleSetSync(key)), whole);
    const cacheDir = join(temp, 'cache');
    clearRuleSetMemory();
    const first = loadRuleSetSync(key, { cacheDir });
    assert.equal(first.source, 'sdk');
    assert.deepEqual(report(first), whole);
    clearRuleSetMemory();
    const cached = loadRuleSetSync(key, { cacheDir });
    assert.equal(cached.source, 'cache');
    assert.deepEqual(report(cached), whole);
    // Run twice, the second time with every closure compiled.
    assert.deepEqual(report(cached), whole);
  });
});
