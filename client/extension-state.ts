// The one object that holds the live extension state (the rust-analyzer pattern): feature modules
// (validation, publication, market data) receive it and register their commands, views and providers
// through it. Only client/ imports `vscode`.

import type * as vscode from 'vscode';
import type { RequestType } from 'vscode-languageclient/node';
import type { RoutingDispatcher, ServiceUrls } from '../core/http';
import type { EformsSettings } from '../core/settings';
import type { PublicationSnapshot } from './publication/snapshot';

export interface ExtensionState {
  readonly context: vscode.ExtensionContext;
  /** The extension's log (a LogOutputChannel). Never write an API key to it. */
  readonly log: vscode.LogOutputChannel;
  /** The `eforms` settings, read fresh (client/config.ts is the only reader of workspace configuration). */
  settings(scope?: vscode.Uri): EformsSettings;
  /**
   * The undici dispatcher for the extension's own requests (eNotices2, agri-food): VS Code's
   * `http.proxy`, `http.proxyStrictSSL` and `http.noProxy`, loopback always direct. Rebuilt when they change.
   */
  dispatcher(): RoutingDispatcher;
  /** Base URLs of the three services for the configured environment. */
  urls(scope?: vscode.Uri): ServiceUrls;
  /** The API key from SecretStorage, else from the EFORMS_API_KEY environment variable, else undefined. */
  apiKey(): Promise<string | undefined>;
  /** Asks the user for the key (the "eForms: Set API Key" flow); resolves with the stored key or undefined. */
  promptForApiKey(): Promise<string | undefined>;
  readonly onDidChangeApiKey: vscode.Event<void>;
  /** Fires when any `eforms.*` setting changes. */
  readonly onDidChangeSettings: vscode.Event<void>;
  /**
   * A custom request of core/protocol.ts by its declared `.type` to the language server (started if
   * needed), cancellable with `token`; undefined if it cannot run.
   */
  serverRequest<P, R>(
    type: RequestType<P, R, void>,
    params: P,
    token?: vscode.CancellationToken,
  ): Promise<R | undefined>;
}

/** What features add to the extension's API (EformsExtensionApi), for tests and other extensions. */
export interface FeatureApi {
  publication?: () => PublicationSnapshot;
}

/** A feature registers everything it contributes; its disposables go to state.context.subscriptions. */
export type Feature = (state: ExtensionState) => FeatureApi | undefined;
