// The language server's wiring: the LSP connection, open documents, settings and the custom messages,
// all handed to the ValidationScheduler. The API key comes only from this process's EFORMS_API_KEY
// (the client restarts the server when it changes): never from initializationOptions or messages,
// which LSP traces log, and it never goes to the console.

import { dirname, join } from 'node:path';
import {
  type Connection,
  createConnection,
  type Diagnostic,
  DidChangeConfigurationNotification,
  type InitializeResult,
  ProposedFeatures,
  TextDocumentSyncKind,
  TextDocuments,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { withoutCredentials, withoutUrlCredentials } from '../core/http';
import { installCrashGuard } from '../core/process';
import {
  NoticeFindingsRequest,
  type NoticeFindingsResult,
  SdkChangedNotification,
  type ValidateNowParams,
  ValidateNowRequest,
  type ValidateNowResult,
  ValidationStatusNotification,
} from '../core/protocol';
import { defaultSdkCacheRoot } from '../core/sdk';
import { VersionRangeCache, validateNotice } from '../core/services';
import { type EformsSettings, urlsOf } from '../core/settings';
import { WorkerPool, type WorkerSources, WorkerValidator, workerScript } from '../core/validation';
import { AUTHORING_CAPABILITIES, Authoring } from './authoring/authoring-handlers';
import { toDiagnostic } from './diagnostics';
import { documentIndexes } from './index-cache';
import { Preview } from './preview/preview-handlers';
import { applyClientProxySettings } from './proxy-settings';
import { runSafe as runSafeIn } from './run-safe';
import { SettingsCache } from './settings-cache';
import { type LocalEngine, ValidationScheduler } from './validation-scheduler';

declare const __VERSION__: string | undefined;

export interface ServerOptions {
  /** Defaults to a connection chosen by the command line (--stdio, --node-ipc, --socket=N). */
  connection?: Connection;
  /** Defaults to process.env.EFORMS_API_KEY. */
  apiKey?: string;
  /** Whether to install the process-wide crash guard (default true: the server owns its process). */
  crashGuard?: boolean;
  /** Where downloaded SDK releases are cached: $EFORMS_SDK_CACHE, else ~/.cache/eforms/sdk. */
  sdkCacheRoot?: string;
  /** True when the client downloads SDK releases itself (VS Code: with its own consent and progress). */
  clientDownloadsSdk?: boolean;
}

/** Starts the eForms language server and returns its connection (already listening). */
export function startServer(options: ServerOptions = {}): Connection {
  const connection = options.connection ?? createConnection(ProposedFeatures.all);
  const apiKey = options.apiKey ?? process.env.EFORMS_API_KEY?.trim();
  const documents = new TextDocuments(TextDocument);
  const settings = new SettingsCache(undefined, (m) => connection.console.warn(m));
  let dynamicConfigurationChange = false;
  let configurationRequests = false;
  const versionRanges = new VersionRangeCache();
  // A server must survive any message: what a handler throws is logged once, and the server goes on.
  const runSafe = (what: string, fn: () => void) => runSafeIn((m) => connection.console.error(m), what, fn);
  if (options.crashGuard !== false)
    installCrashGuard((m) => connection.console.error(m), 'eForms language server');
  const sdkCacheRoot = options.sdkCacheRoot ?? defaultSdkCacheRoot();
  const authoring = new Authoring({
    connection,
    documents,
    settings: (uri) => settings.get(uri),
    log: (m) => connection.console.log(m),
    sdkCacheRoot,
    // Asked only with a key, as validation does: without one nothing leaves the machine.
    versionRange: (s) =>
      apiKey ? versionRanges.get({ baseUrl: urlsOf(s).cvs, apiKey }) : Promise.resolve(undefined),
  });
  const preview = new Preview({
    connection,
    documents,
    settings: (uri) => settings.get(uri),
    log: (m) => connection.console.log(m),
    sdkCacheRoot,
  });
  const clientDownloads = options.clientDownloadsSdk ?? process.env.EFORMS_SDK_DOWNLOADS === 'client';
  // One worker: the SDK's rules never run on the thread that reads the client's messages.
  let pool: WorkerPool | undefined;
  const engines = new Map<string, LocalEngine>();
  const refusedPaths = new Set<string>();
  const localEngine = (s: EformsSettings): LocalEngine => {
    // A relative eforms.sdk.path would resolve inside whatever repository is open: refused, said once.
    const refused = s.sdk.refusedPath;
    if (refused !== undefined && !refusedPaths.has(refused)) {
      refusedPaths.add(refused);
      const shown = JSON.stringify(refused.length > 80 ? `${refused.slice(0, 79)}…` : refused);
      const m = `eforms.sdk.path ${shown} is a relative path, so it is not used: set the absolute path of the folder that holds the eForms SDK.`;
      connection.console.warn(m);
      void connection.window.showWarningMessage(m);
    }
    const sources: WorkerSources = {
      path: s.sdk.path,
      cacheRoot: sdkCacheRoot,
      ...(clientDownloads
        ? {}
        : { download: { allowed: s.sdk.allowDownload, repositoryUrl: s.sdk.repositoryUrl } }),
    };
    const budget = s.validation.timeBudgetMs;
    const identity = JSON.stringify([sources, budget]);
    let e = engines.get(identity);
    if (!e) {
      // One spare worker: a notice whose rules are stuck never holds another notice's diagnostics. Its
      // workers run each document's edits incrementally.
      pool ??= new WorkerPool(1, workerScript(), 1, true);
      const cacheDir = join(dirname(sdkCacheRoot), 'rules');
      e = { validator: new WorkerValidator(pool, sources, cacheDir, budget), identity };
      engines.set(identity, e);
    }
    return e;
  };

  /** What was last published per document: the pre-submit check answers exactly that. */
  const published = new Map<string, { version: number | undefined; diagnostics: Diagnostic[] }>();
  const scheduler = new ValidationScheduler({
    settings: (uri) => settings.get(uri),
    apiKey: apiKey || undefined,
    validate: validateNotice,
    localEngine,
    publish: (uri, version, findings, index) => {
      const diagnostics = authoring.completeFindings(uri, findings, index).map((f) => toDiagnostic(f, uri));
      authoring.diagnosticsPublished(uri, diagnostics);
      if (index) published.set(uri, { version, diagnostics });
      else published.delete(uri);
      void connection.sendDiagnostics({ uri, version, diagnostics });
    },
    status: (s) => {
      // A URL setting may carry `user:password@`: neither the status nor the log ever shows it.
      const shown = { ...s };
      if (s.serviceUrl !== undefined) shown.serviceUrl = withoutCredentials(s.serviceUrl);
      if (s.message !== undefined) shown.message = withoutUrlCredentials(s.message);
      void connection.sendNotification(ValidationStatusNotification.type, shown);
    },
    log: (m) => connection.console.log(withoutUrlCredentials(m)),
    versionRange: (o) => versionRanges.get(o),
  });

  connection.onInitialize((params): InitializeResult => {
    const ws = params.capabilities.workspace;
    if (ws?.configuration)
      settings.setFetcher((scopeUri) =>
        connection.workspace.getConfiguration({ scopeUri, section: 'eforms' }).then((v: unknown) => v),
      );
    dynamicConfigurationChange = ws?.didChangeConfiguration?.dynamicRegistration === true;
    configurationRequests = ws?.configuration === true;
    authoring.setClientCapabilities(params.capabilities);
    authoring.setWorkspaceFolders(
      params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []),
    );
    return {
      capabilities: {
        textDocumentSync: {
          openClose: true,
          change: TextDocumentSyncKind.Incremental,
          save: { includeText: false },
        },
        ...AUTHORING_CAPABILITIES,
      },
      serverInfo: {
        name: 'eforms-language-server',
        version: typeof __VERSION__ === 'string' ? __VERSION__ : 'dev',
      },
    };
  });

  connection.onInitialized(() => {
    if (dynamicConfigurationChange)
      void connection.client.register(DidChangeConfigurationNotification.type, {
        section: ['eforms', 'http'],
      });
    if (configurationRequests) void applyClientProxySettings(connection);
    connection.console.log(
      apiKey
        ? 'eForms language server ready; an API key is set.'
        : 'eForms language server ready; no API key is set (EFORMS_API_KEY): only local checks run.',
    );
  });

  connection.onDidChangeConfiguration((params) => {
    const pushed = (params.settings as { eforms?: unknown } | null | undefined)?.eforms;
    settings.invalidate(pushed);
    if (configurationRequests) void applyClientProxySettings(connection);
    authoring.settingsChanged();
    preview.settingsChanged();
    scheduler.settingsChanged();
  });

  // A client may send anything as a document's text (a number, null, an object): such a document reads
  // as empty, which its local checks report, rather than as a crash in the index.
  const snapshot = (d: TextDocument) => {
    const text: unknown = d.getText();
    return { uri: d.uri, version: d.version, text: typeof text === 'string' ? text : '' };
  };
  // Changes that arrive faster than a large notice is indexed are coalesced: only the latest version of
  // each document is computed (and published), once the queued messages have been read.
  const pending = new Set<string>();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    for (const uri of [...pending]) {
      pending.delete(uri);
      const d = documents.get(uri);
      if (d) runSafe(`checking ${uri}`, () => scheduler.change(snapshot(d)));
    }
  };
  const flushOne = (uri: string) => {
    if (!pending.delete(uri)) return;
    const d = documents.get(uri);
    if (d) runSafe(`checking ${uri}`, () => scheduler.change(snapshot(d)));
  };
  documents.onDidOpen((e) => {
    pending.delete(e.document.uri);
    runSafe(`opening ${e.document.uri}`, () => scheduler.open(snapshot(e.document)));
  });
  documents.onDidChangeContent((e) => {
    pending.add(e.document.uri);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });
  documents.onDidSave((e) => {
    flushOne(e.document.uri);
    runSafe(`saving ${e.document.uri}`, () => scheduler.save(snapshot(e.document)));
  });
  documents.onDidClose((e) => {
    pending.delete(e.document.uri);
    runSafe(`closing ${e.document.uri}`, () => {
      settings.forget(e.document.uri);
      authoring.forget(e.document.uri);
      preview.forget(e.document.uri);
      scheduler.close(e.document.uri);
      // Its index too: a closed notice's (twice its text) stayed among the 32 kept.
      documentIndexes.forget(e.document.uri);
    });
  });

  connection.onRequest(
    ValidateNowRequest.type,
    async (params: ValidateNowParams): Promise<ValidateNowResult> => {
      if (typeof params?.uri !== 'string')
        return { started: false, message: 'validateNow needs a document uri.' };
      return scheduler.validateNow(params.uri);
    },
  );

  connection.onRequest(
    NoticeFindingsRequest.type,
    async (params: { uri?: unknown }): Promise<NoticeFindingsResult> => {
      if (typeof params?.uri !== 'string')
        return { ok: false, message: 'noticeFindings needs a document uri.' };
      const r = await scheduler.noticeFindings(params.uri);
      if (!r.ok) return r;
      // The scheduler has just published: the answer is that very publication.
      const last = published.get(params.uri);
      return {
        ok: true,
        version: r.version,
        diagnostics: last?.version === r.version ? last.diagnostics : [],
        engines: r.engines,
      };
    },
  );

  authoring.register();
  preview.register();

  connection.onNotification(SdkChangedNotification.type, () => {
    // A release was downloaded or named: both the rules and the authoring help may use it now.
    authoring.settingsChanged();
    preview.settingsChanged();
    scheduler.sdkChanged();
  });

  connection.onShutdown(() => {
    scheduler.dispose();
    void pool?.close();
    void preview.dispose();
  });

  documents.listen(connection);
  connection.listen();
  return connection;
}
