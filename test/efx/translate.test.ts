// EFX to XPath, construct by construct, on a small hand-made field table. The expected XPath is the
// translation the Publications Office's Java toolkit documents for EFX 1 (efx-toolkit-java,
// EfxExpressionTranslatorV1Test, same field layout: /*/PathNode/TextField…) and, for paths, the
// expectations of eforms-core-java's XPathProcessorTest. Where this translator deliberately differs,
// the test says why next to the expectation. Every expected XPath also goes through the project's
// XPath parser, and a template's keys and values are run on a small notice with the schematron engine.

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: EFX text is written with ${…} blocks.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  EfxTranslationError,
  EfxTranslator,
  parseEfxSingleExpression,
  parseEfxTemplate,
  symbolsFromFieldsJson,
  type TranslateOptions,
} from '../../core/efx';
import { contextualize, joinPaths } from '../../core/xpath';
import type { XNode } from '../../core/xpath/document';
import { stringOf } from '../../core/xpath/values';
import { NoticeRunner, parsesAsXPath } from './efx-support';

const field = (id: string, xpathAbsolute: string, type: string, extra: Record<string, unknown> = {}) => ({
  id,
  xpathAbsolute,
  type,
  ...extra,
});
const FIELDS = {
  xmlStructure: [
    { id: 'ND-Root', xpathAbsolute: '/*' },
    { id: 'ND-SubNode', xpathAbsolute: '/*/SubNode', parentId: 'ND-Root' },
  ],
  fields: [
    field('BT-00-Text', '/*/PathNode/TextField', 'text'),
    field('BT-00-Attribute', '/*/PathNode/TextField/@Attribute', 'text'),
    field('BT-00-Text-Multilingual', '/*/PathNode/TextMultilingualField', 'text-multilingual'),
    field('BT-00-Number', '/*/PathNode/NumberField', 'number'),
    field('BT-00-Integer', '/*/PathNode/IntegerField', 'integer'),
    field('BT-00-Indicator', '/*/PathNode/IndicatorField', 'indicator'),
    field('BT-00-Code', '/*/PathNode/CodeField', 'code', {
      codeList: { value: { id: 'accessibility', type: 'flat' } },
    }),
    field('BT-00-StartDate', '/*/PathNode/StartDateField', 'date'),
    field('BT-00-EndDate', '/*/PathNode/EndDateField', 'date'),
    field('BT-00-StartTime', '/*/PathNode/StartTimeField', 'time'),
    field('BT-00-EndTime', '/*/PathNode/EndTimeField', 'time'),
    field('BT-00-Measure', '/*/PathNode/MeasureField', 'measure'),
    field('BT-01-SubLevel-Text', '/*/PathNode/ChildNode/SubLevelTextField', 'text'),
    field('BT-00-Sub-Code', '/*/SubNode/CodeField', 'code', {
      codeList: { value: { id: 'nuts-lvl3', type: 'flat', parentId: 'nuts' } },
    }),
  ],
};
const symbols = symbolsFromFieldsJson(FIELDS);
const CODES: Record<string, string[]> = { accessibility: ['code1', 'code2', 'code3'] };

function tr(context: string, efx: string, options: Partial<TranslateOptions> = {}): string {
  const t = new EfxTranslator({ symbols, codelist: (id) => CODES[id], ...options });
  const out = t.expression(efx, context).xpath;
  // Without expandAxes the output may name axes outside core/schematron's subset.
  if (options.expandAxes !== false) parsesAsXPath(out);
  return out;
}

const MEASURE = (path: string): string =>
  `(for $F in ${path} return (if ($F/@unitCode='WEEK') then xs:dayTimeDuration(concat('P', $F/number() * 7, 'D')) else if ($F/@unitCode='DAY') then xs:dayTimeDuration(concat('P', $F/number(), 'D')) else if ($F/@unitCode='YEAR') then xs:yearMonthDuration(concat('P', $F/number(), 'Y')) else if ($F/@unitCode='MONTH') then xs:yearMonthDuration(concat('P', $F/number(), 'M')) else ()))`;

