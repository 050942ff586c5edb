// Placing SVRL assertions on a notice: every location step form, against a hand-written notice that
// uses other prefixes than the report, a default namespace, CRLF, comments, CDATA and non-ASCII text.
// Expected positions come from searching the text for the start tag, never from the index.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Finding } from '../../core/findings/finding';
import { INPUT_LIMITS } from '../../core/notice/limits';
import { indexXml } from '../../core/notice/xml-index';
import { assertionMessage, mapSvrl, resolveLocation, severityOf } from '../../core/svrl/mapping';
import type { SvrlAssertion, SvrlReport } from '../../core/svrl/report';

const CN = 'urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

const NOTICE = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<!-- Évaluation 𝔘: a comment before the root -->',
  `<ContractNotice xmlns="${CN}" xmlns:a="${CAC}"`,
  `    xmlns:b="${CBC}">`,
  '  <b:ID schemeName="notice-id">𝔘𝔘 notice</b:ID>',
  '  <a:ProcurementProjectLot>',
  '    <b:ID schemeName="Lot">LOT-0001</b:ID>',
  '    <a:ProcurementProject><b:Name>Évaluation</b:Name></a:ProcurementProject>',
  '  </a:ProcurementProjectLot>',
  '  <!-- between the lots -->',
  '  <a:ProcurementProjectLot>',
  '    <b:ID schemeName="Lot">LOT-0002</b:ID>',
  '    <a:ProcurementProject>',
  '      <b:Description><![CDATA[ <b:Name> is not an element here ]]></b:Description>',
  '      <a:MainCommodityClassification>',
  '        <b:ItemClassificationCode listName="cpv">45000000</b:ItemClassificationCode>',
  '      </a:MainCommodityClassification>',
  '    </a:ProcurementProject>',
  '  </a:ProcurementProjectLot>',
  '</ContractNotice>',
  '',
].join('\r\n');

const NAMESPACES = new Map([
  ['cn', CN],
  ['cac', CAC],
  ['cbc', CBC],
  ['other', 'urn:not-in-this-notice'],
]);

/** Offset of the n-th (1-based) occurrence of `needle`. */
function nth(needle: string, n = 1): number {
  let at = -1;
  for (let k = 0; k < n; k++) {
    at = NOTICE.indexOf(needle, at + 1);
    assert.ok(at >= 0, `${needle} occurs ${n} times`);
  }
  return at;
}

/** Zero-based line and UTF-16 column, by counting CRLF line ends before the offset. */
function pos(offset: number): { line: number; character: number } {
  const before = NOTICE.slice(0, offset);
  const lines = before.split('\r\n');
  return { line: lines.length - 1, character: lines[lines.length - 1].length };
}

const index = indexXml(NOTICE);

