// The notice preview in the real editor, with eforms.sdk.path on the official SDK in ../shared: the
// preview opens beside the notice and the page draws every line of the render; an edit is drawn again
// (of the new document version); the cursor's element is highlighted on the page; a click on a line
// (run by the page's own click handler) selects that element in the XML; the language picker's choice
// is rendered and remembered in eforms.preview.language; an emptied mandatory value is still a line,
// empty and flagged. Expected places come from the document's text (indexOf), the languages from the
// SDK's translation files; the page's own reports (what it drew, what it highlighted) are what is read.

import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Commands } from '../../../client/command-ids';
import type { PreviewProbe, PreviewSnapshot } from '../../../client/preview/preview-panel';
import { api, closeAll, open, PROJECT_ROOT, setSetting, waitFor } from './editor-support';

const SDK_DIR = join(
  process.env.EFORMS_SHARED_DIR ?? join(PROJECT_ROOT, '..', 'shared'),
  'eforms-sdk',
  '1.15.1',
);

/** The procedure's title element (the first cbc:Name inside the notice-level cac:ProcurementProject). */
function titleElement(text: string): { start: number; end: number; contentStart: number } {
  const project = text.indexOf('<cac:ProcurementProject>');
  const start = text.indexOf('<cbc:Name', project);
  const contentStart = text.indexOf('>', start) + 1;
  const end = text.indexOf('</cbc:Name>', start) + '</cbc:Name>'.length;
  assert.ok(project > 0 && start > project && end > start, 'the fixture has a procedure title');
  return { start, end, contentStart };
}

function describeSnapshot(s: PreviewSnapshot | undefined): string {
  if (!s) return 'No snapshot.';
  const { lines, ...rest } = s;
  return `Preview: ${JSON.stringify(rest)}; ${lines.length} lines, first: ${JSON.stringify(lines.slice(0, 5))}`;
}