describe('paths (eforms-core-java XPathProcessorTest expectations)', () => {
  const cases: [string, string, string][] = [
    ['/a/b/c', '/a/b/c', '.'],
    ['/a/b/c[d = e]', '/a/b/c[d = e][f = g]', '.[f = g]'],
    ['', '/a/b/c', '/a/b/c'],
    ['/a/b', '/a/b/c', 'c'],
    ['/a/b/c', '/a/b', '..'],
    ['/a/b/c', '/a/b/d', '../d'],
    ['/a/b/c/d', '/a/b/x/y', '../../x/y'],
    ['/a/b/c/d', '/a/x/y/z', '../../../x/y/z'],
    ['/a/b/c', '/x/y/z', '../../../x/y/z'],
    ['/a/b', '/a/c/@attribute', '../c/@attribute'],
    ['/a/b/@attribute', '/a/b/c/d', '../c/d'],
    ['/a/b/c/@d', '/a/b/c/@x', '../@x'],
    ['/a/b/c/@d', '/a/b/c/@d', '.'],
    ['/a/b/c', "/a/b/d[x/y = 'z']", "../d[x/y = 'z']"],
    ['/a/b/c', "/a/b/c[x/y = 'z']", ".[x/y = 'z']"],
    ["/a/b/c[e/f = 'z']", '/a/b/c', '.'],
    ['/a/b/c', "/a/b[u/v = 'w']/c[x/y = 'z']", "..[u/v = 'w']/c[x/y = 'z']"],
    ["/a/b/c[e/f = 'z']", '/a/b/d', '../d'],
    ["/a/b/c[e = 'f']", "/a/b/d[x = 'y']", "../d[x = 'y']"],
    ['/a/b/c', "/a/b[x/y = 'z']/d", "..[x/y = 'z']/d"],
    ["/a/b[e/f = 'z']/c", '/a/b/d', '../d'],
    ["/a/b[e/f = 'z']/c", "/a/b[e/f = 'z']/d", '../d'],
    ["/a/b[e = 'f']/c", "/a/b[x = 'y']/d", "../../b[x = 'y']/d"],
    ["/a/b[e = 'f']/c", "/a/b/c[x = 'y']/d", ".[x = 'y']/d"],
    ['/a/b[e]/c', '/a/b[e][f]/c/d', '..[f]/c/d'],
    ['/a/b[e][f]/c', '/a/b[e]/c/d', 'd'],
    ['/a/b[e][f]/c', '/a/b[e][f]/c/d', 'd'],
    ['/a/b[e][f]/c', '/a/b[e][x]/c/d', '../../b[e][x]/c/d'],
  ];
  for (const [ctx, path, expected] of cases) {
    test(`contextualize(${ctx || "''"}, ${path})`, () => assert.equal(contextualize(ctx, path), expected));
  }
  test('join', () => {
    assert.equal(joinPaths('a/b', 'c/d'), 'a/b/c/d');
    assert.equal(joinPaths('a/b/c', '../../x/y'), 'a/x/y');
    assert.equal(joinPaths('$x', '../y'), '$x/../y', 'a variable is never cancelled by ..');
  });
});

describe('conditions', () => {
  test('and, or, parentheses, boolean literals', () => {
    assert.equal(tr('BT-00-Text', '(ALWAYS or TRUE) and NEVER'), '(true() or true()) and false()');
    assert.equal(tr('BT-00-Text', 'ALWAYS or NEVER'), 'true() or false()');
    assert.equal(tr('BT-00-Text', 'ALWAYS and 1 + 1 == 2'), 'true() and 1 + 1 = 2');
  });
  test('in, not in, code lists', () => {
    assert.equal(tr('BT-00-Text', "'x' not in ('a', 'b', 'c')"), "not('x' = ('a','b','c'))");
    assert.equal(tr('BT-00-Text', "'a' in ('a', 'b', 'c')"), "'a' = ('a','b','c')");
    assert.equal(tr('BT-00-Text', '4 in (1, BT-00-Number, 3)'), '4 = (1,../NumberField/number(),3)');
    assert.equal(tr('BT-00-Text', "'a' in (accessibility)"), "'a' = ('code1','code2','code3')");
  });
  test('is empty, is present, is unique in', () => {
    assert.equal(tr('ND-Root', 'BT-00-Text is empty'), "PathNode/TextField/normalize-space(text()) = ''");
    assert.equal(
      tr('ND-Root', 'BT-00-Text is not empty'),
      "PathNode/TextField/normalize-space(text()) != ''",
    );
    assert.equal(tr('ND-Root', 'BT-00-Text is present'), 'PathNode/TextField');
    assert.equal(tr('ND-Root', 'BT-00-Text is not present'), 'not(PathNode/TextField)');
    assert.equal(
      tr('ND-Root', 'BT-00-Text is unique in /BT-00-Text'),
      'count(for $x in PathNode/TextField, $y in /*/PathNode/TextField[. = $x] return $y) = 1',
    );
    assert.equal(
      tr('ND-Root', 'BT-00-Text is not unique in /BT-00-Text'),
      'not(count(for $x in PathNode/TextField, $y in /*/PathNode/TextField[. = $x] return $y) = 1)',
    );
  });
  test('like', () => {
    // The toolkit writes fn:matches; matches is the same function in the default function namespace.
    assert.equal(tr('BT-00-Text', "'123' like '[0-9]*'"), "matches(normalize-space('123'), '[0-9]*')");
    assert.equal(
      tr('BT-00-Text', "'123' not like '[0-9]*'"),
      "not(matches(normalize-space('123'), '[0-9]*'))",
    );
  });
});

