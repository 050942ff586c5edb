// The status item as a screen reader and a user read it: it names the environment in use, and its
// accessible label is plain words (no `&nbsp;`, no markup, no codicon syntax). A notice that is not
// well-formed says so instead of "validate on demand". Production's marking is proven in
// test/client/status-presentation.test.ts: a test here must never point the editor at TED.

import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands } from '../../../client/command-ids';
import { api, closeAll, describeStatus, open, setSetting, testEnv, waitFor } from './editor-support';

suite('status item', () => {
  suiteSetup(async () => {
    if (!testEnv.sandboxUrl) throw new Error('EFORMS_TEST_SANDBOX_URL must be set by the in-editor runner');
    await setSetting('environment', 'sandbox');
    await setSetting('sandboxUrl', testEnv.sandboxUrl);
    // With a key, so the state is about the notice, not "API key needed".
    if (testEnv.apiKey) await vscode.commands.executeCommand(Commands.setApiKey, testEnv.apiKey);
  });
  teardown(closeAll);

  test('names the environment and has a plain accessible label', async () => {
    await open('valid-cn.xml');
    const a = await api();
    const s = await waitFor(
      'the status item to name the sandbox',
      () => (a.status().environment === 'sandbox' && a.status().state !== 'idle' ? a.status() : undefined),
      () => describeStatus(a),
    );
    assert.match(s.text, /eForms \[sandbox\]/, s.text);
    assert.ok(s.ariaLabel.length > 0, 'the item has an accessible label');
    assert.doesNotMatch(s.ariaLabel, /&nbsp;|&[a-z]+;|\$\(|[<>*`]/, `accessible label: ${s.ariaLabel}`);
    assert.match(s.ariaLabel, /sandbox/, s.ariaLabel);
  });

  test('a notice that is not well-formed says so', async () => {
    await open('malformed.xml');
    const a = await api();
    const s = await waitFor(
      'the status item to say the notice is not well-formed',
      () => (a.status().state === 'malformed' ? a.status() : undefined),
      () => describeStatus(a),
    );
    assert.match(s.text, /not well-formed/, s.text);
    assert.doesNotMatch(s.text, /on demand/, s.text);
  });
});
