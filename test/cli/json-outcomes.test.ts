// --format json of a batch is put together from each file's part, which `validate` renders as soon as a
// notice is done (renderOutcome) and keeps as text. The whole must be what JSON.stringify(…, null, 2)
// writes for the same value (the truth here: the text parsed and written again by JSON itself is the
// same text), with every finding's fields, for any mix of rendered and not yet rendered outcomes, failed
// ones, files without findings, and none at all.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type FileOutcome,
  formatJsonOutcomes,
  formatOutcomes,
  renderOutcome,
  TOOL_VERSION,
} from '../../cli/output-formats';
import type { Finding } from '../../core/findings/finding';

const range = (l: number, c: number) => ({
  start: { line: l, character: c },
  end: { line: l, character: c + 3 },
});

const findings: Finding[] = [
  {
    id: 'BR-BT-00024-0178',
    severity: 'error',
    message: 'Description (BT-24) is mandatory — it is empty',
    location: '/cn:ContractNotice/cac:ProcurementProjectLot[1]',
    range: range(41, 2),
    source: 'sdk',
    sdkVersion: '1.15.1',
    test: 'count(cbc:Description) > 0',
    field: 'BT-24-Lot',
    missing: 'cbc:Description',
    resolved: true,
    node: 'cac:ProcurementProjectLot',
    help: 'https://docs.ted.europa.eu/x#BR-BT-00024-0178',
    related: [
      { range: range(41, 2), message: 'Rule BR-BT-00024-0178: count(cbc:Description) > 0' },
      { range: range(7, 0), message: 'BT-02-notice · Notice type' },
    ],
  },
  {
    id: 'W-1',
    severity: 'warning',
    message: '[LAWFULNESS] "quoted" \\ back\nslash\ttab \u2028 \ud83d\ude00 \u0001',
    location: '/cn:ContractNotice/@x',
    range: range(0, 0),
    source: 'cvs',
    flag: 'LAWFULNESS',
    resolved: false,
  },
  {
    id: 'I-1',
    severity: 'info',
    message: 'for your information',
    location: '',
    range: range(2, 7),
    source: 'local',
    resolved: true,
  },
];

const outcomes: FileOutcome[] = [
  { file: 'a.xml', outcome: 'validated', findings, sdkVersion: '1.15.1', engine: 'local' },
  { file: 'b "ü".xml', outcome: 'failed', findings: [], error: 'cannot read\nit' },
  { file: 'c.xml', outcome: 'validated', findings: [] },
  { file: 'd.xml', outcome: 'validated', findings: findings.slice(1), engine: 'cvs' },
];

function assertWrittenByJson(text: string): unknown {
  const value = JSON.parse(text);
  assert.equal(text, JSON.stringify(value, null, 2));
  return value;
}

describe('JSON of a batch from its parts', () => {
  test('every mix of rendered parts gives the text JSON.stringify writes', () => {
    const n = outcomes.length;
    let reference: string | undefined;
    for (let mask = 0; mask < 1 << n; mask++) {
      const mixed = outcomes.map((o, k) => ((mask >> k) & 1 ? renderOutcome(o) : o));
      const text = formatJsonOutcomes(mixed);
      assertWrittenByJson(text);
      reference ??= text;
      assert.equal(text, reference, `mask ${mask}`);
    }
    assert.equal(formatOutcomes(outcomes, 'json'), reference);
    const value = assertWrittenByJson(reference as string) as {
      tool: { name: string; version: string };
      files: Record<string, unknown>[];
    };
    assert.deepEqual(value.tool, { name: 'eforms', version: TOOL_VERSION });
    assert.deepEqual(
      value.files.map((f) => [
        f.file,
        f.outcome,
        f.errors,
        f.warnings,
        f.infos,
        (f.findings as unknown[]).length,
      ]),
      [
        ['a.xml', 'validated', 1, 1, 1, 3],
        ['b "ü".xml', 'failed', 0, 0, 0, 0],
        ['c.xml', 'validated', 0, 0, 0, 0],
        ['d.xml', 'validated', 0, 1, 1, 2],
      ],
    );
    const first = (value.files[0]?.findings as Record<string, unknown>[])[0] as Record<string, unknown>;
    // The finding's own fields, in the documented order (sdkVersion is not printed).
    assert.deepEqual(Object.keys(first), [
      'id',
      'severity',
      'message',
      'location',
      'range',
      'source',
      'resolved',
      'field',
      'missing',
      'test',
      'node',
      'help',
      'related',
    ]);
    assert.equal((value.files[3]?.findings as Record<string, unknown>[])[0]?.message, findings[1]?.message);
  });

  test('no files, and the exit status of rendered parts', () => {
    assert.equal(
      formatJsonOutcomes([]),
      JSON.stringify({ tool: { name: 'eforms', version: TOOL_VERSION }, files: [] }, null, 2),
    );
    assert.equal(renderOutcome(outcomes[0] as FileOutcome).hasError, true);
    assert.equal(renderOutcome(outcomes[3] as FileOutcome).hasError, false);
    assert.equal(renderOutcome(outcomes[1] as FileOutcome).hasError, false);
  });
});
