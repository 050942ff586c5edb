// Output formats of findings: text lines, JSON with LSP ranges, SARIF 2.1.0 — checked field by field
// against the findings given, with one-based conversions computed here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type FileOutcome,
  formatFindings,
  formatOutcomes,
  JSON_DOCUMENT_TAIL,
  jsonDocumentHead,
  jsonEntry,
  summarize,
  TOOL_VERSION,
} from '../../cli/output-formats';
import type { Finding } from '../../core/findings/finding';

const findings: Finding[] = [
  {
    id: 'BR-BT-00024-0178',
    severity: 'error',
    message:
      'Rule BR-BT-00024-0178 failed: count(cbc:Description) > 0 — missing cbc:Description (field BT-24-Lot)',
    location: '/cn:ContractNotice/cac:ProcurementProjectLot/cac:ProcurementProject',
    range: { start: { line: 41, character: 2 }, end: { line: 41, character: 25 } },
    source: 'cvs',
    test: 'count(cbc:Description) > 0',
    field: 'BT-24-Lot',
    missing: 'cbc:Description',
    resolved: true,
  },
  {
    id: 'BR-BT-00514-0310',
    severity: 'warning',
    message: '[LAWFULNESS] a warning\nwith a line break',
    location: '/cn:ContractNotice/@x',
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } },
    source: 'cvs',
    flag: 'LAWFULNESS',
    resolved: false,
  },
  {
    id: 'INFO-1',
    severity: 'info',
    message: 'for your information',
    location: '',
    range: { start: { line: 2, character: 7 }, end: { line: 3, character: 1 } },
    source: 'cvs',
    resolved: true,
  },
];

describe('formatFindings', () => {
  test('text: file:line:col: severity id message, one-based, one line each', () => {
    const lines = formatFindings(findings, 'notices/a b.xml', 'text').split('\n');
    assert.equal(lines.length, 3);
    assert.equal(lines[0], `notices/a b.xml:42:3: error BR-BT-00024-0178 ${findings[0].message}`);
    assert.equal(
      lines[1],
      'notices/a b.xml:1:1: warning BR-BT-00514-0310 [LAWFULNESS] a warning with a line break',
    );
    assert.equal(lines[2], 'notices/a b.xml:3:8: info INFO-1 for your information');
    assert.equal(formatFindings([], 'x.xml', 'text'), '');
  });

  test('json: an array with zero-based LSP ranges and the optional fields', () => {
    const items = JSON.parse(formatFindings(findings, 'x.xml', 'json')) as Record<string, unknown>[];
    assert.equal(items.length, findings.length);
    items.forEach((item, k) => {
      const f = findings[k];
      assert.equal(item.id, f.id);
      assert.equal(item.severity, f.severity);
      assert.equal(item.message, f.message);
      assert.equal(item.location, f.location);
      assert.deepEqual(item.range, f.range);
      assert.equal(item.resolved, f.resolved);
      assert.equal(item.flag, f.flag);
      assert.equal(item.field, f.field);
      assert.equal(item.missing, f.missing);
    });
    assert.deepEqual(JSON.parse(formatFindings([], 'x.xml', 'json')), []);
  });

  test('sarif: 2.1.0, driver eforms, rules, levels and one-based regions', () => {
    const log = JSON.parse(formatFindings(findings, 'dir/notice 1.xml', 'sarif'));
    assert.equal(log.version, '2.1.0');
    const run = log.runs[0];
    assert.equal(run.tool.driver.name, 'eforms');
    assert.deepEqual(
      run.tool.driver.rules.map((r: { id: string }) => r.id),
      findings.map((f) => f.id),
    );
    assert.deepEqual(
      run.results.map((r: { level: string }) => r.level),
      ['error', 'warning', 'note'],
    );
    run.results.forEach((r: Record<string, never>, k: number) => {
      const f = findings[k];
      assert.equal(r.ruleId, f.id);
      assert.equal(run.tool.driver.rules[r.ruleIndex].id, f.id);
      assert.equal((r.message as { text: string }).text, f.message);
      const loc = (r.locations as Record<string, never>[])[0].physicalLocation as Record<string, never>;
      assert.equal((loc.artifactLocation as { uri: string }).uri, 'dir/notice%201.xml');
      assert.deepEqual(loc.region, {
        startLine: f.range.start.line + 1,
        startColumn: f.range.start.character + 1,
        endLine: f.range.end.line + 1,
        endColumn: f.range.end.character + 1,
      });
    });
  });

  test('sarif: a rule reported twice is listed once', () => {
    const twice = [findings[0], { ...findings[0], range: findings[2].range }];
    const run = JSON.parse(formatFindings(twice, 'x.xml', 'sarif')).runs[0];
    assert.equal(run.tool.driver.rules.length, 1);
    assert.deepEqual(
      run.results.map((r: { ruleIndex: number }) => r.ruleIndex),
      [0, 0],
    );
  });

  test('summary counts by severity', () => {
    assert.equal(summarize(findings), '1 error, 1 warning, 1 info');
    assert.equal(summarize([findings[0], findings[0]]), '2 errors');
    assert.equal(summarize([findings[2], findings[2]]), '2 info');
    assert.equal(summarize([]), 'no findings');
  });
});

