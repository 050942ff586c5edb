// Issue 12: the language server survives any message. A didOpen whose text is a number, null or an
// object, changes and saves of such documents, and arbitrary params for every method the server handles
// (fast-check, fixed seed): afterwards the same server process still checks a real document, and its
// status never carries the credentials of a service URL.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { fixtureText } from '../support/fixture-expectations';
import { fuzzParameters } from '../support/fuzz';
import { docUri, LspSession } from '../support/lsp-session';

const METHODS = [
  'textDocument/didOpen',
  'textDocument/didChange',
  'textDocument/didSave',
  'textDocument/didClose',
  'workspace/didChangeConfiguration',
] as const;

describe('language server: hostile messages', () => {
  let s: LspSession;
  let proofs = 0;

  before(async () => {
    // A custom CVS URL with credentials, on a port nothing listens on: validation fails fast, offline.
    s = await LspSession.start({
      apiKey: 'not-a-real-key',
      settings: {
        environment: 'custom',
        customUrls: { cvs: 'http://user:secret-pw@127.0.0.1:9/cvs' },
        validation: { debounceMs: 10, timeoutMs: 2000 },
      },
    });
  });
  after(() => s.stop());

  /** The server still answers: a malformed document opened now gets its local diagnostics. */
  async function stillChecks(): Promise<void> {
    const uri = docUri(`proof-${++proofs}.xml`);
    const p = await s.openAndPublish(
      uri,
      fixtureText('malformed.xml'),
      'local diagnostics of a malformed notice',
    );
    assert.ok(p.diagnostics.length > 0);
    await s.closeDocument(uri);
  }

  test('didOpen with a number, null, an object or an array as text; then changes and saves', async () => {
    const texts: unknown[] = [42, null, { a: 1 }, ['<x/>'], true];
    for (const [k, text] of texts.entries()) {
      const uri = docUri(`odd-${k}.xml`);
      await s.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'xml', version: 1, text },
      });
      await s.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: 2 },
        contentChanges: [{ text: 7 }, { range: { start: { line: 0, character: 0 } }, text: null }],
      });
      await s.connection.sendNotification('textDocument/didSave', { textDocument: { uri } });
    }
    await new Promise((r) => setTimeout(r, 200));
    await stillChecks();
  });

  test("the status never shows a service URL's user and password", async () => {
    const uri = docUri('status.xml');
    const mark = s.mark;
    await s.open(uri, fixtureText('valid-cn.xml'));
    await s.validateNow(uri);
    const st = await s.nextStatus(mark, 'a status naming the service', (x) => x.serviceUrl !== undefined);
    assert.equal(st.serviceUrl, 'http://127.0.0.1:9/cvs');
    const all = JSON.stringify([s.statuses, s.logs, s.published]);
    assert.ok(
      !all.includes('secret-pw'),
      `the password appears nowhere: ${all.slice(Math.max(0, all.indexOf('secret-pw') - 300), all.indexOf('secret-pw') + 50)}`,
    );
    await s.closeDocument(uri);
  });

  test('arbitrary params for every method (fast-check): the server still checks documents', async () => {
    const uriArb = fc.oneof(
      fc.constantFrom(docUri('fuzz.xml'), docUri('odd-0.xml')),
      fc.string(),
      fc.anything(),
    );
    const textArb = fc.oneof(fc.string(), fc.constant('<a b="1" b="2">\u001b&#x1b;</c>'), fc.anything());
    const paramsArb = fc.oneof(
      fc.record({
        textDocument: fc.record({
          uri: uriArb,
          languageId: fc.anything(),
          version: fc.anything(),
          text: textArb,
        }),
      }),
      fc.record({
        textDocument: fc.record({ uri: uriArb, version: fc.anything() }),
        contentChanges: fc.oneof(fc.array(fc.record({ text: textArb, range: fc.anything() })), fc.anything()),
      }),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...METHODS), paramsArb, async (method, params) => {
        await s.connection.sendNotification(method, params as object);
      }),
      fuzzParameters(150),
    );
    await fc.assert(
      fc.asyncProperty(fc.anything(), async (params) => {
        // A request must be answered (with a result or an error), never left hanging or fatal.
        await s.connection.sendRequest('eforms/validateNow', params).catch(() => undefined);
      }),
      fuzzParameters(30),
    );
    // Settings that make sense again, then the proof of life.
    await s.changeSettings({ environment: 'custom', customUrls: { cvs: 'http://127.0.0.1:9/cvs' } });
    await stillChecks();
  });
});
