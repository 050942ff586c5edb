// Completion returns new findings that keep every field of the ones given (it copies them field by field,
// core/authoring/finding-completion.ts copyOf): each field set on the input, required or optional, is on
// the output with the same value, fields not set stay absent, and the input is left as it is.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { completeFindings } from '../../core/authoring';
import type { Finding } from '../../core/findings';
import { indexXml } from '../../core/notice/xml-index';

const TEXT = '<root>\n  <a x="1"/>\n</root>\n';

const full: Finding = {
  id: 'local-check',
  severity: 'warning',
  message: 'a message',
  location: '/root/a',
  range: { start: { line: 1, character: 2 }, end: { line: 1, character: 4 } },
  source: 'sdk',
  sdkVersion: '1.15.1',
  flag: 'LAWFULNESS',
  test: 'count(b) > 0',
  field: 'BT-1',
  missing: 'b',
  moveTo: '1.15',
  resolved: true,
  node: 'given',
  help: 'https://example.org/help',
  related: [
    { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: 'there' },
  ],
};

const bare: Finding = {
  id: 'bare',
  severity: 'info',
  message: 'm',
  location: '',
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } },
  source: 'local',
  resolved: false,
};

describe('completed findings keep their fields', () => {
  test('every field given, and no other', () => {
    const index = indexXml(TEXT);
    const input = [full, bare];
    const before = JSON.parse(JSON.stringify(input));
    const [a, b] = completeFindings(input, { index });
    assert.notEqual(a, full);
    // No SDK: nothing to compose; a local id is no business rule, so no link and no related place.
    assert.deepEqual(a, full);
    assert.deepEqual(b, bare);
    assert.deepEqual(Object.keys(b as Finding).sort(), Object.keys(bare).sort());
    assert.deepEqual(JSON.parse(JSON.stringify(input)), before);
  });
});