describe('resolveLocation: every step form', () => {
  test('the notice is well-formed', () => assert.deepEqual(index.errors, []));

  // [location, needle, occurrence]: the location selects the element whose start tag is that occurrence.
  const cases: [string, string, number][] = [
    ['/cn:ContractNotice', '<ContractNotice', 1],
    ['/cn:ContractNotice/cac:ProcurementProjectLot[2]/cac:ProcurementProject', '<a:ProcurementProject>', 2],
    ['/cn:ContractNotice/cac:ProcurementProjectLot/cbc:ID', '<b:ID schemeName="Lot"', 1],
    ['/cn:ContractNotice/cac:ProcurementProjectLot[1]/cbc:ID[1]', '<b:ID schemeName="Lot"', 1],
    [
      `/*:ContractNotice[namespace-uri()='${CN}'][1]/*:ProcurementProjectLot[namespace-uri()='${CAC}'][2]/*:ID[namespace-uri()='${CBC}'][1]`,
      '<b:ID schemeName="Lot"',
      2,
    ],
    [
      `/*:ContractNotice[namespace-uri()='${CN}']/*:ProcurementProjectLot[namespace-uri()='${CAC}']`,
      '<a:ProcurementProjectLot>',
      1,
    ],
    [
      `/Q{${CN}}ContractNotice[1]/Q{${CAC}}ProcurementProjectLot[2]/Q{${CAC}}ProcurementProject[1]`,
      '<a:ProcurementProject>',
      2,
    ],
    [`/Q{${CN}}ContractNotice/Q{${CBC}}ID`, '<b:ID schemeName="notice-id"', 1],
    ['/cn:ContractNotice/cbc:ID/text()', '<b:ID schemeName="notice-id"', 1],
    [
      '/cn:ContractNotice/cac:ProcurementProjectLot[2]/cac:ProcurementProject/cbc:Description',
      '<b:Description',
      1,
    ],
    ["/cn:ContractNotice/cbc:ID[@schemeName='notice-id']", '<b:ID schemeName="notice-id"', 1],
  ];
  for (const [location, needle, n] of cases) {
    test(location, () => {
      const r = resolveLocation(index, location, NAMESPACES);
      assert.ok(r, 'resolved');
      assert.equal(r.attribute, undefined);
      assert.equal(index.elements[r.element].start, nth(needle, n));
    });
  }

  const lotCode =
    '/cn:ContractNotice/cac:ProcurementProjectLot[2]/cac:ProcurementProject/cac:MainCommodityClassification/cbc:ItemClassificationCode';
  for (const step of ['@listName', '@*:listName', '@Q{}listName']) {
    test(`attribute step ${step}`, () => {
      const r = resolveLocation(index, `${lotCode}/${step}`, NAMESPACES);
      assert.ok(r && r.attribute !== undefined);
      const el = index.elements[r.element];
      assert.equal(el.start, nth('<b:ItemClassificationCode'));
      assert.equal(el.attributes[r.attribute].start, nth('listName="cpv"'));
    });
  }

  const unresolvable = [
    '',
    '/cn:ContractNotice/cac:ProcurementProjectLot[3]',
    '/other:ContractNotice',
    '/cn:ContractNotice/cbc:Missing',
    '/undeclared:ContractNotice',
    `${lotCode}/@missing`,
    '/cn:ContractNotice/cac:ProcurementProjectLot[[',
  ];
  for (const location of unresolvable) {
    test(`unresolvable: ${JSON.stringify(location)} gives null`, () => {
      assert.equal(resolveLocation(index, location, NAMESPACES), null);
    });
  }
});

function assertion(partial: Partial<SvrlAssertion>): SvrlAssertion {
  return {
    kind: 'failed-assert',
    id: 'BR-TEST-0001',
    location: '/cn:ContractNotice',
    role: 'ERROR',
    test: 'count(cbc:X) > 0',
    text: 'rule|text|BR-TEST-0001',
    diagnosticReferences: [],
    ...partial,
  };
}

function mapOne(a: SvrlAssertion): Finding {
  const report: SvrlReport = { namespaces: NAMESPACES, assertions: [a] };
  const findings = mapSvrl(index, report);
  assert.equal(findings.length, 1);
  return findings[0];
}

