// Issue 21, item 10: numbers and durations cast to strings as XPath writes them. The expected strings
// are the canonical forms of XPath 2.0 F&O 17.1.2 (casting xs:double to xs:string: below 1e-6 and from
// 1e6 on, a mantissa with one digit before the point, `E`, the exponent) and of XML Schema Part 2
// 3.2.6 (durations, seconds with any number of fractional digits), worked out by hand.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { indexXml } from '../../core/notice/xml-index';
import { compile, ebv, Runtime, type Scope } from '../../core/xpath/compile';
import { XDocument } from '../../core/xpath/document';
import { parseXPath } from '../../core/xpath/parser';
import { type Item, parseDate, stringOf } from '../../core/xpath/values';

const NS = new Map([['xs', 'http://www.w3.org/2001/XMLSchema']]);

function run(expr: string): Item[] {
  const doc = new XDocument(indexXml('<n/>'));
  const rt = new Runtime();
  rt.reset(doc, parseDate('2024-01-15Z'));
  const scope: Scope = { globals: new Map(), locals: new Map(), nextSlot: { n: 0 } };
  return compile(parseXPath(expr, NS), rt, scope)({ item: doc.root as Item, pos: 1, size: 1 });
}
const str = (expr: string): string => run(expr).map(stringOf).join('|');

describe('xs:double cast to xs:string (F&O 17.1.2)', () => {
  const cases: [string, string][] = [
    ['string(1e21)', '1.0E21'],
    ['string(number("1.5e25"))', '1.5E25'],
    ['string(-1e22)', '-1.0E22'],
    ['string(1e-7)', '1.0E-7'],
    ['string(number("2.5e-9"))', '2.5E-9'],
    ['string(0.000001)', '0.000001'],
    ['string(12.5)', '12.5'],
    ['string(1 div 0)', 'INF'],
  ];
  for (const [expr, want] of cases) test(`${expr} = ${want}`, () => assert.equal(str(expr), want));
});

describe('xs:dayTimeDuration keeps fractions of a millisecond', () => {
  test('written back whole', () => {
    assert.equal(str('string(xs:dayTimeDuration("PT0.0001S"))'), 'PT0.0001S');
    assert.equal(str('string(xs:dayTimeDuration("P1DT2H3M4.0005S"))'), 'P1DT2H3M4.0005S');
  });
  test('compared and added without rounding', () => {
    assert.equal(ebv(run('xs:dayTimeDuration("PT0.0001S") gt xs:dayTimeDuration("PT0S")')), true);
    assert.equal(ebv(run('xs:dayTimeDuration("PT0.0004S") = xs:dayTimeDuration("PT0S")')), false);
    assert.equal(
      str('string(xs:dayTimeDuration("PT0.0004S") + xs:dayTimeDuration("PT0.0002S"))'),
      'PT0.0006S',
    );
    assert.equal(str('string(xs:dayTimeDuration("PT0.0003S") * 2)'), 'PT0.0006S');
  });
});