describe('comparisons by type', () => {
  test('fields of each type read their value', () => {
    assert.equal(tr('ND-Root', "BT-00-Text == 'abc'"), "PathNode/TextField/normalize-space(text()) = 'abc'");
    assert.equal(
      tr('ND-Root', 'BT-00-Number <= BT-00-Integer'),
      'PathNode/NumberField/number() <= PathNode/IntegerField/number()',
    );
    assert.equal(
      tr('ND-Root', 'BT-00-Indicator != BT-00-Indicator'),
      'PathNode/IndicatorField != PathNode/IndicatorField',
    );
    assert.equal(
      tr('ND-Root', 'BT-00-StartDate <= BT-00-EndDate'),
      'PathNode/StartDateField/xs:date(text()) <= PathNode/EndDateField/xs:date(text())',
    );
    assert.equal(
      tr('ND-Root', 'BT-00-StartTime <= BT-00-EndTime'),
      'PathNode/StartTimeField/xs:time(text()) <= PathNode/EndTimeField/xs:time(text())',
    );
    assert.equal(
      tr('ND-Root', 'BT-00-Integer - BT-00-Number > 0'),
      'PathNode/IntegerField/number() - PathNode/NumberField/number() > 0',
    );
  });
  test('literals of each type', () => {
    assert.equal(
      tr('ND-Root', '2022-01-01Z > BT-00-StartDate'),
      "xs:date('2022-01-01Z') > PathNode/StartDateField/xs:date(text())",
    );
    assert.equal(
      tr('ND-Root', '00:01:00Z > BT-00-EndTime'),
      "xs:time('00:01:00Z') > PathNode/EndTimeField/xs:time(text())",
    );
    assert.equal(
      tr('BT-00-Text', '13:00:10+01:00 > 21:20:30+02:00'),
      "xs:time('13:00:10+01:00') > xs:time('21:20:30+02:00')",
    );
    assert.equal(tr('BT-00-Text', 'BT-00-Indicator != ALWAYS'), '../IndicatorField != true()');
    assert.equal(
      tr('BT-00-Text', '2 > 1 and 3>=1 and 1==1 and 4<5 and 5<=5 and BT-00-Number > BT-00-Integer'),
      '2 > 1 and 3 >= 1 and 1 = 1 and 4 < 5 and 5 <= 5 and ../NumberField/number() > ../IntegerField/number()',
    );
    assert.equal(tr('BT-00-Text', "'aaa' < 'bbb'"), "'aaa' < 'bbb'");
  });
  test('durations compare from the same date', () => {
    assert.equal(
      tr('BT-00-Text', 'P1Y == P12M'),
      "boolean(for $T in (current-date()) return ($T + xs:yearMonthDuration('P1Y') = $T + xs:yearMonthDuration('P12M')))",
    );
    assert.equal(
      tr('BT-00-Text', 'P3W > P7D'),
      "boolean(for $T in (current-date()) return ($T + xs:dayTimeDuration('P21D') > $T + xs:dayTimeDuration('P7D')))",
    );
    assert.equal(
      tr('ND-Root', 'P3M > (BT-00-EndDate - BT-00-StartDate)'),
      "boolean(for $T in (current-date()) return ($T + xs:yearMonthDuration('P3M') > $T + xs:dayTimeDuration(PathNode/EndDateField/xs:date(text()) - PathNode/StartDateField/xs:date(text()))))",
    );
    assert.equal(
      tr('ND-Root', 'BT-00-Measure <= BT-00-Measure'),
      `boolean(for $T in (current-date()) return ($T + ${MEASURE('PathNode/MeasureField')} <= $T + ${MEASURE('PathNode/MeasureField')}))`,
    );
  });
  test('duration arithmetic', () => {
    assert.equal(tr('ND-Root', '-P3M'), "xs:yearMonthDuration('-P3M')");
    assert.equal(tr('ND-Root', '2 * -P3M * -3'), "(-3 * (2 * xs:yearMonthDuration('-P3M')))");
    assert.equal(
      tr('ND-Root', '2 * measure:BT-00-Measure * -3'),
      `(-3 * (2 * ${MEASURE('PathNode/MeasureField')}))`,
    );
    assert.equal(
      tr('ND-Root', 'P3D + (BT-00-StartDate - BT-00-EndDate)'),
      "(xs:dayTimeDuration('P3D') + xs:dayTimeDuration(PathNode/StartDateField/xs:date(text()) - PathNode/EndDateField/xs:date(text())))",
    );
    assert.equal(
      tr('ND-Root', 'P3D - (BT-00-StartDate - BT-00-EndDate)'),
      "(xs:dayTimeDuration('P3D') - xs:dayTimeDuration(PathNode/StartDateField/xs:date(text()) - PathNode/EndDateField/xs:date(text())))",
    );
    assert.equal(
      tr('BT-00-Text', 'BT-00-Measure in (P1M, P3M, P6M)'),
      `${MEASURE('../MeasureField')} = (xs:yearMonthDuration('P1M'),xs:yearMonthDuration('P3M'),xs:yearMonthDuration('P6M'))`,
    );
  });
  test('numbers', () => {
    assert.equal(tr('BT-00-Text', '3 * 4'), '3 * 4');
    assert.equal(tr('BT-00-Text', '4 + 4'), '4 + 4');
    assert.equal(tr('BT-00-Text', '(2 + 2)*4'), '(2 + 2) * 4');
    assert.equal(tr('BT-00-Text', '3.1415'), '3.1415');
    assert.equal(tr('BT-00-Text', '7 / 2 % 3'), '7 div 2 mod 3');
  });
});

