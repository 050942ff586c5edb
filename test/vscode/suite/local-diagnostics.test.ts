// Without an API key the extension still checks what needs no service: well-formedness (`xml-syntax`)
// and cbc:CustomizationID (`customization-id`), at once, and it says a key is needed. Expected
// positions come from the fixture text (notice-text.ts), never from the extension.

import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Commands } from '../../../client/command-ids';
import {
  api,
  closeAll,
  codeOf,
  describeDiagnostics,
  describeStatus,
  diagnostics,
  fixtureText,
  fixtureUri,
  LOCAL_SOURCE,
  open,
  plainText,
  positionAt,
  SERVICE_SOURCE,
  waitFor,
  workspaceDir,
} from './editor-support';
import { firstMismatchedEndTag, rootStart } from './notice-text';

/** Long enough for several debounce periods (200 ms in test settings) to pass without a service call. */
const QUIET_WINDOW_MS = 1500;

suite('local diagnostics without an API key', () => {
  const scratch: string[] = [];

  suiteSetup(async () => {
    await vscode.commands.executeCommand(Commands.clearApiKey);
  });
  teardown(closeAll);
  suiteTeardown(() => {
    for (const f of scratch) rmSync(f, { force: true });
  });

  /** A notice written into the workspace copy for one test, removed when the suite ends. */
  function scratchNotice(name: string, text: string): vscode.Uri {
    const path = join(workspaceDir(), name);
    writeFileSync(path, text);
    scratch.push(path);
    return vscode.Uri.file(path);
  }

  test('the status asks for an API key', async () => {
    await open('valid-cn.xml');
    const a = await api();
    const s = await waitFor(
      'status needsKey',
      () => (a.status().state === 'needsKey' ? a.status() : undefined),
      () => describeStatus(a),
    );
    assert.match(plainText(s.text), /^eForms\b/, `status text: ${s.text}`);
    assert.match(s.text, /key/i, `the status text must say a key is needed: ${s.text}`);
  });

  test('invalid-cn.xml gets no service diagnostics while no key is set', async () => {
    await open('invalid-cn.xml');
    const a = await api();
    const uri = fixtureUri('invalid-cn.xml');
    await waitFor(
      'status needsKey',
      () => (a.status().state === 'needsKey' ? true : undefined),
      () => describeStatus(a),
    );
    const until = Date.now() + QUIET_WINDOW_MS;
    while (Date.now() < until) {
      const service = diagnostics(uri, SERVICE_SOURCE);
      assert.equal(service.length, 0, `service diagnostics without a key: ${describeDiagnostics(uri)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const d of diagnostics(uri)) assert.equal(d.source, LOCAL_SOURCE, describeDiagnostics(uri));
  });

  test('malformed.xml shows xml-syntax at the mismatched end tag', async () => {
    const text = fixtureText('malformed.xml');
    const offset = firstMismatchedEndTag(text);
    assert.notEqual(offset, -1, 'malformed.xml has no mismatched end tag: this test expects one');
    const expected = positionAt(text, offset);
    const uri = fixtureUri('malformed.xml');
    await open('malformed.xml');
    const d = await waitFor(
      'an xml-syntax diagnostic on malformed.xml',
      () => diagnostics(uri, LOCAL_SOURCE).find((x) => codeOf(x) === 'xml-syntax'),
      () => describeDiagnostics(uri),
    );
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.deepEqual(
      { line: d.range.start.line, character: d.range.start.character },
      expected,
      `xml-syntax must start at the '</' of the mismatched end tag (${d.message})`,
    );
  });

  test('a notice without cbc:CustomizationID gets customization-id on its root element', async () => {
    const valid = fixtureText('valid-cn.xml');
    const without = valid.replace(/<cbc:CustomizationID\b[^>]*>[^<]*<\/cbc:CustomizationID>\s*/, '');
    assert.notEqual(without, valid, 'valid-cn.xml has no cbc:CustomizationID to remove');
    const uri = scratchNotice('scratch-missing-customization-id.xml', without);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const d = await waitFor(
      'a customization-id diagnostic',
      () => diagnostics(uri, LOCAL_SOURCE).find((x) => codeOf(x) === 'customization-id'),
      () => describeDiagnostics(uri),
    );
    assert.equal(d.range.start.line, positionAt(without, rootStart(without)).line, d.message);
  });

  test('a malformed cbc:CustomizationID gets customization-id on that element', async () => {
    const valid = fixtureText('valid-cn.xml');
    const bad = valid.replace(
      /(<cbc:CustomizationID\b[^>]*>)[^<]*(<\/cbc:CustomizationID>)/,
      '$1eforms-sdk-banana$2',
    );
    assert.notEqual(bad, valid, 'valid-cn.xml has no cbc:CustomizationID to break');
    const tag = bad.indexOf('<cbc:CustomizationID');
    const close = bad.indexOf('</cbc:CustomizationID>', tag);
    const uri = scratchNotice('scratch-bad-customization-id.xml', bad);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const d = await waitFor(
      'a customization-id diagnostic',
      () => diagnostics(uri, LOCAL_SOURCE).find((x) => codeOf(x) === 'customization-id'),
      () => describeDiagnostics(uri),
    );
    const at = (p: vscode.Position) => p.line * 1e6 + p.character;
    const from = positionAt(bad, tag);
    const to = positionAt(bad, close);
    assert.ok(
      at(d.range.start) >= from.line * 1e6 + from.character &&
        at(d.range.start) <= to.line * 1e6 + to.character,
      `customization-id must point into the cbc:CustomizationID element (${describeDiagnostics(uri)})`,
    );
  });
});
