// The findings limit (INPUT_LIMITS.findings): a report with more assertions than one notice's findings
// may number is read up to the limit, the rest counted, and one more finding on the notice's root says
// how many were left out. The count and the root's place are worked out here by plain string search.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { INPUT_LIMITS, indexXml } from '../../core/notice';
import { FINDINGS_OMITTED, mapSvrl, parseSvrl, type SvrlAssertion } from '../../core/svrl';

const NS = 'http://purl.oclc.org/dsdl/svrl';
const NOTICE = `<?xml version="1.0"?>\n<!-- a comment -->\n  <cn:ContractNotice xmlns:cn="urn:cn" xmlns:cbc="urn:cbc">\n<cbc:ID>1</cbc:ID></cn:ContractNotice>`;
const MAX = INPUT_LIMITS.findings.max;

/** A report of `n` failed assertions, each with its number in its id, on the notice's cbc:ID. */
function report(n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++)
    parts.push(
      `<svrl:failed-assert id="BR-${i}" role="ERROR" location="/cn:ContractNotice/cbc:ID" test="false()"><svrl:text>Failure ${i}</svrl:text></svrl:failed-assert>`,
    );
  return `<?xml version="1.0"?><svrl:schematron-output xmlns:svrl="${NS}"><svrl:ns-prefix-in-attribute-values prefix="cn" uri="urn:cn"/><svrl:ns-prefix-in-attribute-values prefix="cbc" uri="urn:cbc"/>${parts.join('\n')}</svrl:schematron-output>`;
}

/** Line and column of the root's name, by string search. */
function rootName(): {
  start: { line: number; character: number };
  end: { line: number; character: number };
} {
  const at = NOTICE.indexOf('<cn:ContractNotice');
  const before = NOTICE.slice(0, at);
  const line = before.split('\n').length - 1;
  const character = at - (before.lastIndexOf('\n') + 1);
  return { start: { line, character }, end: { line, character: character + '<cn:ContractNotice'.length } };
}

describe('the findings limit', () => {
  const index = indexXml(NOTICE);

  test('a report over the limit is read up to it, the rest counted; one finding says how many', () => {
    const extra = 7;
    const text = report(MAX + extra);
    assert.equal(text.match(/<svrl:failed-assert /g)?.length, MAX + extra);
    const parsed = parseSvrl(text);
    assert.equal(parsed.assertions.length, MAX);
    assert.equal(parsed.omitted, extra);
    // The first ones are kept, in order.
    assert.equal(parsed.assertions[0].id, 'BR-0');
    assert.equal(parsed.assertions[MAX - 1].id, `BR-${MAX - 1}`);
    assert.equal(parsed.namespaces.get('cbc'), 'urn:cbc');

    const findings = mapSvrl(index, parsed);
    assert.equal(findings.length, MAX + 1);
    assert.ok(findings.slice(0, MAX).every((f) => f.id.startsWith('BR-') && f.resolved));
    const last = findings[MAX];
    assert.equal(last.id, FINDINGS_OMITTED);
    assert.equal(last.severity, 'warning');
    assert.deepEqual(last.range, rootName());
    assert.equal(
      last.message,
      `The report holds 7 more findings than the ${MAX.toLocaleString('en')} shown here: correct these and validate again to see the rest.`,
    );
  });

  test('a report at the limit is read whole, with no finding about the rest', () => {
    const parsed = parseSvrl(report(MAX));
    assert.equal(parsed.assertions.length, MAX);
    assert.equal(parsed.omitted, undefined);
    const findings = mapSvrl(index, parsed);
    assert.equal(findings.length, MAX);
    assert.ok(!findings.some((f) => f.id === FINDINGS_OMITTED));
  });

  test("the rules' own report (no text read) is mapped up to the limit too, in the report's language", () => {
    const a: SvrlAssertion = {
      kind: 'failed-assert',
      id: 'BR-X',
      location: '/cn:ContractNotice/cbc:ID',
      role: 'ERROR',
      test: 'false()',
      text: 'x',
      diagnosticReferences: [],
    };
    const assertions = Array.from({ length: MAX + 1234 }, () => a);
    const findings = mapSvrl(
      index,
      {
        namespaces: new Map([
          ['cn', 'urn:cn'],
          ['cbc', 'urn:cbc'],
        ]),
        assertions,
      },
      { language: 'fr' },
    );
    assert.equal(findings.length, MAX + 1);
    const last = findings[MAX];
    assert.equal(last.id, FINDINGS_OMITTED);
    // 1 234 in French: the group separator is a (narrow) no-break space.
    assert.match(last.message, /^Le rapport contient 1\s234 constats de plus que les 50\s000 affichés ici/u);
  });
});
