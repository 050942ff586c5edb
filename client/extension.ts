// Extension entry. Activation is cheap (on any XML file): the language server starts only once an
// eForms notice is open, and the commands that need it explain themselves until then. If activation
// fails, the user is told here, since VS Code would only log it.

import * as vscode from 'vscode';
import type { ServiceUrls } from '../core/environments';
import type { EformsSettings } from '../core/settings';
import { ApiKeyStore } from './api-key';
import { affectsEforms, readConfig, serviceUrlsFor } from './config';
import type { ExtensionState } from './extension-state';
import { features } from './features';
import { EformsLanguageClient, isEformsNotice } from './language-client';
import { registerValidationCommands } from './validation-commands';
import { type StatusSnapshot, ValidationStatusItem } from './validation-status';

/** What the extension returns from `activate`: used by the in-editor tests and by other extensions. */
export interface EformsExtensionApi {
  /** True once the language server runs (only after an eForms notice was opened). */
  isServerRunning(): boolean;
  /** What the status item shows now. */
  status(): StatusSnapshot;
}

export class EformsClientState implements ExtensionState, vscode.Disposable {
  readonly keys: ApiKeyStore;
  readonly status: ValidationStatusItem;
  readonly languageClient: EformsLanguageClient;
  private readonly settingsEmitter = new vscode.EventEmitter<void>();
  readonly onDidChangeSettings = this.settingsEmitter.event;
  readonly onDidChangeApiKey: vscode.Event<void>;
  /** isEformsNotice per document version: the check indexes the document's head. */
  private readonly noticeCache = new WeakMap<vscode.TextDocument, { version: number; notice: boolean }>();

  constructor(
    readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {
    this.keys = new ApiKeyStore(context.secrets);
    this.onDidChangeApiKey = this.keys.onDidChange;
    this.status = new ValidationStatusItem();
    this.languageClient = new EformsLanguageClient(context, log, this.keys, this.status);
  }

  serverRequest<R>(method: string, params: unknown): Promise<R | undefined> {
    return this.languageClient.request<R>(method, params);
  }

  settings(scope?: vscode.Uri): EformsSettings {
    return readConfig(scope);
  }

  urls(scope?: vscode.Uri): ServiceUrls {
    return serviceUrlsFor(scope);
  }

  apiKey(): Promise<string | undefined> {
    return this.keys.get();
  }

  async promptForApiKey(): Promise<string | undefined> {
    return (await vscode.commands.executeCommand<string | undefined>('eforms.setApiKey')) ?? undefined;
  }

  isNotice(doc: vscode.TextDocument): boolean {
    const hit = this.noticeCache.get(doc);
    if (hit && hit.version === doc.version) return hit.notice;
    const notice = isEformsNotice(doc);
    this.noticeCache.set(doc, { version: doc.version, notice });
    return notice;
  }

  fireSettingsChanged(): void {
    this.settingsEmitter.fire();
  }

  dispose(): void {
    this.languageClient.dispose();
    this.status.dispose();
    this.keys.dispose();
    this.settingsEmitter.dispose();
  }
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
    for (const feature of features) feature(s);

    const refreshKeyContext = async () => {
      await vscode.commands.executeCommand('setContext', 'eforms.hasApiKey', Boolean(await s.keys.get()));
    };
    context.subscriptions.push(
      s.keys.onDidChange(() => void refreshKeyContext()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affectsEforms(e)) s.fireSettingsChanged();
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
    log.info('eForms extension activated');
    return {
      isServerRunning: () => s.languageClient.running,
      status: () => s.status.snapshot(),
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
