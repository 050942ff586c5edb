// The sentence (CLI and the server's log) about the rules the local engine could not evaluate, from each entry's cause and
// fields: a value a buyer can correct comes first, named once with every rule it stopped; rules outside
// the engine's XPath are named as the CVS's to check; no XPath error code or path reaches the sentence
// unless the engine gave nothing better; and the lists stay short however many entries there are.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeNotEvaluated, type NotEvaluated } from '../../core/schematron';

const invalid = (ruleId: string, value: string, type: string): NotEvaluated => ({
  ruleId,
  cause: 'invalid-value',
  reason: `FORG0001: '${value}' is not a valid ${type}`,
  location: '/cn:ContractNotice/cac:ProcurementProjectLot[1]',
  value,
  type,
});

test('none: nothing to say', () => {
  assert.equal(describeNotEvaluated([]), undefined);
});

test('one value stops several rules: the value once, each rule once, the type in words', () => {
  const s = describeNotEvaluated([
    invalid('BR-A', 'tomorrow', 'xs:date'),
    invalid('BR-B', 'tomorrow', 'xs:date'),
    invalid('BR-B', 'tomorrow', 'xs:date'),
    invalid('BR-C', '12,5', 'xs:decimal'),
  ]);
  assert.equal(
    s,
    "4 rules could not be checked here: 'tomorrow' is not a date (BR-A, BR-B); '12,5' is not a number (BR-C).",
  );
  assert.doesNotMatch(s ?? '', /FORG|cn:|xs:/);
});

test('a type without words of its own is named as the schema names it', () => {
  assert.equal(
    describeNotEvaluated([invalid('BR-A', 'x', 'xs:gYear')]),
    "1 rule could not be checked here: 'x' is not a valid xs:gYear (BR-A).",
  );
});

test('rules outside the engine: named, as the CVS still checks them', () => {
  const entry = (ruleId: string): NotEvaluated => ({
    ruleId,
    cause: 'unsupported',
    reason: 'doc-available()',
  });
  assert.equal(
    describeNotEvaluated([entry('BR-U')]),
    '1 rule could not be checked here: BR-U uses XPath that this tool does not evaluate yet (the validation service checks it).',
  );
  const many = describeNotEvaluated(Array.from({ length: 8 }, (_, k) => entry(`BR-${k}`)));
  assert.equal(
    many,
    '8 rules could not be checked here: BR-0, BR-1, BR-2, BR-3, BR-4 and 3 more use XPath that this tool does not evaluate yet (the validation service checks them).',
  );
});

test("another error: the engine's own account, grouped by reason", () => {
  const e = (ruleId: string): NotEvaluated => ({
    ruleId,
    cause: 'error',
    reason: 'XPTY0004: cannot compare xs:date with xs:string',
  });
  assert.equal(
    describeNotEvaluated([e('BR-E1'), e('BR-E2')]),
    '2 rules could not be checked here: BR-E1, BR-E2 stopped on an error: XPTY0004: cannot compare xs:date with xs:string.',
  );
});

test('a notice without a subtype: no rule ran, and the sentence says why', () => {
  assert.equal(
    describeNotEvaluated([{ ruleId: '*', cause: 'no-phase', reason: 'no phase applies' }]),
    'no rule could be checked here: the notice names no subtype (cbc:SubTypeCode in efac:NoticeSubType), so no phase of the rules applies.',
  );
});

test('many distinct values: six parts, then how many more', () => {
  const s = describeNotEvaluated(Array.from({ length: 9 }, (_, k) => invalid(`BR-${k}`, `v${k}`, 'xs:date')));
  assert.ok(s?.endsWith("'v5' is not a date (BR-5); and 3 more."), s);
  assert.equal(s?.split(' is not a date').length, 7);
});
