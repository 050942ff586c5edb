// XPath 2.0 semantics the SDK rules rely on, checked against the values the XPath and XSD
// specifications give (F&O 3.0 examples where there is one), not against our own output.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { indexXml } from '../../core/notice/xml-index';
import { compile, ebv, Runtime, type Scope } from '../../core/xpath/compile';
import { XDocument } from '../../core/xpath/document';
import { parseXPath } from '../../core/xpath/parser';
import { type Item, parseDate, stringOf, XPathDynamicError } from '../../core/xpath/values';
import { compileXsdRegex } from '../../core/xpath/xsd-regex';

const NS = new Map([
  ['xs', 'http://www.w3.org/2001/XMLSchema'],
  ['cbc', 'urn:cbc'],
]);

const NOTICE = `<n xmlns:cbc="urn:cbc">
  <cbc:Amount>10</cbc:Amount><cbc:Amount>2.50</cbc:Amount>
  <cbc:Code listName="x">a</cbc:Code><cbc:Code>b</cbc:Code>
  <cbc:Date>2024-02-29+01:00</cbc:Date><cbc:End>2024-03-31Z</cbc:End>
  <cbc:Text>  several   spaced
 words </cbc:Text><cbc:Empty/><cbc:Name>Ærø Å</cbc:Name>
</n>`;

function run(expr: string, today = '2024-01-15'): Item[] {
  const doc = new XDocument(indexXml(NOTICE));
  const rt = new Runtime();
  rt.reset(doc, parseDate(`${today}Z`));
  const scope: Scope = { globals: new Map(), locals: new Map(), nextSlot: { n: 0 } };
  return compile(parseXPath(expr, NS), rt, scope)({ item: doc.root as Item, pos: 1, size: 1 });
}
const bool = (expr: string, today?: string): boolean => ebv(run(expr, today));
const str = (expr: string, today?: string): string => run(expr, today).map(stringOf).join('|');

describe('general comparisons', () => {
  test('are existential over both sequences', () => {
    assert.equal(bool("cbc:Code = 'b'"), true);
    assert.equal(bool("cbc:Code != 'a'"), true, 'b differs from a');
    assert.equal(bool("cbc:Code = ('c', 'd')"), false);
    assert.equal(bool("cbc:Missing = 'a'"), false, 'an empty side is never equal');
    assert.equal(bool("cbc:Missing != 'a'"), false, 'nor different');
  });
  test('untypedAtomic takes the type of the other side', () => {
    assert.equal(bool('cbc:Amount = 2.5'), true, 'numeric: 2.50 = 2.5');
    assert.equal(bool("cbc:Amount = '2.5'"), false, 'string: 2.50 is not 2.5');
    assert.equal(bool('cbc:Amount > 9'), true);
    assert.equal(bool("cbc:Amount > '9'"), false, "string order: '10' and '2.50' are both before '9'");
    assert.equal(bool("cbc:Date = xs:date('2024-02-29+01:00')"), true);
  });
  test('a literal code list of many values behaves as the sequence it is', () => {
    const codes = Array.from({ length: 1500 }, (_, i) => `'c${i}'`);
    assert.equal(bool(`cbc:Code = (${codes.join(',')}, 'b')`), true);
    assert.equal(bool(`cbc:Code = (${codes.join(',')})`), false);
    assert.equal(bool(`not(cbc:Code = (${codes.join(',')}))`), true);
  });
  test('untyped content that is not a number is an error against a number', () => {
    assert.throws(
      () => run('cbc:Code = 1'),
      (e: unknown) => e instanceof XPathDynamicError && e.code === 'FORG0001',
    );
  });
});

describe('value comparisons', () => {
  test('need singletons and compare untyped content as strings', () => {
    assert.equal(bool("cbc:Code[1] eq 'a'"), true);
    assert.deepEqual(run("cbc:Missing eq 'a'"), [], 'the empty sequence');
    assert.throws(
      () => run("cbc:Code eq 'a'"),
      (e: unknown) => e instanceof XPathDynamicError && e.code === 'XPTY0004',
    );
  });
});

