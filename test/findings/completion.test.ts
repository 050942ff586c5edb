// Finding completion (core/authoring's completeFindings), against the SDK's own files: fields.json
// says BR-BT-00131-0151 compares BT-131(d)-Lot with BT-05(a)-notice (cbc:IssueDate), and
// translations/field_en.xml names BT-05(a)-notice; the places are found in the notice text by hand.
// The front ends map these fields and add nothing: the server's toDiagnostic and the CLI's JSON and
// SARIF are checked to carry them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { formatFindings } from '../../cli/output-formats';
import { completeFindings, sdkKnowledge } from '../../core/authoring';
import { type Finding, readDiagnosticData } from '../../core/findings';
import { indexXml } from '../../core/notice';
import { toDiagnostic } from '../../server/diagnostics';
import { SDK_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDK_DIR);

const NOTICE = `<?xml version="1.0" encoding="UTF-8"?>
<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2"
  xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
  xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2">
  <cbc:CustomizationID>eforms-sdk-1.15</cbc:CustomizationID>
  <cbc:IssueDate>2024-01-10Z</cbc:IssueDate>
  <cac:ProcurementProjectLot>
    <cac:TenderingProcess>
      <cac:TenderSubmissionDeadlinePeriod><cbc:EndDate>2000-01-01Z</cbc:EndDate></cac:TenderSubmissionDeadlinePeriod>
    </cac:TenderingProcess>
  </cac:ProcurementProjectLot>
</ContractNotice>
`;

/** Line and UTF-16 column of an offset, counted by hand. */
function pos(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: (before[before.length - 1] ?? '').length };
}

function findingAt(id: string, tag: string, resolved = true): Finding {
  const at = NOTICE.indexOf(tag);
  return {
    id,
    severity: 'error',
    message: 'x',
    location: '/x',
    range: { start: pos(NOTICE, at), end: pos(NOTICE, at + tag.length) },
    source: 'sdk',
    resolved,
  };
}

const label = (): string => {
  const xml = readFileSync(join(SDK_DIR, 'translations', 'field_en.xml'), 'utf8');
  return /<entry key="field\|name\|BT-05\(a\)-notice">([^<]*)</.exec(xml)?.[1] ?? '';
};

describe('finding completion', { skip }, () => {
  test('a business rule gets its documentation link, its node, and the other field it involves', () => {
    const index = indexXml(NOTICE);
    const sdk = sdkKnowledge(SDK_DIR, '1.15.1');
    const [f] = completeFindings([findingAt('BR-BT-00131-0151', '<cbc:EndDate')], {
      index,
      sdk,
      language: 'en',
    });
    assert.ok(f);
    assert.equal(
      f.help,
      'https://docs.ted.europa.eu/eforms/latest/reference/business-rules/index.html#BR-BT-00131-0151',
    );
    assert.equal(f.node, 'cbc:EndDate');
    const rel = f.related?.find((r) => r.message.startsWith('BT-05(a)-notice'));
    assert.ok(rel, JSON.stringify(f.related));
    assert.equal(rel.message, `BT-05(a)-notice · ${label()}`);
    const issue = NOTICE.indexOf('<cbc:IssueDate');
    assert.deepEqual(rel.range, {
      start: pos(NOTICE, issue),
      end: pos(NOTICE, issue + '<cbc:IssueDate'.length),
    });
  });

  test('without an SDK: link and node, no related places; local codes get no link; unresolved: no node', () => {
    const index = indexXml(NOTICE);
    const [br, local, lost] = completeFindings(
      [
        findingAt('BR-BT-00131-0151', '<cbc:EndDate'),
        findingAt('xml-syntax', '<cbc:IssueDate'),
        findingAt('BR-BT-00131-0151', '<cbc:EndDate', false),
      ],
      { index },
    );
    assert.ok(br?.help && br.related === undefined);
    assert.equal(local?.help, undefined);
    assert.equal(local?.node, 'cbc:IssueDate');
    assert.equal(lost?.node, undefined);
  });

  test('the input findings are left as they were (completion makes new objects)', () => {
    const original = findingAt('BR-BT-00131-0151', '<cbc:EndDate');
    const copy = structuredClone(original);
    completeFindings([original], { index: indexXml(NOTICE), sdk: sdkKnowledge(SDK_DIR, '1.15.1') });
    assert.deepEqual(original, copy);
  });

  test('front ends carry the completed fields and add nothing: LSP diagnostic, JSON, SARIF', () => {
    const index = indexXml(NOTICE);
    const sdk = sdkKnowledge(SDK_DIR, '1.15.1');
    const [f] = completeFindings([findingAt('BR-BT-00131-0151', '<cbc:EndDate')], { index, sdk });
    assert.ok(f?.help && f.related?.length);
    const d = toDiagnostic(f, 'file:///n.xml');
    assert.equal(d.codeDescription?.href, f.help);
    assert.deepEqual(
      d.relatedInformation,
      f.related.map((r) => ({ location: { uri: 'file:///n.xml', range: r.range }, message: r.message })),
    );
    // The data contract round-trips through JSON, as a client sends it back.
    assert.deepEqual(readDiagnosticData(JSON.parse(JSON.stringify(d.data))), {
      location: '/x',
      resolved: true,
      node: 'cbc:EndDate',
    });
    const [json] = JSON.parse(formatFindings([f], 'n.xml', 'json')) as {
      help?: string;
      related?: unknown[];
      node?: string;
    }[];
    assert.equal(json?.help, f.help);
    assert.deepEqual(json?.related, f.related);
    assert.equal(json?.node, 'cbc:EndDate');
    const sarif = JSON.parse(formatFindings([f], 'n.xml', 'sarif')) as {
      runs: {
        tool: { driver: { rules: { helpUri?: string }[] } };
        results: {
          relatedLocations?: { message: { text: string }; physicalLocation: { region: object } }[];
        }[];
      }[];
    };
    const run = sarif.runs[0];
    assert.equal(run?.tool.driver.rules[0]?.helpUri, f.help);
    const related = run?.results[0]?.relatedLocations ?? [];
    assert.equal(related.length, f.related.length);
    const r0 = f.related[0];
    assert.ok(r0);
    assert.equal(related[0]?.message.text, r0.message);
    assert.deepEqual(related[0]?.physicalLocation.region, {
      startLine: r0.range.start.line + 1,
      startColumn: r0.range.start.character + 1,
      endLine: r0.range.end.line + 1,
      endColumn: r0.range.end.character + 1,
    });
  });

  test('readDiagnosticData keeps only well-typed fields of what a client sends back', () => {
    assert.deepEqual(readDiagnosticData(undefined), {});
    assert.deepEqual(readDiagnosticData('x'), {});
    assert.deepEqual(readDiagnosticData({ missing: 42, field: 'BT-24-Lot', resolved: 'yes' }), {
      field: 'BT-24-Lot',
    });
  });
});
