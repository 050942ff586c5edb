// Authoring in the real editor, with eforms.sdk.path on the official SDK in ../shared: the hover text,
// the completion items, a quick fix applied, the outline, and the New Notice command. Expected values
// come from the fixture's text and the SDK's files, read here. Skips when ../shared is absent.

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Commands } from '../../../client/command-ids';
import { ruledProcedureTypesOf16 } from '../../support/ruled-procedure-types';
import { skipUnless } from '../../support/shared-data';
import {
  api,
  closeAll,
  diagnostics,
  fixtureText,
  LOCAL_SOURCE,
  open,
  PROJECT_ROOT,
  positionAt,
  setSetting,
  testEnv,
  waitFor,
} from './editor-support';

const SDK_DIR = join(
  process.env.EFORMS_SHARED_DIR ?? join(PROJECT_ROOT, '..', 'shared'),
  'eforms-sdk',
  '1.15.1',
);

function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
    .join('\n');
}

/** Reverts and closes an untitled notice a test made, so that no save dialog waits at the end. */
async function discard(doc: vscode.TextDocument): Promise<void> {
  await vscode.window.showTextDocument(doc);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}

suite('authoring', () => {
  let previous: string | undefined;
  suiteSetup(async function () {
    if (skipUnless(SDK_DIR)) this.skip();
    previous = vscode.workspace.getConfiguration('eforms').inspect<string>('sdk.path')?.globalValue;
    await setSetting('sdk.path', SDK_DIR);
  });
  suiteTeardown(async () => {
    await closeAll();
    // The runner's own value stays for the UI checks that follow.
    await setSetting('sdk.path', previous);
  });

  test('hover on cbc:ProcedureCode shows the field, its label and the code label', async () => {
    const editor = await open('valid-cn.xml');
    const text = fixtureText('valid-cn.xml');
    const label = /<entry key="field\|name\|BT-105-Procedure">([^<]*)</.exec(
      readFileSync(join(SDK_DIR, 'translations', 'field_en.xml'), 'utf8'),
    )?.[1];
    const at = positionAt(text, text.indexOf('>open<') + 2);
    const md = await waitFor('a hover with BT-105-Procedure', async () => {
      const hovers =
        (await vscode.commands.executeCommand<vscode.Hover[]>(
          'vscode.executeHoverProvider',
          editor.document.uri,
          new vscode.Position(at.line, at.character),
        )) ?? [];
      const t = hoverText(hovers);
      return t.includes('BT-105-Procedure') ? t : undefined;
    });
    assert.ok(label && md.includes(label), `the SDK's label ${label}`);
    assert.match(md, /`open`: Open/);
  });

  test('completion inside cbc:ProcedureCode offers the procedure types with labels', async () => {
    const editor = await open('valid-cn.xml');
    const text = fixtureText('valid-cn.xml');
    const at = positionAt(text, text.indexOf('>open<') + 1);
    const codes = [
      ...readFileSync(join(SDK_DIR, 'codelists', 'procurement-procedure-type.gc'), 'utf8').matchAll(
        /<Value ColumnRef="code">\s*<SimpleValue>([^<]*)</g,
      ),
    ].map((m) => m[1]);
    const list = await waitFor('completion items from the SDK', async () => {
      const r = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        editor.document.uri,
        new vscode.Position(at.line, at.character),
      );
      const labels = r?.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label)) ?? [];
      return labels.includes('neg-w-call') ? labels : undefined;
    });
    // Narrowed to what subtype 16's rules allow: BR-BT-00105-0135 in validation-stage-3b-16.sch (read
    // here with a regex, not with the reader under test).
    const ruled = ruledProcedureTypesOf16(SDK_DIR);
    for (const c of codes)
      assert.equal(list.includes(c as string), ruled.includes(c as string), `${c} offered`);
  });

  test('the outline lists the notice, its lots and organisations', async () => {
    const editor = await open('valid-cn.xml');
    const text = fixtureText('valid-cn.xml');
    const lotId = /<cac:ProcurementProjectLot>\s*<cbc:ID[^>]*>([^<]*)</.exec(text)?.[1] as string;
    const symbols = await waitFor('document symbols', async () => {
      const s = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
        'vscode.executeDocumentSymbolProvider',
        editor.document.uri,
      );
      return s && s.length > 0 ? s : undefined;
    });
    assert.equal(symbols[0]?.name, 'ContractNotice');
    const names: string[] = [];
    const walk = (x: vscode.DocumentSymbol[]) => {
      for (const y of x) {
        names.push(y.name);
        walk(y.children);
      }
    };
    walk(symbols);
    assert.ok(
      names.some((n) => n.startsWith(lotId)),
      `${lotId} in ${names.join(', ')}`,
    );
  });

  test('a quick fix inserts the missing cbc:CustomizationID and the diagnostic goes away', async () => {
    const text = fixtureText('valid-cn.xml').replace(
      /\s*<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/,
      '',
    );
    const doc = await vscode.workspace.openTextDocument({ language: 'xml', content: text });
    await vscode.window.showTextDocument(doc);
    const d = await waitFor('the customization-id diagnostic', () =>
      diagnostics(doc.uri, LOCAL_SOURCE).find(
        (x) => String(typeof x.code === 'object' ? x.code.value : x.code) === 'customization-id',
      ),
    );
    const actions = await waitFor('a quick fix', async () => {
      const a = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        doc.uri,
        d.range,
        vscode.CodeActionKind.QuickFix.value,
      );
      return a?.some((x) => x.title.startsWith('Insert cbc:CustomizationID')) ? a : undefined;
    });
    const fix = actions.find((x) => x.title.startsWith('Insert cbc:CustomizationID'));
    assert.ok(fix?.edit);
    assert.equal(await vscode.workspace.applyEdit(fix.edit), true);
    assert.match(doc.getText(), /<cbc:CustomizationID>eforms-sdk-1\.15<\/cbc:CustomizationID>/);
    await waitFor('the diagnostic to go away', () =>
      diagnostics(doc.uri, LOCAL_SOURCE).some(
        (x) => String(typeof x.code === 'object' ? x.code.value : x.code) === 'customization-id',
      )
        ? undefined
        : true,
    );
    await discard(doc);
  });

  test('"fix all" comes without its edit, and VS Code resolves it when asked: both missing elements inserted', async () => {
    // Two elements the SDK rules require at the root, both removed from the fixture.
    const text = fixtureText('valid-cn.xml')
      .replace(/\s*<cbc:IssueTime>[^<]*<\/cbc:IssueTime>/, '')
      .replace(/\s*<cbc:VersionID>[^<]*<\/cbc:VersionID>/, '');
    const doc = await vscode.workspace.openTextDocument({ language: 'xml', content: text });
    await vscode.window.showTextDocument(doc);
    const code = (x: vscode.Diagnostic) => String(typeof x.code === 'object' ? x.code.value : x.code);
    const wanted = ['BR-BT-00005-0074', 'BR-BT-00757-0022'];
    const found = await waitFor('both missing-element diagnostics', () => {
      const all = vscode.languages.getDiagnostics(doc.uri);
      const ds = wanted.map((w) => all.find((x) => code(x) === w));
      return ds.every((x) => x !== undefined) ? (ds as vscode.Diagnostic[]) : undefined;
    });
    const title = /^Fix all in this file: insert the missing mandatory elements/;
    // Unresolved, as VS Code asks at every cursor move: no edit yet.
    const lazy = await waitFor('a fix-all action', async () => {
      const a = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        doc.uri,
        found[0]?.range,
        vscode.CodeActionKind.QuickFix.value,
      );
      return a?.find((x) => title.test(x.title));
    });
    assert.equal(lazy.edit, undefined, 'no edit before it is resolved');
    // Resolved (the last argument: how many actions VS Code resolves), as when the user picks it.
    const resolved = (
      await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        doc.uri,
        found[0]?.range,
        vscode.CodeActionKind.QuickFix.value,
        100,
      )
    ).find((x) => title.test(x.title));
    assert.ok(resolved?.edit, 'the edit once resolved');
    assert.equal(await vscode.workspace.applyEdit(resolved.edit), true);
    assert.match(doc.getText(), /<cbc:IssueTime>/);
    assert.match(doc.getText(), /<cbc:VersionID>/);
    await waitFor('both diagnostics to go away', () =>
      vscode.languages.getDiagnostics(doc.uri).some((x) => wanted.includes(code(x))) ? undefined : true,
    );
    await discard(doc);
  });

  test('New Notice opens a notice of the chosen subtype', async () => {
    const xml = await vscode.commands.executeCommand<string | undefined>(Commands.newNotice, '16');
    assert.ok(xml, 'the command returned the notice');
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.getText(), xml);
    assert.match(xml, /<cbc:SubTypeCode listName="notice-subtype">16<\/cbc:SubTypeCode>/);
    assert.equal(editor?.document.languageId, 'xml');
    if (editor) await discard(editor.document);
  });

  test('a second submission of the same version offers to raise cbc:VersionID', async function () {
    this.timeout(90000);
    if (!testEnv.sandboxUrl || !testEnv.apiKey) this.skip();
    await api();
    await setSetting('environment', 'sandbox');
    await setSetting('sandboxUrl', testEnv.sandboxUrl);
    await vscode.commands.executeCommand(Commands.setApiKey, testEnv.apiKey);
    const text = fixtureText('valid-cn.xml')
      .replace(/(<cbc:ID schemeName="notice-id">)[^<]*(<\/cbc:ID>)/, `$1${randomUUID()}$2`)
      .replace(/(<cbc:ContractFolderID>)[^<]*(<\/cbc:ContractFolderID>)/, `$1${randomUUID()}$2`);
    const version = /<cbc:VersionID>([^<]*)</.exec(text)?.[1] as string;
    const doc = await vscode.workspace.openTextDocument({ language: 'xml', content: text });
    await vscode.window.showTextDocument(doc);
    const args = { uri: doc.uri.toString(), email: 'buyer@example.org', locale: 'en', submitAnyway: true };
    const first = await vscode.commands.executeCommand<{ success: boolean }>(Commands.submitNotice, args);
    assert.ok(first, 'the first submission went through');
    await vscode.commands.executeCommand(Commands.submitNotice, args);
    const d = await waitFor('the notice-version-exists diagnostic', () =>
      vscode.languages
        .getDiagnostics(doc.uri)
        .find((x) => String(typeof x.code === 'object' ? x.code.value : x.code) === 'notice-version-exists'),
    );
    const next = String(Number(version) + 1).padStart(version.length, '0');
    const actions = await waitFor('the VersionID quick fix', async () => {
      const a = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        doc.uri,
        d.range,
        vscode.CodeActionKind.QuickFix.value,
      );
      return a?.find((x) => x.title === `Increase cbc:VersionID to ${next}`);
    });
    assert.ok(actions.edit);
    assert.equal(await vscode.workspace.applyEdit(actions.edit), true);
    assert.ok(doc.getText().includes(`<cbc:VersionID>${next}</cbc:VersionID>`));
    await waitFor('the diagnostic to go once the notice changed', () =>
      vscode.languages
        .getDiagnostics(doc.uri)
        .some((x) => String(typeof x.code === 'object' ? x.code.value : x.code) === 'notice-version-exists')
        ? undefined
        : true,
    );
    await discard(doc);
  });
});