describe('conditionals and iterations', () => {
  test('if then else (XPath 2.0 needs the condition in parentheses, the toolkit omits them)', () => {
    assert.equal(tr('ND-Root', "if 1 > 2 then 'a' else 'b'"), "(if (1 > 2) then 'a' else 'b')");
    assert.equal(
      tr('ND-Root', "if 'a' > BT-00-Text then 'a' else 'b'"),
      "(if ('a' > PathNode/TextField/normalize-space(text())) then 'a' else 'b')",
    );
    assert.equal(
      tr('ND-Root', 'if BT-00-Indicator then TRUE else FALSE'),
      '(if (PathNode/IndicatorField) then true() else false())',
    );
    assert.equal(
      tr('ND-Root', 'if 1 > 2 then 1 else BT-00-Number'),
      '(if (1 > 2) then 1 else PathNode/NumberField/number())',
    );
  });
  test('quantified expressions', () => {
    assert.equal(
      tr('ND-Root', "every text:$x in ('a', 'b', 'c') satisfies $x <= 'a'"),
      "every $x in ('a','b','c') satisfies $x <= 'a'",
    );
    assert.equal(
      tr('ND-Root', "every text:$x in BT-00-Text satisfies $x <= 'a'"),
      "every $x in PathNode/TextField/normalize-space(text()) satisfies $x <= 'a'",
    );
    assert.equal(
      tr('ND-Root', 'every indicator:$x in (TRUE, FALSE, ALWAYS) satisfies $x'),
      'every $x in (true(),false(),true()) satisfies $x',
    );
    assert.equal(
      tr('ND-Root', 'every number:$x in BT-00-Number satisfies $x <= 1'),
      'every $x in PathNode/NumberField/number() satisfies $x <= 1',
    );
    assert.equal(
      tr(
        'ND-Root',
        'every date:$x in BT-00-StartDate, date:$y in ($x, 2022-02-02Z), indicator:$i in (ALWAYS, NEVER) satisfies $x <= 2012-01-01Z',
      ),
      "every $x in PathNode/StartDateField/xs:date(text()), $y in ($x,xs:date('2022-02-02Z')), $i in (true(),false()) satisfies $x <= xs:date('2012-01-01Z')",
    );
    assert.equal(
      tr('ND-Root', 'some measure:$x in (P1D, P2D, P1W) satisfies $x <= P1D'),
      "some $x in (xs:dayTimeDuration('P1D'),xs:dayTimeDuration('P2D'),xs:dayTimeDuration('P7D')) satisfies boolean(for $T in (current-date()) return ($T + $x <= $T + xs:dayTimeDuration('P1D')))",
    );
  });
  test('for … return', () => {
    assert.equal(
      tr('ND-Root', "count(for text:$x in BT-00-Text return concat($x, '-xyz'))"),
      "count(for $x in PathNode/TextField/normalize-space(text()) return concat($x, '-xyz'))",
    );
    assert.equal(
      tr('ND-Root', "2022-01-01Z in (for text:$x in ('a', 'b', 'c') return date($x))"),
      "xs:date('2022-01-01Z') = (for $x in ('a','b','c') return xs:date($x))",
    );
    assert.equal(
      tr('ND-Root', 'sum(for number:$v in BT-00-Number return $v +1)'),
      'sum(for $v in PathNode/NumberField/number() return $v + 1)',
    );
  });
  test('context variables', () => {
    assert.equal(
      tr('ND-Root', 'for context:$n in ND-SubNode return $n::BT-00-Sub-Code'),
      'for $n in SubNode return $n/CodeField/normalize-space(text())',
    );
    assert.equal(
      tr('ND-Root', "for context:$n in ND-SubNode[BT-00-Sub-Code == 'x'] return $n::BT-00-Text"),
      "for $n in SubNode[CodeField/normalize-space(text()) = 'x'] return $n/../PathNode/TextField/normalize-space(text())",
    );
  });
});

