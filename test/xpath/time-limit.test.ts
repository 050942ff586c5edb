// Runtime.limitTime: an evaluation that loops past the time its caller allows stops with
// XPathTimeLimitError, and one within it gives the answer it gives without a limit. The clock is a
// counter of its own readings (the runtime reads it every 64 iterations of a for, some or every, and of
// a path step over several nodes), so the outcome depends on the iterations an expression makes, never
// on how fast the machine is.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { indexXml } from '../../core/notice/xml-index';
import { compile, Runtime, type Scope, XPathTimeLimitError } from '../../core/xpath/compile';
import { XDocument } from '../../core/xpath/document';
import { parseXPath } from '../../core/xpath/parser';
import { type Item, parseDate } from '../../core/xpath/values';

const doc = new XDocument(indexXml(`<r>${'<a><b/><b/></a>'.repeat(100)}</r>`));

function evaluator(expr: string): { rt: Runtime; run: () => Item[] } {
  const rt = new Runtime();
  rt.reset(doc, parseDate('2024-01-15Z'));
  const scope: Scope = { globals: new Map(), locals: new Map(), nextSlot: { n: 0 } };
  const fn = compile(parseXPath(expr, new Map()), rt, scope);
  return { rt, run: () => fn({ item: doc.node as Item, pos: 1, size: 1 }) };
}

/** A clock that moves one millisecond each time it is read. */
function countingClock(): { clock: () => number; readings: () => number } {
  let n = 0;
  return { clock: () => n++, readings: () => n };
}

describe('a time limit on evaluations', () => {
  // 100 × 100 × 100 bindings: a million iterations, about 15,600 readings of the clock.
  const cube = 'count(for $x in //a, $y in //a, $z in //a return 1)';

  test('a loop past the limit stops with XPathTimeLimitError, which names the limit', () => {
    const { rt, run } = evaluator(cube);
    const { clock, readings } = countingClock();
    rt.limitTime(100, clock);
    assert.throws(run, (e: unknown) => e instanceof XPathTimeLimitError && e.limitMs === 100);
    assert.ok(
      readings() > 100 && readings() < 110,
      `it stopped at the first look past the limit (${readings()})`,
    );
  });

  test('within the limit, and once it is lifted, the answer is the one without a limit', () => {
    const plain = evaluator(cube).run();
    assert.deepEqual(plain, [1_000_000]);
    const { rt, run } = evaluator(cube);
    rt.limitTime(1_000_000, countingClock().clock);
    assert.deepEqual(run(), plain);
    rt.limitTime(1, countingClock().clock);
    assert.throws(run, XPathTimeLimitError);
    rt.limitTime(undefined);
    assert.deepEqual(run(), plain, 'no limit after it is lifted');
  });

  test('path steps over many nodes look at the clock too, some and every as for', () => {
    const expressions = [
      'count((//a, //b)/..) > 0',
      'some $x in //a, $y in //b satisfies false()',
      'every $x in //b satisfies exists($x/..)',
    ];
    for (const expr of expressions) {
      const { rt, run } = evaluator(expr);
      assert.deepEqual(run(), [!expr.startsWith('some')], `${expr} without a limit`);
      rt.limitTime(0, countingClock().clock);
      assert.throws(run, XPathTimeLimitError, expr);
    }
  });
});