suite('notice preview', () => {
  let previous: { sdk?: string; language?: string } = {};
  suiteSetup(async function () {
    if (!existsSync(SDK_DIR)) this.skip();
    await api();
    const c = vscode.workspace.getConfiguration('eforms');
    previous = {
      sdk: c.inspect<string>('sdk.path')?.globalValue,
      language: c.inspect<string>('preview.language')?.globalValue,
    };
    await setSetting('sdk.path', SDK_DIR);
    await setSetting('preview.language', undefined);
  });
  teardown(closeAll);
  suiteTeardown(async () => {
    // The runner's own sdk.path stays for the UI checks that follow. A value not read back (the user
    // settings still loading on a busy machine) is left as set here, never removed.
    if (previous.sdk !== undefined) await setSetting('sdk.path', previous.sdk);
    await setSetting('preview.language', previous.language);
  });

  test('opens beside the notice, re-renders an edit, and syncs selection both ways', async () => {
    const editor = await open('valid-cn.xml');
    const doc = editor.document;
    const probe = await vscode.commands.executeCommand<PreviewProbe>(Commands.openPreviewToSide, doc.uri);
    assert.ok(probe, 'the command resolves once the page drew its first render');
    let s = probe.snapshot();
    assert.equal(s.drawnVersion, doc.version, describeSnapshot(s));
    assert.equal(s.sdkVersion, '1.15.1');
    assert.ok(s.lines.length > 0);
    assert.equal(s.drawnLines, s.lines.length, 'the page drew every line of the render');
    const sdkLanguages = [
      ...new Set(
        readdirSync(join(SDK_DIR, 'translations'))
          .map((f) => /_([a-z]{2})\.xml$/.exec(f)?.[1])
          .filter(Boolean),
      ),
    ].sort();
    assert.deepEqual([...s.languages].sort(), sdkLanguages);
    // The preview is beside the notice: both are visible.
    const tab = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs.map((t) => ({ t, column: g.viewColumn })))
      .find((x) => x.t.input instanceof vscode.TabInputWebview && /eforms\.preview/.test(x.t.input.viewType));
    assert.ok(tab, 'a preview tab');
    assert.notEqual(tab.column, editor.viewColumn, 'in another editor group');

    // An edit of the procedure title: drawn again, of the new version, with the new text.
    const marker = `Parks kept by preview ${Date.now()}`;
    const t = titleElement(doc.getText());
    const end = doc.getText().indexOf('</cbc:Name>', t.start);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(t.contentStart), doc.positionAt(end)), marker);
    assert.ok(await vscode.workspace.applyEdit(edit));
    s = await waitFor(
      'the edit drawn in the preview',
      () => {
        const x = probe.snapshot();
        return x.drawnVersion === doc.version && x.lines.some((l) => l.value.includes(marker))
          ? x
          : undefined;
      },
      () => describeSnapshot(probe.snapshot()),
    );
    console.log(`preview: edit → drawn in ${s.lastEditToDrawnMs} ms (${s.lines.length} lines)`);

    // Cursor in the title's text: the page highlights the line whose range starts at that element.
    const now = titleElement(doc.getText());
    const textEditor = vscode.window.visibleTextEditors.find((e) => e.document === doc);
    assert.ok(textEditor, 'the notice stays visible beside the preview');
    const inTitle = doc.positionAt(now.contentStart + 3);
    textEditor.selection = new vscode.Selection(inTitle, inTitle);
    const highlighted = await waitFor(
      'the title highlighted in the preview',
      () => {
        const x = probe.snapshot();
        const line = x.lines.find((l) => l.id === x.highlighted);
        return line?.range?.start === now.start ? line : undefined;
      },
      () => describeSnapshot(probe.snapshot()),
    );
    assert.ok(highlighted.value.includes(marker));

    // A click on the procedure type's line: its element is selected in the XML.
    const text = doc.getText();
    const codeStart = text.indexOf('<cbc:ProcedureCode');
    const codeEnd = text.indexOf('</cbc:ProcedureCode>', codeStart) + '</cbc:ProcedureCode>'.length;
    const line = probe.snapshot().lines.find((l) => l.range?.start === codeStart);
    assert.ok(line, `a line shows cbc:ProcedureCode. ${describeSnapshot(probe.snapshot())}`);
    probe.click(line.id);
    await waitFor(
      'the procedure type selected in the XML',
      () => {
        const e = vscode.window.visibleTextEditors.find((x) => x.document === doc);
        if (!e) return undefined;
        const a = doc.offsetAt(e.selection.start);
        const b = doc.offsetAt(e.selection.end);
        return a === codeStart && b === codeEnd ? true : undefined;
      },
      () => {
        const e = vscode.window.visibleTextEditors.find((x) => x.document === doc);
        return e
          ? `selection ${doc.offsetAt(e.selection.start)}–${doc.offsetAt(e.selection.end)}, wanted ${codeStart}–${codeEnd}`
          : 'the notice is not visible';
      },
    );
  });

  test('the language picker renders in the chosen language and remembers it', async () => {
    const editor = await open('valid-cn.xml');
    const probe = await vscode.commands.executeCommand<PreviewProbe>(
      Commands.openPreviewToSide,
      editor.document.uri,
    );
    assert.ok(probe);
    await probe.chooseLanguage('de');
    await waitFor(
      'a German render drawn',
      () => {
        const x = probe.snapshot();
        return x.language === 'de' && x.drawnVersion === editor.document.version ? x : undefined;
      },
      () => describeSnapshot(probe.snapshot()),
    );
    assert.equal(vscode.workspace.getConfiguration('eforms').get('preview.language'), 'de');
    await setSetting('preview.language', undefined);
  });

  test('an emptied mandatory value is still shown, empty and flagged', async () => {
    const editor = await open('valid-cn.xml');
    const doc = editor.document;
    const probe = await vscode.commands.executeCommand<PreviewProbe>(Commands.openPreviewToSide, doc.uri);
    assert.ok(probe);
    const t = titleElement(doc.getText());
    const end = doc.getText().indexOf('</cbc:Name>', t.start);
    const edit = new vscode.WorkspaceEdit();
    edit.delete(doc.uri, new vscode.Range(doc.positionAt(t.contentStart), doc.positionAt(end)));
    assert.ok(await vscode.workspace.applyEdit(edit));
    const line = await waitFor(
      'the empty title flagged',
      () => {
        const x = probe.snapshot();
        if (x.drawnVersion !== doc.version) return undefined;
        return x.lines.find((l) => l.range?.start === t.start && l.flagged);
      },
      () => describeSnapshot(probe.snapshot()),
    );
    assert.equal(line.value, '');
  });
});