describe('references', () => {
  test('attributes', () => {
    assert.equal(tr('ND-Root', "BT-00-Attribute == 'text'"), "PathNode/TextField/@Attribute = 'text'");
    assert.equal(tr('BT-00-Text', "BT-00-Attribute == 'text'"), "./@Attribute = 'text'");
    assert.equal(tr('ND-Root', 'BT-00-Code/@listName'), 'PathNode/CodeField/@listName');
    assert.equal(tr('BT-00-Code', 'BT-00-Code/@listName'), './@listName');
  });
  test('predicates are read from the field they filter', () => {
    assert.equal(tr('ND-Root', "BT-00-Indicator['a' == 'a']"), "PathNode/IndicatorField['a' = 'a']");
    assert.equal(
      tr('ND-Root', "BT-00-Indicator[BT-00-Code == 'a']"),
      "PathNode/IndicatorField[../CodeField/normalize-space(text()) = 'a']",
    );
  });
  test('absolute, sibling, other notice', () => {
    assert.equal(tr('BT-00-Text', '/BT-00-Indicator'), '/*/PathNode/IndicatorField');
    assert.equal(tr('BT-00-Text', 'BT-00-Indicator'), '../IndicatorField');
    assert.equal(
      tr('ND-Root', "notice('da4d46e9-490b-41ff-a2ae-8166d356a619')/BT-00-Text"),
      "fn:doc(concat($urlPrefix, 'da4d46e9-490b-41ff-a2ae-8166d356a619'))/*/PathNode/TextField/normalize-space(text())",
    );
  });
  test('context overrides', () => {
    assert.equal(tr('BT-00-Code', 'BT-01-SubLevel-Text::BT-00-Text'), '../TextField/normalize-space(text())');
    assert.equal(tr('BT-00-Code', 'BT-01-SubLevel-Text::BT-00-Integer'), '../IntegerField/number()');
    assert.equal(tr('BT-00-Text', 'ND-Root::BT-00-Integer'), '../../PathNode/IntegerField/number()');
    // The toolkit drops the node's predicate here; it is kept, since it restricts the nodes read.
    assert.equal(
      tr('BT-00-Text', 'ND-Root[BT-00-Indicator == TRUE]::BT-00-Integer'),
      '../..[PathNode/IndicatorField = true()]/PathNode/IntegerField/number()',
    );
  });
  test('axes', () => {
    assert.equal(
      tr('ND-Root', 'ND-Root::preceding::BT-00-Integer', { expandAxes: false }),
      './preceding::PathNode/IntegerField/number()',
    );
    // preceding:: is outside core/schematron's subset: it is written with its XPath 2.0 definition.
    assert.equal(
      tr('ND-Root', 'ND-Root::preceding::BT-00-Integer'),
      './ancestor-or-self::node()/preceding-sibling::node()/descendant-or-self::PathNode/IntegerField/number()',
    );
  });
  test('measures and multilingual texts', () => {
    assert.equal(tr('ND-Root', 'BT-00-Measure'), MEASURE('PathNode/MeasureField'));
    assert.equal(
      tr('ND-Root', 'BT-00-Text-Multilingual'),
      'PathNode/TextMultilingualField/normalize-space(text())',
    );
    assert.equal(
      tr('ND-Root', 'BT-00-Text-Multilingual', { multilingual: 'preferred-language' }),
      'efx:preferred-language-text(PathNode/TextMultilingualField)',
    );
    assert.equal(
      tr('ND-Root', "BT-00-Text-Multilingual[BT-00-Text-Multilingual/@languageID == 'eng']", {
        multilingual: 'preferred-language',
      }),
      "PathNode/TextMultilingualField[./@languageID = 'eng']/normalize-space(text())",
    );
  });
});