describe('mapSvrl: ranges, severities, messages', () => {
  test('an element: from its < to the end of its name, UTF-16 columns after astral characters', () => {
    const f = mapOne(assertion({ location: '/cn:ContractNotice/cac:ProcurementProjectLot[2]/cbc:ID' }));
    const start = nth('<b:ID schemeName="Lot"', 2);
    assert.deepEqual(f.range, { start: pos(start), end: pos(start + '<b:ID'.length) });
    assert.equal(f.resolved, true);
    assert.equal(f.source, 'cvs');
    assert.equal(f.id, 'BR-TEST-0001');
    assert.equal(f.location, '/cn:ContractNotice/cac:ProcurementProjectLot[2]/cbc:ID');
  });

  test('an attribute: its name', () => {
    const f = mapOne(
      assertion({
        location:
          '/cn:ContractNotice/cac:ProcurementProjectLot[2]/cac:ProcurementProject/cac:MainCommodityClassification/cbc:ItemClassificationCode/@listName',
      }),
    );
    const start = nth('listName="cpv"');
    assert.deepEqual(f.range, { start: pos(start), end: pos(start + 'listName'.length) });
  });

  test('an unresolvable location goes on the root start tag, says so, and is kept', () => {
    const f = mapOne(assertion({ location: '/cn:ContractNotice/cac:ProcurementProjectLot[7]' }));
    const root = nth('<ContractNotice');
    assert.deepEqual(f.range, { start: pos(root), end: pos(root + '<ContractNotice'.length) });
    assert.equal(f.resolved, false);
    assert.match(f.message, /ProcurementProjectLot\[7\].*not in this notice.*root element/);
  });

  test('an empty location goes on the root start tag and says so', () => {
    const f = mapOne(assertion({ location: '' }));
    assert.equal(f.resolved, false);
    assert.deepEqual(f.range.start, pos(nth('<ContractNotice')));
    assert.match(f.message, /no location/);
  });

  test('a missing child: range on the parent, message names the child and the field', () => {
    const lot1 = '/cn:ContractNotice/cac:ProcurementProjectLot[1]/cac:ProcurementProject';
    const ref = { diagnostic: 'BT-24-Lot', see: 'field:BT-24-Lot', path: 'cbc:Description' };
    const f = mapOne(assertion({ location: lot1, diagnosticReferences: [ref] }));
    assert.deepEqual(f.range.start, pos(nth('<a:ProcurementProject>', 1)));
    assert.equal(f.field, 'BT-24-Lot');
    assert.equal(f.missing, 'cbc:Description');
    assert.match(f.message, /missing cbc:Description.*BT-24-Lot/);
    // The second lot has a description: the field is named, nothing is said missing.
    const g = mapOne(assertion({ location: lot1.replace('[1]', '[2]'), diagnosticReferences: [ref] }));
    assert.equal(g.field, 'BT-24-Lot');
    assert.equal(g.missing, undefined);
    assert.doesNotMatch(g.message, /missing/);
  });

  test('missing children behind attribute predicates, node: references', () => {
    const present = { diagnostic: 'd', see: 'node:ND-Root', path: "cbc:ID[@schemeName='notice-id']" };
    const absent = { diagnostic: 'd', see: 'field:BT-701-notice', path: "cbc:ID[@schemeName='other']" };
    assert.equal(mapOne(assertion({ diagnosticReferences: [present] })).missing, undefined);
    assert.equal(mapOne(assertion({ diagnosticReferences: [present] })).field, 'ND-Root');
    const f = mapOne(assertion({ diagnosticReferences: [absent] }));
    assert.equal(f.missing, "cbc:ID[@schemeName='other']");
    assert.equal(f.field, 'BT-701-notice');
  });

  test('severity from role; unknown roles are warnings', () => {
    const cases: [string, string][] = [
      ['ERROR', 'error'],
      ['WARN', 'warning'],
      ['INFO', 'info'],
      ['error', 'error'],
      ['CUSTOM', 'warning'],
      ['', 'warning'],
    ];
    for (const [role, severity] of cases) {
      assert.equal(severityOf(role), severity, role);
      assert.equal(mapOne(assertion({ role })).severity, severity, role);
    }
  });

  test('flag, raw keys and translated text', () => {
    const raw = mapOne(assertion({ flag: 'LAWFULNESS', role: 'WARN' }));
    assert.equal(raw.flag, 'LAWFULNESS');
    assert.match(raw.message, /LAWFULNESS/);
    assert.match(raw.message, /BR-TEST-0001/);
    assert.ok(raw.message.includes('count(cbc:X) > 0'), 'the raw-key fallback names the failed test');
    assert.equal(raw.test, 'count(cbc:X) > 0');
    const translated = mapOne(assertion({ text: '  The notice\n   must have an X.  ' }));
    assert.equal(translated.message, 'The notice must have an X.');
    assert.equal(
      assertionMessage(assertion({ kind: 'successful-report', text: '' })),
      'Rule BR-TEST-0001 reported: count(cbc:X) > 0',
    );
  });

  test('none dropped: every assertion gives one finding, in order', () => {
    const locations = [
      '',
      '/cn:ContractNotice',
      '/nothing',
      '/cn:ContractNotice/cbc:ID/@schemeName',
      'garbage[[[',
    ];
    const report: SvrlReport = {
      namespaces: NAMESPACES,
      assertions: locations.map((location, k) => assertion({ location, id: `R-${k}` })),
    };
    const findings = mapSvrl(index, report);
    assert.deepEqual(
      findings.map((f) => [f.id, f.resolved]),
      [
        ['R-0', false],
        ['R-1', true],
        ['R-2', false],
        ['R-3', true],
        ['R-4', false],
      ],
    );
  });

  test('a notice without any element still gets every finding, at the start', () => {
    const empty = indexXml('');
    const findings = mapSvrl(empty, { namespaces: NAMESPACES, assertions: [assertion({})] });
    assert.equal(findings.length, 1);
    assert.deepEqual(findings[0].range.start, { line: 0, character: 0 });
    assert.equal(findings[0].resolved, false);
  });
});

