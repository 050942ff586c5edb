// Extension entry. Activation is cheap (on any XML file): the language server starts only once an
// eForms notice is open, and the commands that need it explain themselves until then. If activation
// fails, the user is told here, since VS Code would only log it.

import * as vscode from 'vscode';
import { EformsClientState } from './client-state';
import { affectsEforms, affectsHttp } from './config';
import type { FeatureApi } from './extension-state';
import { features } from './features';
import type { PublicationSnapshot } from './publication/snapshot';
import { registerValidationCommands } from './validation-commands';
import type { StatusSnapshot } from './validation-status';

/** What the extension returns from `activate`: used by the in-editor tests and by other extensions. */
export interface EformsExtensionApi {
  /** True once the language server runs (only after an eForms notice was opened). */
  isServerRunning(): boolean;
  /** What the status item shows now. */
  status(): StatusSnapshot;
  /** What My Notices and the open validation reports show now (the publication feature). */
  publication(): PublicationSnapshot;
}

let state: EformsClientState | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<EformsExtensionApi> {
  const log = vscode.window.createOutputChannel('eForms', { log: true });
  context.subscriptions.push(log);
  try {
    const s = new EformsClientState(context, log);
    state = s;
    context.subscriptions.push(s);
    registerValidationCommands(s);
    const apis: FeatureApi = {};
    for (const feature of features) Object.assign(apis, feature(s));

    const refreshKeyContext = async () => {
      await vscode.commands.executeCommand('setContext', 'eforms.hasApiKey', Boolean(await s.keys.get()));
    };
    context.subscriptions.push(
      s.keys.onDidChange(() => void refreshKeyContext()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        // The environment shows in the status item; VS Code's proxy settings reach our own requests.
        if (affectsEforms(e) || affectsHttp(e)) s.fireSettingsChanged();
      }),
      vscode.workspace.onDidOpenTextDocument((d) => onDocument(s, d)),
      vscode.workspace.onDidCloseTextDocument((d) => s.status.forget(d.uri.toString())),
      vscode.workspace.onDidChangeTextDocument((e) => {
        // A file that becomes a notice while typed (an empty new file) starts the server too.
        if (e.document === vscode.window.activeTextEditor?.document)
          onActiveEditor(s, vscode.window.activeTextEditor);
      }),
      vscode.window.onDidChangeActiveTextEditor((e) => onActiveEditor(s, e)),
    );
    await refreshKeyContext();
    for (const d of vscode.workspace.textDocuments) onDocument(s, d);
    onActiveEditor(s, vscode.window.activeTextEditor);
    // The first run without an SDK is told at once, not when a notice fails to be checked.
    void s.languageClient.sdk.firstRun();
    log.info('eForms extension activated');
    return {
      isServerRunning: () => s.languageClient.running,
      status: () => s.status.snapshot(),
      publication: () => {
        if (!apis.publication) throw new Error('the publication feature is not registered');
        return apis.publication();
      },
    };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    log.error(`activation failed: ${msg}`);
    void vscode.window.showErrorMessage(`eForms: the extension failed to start: ${msg}`);
    throw err;
  }
}

function onDocument(s: EformsClientState, doc: vscode.TextDocument): void {
  if (s.isNotice(doc)) void s.languageClient.ensureStarted();
}

function onActiveEditor(s: EformsClientState, editor: vscode.TextEditor | undefined): void {
  const notice = editor ? s.isNotice(editor.document) : false;
  void vscode.commands.executeCommand('setContext', 'eforms.isNotice', notice);
  if (notice) void s.languageClient.ensureStarted();
  s.status.setActive(editor?.document.uri.toString(), notice);
}

export async function deactivate(): Promise<void> {
  await state?.languageClient.stop();
  state = undefined;
}