describe('functions', () => {
  const cases: [string, string][] = [
    ['not(ALWAYS)', 'not(true())'],
    ['not(1 + 1 == 2)', 'not(1 + 1 = 2)'],
    ["contains(BT-00-Text, 'xyz')", "contains(PathNode/TextField/normalize-space(text()), 'xyz')"],
    ["starts-with(BT-00-Text, 'abc')", "starts-with(PathNode/TextField/normalize-space(text()), 'abc')"],
    ["ends-with(BT-00-Text, 'abc')", "ends-with(PathNode/TextField/normalize-space(text()), 'abc')"],
    ['count(BT-00-Text)', 'count(PathNode/TextField/normalize-space(text()))'],
    ['number(BT-00-Text)', 'number(PathNode/TextField/normalize-space(text()))'],
    ['sum(BT-00-Number)', 'sum(PathNode/NumberField/number())'],
    ['string-length(BT-00-Text)', 'string-length(PathNode/TextField/normalize-space(text()))'],
    ['substring(BT-00-Text, 1, 3)', 'substring(PathNode/TextField/normalize-space(text()), 1, 3)'],
    ['substring(BT-00-Text, 2)', 'substring(PathNode/TextField/normalize-space(text()), 2)'],
    // The toolkit adapts the format to its decimal-format option; with the default one it is this.
    ['string(123)', "format-number(123, '0.##########')"],
    ["concat('abc', 'def')", "concat('abc', 'def')"],
    ["format-number(BT-00-Number, '#,##0.00')", "format-number(PathNode/NumberField/number(), '#,##0.00')"],
    ['date(BT-00-Text)', 'xs:date(PathNode/TextField/normalize-space(text()))'],
    ['time(BT-00-Text)', 'xs:time(PathNode/TextField/normalize-space(text()))'],
    ['day-time-duration(BT-00-Text)', 'xs:dayTimeDuration(PathNode/TextField/normalize-space(text()))'],
    ['year-month-duration(BT-00-Text)', 'xs:yearMonthDuration(PathNode/TextField/normalize-space(text()))'],
    [
      'add-measure(BT-00-StartDate, BT-00-Measure)',
      `(PathNode/StartDateField/xs:date(text()) + ${MEASURE('PathNode/MeasureField')})`,
    ],
    [
      'subtract-measure(BT-00-StartDate, P3D)',
      "(PathNode/StartDateField/xs:date(text()) - xs:dayTimeDuration('P3D'))",
    ],
    ["distinct-values(('one', 'two', 'one'))", "distinct-values(('one','two','one'))"],
    ['distinct-values(BT-00-Text)', 'distinct-values(PathNode/TextField/normalize-space(text()))'],
    [
      "value-union(('one', 'two'), ('two', 'three', 'four'))",
      "distinct-values((('one','two'), ('two','three','four')))",
    ],
    [
      "value-intersect(('one', 'two'), ('two', 'three', 'four'))",
      "distinct-values(for $L1 in ('one','two') return if (some $L2 in ('two','three','four') satisfies $L1 = $L2) then $L1 else ())",
    ],
    [
      "value-except(('one', 'two'), ('two', 'three', 'four'))",
      "distinct-values(for $L1 in ('one','two') return if (every $L2 in ('two','three','four') satisfies $L1 != $L2) then $L1 else ())",
    ],
    ['sequence-equal((1, 2, 3), (2, 3, 4))', 'deep-equal(sort((1,2,3)), sort((2,3,4)))'],
  ];
  for (const [efx, xpath] of cases) test(efx, () => assert.equal(tr('ND-Root', efx), xpath));
  test('string escapes become doubled quotes', () => {
    assert.equal(tr('ND-Root', "'it\\'s'"), "'it''s'");
    assert.equal(tr('ND-Root', '"say \\"hi\\""'), '"say ""hi"""');
  });
});

