// Offline, with no API key, a notice gets the official eForms SDK rules' diagnostics in the real
// editor: an SDK sample (read from ../shared, skipped when absent) with its procedure description
// removed shows BR-BT-00024-0022 on the procedure's cac:ProcurementProject, sourced "eForms SDK
// 1.15.1", the status item names the SDK, and putting the description back clears it. The expected
// position comes from the text itself.

import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { Commands } from '../../../client/command-ids';
import { skipUnless } from '../../support/shared-data';
import {
  api,
  closeAll,
  codeOf,
  describeDiagnostics,
  describeStatus,
  diagnostics,
  PROJECT_ROOT,
  positionAt,
  setSetting,
  waitFor,
  workspaceDir,
} from './editor-support';

const SHARED = process.env.EFORMS_SHARED_DIR ?? resolve(PROJECT_ROOT, '..', 'shared');
const SDK_DIR = join(SHARED, 'eforms-sdk', '1.15.1');
const SAMPLE = join(SHARED, 'eforms-sdk-samples', 'notices', 'cn_24_minimal.xml');
const SOURCE = 'eForms SDK 1.15.1';
const DESCRIPTION =
  /<cbc:Description languageID="ENG">Provision of IT services related.*?<\/cbc:Description>/s;

suite('eForms SDK rules offline', () => {
  const scratch = join(workspaceDir(), 'sdk-offline-cn.xml');

  suiteSetup(async function () {
    if (skipUnless(SDK_DIR) || skipUnless(SAMPLE)) this.skip();
    await vscode.commands.executeCommand(Commands.clearApiKey);
    await setSetting('sdk.path', SDK_DIR);
  });
  teardown(closeAll);
  suiteTeardown(async () => {
    rmSync(scratch, { force: true });
    await setSetting('sdk.path', undefined);
  });

  test('a notice without its description shows the SDK rule, and the fix clears it', async () => {
    const good = readFileSync(SAMPLE, 'utf8');
    const bad = good.replace(DESCRIPTION, '');
    assert.notEqual(bad, good);
    writeFileSync(scratch, bad);
    const uri = vscode.Uri.file(scratch);
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));

    const found = await waitFor(
      'SDK diagnostics',
      () => {
        const d = diagnostics(uri, SOURCE);
        return d.length > 0 ? d : undefined;
      },
      () => describeDiagnostics(uri),
    );
    assert.deepEqual(found.map(codeOf), ['BR-BT-00024-0022'], describeDiagnostics(uri));
    const at = positionAt(bad, bad.indexOf('<cac:ProcurementProject>'));
    assert.equal(found[0]?.range.start.line, at.line);
    assert.equal(found[0]?.range.start.character, at.character);
    assert.equal(found[0]?.severity, vscode.DiagnosticSeverity.Error);

    const a = await api();
    const status = await waitFor(
      'the status naming the SDK',
      () => (/eForms SDK 1\.15\.1: 1 error/.test(a.status().text) ? a.status() : undefined),
      () => describeStatus(a),
    );
    assert.equal(status.state, 'needsKey', 'the CVS side still says a key is needed');

    // Put the description back where it was: the SDK diagnostic goes.
    const removedAt = good.search(DESCRIPTION);
    const description = DESCRIPTION.exec(good)?.[0] ?? '';
    const pos = positionAt(bad, removedAt);
    await editor.edit((e) => e.insert(new vscode.Position(pos.line, pos.character), description));
    assert.equal(editor.document.getText(), good);
    await waitFor(
      'the SDK diagnostic cleared',
      () => (diagnostics(uri, SOURCE).length === 0 ? true : undefined),
      () => describeDiagnostics(uri),
    );
  });
});
