// Local checks: xml-syntax errors land where the broken token is (positions found here by searching the
// text and counting lines by hand, never through the index), CustomizationID problems land on its value,
// and a clean notice gets nothing.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { noticeKindOf } from '../../core/notice/kind';
import { indexXml } from '../../core/notice/xml-index';
import { CUSTOMIZATION_ID, DOCTYPE, localFindings, XML_SYNTAX } from '../../core/validation/local-checks';
import { SAMPLES_DIR, skipUnless } from '../support/shared-data';

/** Line and UTF-16 column of an offset, counted by splitting the text (independent of the index). */
function lineCol(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: (before[before.length - 1] ?? '').length };
}

const HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2"\n' +
  '    xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"\n' +
  '    xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2">\n';

function notice(
  body: string,
  cid = '  <cbc:CustomizationID>eforms-sdk-1.15</cbc:CustomizationID>\n',
): string {
  return `${HEAD}${cid}${body}</ContractNotice>\n`;
}

describe('localFindings', () => {
  test('a well-formed notice with a good CustomizationID has no finding', () => {
    const text = notice('  <cbc:ID>x</cbc:ID>\n');
    assert.deepEqual(localFindings(indexXml(text)), []);
  });

  test('a mismatched end tag is reported at that end tag', () => {
    const text = notice(
      '  <cac:ProcurementProject>\n    <cbc:ID>é😀x</cbc:Name>\n  </cac:ProcurementProject>\n',
    );
    const findings = localFindings(indexXml(text)).filter((f) => f.id === XML_SYNTAX);
    assert.equal(findings.length, 1, 'one syntax error, not its echoes');
    const f = findings[0];
    assert.ok(f);
    assert.equal(f.source, 'local');
    assert.equal(f.severity, 'error');
    assert.deepEqual(f.range.start, lineCol(text, text.indexOf('</cbc:Name>')));
  });

  test('an unquoted attribute value is reported on its line', () => {
    const text = notice('  <cbc:ID schemeName=org>x</cbc:ID>\n');
    const f = localFindings(indexXml(text)).find((x) => x.id === XML_SYNTAX);
    assert.ok(f);
    assert.equal(f.range.start.line, lineCol(text, text.indexOf('schemeName=org')).line);
  });

  test('a duplicate attribute is reported at the second occurrence', () => {
    const text = notice('  <cbc:ID listName="a" listName="b">x</cbc:ID>\n');
    const f = localFindings(indexXml(text)).find((x) => x.id === XML_SYNTAX);
    assert.ok(f);
    assert.deepEqual(f.range.start, lineCol(text, text.lastIndexOf('listName=')));
  });

  test('an undefined entity is reported where it is written', () => {
    const text = notice('  <cbc:Note>Fish &chips;</cbc:Note>\n');
    const f = localFindings(indexXml(text)).find((x) => x.id === XML_SYNTAX);
    assert.ok(f);
    assert.deepEqual(f.range.start, lineCol(text, text.indexOf('&chips;')));
  });

  test('a missing CustomizationID is reported on the root element name', () => {
    const text = notice('  <cbc:ID>x</cbc:ID>\n', '');
    const f = localFindings(indexXml(text));
    assert.equal(f.length, 1);
    assert.equal(f[0]?.id, CUSTOMIZATION_ID);
    const at = text.indexOf('<ContractNotice') + 1;
    assert.deepEqual(f[0]?.range.start, lineCol(text, at));
    assert.deepEqual(f[0]?.range.end, lineCol(text, at + 'ContractNotice'.length));
  });

  test('a malformed CustomizationID is reported on its value, whitespace excluded', () => {
    const text = notice('', '  <cbc:CustomizationID>\n    eforms-sdk-1.15.2\n  </cbc:CustomizationID>\n');
    const f = localFindings(indexXml(text));
    assert.equal(f.length, 1);
    assert.equal(f[0]?.id, CUSTOMIZATION_ID);
    const at = text.indexOf('eforms-sdk-1.15.2');
    assert.deepEqual(f[0]?.range.start, lineCol(text, at));
    assert.deepEqual(f[0]?.range.end, lineCol(text, at + 'eforms-sdk-1.15.2'.length));
  });

  test('a DOCTYPE is a warning on its keyword, saying whether its entities go unexpanded', () => {
    const withSubset = notice('  <cbc:ID>&e;</cbc:ID>\n').replace(
      '<ContractNotice',
      '<!DOCTYPE ContractNotice [ <!ENTITY e "x"> ]>\n<ContractNotice',
    );
    const at = withSubset.indexOf('<!DOCTYPE');
    const [f, ...rest] = localFindings(indexXml(withSubset));
    assert.deepEqual(rest, []);
    assert.equal(f?.id, DOCTYPE);
    assert.equal(f?.severity, 'warning');
    assert.deepEqual(f?.range, { start: lineCol(withSubset, at), end: lineCol(withSubset, at + 9) });
    assert.match(f?.message ?? '', /entities this one declares are not expanded here/);
    const external = notice('  <cbc:ID>x</cbc:ID>\n').replace(
      '<ContractNotice',
      '<!DOCTYPE ContractNotice SYSTEM "cn.dtd">\n<ContractNotice',
    );
    const [g] = localFindings(indexXml(external));
    assert.equal(g?.id, DOCTYPE);
    assert.doesNotMatch(g?.message ?? '', /entities/);
    // A DOCTYPE inside a comment is a comment.
    const commented = notice('  <!-- <!DOCTYPE x> -->\n');
    assert.deepEqual(localFindings(indexXml(commented)), []);
  });

  test('a national suffix is accepted', () => {
    const text = notice(
      '',
      '  <cbc:CustomizationID>eforms-sdk-1.8#extended#urn:fdc:x:2023</cbc:CustomizationID>\n',
    );
    assert.deepEqual(localFindings(indexXml(text)), []);
  });

  test('a root of the right name in the wrong namespace is not a notice', () => {
    const text = '<ContractNotice xmlns="urn:example:other"><x/></ContractNotice>';
    assert.equal(noticeKindOf(indexXml(text)), undefined);
  });

  test('the four eForms roots are recognised by name and namespace', () => {
    const roots: [string, string][] = [
      ['ContractNotice', 'urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2'],
      ['ContractAwardNotice', 'urn:oasis:names:specification:ubl:schema:xsd:ContractAwardNotice-2'],
      ['PriorInformationNotice', 'urn:oasis:names:specification:ubl:schema:xsd:PriorInformationNotice-2'],
      [
        'BusinessRegistrationInformationNotice',
        'http://data.europa.eu/p27/eforms-business-registration-information-notice/1',
      ],
    ];
    for (const [name, ns] of roots) {
      assert.equal(noticeKindOf(indexXml(`<p:${name} xmlns:p="${ns}"/>`)), name);
      assert.equal(noticeKindOf(indexXml(`<${name} xmlns="${ns}x"/>`)), undefined);
    }
  });

  test('SDK samples: only those without a CustomizationID get a local finding', {
    skip: skipUnless(SAMPLES_DIR),
  }, () => {
    const dir = join(SAMPLES_DIR, 'notices');
    const files = readdirSync(dir).filter((n) => n.endsWith('.xml'));
    assert.ok(files.length > 0);
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8');
      const index = indexXml(text);
      assert.ok(noticeKindOf(index), `${f} is an eForms notice`);
      const declares = /<cbc:CustomizationID>\s*eforms-sdk-\d+\.\d+\s*</.test(text);
      const ids = localFindings(index).map((x) => x.id);
      assert.deepEqual(ids, declares ? [] : [CUSTOMIZATION_ID], f);
    }
  });
});
