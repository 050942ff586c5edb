// Starts the eForms language server (dist/server.js over IPC) once an eForms notice is open, and
// restarts it when the API key changes: the key reaches the server only through its process
// environment, because anything sent in LSP messages would show in the trace. Only notices reach the
// server: the middleware drops didOpen/didChange/didClose of other XML (as vscode-eslint filters), so
// a large non-notice file is never sent or indexed on each keystroke.

import * as vscode from 'vscode';
import {
  CloseAction,
  DidOpenTextDocumentNotification,
  ErrorAction,
  type ErrorHandler,
  LanguageClient,
  type LanguageClientOptions,
  type RequestParam,
  type RequestType,
  type ServerOptions,
  State,
  TransportKind,
} from 'vscode-languageclient/node';
import { indexXml, noticeKindOf } from '../core/notice';
import {
  SdkChangedNotification,
  ValidateNowRequest,
  type ValidateNowResult,
  ValidationStatusNotification,
} from '../core/protocol';
import type { ApiKeyStore } from './api-key';
import { NoticeSync } from './notice-sync';
import { gaveUpMessage, RestartBudget } from './restart-policy';
import { SdkDownloads } from './sdk-download';
import type { ValidationStatusItem } from './validation-status';

/** Enough of the text to hold the prolog and the root start tag of any real notice. */
const SNIFF_LENGTH = 64 * 1024;

export function isEformsNotice(doc: vscode.TextDocument): boolean {
  if (doc.languageId !== 'xml') return false;
  return noticeKindOf(indexXml(doc.getText().slice(0, SNIFF_LENGTH))) !== undefined;
}

export class EformsLanguageClient implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<void> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Crashes of the server, counted across its restarts by the library. */
  private readonly restarts = new RestartBudget();
  readonly sdk: SdkDownloads;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly keys: ApiKeyStore,
    private readonly status: ValidationStatusItem,
    private readonly isNotice: (doc: vscode.TextDocument) => boolean,
  ) {
    this.subscriptions.push(keys.onDidChange(() => void this.restartIfRunning()));
    this.sdk = new SdkDownloads(context, log, () => {
      void this.client?.sendNotification(SdkChangedNotification.type, {});
    });
  }

  get running(): boolean {
    return this.client?.state === State.Running;
  }

  /** Starts the server unless it runs already; concurrent callers share one start. */
  ensureStarted(): Promise<void> {
    // `start` sets `client` only after awaiting the key, so the pending start is the guard, not `client`.
    if (this.starting) return this.starting;
    if (this.client) return Promise.resolve();
    this.starting = this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  async validateNow(uri: vscode.Uri): Promise<ValidateNowResult> {
    await this.ensureStarted();
    if (!this.client) return { started: false, message: 'The eForms language server is not running.' };
    return this.client.sendRequest(ValidateNowRequest.type, { uri: uri.toString() });
  }

  /** A custom request by its declared type (core/protocol), cancellable; undefined when the server is not running. */
  async request<P, R>(
    type: RequestType<P, R, void>,
    params: P,
    token?: vscode.CancellationToken,
  ): Promise<R | undefined> {
    await this.ensureStarted();
    if (!this.client) return undefined;
    // `RequestParam<P>` is P itself for object params, which is all core/protocol declares.
    const p = params as RequestParam<P>;
    return token ? this.client.sendRequest(type, p, token) : this.client.sendRequest(type, p);
  }

  private async start(): Promise<void> {
    const serverModule = this.context.asAbsolutePath('dist/server.js');
    const env: NodeJS.ProcessEnv = { ...process.env };
    const key = await this.keys.get();
    if (key) env.EFORMS_API_KEY = key;
    else delete env.EFORMS_API_KEY;
    // SDK releases live in the extension's storage, and this client downloads them (asking first).
    env.EFORMS_SDK_CACHE = this.sdk.cacheRoot;
    env.EFORMS_SDK_DOWNLOADS = 'client';
    const serverOptions: ServerOptions = {
      run: { module: serverModule, transport: TransportKind.ipc, options: { env } },
      debug: {
        module: serverModule,
        transport: TransportKind.ipc,
        options: { env, execArgv: ['--nolazy', '--inspect=6019'] },
      },
    };
    const sync = new NoticeSync<vscode.TextDocument>((d) => d.uri.toString(), this.isNotice);
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'xml' },
        { scheme: 'untitled', language: 'xml' },
      ],
      // `http`: the server routes its requests through VS Code's proxy settings too.
      synchronize: { configurationSection: ['eforms', 'http'] },
      middleware: {
        didOpen: (doc, next) => (sync.open(doc) ? next(doc) : Promise.resolve()),
        didChange: async (e, next) => {
          const action = sync.change(e.document);
          // A file that became a notice while typed (an empty new file) is opened on the server now.
          if (action === 'open') return this.openOnServer(e.document);
          if (action === 'send') return next(e);
        },
        didClose: (doc, next) => (sync.close(doc) ? next(doc) : Promise.resolve()),
        didSave: (doc, next) => (sync.isSynced(doc) ? next(doc) : Promise.resolve()),
      },
      outputChannel: this.log,
      traceOutputChannel: this.log,
      // Failures are the status item's job, not a pop-up per request.
      revealOutputChannelOn: 4 /* RevealOutputChannelOn.Never */,
      errorHandler: this.errorHandler(),
    };
    const client = new LanguageClient('eforms', 'eForms Language Server', serverOptions, clientOptions);
    this.client = client;
    client.onNotification(ValidationStatusNotification.type, (s) => {
      this.status.update(s);
      this.sdk.onStatus(s);
    });
    try {
      await client.start();
      this.log.info(`language server started (${key ? 'with' : 'without'} an API key)`);
    } catch (err) {
      this.client = undefined;
      const msg = err instanceof Error ? err.message : String(err);
      this.log.error(`language server failed to start: ${msg}`);
      void vscode.window
        .showErrorMessage(`eForms: the language server could not start: ${msg}`, 'Show Log')
        .then((a) => {
          if (a) this.log.show();
        });
    }
  }

  /**
   * A crashed server is started again unless it crashed 5 times in 3 minutes; then the user is told
   * once, with the log at hand. Write errors on the connection are tolerated 3 times in a row (the
   * library's default), then the connection is shut down, which ends in `closed` and is counted there.
   */
  private errorHandler(): ErrorHandler {
    return {
      error: (_e, _m, count) => ({
        action: count !== undefined && count > 3 ? ErrorAction.Shutdown : ErrorAction.Continue,
        handled: true,
      }),
      closed: () => {
        const d = this.restarts.crashed();
        if (d.restart) {
          this.log.warn('language server stopped unexpectedly: restarting it');
          return { action: CloseAction.Restart, handled: true };
        }
        const message = gaveUpMessage(d);
        this.log.error(message);
        void vscode.window.showErrorMessage(message, 'Show Log').then((a) => {
          if (a) this.log.show();
        });
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    };
  }

  private async openOnServer(doc: vscode.TextDocument): Promise<void> {
    await this.client?.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: {
        uri: doc.uri.toString(),
        languageId: doc.languageId,
        version: doc.version,
        text: doc.getText(),
      },
    });
  }

  private async restartIfRunning(): Promise<void> {
    if (!this.client) return;
    this.restarts.reset();
    await this.stop();
    await this.ensureStarted();
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (c) {
      try {
        await c.stop(5000);
      } catch (err) {
        this.log.warn(
          `language server did not stop cleanly: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    void this.stop();
  }
}