// Issue 12: reports and notices shaped to overflow the stack or take quadratic time. Expected places come
// from the way the text was built (the k-th `<x` occurrence), never from the index.
describe('mapSvrl: hostile shapes', () => {
  const HOSTILE = { timeout: 60_000 };
  const failure = (location: string, id = 'R'): SvrlAssertion => ({
    kind: 'failed-assert',
    id,
    location,
    role: 'ERROR',
    test: 'false()',
    text: 'wrong',
    diagnosticReferences: [],
  });
  const report = (assertions: SvrlAssertion[]): SvrlReport => ({ namespaces: new Map(), assertions });
  /** Zero-based line and column of the n-th (1-based) occurrence of `needle`, on a one-line text. */
  const nth = (text: string, needle: string, n: number): number => {
    let at = -1;
    for (let k = 0; k < n; k++) at = text.indexOf(needle, at + 1);
    return at;
  };

  test(
    '150,000 siblings, a finding on every third and a // location: every one placed, none lost',
    HOSTILE,
    () => {
      const count = 150_000;
      const text = `<r>${'<x/>'.repeat(count)}</r>`;
      const index = indexXml(text);
      const assertions = [failure('//x'), failure('/r/x[last()]')];
      // As many as the findings limit holds (INPUT_LIMITS.findings), spread over all the siblings.
      const located = INPUT_LIMITS.findings.max - assertions.length;
      for (let i = 0; i < located; i++) assertions.push(failure(`/r/x[${1 + 3 * i}]`));
      const findings = mapSvrl(index, report(assertions));
      assert.equal(findings.length, located + 2);
      assert.equal(findings[0].range.start.character, nth(text, '<x', 1));
      assert.equal(findings[1].range.start.character, nth(text, '<x', count));
      for (const i of [0, 1, 25_925, located - 1]) {
        const k = 1 + 3 * i;
        assert.ok(k <= count);
        assert.equal(findings[i + 2].range.start.character, nth(text, '<x', k), `x[${k}]`);
        assert.equal(findings[i + 2].resolved, true);
      }
    },
  );

  test('a // location over a notice 20,000 levels deep is placed', HOSTILE, () => {
    const depth = 20_000;
    const text = `<r>${'<a>'.repeat(depth)}<leaf/>${'</a>'.repeat(depth)}</r>`;
    const [f, g] = mapSvrl(indexXml(text), report([failure('//leaf'), failure('/r//a//a//leaf')]));
    assert.equal(f.resolved, true);
    assert.equal(f.range.start.character, text.indexOf('<leaf'));
    assert.equal(g.resolved, true);
    assert.equal(g.range.start.character, text.indexOf('<leaf'));
  });

  test('//a//a//a over deep nesting and ../* over many siblings stay linear', HOSTILE, () => {
    const deep = `<r>${'<a>'.repeat(5_000)}${'</a>'.repeat(5_000)}</r>`;
    const [d] = mapSvrl(indexXml(deep), report([failure('//a//a//a[1]')]));
    assert.equal(d.range.start.character, nth(deep, '<a', 3));
    const wide = `<r>${'<x/>'.repeat(100_000)}<y/></r>`;
    const [w] = mapSvrl(indexXml(wide), report([failure('/r/x/../y')]));
    assert.equal(w.range.start.character, wide.indexOf('<y'));
  });

  test('a location past the length limit, or with predicates nested 1,000 deep, is shown as not evaluated', () => {
    const text = `<r>${'<x>'.repeat(50)}${'</x>'.repeat(50)}</r>`;
    const long = `/r/x${'[1]'.repeat(4_000)}`;
    const nested = `/r/x[${'not('.repeat(1_000)}true()${')'.repeat(1_000)}]`;
    const deepPath = `/r/x${'[x'.repeat(2_000)}${']'.repeat(2_000)}`;
    for (const location of [long, nested, deepPath]) {
      const [f] = mapSvrl(indexXml(text), report([failure(location)]));
      assert.equal(f.resolved, false);
      assert.match(f.message, /a location this tool cannot evaluate: shown on the root element\)$/);
      assert.ok(f.message.length < 1_200, 'the location is cut in the message');
      assert.equal(f.location, location, 'the finding keeps the location whole');
    }
  });

  test(
    'a report that asks for more work than a few passes over the notice ends, its findings kept',
    HOSTILE,
    () => {
      const text = `<r>${'<x><y/></x>'.repeat(20_000)}</r>`;
      const assertions: SvrlAssertion[] = [];
      // Each of these reads every element's text for every x: quadratic if evaluated naively.
      for (let k = 0; k < 200; k++) assertions.push(failure(`//x[. = //x[${k + 1}]]`));
      const findings = mapSvrl(indexXml(text), report(assertions));
      assert.equal(findings.length, 200);
      for (const f of findings) assert.match(f.message, /^wrong/);
    },
  );
});