describe('single expressions with parameters', () => {
  const run = (text: string, ...values: string[]): string => {
    const out = new EfxTranslator({ symbols }).singleExpression(parseEfxSingleExpression(text), values).xpath;
    parsesAsXPath(out);
    return out;
  };
  test('each literal type', () => {
    assert.equal(
      run('{ND-Root, text:$p1, text:$p2} ${$p1 == $p2}', "'hello'", "'world'"),
      "'hello' = 'world'",
    );
    assert.equal(run('{ND-Root, number:$p1, number:$p2} ${$p1 == $p2}', '1', '2'), '1 = 2');
    assert.equal(
      run('{ND-Root, date:$p1, date:$p2} ${$p1 == $p2}', '2018-01-01Z', '2020-01-01Z'),
      "xs:date('2018-01-01Z') = xs:date('2020-01-01Z')",
    );
    assert.equal(
      run('{ND-Root, indicator:$p1, indicator:$p2} ${$p1 == $p2}', 'ALWAYS', 'FALSE'),
      'true() = false()',
    );
    assert.equal(
      run('{ND-Root, measure:$p1, measure:$p2} ${$p1 == $p2}', 'P1Y', 'P2Y'),
      "boolean(for $T in (current-date()) return ($T + xs:yearMonthDuration('P1Y') = $T + xs:yearMonthDuration('P2Y')))",
    );
  });
  test('an unquoted text value is refused', () => {
    assert.throws(() => run('{ND-Root, text:$p1} ${$p1}', 'hello'), EfxTranslationError);
  });
});

describe('translation errors', () => {
  const t = new EfxTranslator({ symbols });
  const code = (efx: string, ctx = 'ND-Root'): string => {
    try {
      t.expression(efx, ctx);
    } catch (e) {
      assert.ok(e instanceof EfxTranslationError, String(e));
      return e.code;
    }
    return 'none';
  };
  test('unknown field, node, variable, code list', () => {
    assert.equal(code('BT-99-Nothing'), 'unknown-field');
    assert.equal(code('ND-Nothing::BT-00-Text'), 'unknown-node');
    assert.equal(code('$nope'), 'unknown-variable');
    assert.equal(code("'a' in (accessibility)"), 'unknown-codelist');
    assert.equal(code('for text:$x in BT-00-Text return $x::BT-00-Code'), 'not-a-context');
  });
  test('values of different types (the toolkit refuses the same ones)', () => {
    assert.equal(code("if 'a' > 'b' then BT-00-StartDate else BT-00-Text"), 'type-mismatch');
    assert.equal(code('4 in (1, BT-00-Text, 3)', 'BT-00-Text'), 'type-mismatch');
    assert.equal(code('value-union(BT-00-Text, BT-00-Number)'), 'type-mismatch');
    assert.equal(code('value-intersect(BT-00-Text, BT-00-Number)'), 'type-mismatch');
    assert.equal(code('value-except(BT-00-Text, BT-00-Number)'), 'type-mismatch');
    assert.equal(code('BT-00-Text == BT-00-Number'), 'type-mismatch');
    assert.equal(code('BT-00-StartDate in (1, 2)'), 'type-mismatch');
  });
});

describe('template translation errors are collected per line', () => {
  test('each faulty line is reported at its place; the others translate', () => {
    const text = [
      '{ND-Root} ok',
      '\t{ND-SubNode} $value',
      '\t{BT-00-Text} #{BT-00-Text} ${BT-99-Nothing}',
      '\t{BT-77-Missing} lost',
      '\t\t{BT-00-Code} still here, under the root',
    ].join('\n');
    const out = new EfxTranslator({ symbols }).template(parseEfxTemplate(text, 'e.efx'), text);
    assert.deepEqual(
      out.errors.map((e) => [e.line, e.column, e.code, e.file]),
      [
        [2, 15, 'not-a-context', 'e.efx'],
        [3, 15, 'type-mismatch', 'e.efx'],
        [3, 31, 'unknown-field', 'e.efx'],
        [4, 3, 'unknown-field', 'e.efx'],
      ],
    );
    assert.deepEqual(
      out.lines.map((l) => [l.line.line, l.contextXPath]),
      [
        [1, '/*'],
        [2, 'SubNode'],
        [3, 'PathNode/TextField'],
        [5, 'PathNode/CodeField'],
      ],
    );
  });
});

