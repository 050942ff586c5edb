// Activation as the user meets it: the extension activates on XML, but its language server (and so any
// service call) starts only once an eForms notice is open. Runs first, in a window where no notice was
// opened yet.

import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands } from '../../../client/command-ids';
import { api, closeAll, EXTENSION_ID, extension, open, waitFor } from './editor-support';

/** How long "does not start" is watched: many times the work it would take to start. */
const QUIET_WINDOW_MS = 1500;

suite('activation', () => {
  suiteTeardown(closeAll);

  test('opening XML that is not an eForms notice does not start the language server', async () => {
    await open('not-eforms.xml');
    await waitFor(`${EXTENSION_ID} to activate on an XML file`, () =>
      extension().isActive ? true : undefined,
    );
    const a = await api();
    const until = Date.now() + QUIET_WINDOW_MS;
    while (Date.now() < until) {
      assert.equal(a.isServerRunning(), false, 'the language server started for a file that is not a notice');
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  test('opening an eForms notice starts the language server', async () => {
    await open('valid-cn.xml');
    const a = await api();
    await waitFor('the language server to run after opening valid-cn.xml', () =>
      a.isServerRunning() ? true : undefined,
    );
  });

  test('the extension activated without error and returns its API', async () => {
    const ext = extension();
    assert.equal(ext.isActive, true);
    const status = ext.exports.status();
    assert.equal(typeof status.state, 'string');
    for (const k of ['errors', 'warnings', 'infos'] as const) assert.equal(typeof status[k], 'number', k);
  });

  test('the validation commands are registered once the extension is active', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const validation = [
      Commands.setApiKey,
      Commands.clearApiKey,
      Commands.validateNow,
      Commands.showLog,
      Commands.selectEnvironment,
    ];
    const missing = validation.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `commands not registered: ${missing.join(', ')}`);
  });
});
