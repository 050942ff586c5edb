// Issue 21, item 10: a rename whose params are malformed (a new name that is not text, no position)
// is refused with a clean InvalidParams error that says what a rename needs, never an internal error;
// a name of the wrong form is refused saying the form. Against the built server and ../shared's SDK.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { docUri, LspSession, lineCol } from '../support/lsp-session';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const INVALID_PARAMS = -32602;

describe('rename with malformed params', { skip: skipUnless(SDK_DIR) ?? skipUnless(SAMPLES_DIR) }, () => {
  let s: LspSession;
  before(async () => {
    s = await LspSession.start({ settings: { environment: 'sandbox', sdk: { path: SDK_DIR } } });
  });
  after(() => s?.stop());

  test('refused cleanly, whatever the new name is', async () => {
    const uri = docUri('rename.xml');
    const text = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_maximal.xml'), 'utf8');
    await s.open(uri, text);
    const at = text.indexOf('ORG-', text.indexOf('<cac:ContractingParty>'));
    const position = lineCol(text, at + 1);
    for (const newName of [null, 42, { x: 1 }, ['ORG-0002'], undefined]) {
      await assert.rejects(
        s.connection.sendRequest('textDocument/rename', { textDocument: { uri }, position, newName }),
        (e: { code?: number; message?: string }) =>
          e.code === INVALID_PARAMS && /new name as text/.test(e.message ?? ''),
        JSON.stringify(newName),
      );
    }
    await assert.rejects(
      s.connection.sendRequest('textDocument/rename', { textDocument: { uri }, newName: 'ORG-0002' }),
      (e: { code?: number }) => e.code === INVALID_PARAMS,
    );
    for (const newName of ['', 'ORG-12345', 'LOT-0001', 'ORG-0001\n<x/>', '\ud800', 'x'.repeat(100_000)]) {
      await assert.rejects(
        s.connection.sendRequest('textDocument/rename', { textDocument: { uri }, position, newName }),
        (e: { message?: string }) => /has the form ORG-0000/.test(e.message ?? ''),
        JSON.stringify(newName.slice(0, 20)),
      );
    }
    await s.closeDocument(uri);
  });
});
