// The first run and New Notice in a real VS Code: with no SDK available (eforms.sdk.path pointing at an
// empty folder, nothing in the extension's cache) the status item shows a warning that offers the
// SDK, and it clears when a folder with a release is set; the walkthrough is contributed and opens;
// New Notice with its choices opens a notice named cn-standard-16.xml (not `<?xml version…`) that
// holds the choices and leaves other codes empty.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Commands } from '../../../client/command-ids';
import { api, EXTENSION_ID, PROJECT_ROOT, setSetting, waitFor } from './editor-support';

const SDK_DIR = join(
  process.env.EFORMS_SHARED_DIR ?? join(PROJECT_ROOT, '..', 'shared'),
  'eforms-sdk',
  '1.15.1',
);

interface FirstRunStatus {
  text: string;
  sdkMissing?: string;
  background?: string;
}

suite('first run', () => {
  let previous: string | undefined;
  suiteSetup(async function () {
    if (!existsSync(SDK_DIR)) this.skip();
    previous = vscode.workspace.getConfiguration('eforms').inspect<string>('sdk.path')?.globalValue;
  });
  suiteTeardown(async () => {
    await setSetting('sdk.path', previous);
  });

  test('without an SDK the status item warns and offers one; with one it is quiet', async () => {
    const a = await api();
    const status = () => a.status() as unknown as FirstRunStatus;
    await setSetting('sdk.path', mkdtempSync(join(tmpdir(), 'no-sdk-')));
    const s = await waitFor(
      'the status item to say that no SDK is available',
      () => (status().sdkMissing !== undefined ? status() : undefined),
      () => JSON.stringify(status()),
    );
    assert.equal(s.background, 'warning');
    assert.match(s.text, /no SDK/);
    await setSetting('sdk.path', SDK_DIR);
    await waitFor(
      'the warning to clear once a release is set',
      () => (status().sdkMissing === undefined ? true : undefined),
      () => JSON.stringify(status()),
    );
  });

  test('the walkthrough is contributed and opens', async () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
      contributes: { walkthroughs: { id: string; steps: unknown[] }[] };
    };
    const w = pkg.contributes.walkthroughs.find((x) => x.id === 'eforms.gettingStarted');
    assert.equal(w?.steps.length, 5);
    await vscode.commands.executeCommand(
      'workbench.action.openWalkthrough',
      `${EXTENSION_ID}#eforms.gettingStarted`,
      false,
    );
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('New Notice with its choices opens cn-standard-16.xml holding them', async () => {
    await setSetting('sdk.path', SDK_DIR);
    const xml = await vscode.commands.executeCommand<string | undefined>(Commands.newNotice, {
      subtype: '16',
      procedureType: 'open',
      buyerCountry: 'FRA',
      language: 'ENG',
    });
    assert.ok(xml, 'the command returned the notice');
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc);
    assert.equal(doc.uri.scheme, 'untitled');
    assert.match(doc.uri.path, /\/cn-standard-16(-\d+)?\.xml$/, doc.uri.toString());
    assert.equal(doc.languageId, 'xml');
    assert.equal(doc.getText(), xml);
    assert.match(xml, /<cbc:ProcedureCode listName="procurement-procedure-type">open</);
    assert.match(xml, /<cbc:IdentificationCode listName="country">FRA</);
    assert.match(xml, /<cbc:ActivityTypeCode listName="authority-activity"><\/cbc:ActivityTypeCode>/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
