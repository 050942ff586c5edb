// SVRL parsing: the official sample reports (counted and read by plain string search, not by the
// parser) and hand-written reports with other prefixes, entities and CDATA.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseSvrl, SvrlFormatError } from '../../core/svrl/report';
import { SAMPLES_DIR, skipUnless } from '../support/shared-data';

const REPORTS = join(SAMPLES_DIR, 'reports');

/** Attribute values of each `<svrl:failed-assert ...>` start tag, read by regular expression. */
function rawAssertions(text: string): Record<string, string>[] {
  return [...text.matchAll(/<svrl:(?:failed-assert|successful-report)\b([^>]*)>/g)].map((m) => {
    const attrs: Record<string, string> = {};
    for (const a of m[1].matchAll(/([\w:-]+)="([^"]*)"/g)) attrs[a[1]] = a[2];
    return attrs;
  });
}

function xmlUnescape(s: string): string {
  return s
    .replace(/&#x([0-9a-fA-F]+);/g, (_m, h: string) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&#([0-9]+);/g, (_m, d: string) => String.fromCodePoint(Number(d)))
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');
}

describe('parseSvrl on the SDK sample reports', { skip: skipUnless(SAMPLES_DIR) }, () => {
  const files = skipUnless(SAMPLES_DIR) ? [] : readdirSync(REPORTS).filter((f) => f.endsWith('.svrl'));

  test('the sample reports are there', () => {
    assert.ok(files.length >= 10);
  });

  for (const file of files) {
    test(`${file}: one assertion per failed-assert/successful-report, with its attributes`, () => {
      const text = readFileSync(join(REPORTS, file), 'utf8');
      const report = parseSvrl(text);
      const count =
        text.split('<svrl:failed-assert').length - 1 + text.split('<svrl:successful-report').length - 1;
      assert.equal(report.assertions.length, count);
      const raw = rawAssertions(text);
      report.assertions.forEach((a, k) => {
        assert.equal(a.id, raw[k].id);
        assert.equal(a.location, raw[k].location);
        assert.equal(a.role, raw[k].role);
        assert.equal(a.flag, raw[k].flag);
        assert.equal(a.test, xmlUnescape(raw[k].test));
      });
      const prefixes = [...text.matchAll(/prefix="([^"]+)"\s+uri="([^"]+)"/g)];
      assert.equal(report.namespaces.size, prefixes.length);
      for (const [, p, uri] of prefixes) assert.equal(report.namespaces.get(p), uri);
    });
  }

  test('hand-picked assertions: text, diagnostic references, decoded test', () => {
    const text = readFileSync(join(REPORTS, 'INVALID_cn_24_empty.svrl'), 'utf8');
    const report = parseSvrl(text);
    assert.equal(report.phase, 'eforms-16');
    assert.equal(report.title, 'eForms schematron rules');
    const p2 = report.assertions.find((a) => a.id === 'P-0002');
    assert.ok(p2);
    assert.equal(p2.text, 'rule|text|P-0002', 'text trimmed of its new lines and tabs');
    assert.ok(p2.test.includes('count(cac:ProcurementProjectLot) > 0'), '&gt; decoded');
    const tp = report.assertions.find((a) => a.id === 'ND-ProcedureTenderingProcess-16');
    assert.ok(tp);
    assert.deepEqual(tp.diagnosticReferences, [
      {
        diagnostic: 'ND-ProcedureTenderingProcess',
        see: 'node:ND-ProcedureTenderingProcess',
        path: 'cac:TenderingProcess',
      },
    ]);
    assert.equal(tp.kind, 'failed-assert');
  });

  test('a LAWFULNESS warning keeps its flag and role', () => {
    const text = readFileSync(join(REPORTS, 'can_25_ENG_Buyers.svrl'), 'utf8');
    const warns = parseSvrl(text).assertions.filter((a) => a.flag === 'LAWFULNESS');
    assert.equal(warns.length, text.split('flag="LAWFULNESS"').length - 1);
    assert.ok(warns.every((a) => a.role === 'WARN'));
  });
});

describe('parseSvrl on hand-written reports', () => {
  const report = [
    '\ufeff<?xml version="1.0"?>',
    '<!-- any prefix, or none, names the SVRL namespace -->',
    '<out:schematron-output xmlns:out="http://purl.oclc.org/dsdl/svrl" phase="p1">',
    '  <out:ns-prefix-in-attribute-values prefix="cbc" uri="urn:cbc"/>',
    '  <ns-prefix-in-attribute-values xmlns="http://purl.oclc.org/dsdl/svrl" prefix="cac" uri="urn:cac"/>',
    '  <out:failed-assert id="R-1" location="/a:X" role="ERROR" test="count(x) &lt; 2 and y &#62; 1 &amp;&#x26; z = &quot;q&quot;">',
    '    <out:text>  Translated <![CDATA[<message>]]> &amp; more  </out:text>',
    '    <out:diagnostic-reference diagnostic="D1" see="field:BT-1"><out:text> cac:Y </out:text></out:diagnostic-reference>',
    '    <out:diagnostic-reference diagnostic="D2" see="node:ND-2">  cbc:Z  </out:diagnostic-reference>',
    '  </out:failed-assert>',
    '  <other:failed-assert xmlns:other="urn:not-svrl" id="NOT-SVRL"/>',
    '  <out:successful-report id="R-2" location="" role="INFO" flag="F" test="true()"/>',
    '</out:schematron-output>',
  ].join('\r\n');

  test("fields of megabytes are cut, each with …; the official reports' longest fit whole", () => {
    const big = (c: string) => c.repeat(1_000_000);
    const svrl = [
      '<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl">',
      `<svrl:failed-assert id="${big('i')}" location="/${big('l')}" role="${big('r')}" flag="${big('f')}" test="${big('t')}">`,
      `<svrl:text>${big('x')}</svrl:text>`,
      `<svrl:diagnostic-reference diagnostic="${big('d')}" see="${big('s')}"><svrl:text>${big('p')}</svrl:text></svrl:diagnostic-reference>`,
      '</svrl:failed-assert></svrl:schematron-output>',
    ].join('');
    const [a] = parseSvrl(svrl).assertions;
    assert.ok(a);
    const ref = a.diagnosticReferences[0];
    const lengths = {
      id: a.id.length,
      role: a.role.length,
      flag: a.flag?.length,
      location: a.location.length,
      test: a.test.length,
      text: a.text.length,
      diagnostic: ref?.diagnostic.length,
      see: ref?.see.length,
      path: ref?.path.length,
    };
    assert.deepEqual(lengths, {
      id: 200,
      role: 200,
      flag: 200,
      location: 4000,
      test: 262_144,
      text: 2000,
      diagnostic: 200,
      see: 200,
      path: 4000,
    });
    for (const v of [a.id, a.text, a.test, a.location, ref?.path]) assert.ok(v?.endsWith('…'));
  });

  test('any prefix, entities, CDATA, successful-report; elements of other namespaces ignored', () => {
    const r = parseSvrl(report);
    assert.equal(r.phase, 'p1');
    assert.equal(r.title, undefined);
    assert.deepEqual(
      [...r.namespaces],
      [
        ['cbc', 'urn:cbc'],
        ['cac', 'urn:cac'],
      ],
    );
    assert.deepEqual(
      r.assertions.map((a) => a.id),
      ['R-1', 'R-2'],
    );
    const [a, b] = r.assertions;
    assert.equal(a.test, 'count(x) < 2 and y > 1 && z = "q"');
    assert.equal(a.text, 'Translated <message> & more');
    assert.deepEqual(a.diagnosticReferences, [
      { diagnostic: 'D1', see: 'field:BT-1', path: 'cac:Y' },
      { diagnostic: 'D2', see: 'node:ND-2', path: 'cbc:Z' },
    ]);
    assert.equal(b.kind, 'successful-report');
    assert.equal(b.flag, 'F');
    assert.equal(b.location, '');
    assert.equal(b.text, '');
  });

  const bad: [string, string, RegExp][] = [
    ['not XML', 'this is not XML', /not well-formed XML: text before the root element \(line 1, column 1\)/],
    ['empty', '', /not well-formed XML: no root element/],
    ['truncated', report.slice(0, report.length - 30), /not well-formed XML: .* \(line 12, column \d+\)/],
    [
      'another root',
      '<ContractNotice xmlns="urn:cn"/>',
      /not an SVRL report: the root element is <ContractNotice> in namespace urn:cn/,
    ],
    ['right name, wrong namespace', '<svrl:schematron-output xmlns:svrl="urn:x"/>', /not an SVRL report/],
    // A root name and a namespace of a million characters each are cut to 80 in the message.
    [
      'a root of a million characters',
      `<${'r'.repeat(1_000_000)} xmlns="urn:${'n'.repeat(1_000_000)}"/>`,
      new RegExp(
        `^not an SVRL report: the root element is <${'r'.repeat(79)}…> in namespace urn:${'n'.repeat(75)}…, expected`,
      ),
    ],
  ];
  for (const [what, text, message] of bad) {
    test(`${what}: SvrlFormatError with a clear message`, () => {
      assert.throws(
        () => parseSvrl(text),
        (e: unknown) => e instanceof SvrlFormatError && message.test(e.message),
      );
    });
  }
});