describe('dates and durations', () => {
  test('date differences are day-time durations', () => {
    assert.equal(str("xs:date('2024-03-01Z') - xs:date('2024-02-01Z')"), 'P29D', '2024 is a leap year');
    assert.equal(str("xs:date('2024-02-29+01:00') - xs:date('2024-02-28Z')"), 'PT23H', 'time zones count');
  });
  test('adding months keeps the day when it can and clamps it otherwise (F&O 10.8.10)', () => {
    assert.equal(str("xs:date('2024-01-31Z') + xs:yearMonthDuration('P1M')"), '2024-02-29Z');
    assert.equal(str("xs:date('2023-01-31Z') + xs:yearMonthDuration('P1M')"), '2023-02-28Z');
    assert.equal(str("xs:date('2024-02-29Z') + xs:yearMonthDuration('P1Y')"), '2025-02-28Z');
    assert.equal(str("xs:date('2004-10-30Z') + xs:dayTimeDuration('P2DT2H30M0S')"), '2004-11-01Z');
  });
  test('durations built from content, as the SDK writes them', () => {
    assert.equal(str("xs:dayTimeDuration(concat('P', cbc:Amount[1]/number() * 7, 'D'))"), 'P70D');
    assert.equal(bool("xs:dayTimeDuration('P1D') > xs:dayTimeDuration('PT23H')"), true);
    assert.equal(bool("xs:yearMonthDuration('P1Y') = xs:yearMonthDuration('P12M')"), true);
  });
  test('current-date() is the date the caller sets', () => {
    assert.equal(str('current-date()', '2030-06-01'), '2030-06-01Z');
    assert.equal(bool('cbc:End/xs:date(text()) > current-date()', '2024-03-30'), true);
    assert.equal(bool('cbc:End/xs:date(text()) > current-date()', '2024-04-01'), false);
  });
  test('invalid dates are errors, as casts are', () => {
    assert.throws(
      () => run("xs:date('2023-02-29')"),
      (e: unknown) => e instanceof XPathDynamicError && e.code === 'FORG0001',
    );
    assert.throws(() => run("xs:date('24-01-01')"), XPathDynamicError);
  });
});

describe('strings and numbers', () => {
  test('normalize-space, string-length in code points, number', () => {
    assert.equal(str('normalize-space(cbc:Text)'), 'several spaced words');
    assert.equal(str("string-length('\u{1F600}a')"), '2');
    assert.equal(str('number(cbc:Code[1])'), 'NaN');
    assert.equal(str('sum(cbc:Amount)'), '12.5');
    assert.equal(str('cbc:Amount[2]/number() * 2'), '5');
  });
  test('a path step can be a function call', () => {
    assert.equal(str('cbc:Code/normalize-space(text())'), 'a|b');
    assert.equal(str('count(cbc:Empty/text())'), '0');
  });
  test('replace with XPath group references', () => {
    assert.equal(str("replace('abc', '(b)', '[$1]')"), 'a[b]c');
    assert.equal(str("replace(' x ', '^\\s+|\\s+$', '')"), 'x');
  });
});

describe('XSD regular expressions', () => {
  test('\\p{L} matches letters beyond ASCII (the u flag)', () => {
    assert.equal(bool("matches(cbc:Name, '^[\\p{L} ]+$')"), true);
    assert.equal(bool("matches('a1', '^\\p{L}+$')"), false);
  });
  test('XSD-only syntax is translated', () => {
    assert.equal(compileXsdRegex('^[a-z-[aeiou]]+$').test('bcd'), true, 'class subtraction');
    assert.equal(compileXsdRegex('^[a-z-[aeiou]]+$').test('bad'), false);
    assert.equal(compileXsdRegex('^\\i\\c*$').test('ns:name-1'), true, 'XML name characters');
    assert.equal(compileXsdRegex('^\\i\\c*$').test('1name'), false);
    assert.equal(compileXsdRegex('^.$').test('\n'), false, 'dot never matches a line end');
    assert.equal(compileXsdRegex('^\\s$').test('\u00a0'), false, 'XSD \\s is only space, tab, CR, LF');
  });
  test('the SDK date pattern accepts leap days only in leap years', () => {
    const sdk =
      '^((((1[6-9]|[2-9][0-9])[0-9]{2})-(((0[13578]|1[02]))-31|((0[13-9]|1[0-2])-(29|30))))|(((((1[6-9]|[2-9][0-9])(0[48]|[2468][048]|[13579][26])|((16|[2468][048]|[3579][26])00)))-02-29))|(((1[6-9]|[2-9][0-9])[0-9]{2})-((0[1-9])|(1[0-2]))-(0[1-9]|1[0-9]|2[0-8])))(Z|[-+]((0[0-9]|1[0-3]):([03]0|45)|14:00))$';
    assert.equal(compileXsdRegex(sdk).test('2024-02-29Z'), true);
    assert.equal(compileXsdRegex(sdk).test('2023-02-29Z'), false);
    assert.equal(compileXsdRegex(sdk).test('2023-02-28+01:00'), true);
  });
  test('untranslatable patterns are XPath errors (FORX0002) through the engine, not silent mismatches', () => {
    assert.throws(
      () => bool("matches('a', '(?=a)')"),
      (e: unknown) => e instanceof XPathDynamicError && e.code === 'FORX0002',
    );
  });
});

describe('quantifiers and for', () => {
  test('later bindings see earlier ones', () => {
    assert.equal(bool("some $a in cbc:Code, $b in cbc:Code[. != $a] satisfies $b = 'a'"), true);
    assert.equal(bool('every $a in cbc:Amount, $b in cbc:Amount[. = $a] satisfies $a is $b'), true);
    assert.equal(str('count(for $x in cbc:Code, $y in cbc:Code[. = $x] return $y)'), '2');
  });
  test('if/then/else and preceding-sibling', () => {
    assert.equal(str("if (cbc:Code[2]/preceding-sibling::cbc:Code = 'a') then 'yes' else 'no'"), 'yes');
    assert.equal(str('count(cbc:End/preceding-sibling::*)'), '5');
  });
});
