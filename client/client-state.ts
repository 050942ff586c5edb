// The live extension state (the rust-analyzer pattern): the API key store, the status item, the
// language client, the settings events and the proxy-aware dispatcher for the client's own requests.
// Commands and features are plain functions of it. It imports no command module and no feature, so
// nothing imports client/extension.ts back. Only client/ imports `vscode`.

import * as vscode from 'vscode';
import type { RequestType } from 'vscode-languageclient/node';
import type { ServiceUrls } from '../core/http';
import { dispatcherForVsCodeHttp, type RoutingDispatcher } from '../core/http';
import type { EformsSettings } from '../core/settings';
import { ApiKeyStore } from './api-key';
import { Commands } from './command-ids';
import { readConfig, readHttpSettings, serviceUrlsFor } from './config';
import type { ExtensionState } from './extension-state';
import { EformsLanguageClient, isEformsNotice } from './language-client';
import { ValidationStatusItem } from './validation-status';

export class EformsClientState implements ExtensionState, vscode.Disposable {
  readonly keys: ApiKeyStore;
  readonly status: ValidationStatusItem;
  readonly languageClient: EformsLanguageClient;
  private readonly settingsEmitter = new vscode.EventEmitter<void>();
  readonly onDidChangeSettings = this.settingsEmitter.event;
  readonly onDidChangeApiKey: vscode.Event<void>;
  /** isEformsNotice per document version: the check indexes the document's head. */
  private readonly noticeCache = new WeakMap<vscode.TextDocument, { version: number; notice: boolean }>();
  private proxy: { key: string; dispatcher: RoutingDispatcher } | undefined;

  constructor(
    readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {
    this.keys = new ApiKeyStore(context.secrets);
    this.onDidChangeApiKey = this.keys.onDidChange;
    this.status = new ValidationStatusItem(() => this.settings().environment);
    context.subscriptions.push(this.onDidChangeSettings(() => this.status.refresh()));
    this.languageClient = new EformsLanguageClient(context, log, this.keys, this.status, (d) =>
      this.isNotice(d),
    );
  }

  settings(scope?: vscode.Uri): EformsSettings {
    return readConfig(scope);
  }

  urls(scope?: vscode.Uri): ServiceUrls {
    return serviceUrlsFor(scope);
  }

  dispatcher(): RoutingDispatcher {
    const http = readHttpSettings();
    const key = JSON.stringify(http);
    if (this.proxy?.key !== key) {
      const old = this.proxy?.dispatcher;
      this.proxy = { key, dispatcher: dispatcherForVsCodeHttp(http) };
      // Requests under way finish on the old one.
      if (old) void old.close().catch(() => undefined);
    }
    return this.proxy.dispatcher;
  }

  apiKey(): Promise<string | undefined> {
    return this.keys.get();
  }

  async promptForApiKey(): Promise<string | undefined> {
    return (await vscode.commands.executeCommand<string | undefined>(Commands.setApiKey)) ?? undefined;
  }

  serverRequest<P, R>(
    type: RequestType<P, R, void>,
    params: P,
    token?: vscode.CancellationToken,
  ): Promise<R | undefined> {
    return this.languageClient.request(type, params, token);
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
    void this.proxy?.dispatcher.close().catch(() => undefined);
  }
}
