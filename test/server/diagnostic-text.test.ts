// What the server publishes of a finding's words: a report's message, code and related messages reach
// the editor's Problems panel, where a right-to-left override or a zero-width character would make them
// read as something else. They are shown escaped, as the CLI's text output shows them; plain words pass
// unchanged.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Finding } from '../../core/findings';
import { toDiagnostic } from '../../server/diagnostics';

const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
const finding = (id: string, message: string): Finding => ({
  id,
  severity: 'error',
  message,
  location: '/a',
  range,
  source: 'cvs',
  resolved: true,
  related: [{ range, message: `see \u202eevil\u202c` }],
});

test('bidi and zero-width characters from a report are published escaped', () => {
  const d = toDiagnostic(finding('BR-\u202eX', 'Hello \u202eevil\u202c \u200bzw\u0007'), 'file:///n.xml');
  assert.equal(d.message, 'Hello \\u202eevil\\u202c \\u200bzw\\u0007');
  assert.equal(d.code, 'BR-\\u202eX');
  assert.equal(d.relatedInformation?.[0]?.message, 'see \\u202eevil\\u202c');
  for (const s of [d.message, String(d.code), d.relatedInformation?.[0]?.message ?? ''])
    assert.ok(![...s].some((c) => '\u0007\u200b\u202c\u202e'.includes(c)), JSON.stringify(s));
});

test('plain words, line breaks and accents pass unchanged', () => {
  const message = 'La date (BT-05) doit précéder\nla date limite — «ok»';
  const d = toDiagnostic(finding('BR-BT-00005-0052', message), 'file:///n.xml');
  assert.equal(d.message, message);
  assert.equal(d.code, 'BR-BT-00005-0052');
});