describe('a template, translated and run on a notice', () => {
  const TEMPLATE = [
    '// a hand-made template over the table above',
    '1 {ND-Root} #{auxiliary|text|main}',
    "\t{BT-00-Text[BT-00-Text != 'x']} #{name}: $value #{field|name|BT-00-Number} ${BT-00-Number}",
    '\t{BT-00-Code} #value',
    '\t{BT-00-Indicator} #{BT-00-Indicator}',
    "\t2 {ND-SubNode} #{code|name|${concat('x.', BT-00-Sub-Code)}} #{BT-00-Sub-Code}",
    '\t\t{BT-00-Sub-Code} ${BT-00-Sub-Code} // sub',
  ].join('\n');
  const NOTICE = `<Notice><PathNode><TextField>hello</TextField><NumberField>42</NumberField>
    <CodeField>c1</CodeField><IndicatorField>true</IndicatorField></PathNode>
    <SubNode><CodeField>FR101</CodeField></SubNode><SubNode><CodeField>DE300</CodeField></SubNode></Notice>`;
  const out = new EfxTranslator({ symbols }).template(parseEfxTemplate(TEMPLATE, 't.efx'), TEMPLATE);

  test('contexts are relative to the parent line', () => {
    assert.deepEqual(out.errors, []);
    assert.deepEqual(
      out.lines.map((l) => [l.line.line, l.contextXPath]),
      [
        [2, '/*'],
        [3, "PathNode/TextField[./normalize-space(text()) != 'x']"],
        [4, 'PathNode/CodeField'],
        [5, 'PathNode/IndicatorField'],
        [6, 'SubNode'],
        [7, 'CodeField'],
      ],
    );
    assert.equal(out.roots.length, 1);
    assert.equal(out.roots[0].children.length, 4);
  });

  test('parts: text, values, label keys', () => {
    const [, text, code, indicator, sub] = out.lines;
    assert.deepEqual(text.parts, [
      { kind: 'label', label: { kind: 'static', key: 'field|name|BT-00-Text' } },
      { kind: 'text', text: ': ' },
      { kind: 'value', xpath: './normalize-space(text())', type: 'string' },
      { kind: 'text', text: ' ' },
      { kind: 'label', label: { kind: 'static', key: 'field|name|BT-00-Number' } },
      { kind: 'text', text: ' ' },
      { kind: 'value', xpath: '../NumberField/number()', type: 'number' },
    ]);
    assert.deepEqual(code.parts[0], {
      kind: 'label',
      label: {
        kind: 'code',
        valueXPath: './normalize-space(text())',
        codelist: 'accessibility',
        keyXPath:
          "distinct-values(for $item in ./normalize-space(text()) return concat('code|name|accessibility.', $item))",
      },
    });
    assert.equal(indicator.parts[0].kind === 'label' && indicator.parts[0].label.kind, 'indicator');
    // A tailored code list is labelled from its root list (nuts-lvl3 -> nuts).
    assert.equal(
      sub.parts[2].kind === 'label' && sub.parts[2].label.kind === 'code' && sub.parts[2].label.codelist,
      'nuts',
    );
  });

  test('the XPath runs on a notice and gives the keys the translations files use', () => {
    const runner = new NoticeRunner(NOTICE);
    const str = (x: string, item: XNode): string[] =>
      (runner.run(x, item) ?? ['<unsupported>']).map(stringOf);
    const nodes = (x: string, item: XNode): XNode[] => (runner.run(x, item) ?? []) as XNode[];
    const [root, text, code, indicator, sub, subCode] = out.lines;
    const rootNode = nodes(root.contextXPath, runner.doc.node)[0];
    assert.equal(rootNode?.local, 'Notice');
    const textNode = nodes(text.contextXPath, rootNode)[0];
    assert.ok(textNode);
    const value = (l: typeof text, i: number): string => {
      const p = l.parts[i];
      assert.ok(p.kind === 'value');
      return p.xpath;
    };
    assert.deepEqual(str(value(text, 2), textNode), ['hello']);
    assert.deepEqual(str(value(text, 6), textNode), ['42']);
    const key = (l: typeof text, i: number): string => {
      const p = l.parts[i];
      assert.ok(p.kind === 'label' && p.label.kind !== 'static');
      // distinct-values is outside the engine's subset: the key is rebuilt from the value path.
      return p.label.kind === 'dynamic' ? p.label.keyXPath : p.label.valueXPath;
    };
    assert.deepEqual(str(key(code, 0), nodes(code.contextXPath, rootNode)[0]), ['c1']);
    assert.deepEqual(str(key(indicator, 0), nodes(indicator.contextXPath, rootNode)[0]), ['true']);
    const subs = nodes(sub.contextXPath, rootNode);
    assert.equal(subs.length, 2);
    assert.deepEqual(str(key(sub, 0), subs[1]), ['code|name|x.DE300']);
    assert.deepEqual(str(value(subCode, 0), nodes(subCode.contextXPath, subs[0])[0]), ['FR101']);
  });
});