describe('formatFindings text: the terminal sanitiser', () => {
  test('ESC, OSC, BEL, NUL and U+202E in file, id and message come out escaped', () => {
    const f: Finding = {
      ...findings[2],
      id: 'ID\u001b[31m',
      message: 'm\u001b]8;;http://evil.example/\u0007x\u0000y\u202ez',
    };
    assert.equal(
      formatFindings([f], 'a\u001b.xml', 'text'),
      'a\\u001b.xml:3:8: info ID\\u001b[31m m\\u001b]8;;http://evil.example/\\u0007x\\u0000y\\u202ez',
    );
  });
});

describe('the JSON document of several files, made entry by entry', () => {
  // The document as one JSON.stringify of the whole makes it, worked out here independently.
  const whole = (files: FileOutcome[]): string => {
    const counts = (o: FileOutcome) => ({
      errors: o.findings.filter((f) => f.severity === 'error').length,
      warnings: o.findings.filter((f) => f.severity === 'warning').length,
      infos: o.findings.filter((f) => f.severity === 'info').length,
    });
    return JSON.stringify(
      {
        tool: { name: 'eforms', version: TOOL_VERSION },
        files: files.map((o) => ({
          file: o.file,
          outcome: o.outcome,
          ...(o.error !== undefined ? { error: o.error } : {}),
          ...(o.sdkVersion !== undefined ? { sdkVersion: o.sdkVersion } : {}),
          ...(o.engine !== undefined ? { engine: o.engine } : {}),
          ...counts(o),
          findings: JSON.parse(formatFindings(o.findings, o.file, 'json')),
        })),
      },
      null,
      2,
    );
  };
  const cases: FileOutcome[][] = [
    [],
    [{ file: 'a.xml', outcome: 'validated', findings, sdkVersion: '1.15.1', engine: 'local' }],
    [
      {
        file: 'line\nbreak "quoted".xml',
        outcome: 'failed',
        findings: [],
        error: 'cannot read\nit — at all',
      },
      { file: 'b.xml', outcome: 'validated', findings: [], engine: 'cvs' },
      { file: 'c.xml', outcome: 'validated', findings: findings.slice(1), sdkVersion: '1.9.5' },
    ],
  ];
  test('is the text of the whole document, byte for byte, however many files and whatever they hold', () => {
    for (const files of cases) {
      assert.equal(formatOutcomes(files, 'json'), whole(files));
      // As a batch writes it: the head, each entry as its notice is done, the tail.
      if (files.length > 0)
        assert.equal(
          [
            jsonDocumentHead(files.length),
            ...files.map((o, i) => jsonEntry(o, i === files.length - 1)),
            JSON_DOCUMENT_TAIL,
          ].join('\n'),
          whole(files),
        );
      else assert.equal(jsonDocumentHead(0), whole(files));
    }
  });
});
