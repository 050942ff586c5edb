// Test support: runs the real language server (dist/server.js, or `dist/cli.js lsp`) as a child process
// over stdio and drives it as an editor would: initialize, answer workspace/configuration, open and edit
// documents, and record every publishDiagnostics and validation status it sends, in order.

import { type ChildProcess, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createMessageConnection,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import type { ValidationStatusParams } from '../../core/protocol/protocol';
import { PROJECT_ROOT } from './shared-data';

export interface PublishedDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity?: number;
  code?: string | number;
  source?: string;
  message: string;
  data?: { location?: string; field?: string; flag?: string; resolved?: boolean };
}

export interface Published {
  uri: string;
  version?: number;
  diagnostics: PublishedDiagnostic[];
  /** Position of this message among everything the server sent (diagnostics and statuses). */
  seq: number;
}

export interface StatusEvent extends ValidationStatusParams {
  seq: number;
}

export interface SessionOptions {
  /** `server`: node dist/server.js --stdio; `cli`: node dist/cli.js lsp --stdio. */
  entry?: 'server' | 'cli';
  /** EFORMS_API_KEY of the server process; undefined: none at all. */
  apiKey?: string;
  /** The `eforms` section answered to workspace/configuration (and pushed when unsupported). */
  settings: Record<string, unknown>;
  /** false: the client declares no workspace/configuration support. */
  configurationSupport?: boolean;
  /** The `http` section (VS Code's http.proxy, http.proxyStrictSSL, http.noProxy); undefined: none. */
  http?: Record<string, unknown>;
  /** Workspace folder URIs sent in initialize (none by default). */
  workspaceFolders?: string[];
  /** The server's SDK download cache (EFORMS_SDK_CACHE); default: a folder that does not exist, so no test reads the user's cache. */
  sdkCacheRoot?: string;
  /** The client fills a code action's edit on demand (codeAction/resolve), as VS Code does. */
  resolveCodeActions?: boolean;
}

export class LspSession {
  readonly published: Published[] = [];
  readonly statuses: StatusEvent[] = [];
  /** Statuses of the SDK's rules run in the server (engine `local`). */
  readonly localStatuses: StatusEvent[] = [];
  readonly logs: string[] = [];
  settings: Record<string, unknown>;
  private seq = 0;
  private waiters: (() => void)[] = [];
  private readonly texts = new Map<string, { version: number; text: string }>();

  private constructor(
    private readonly child: ChildProcess,
    readonly connection: MessageConnection,
    settings: Record<string, unknown>,
    readonly stderr: string[],
  ) {
    this.settings = settings;
  }

  static async start(o: SessionOptions): Promise<LspSession> {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.EFORMS_API_KEY;
    if (o.apiKey !== undefined) env.EFORMS_API_KEY = o.apiKey;
    env.EFORMS_SDK_CACHE = o.sdkCacheRoot ?? join(tmpdir(), `eforms-no-sdk-cache-${process.pid}`, 'sdk');
    const args =
      o.entry === 'cli'
        ? [join(PROJECT_ROOT, 'dist', 'cli.js'), 'lsp', '--stdio']
        : [join(PROJECT_ROOT, 'dist', 'server.js'), '--stdio'];
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const stderr: string[] = [];
    child.stderr?.on('data', (d: Buffer) => stderr.push(d.toString('utf8')));
    if (!child.stdout || !child.stdin) throw new Error('no stdio');
    const connection = createMessageConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const s = new LspSession(child, connection, o.settings, stderr);
    connection.onNotification('textDocument/publishDiagnostics', (p: Omit<Published, 'seq'>) => {
      s.published.push({ ...p, seq: s.seq++ });
      s.wake();
    });
    connection.onNotification('eforms/validationStatus', (p: ValidationStatusParams) => {
      // The SDK rules' statuses (engine `local`) are kept apart: `statuses` is the CVS's story.
      (p.engine === 'local' ? s.localStatuses : s.statuses).push({ ...p, seq: s.seq++ });
      s.wake();
    });
    connection.onNotification('window/logMessage', (p: { message: string }) => {
      s.logs.push(p.message);
    });
    connection.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) =>
      p.items.map((i) =>
        i.section === 'eforms' ? s.settings : i.section === 'http' ? (o.http ?? null) : null,
      ),
    );
    connection.onRequest('client/registerCapability', () => null);
    connection.listen();
    const configuration = o.configurationSupport !== false;
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      workspaceFolders:
        o.workspaceFolders?.map((uri) => ({ uri, name: uri.split('/').pop() ?? uri })) ?? null,
      capabilities: {
        workspace: { configuration, didChangeConfiguration: { dynamicRegistration: false } },
        textDocument: {
          synchronization: { didSave: true },
          publishDiagnostics: { versionSupport: true },
          ...(o.resolveCodeActions ? { codeAction: { resolveSupport: { properties: ['edit'] } } } : {}),
        },
      },
    });
    await connection.sendNotification('initialized', {});
    if (!configuration) await s.changeSettings(o.settings);
    return s;
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /**
   * Resolves with the first truthy value of `check`, re-evaluated on each message from the server. The
   * limit only ends a hung test with a useful message; it asserts nothing about speed.
   */
  async waitFor<T>(what: string, check: () => T | undefined | false, limitMs = 20000): Promise<T> {
    const deadline = Date.now() + limitMs;
    for (;;) {
      const v = check();
      if (v) return v;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `timed out waiting for ${what}\nstatuses: ${JSON.stringify(this.statuses)}\npublished: ${JSON.stringify(
            this.published.map((p) => ({ v: p.version, n: p.diagnostics.length, seq: p.seq })),
          )}\nlogs: ${this.logs.join('\n')}\nstderr: ${this.stderr.join('')}`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** The next publish for `uri` after message number `afterSeq` that satisfies `check`. */
  nextPublish(uri: string, afterSeq: number, what: string, check: (p: Published) => boolean = () => true) {
    return this.waitFor(what, () =>
      this.published.find((p) => p.uri === uri && p.seq >= afterSeq && check(p)),
    );
  }

  /** Opens a document, then the first publish for it after the open that satisfies `check`. */
  async openAndPublish(
    uri: string,
    text: string,
    what: string,
    check: (p: Published) => boolean = () => true,
  ): Promise<Published> {
    const mark = this.mark;
    await this.open(uri, text);
    return this.nextPublish(uri, mark, what, check);
  }

  nextStatus(afterSeq: number, what: string, check: (s: StatusEvent) => boolean, limitMs?: number) {
    return this.waitFor(what, () => this.statuses.find((s) => s.seq >= afterSeq && check(s)), limitMs);
  }

  nextLocalStatus(afterSeq: number, what: string, check: (s: StatusEvent) => boolean, limitMs?: number) {
    return this.waitFor(what, () => this.localStatuses.find((s) => s.seq >= afterSeq && check(s)), limitMs);
  }

  /** Sequence number the next server message will get. */
  get mark(): number {
    return this.seq;
  }

  async open(uri: string, text: string, version = 1): Promise<void> {
    this.texts.set(uri, { version, text });
    await this.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'xml', version, text },
    });
  }

  /** Replaces the whole text (a change without range). */
  async replace(uri: string, text: string): Promise<number> {
    const d = this.texts.get(uri);
    if (!d) throw new Error(`${uri} is not open`);
    d.version++;
    d.text = text;
    await this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: d.version },
      contentChanges: [{ text }],
    });
    return d.version;
  }

  /** An incremental edit: replaces text[start, end) (offsets) with `insert`, sent as an LSP range. */
  async edit(uri: string, start: number, end: number, insert: string): Promise<number> {
    const d = this.texts.get(uri);
    if (!d) throw new Error(`${uri} is not open`);
    const range = { start: lineCol(d.text, start), end: lineCol(d.text, end) };
    d.version++;
    d.text = d.text.slice(0, start) + insert + d.text.slice(end);
    await this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: d.version },
      contentChanges: [{ range, text: insert }],
    });
    return d.version;
  }

  textOf(uri: string): { version: number; text: string } {
    const d = this.texts.get(uri);
    if (!d) throw new Error(`${uri} is not open`);
    return d;
  }

  async save(uri: string): Promise<void> {
    await this.connection.sendNotification('textDocument/didSave', { textDocument: { uri } });
  }

  async closeDocument(uri: string): Promise<void> {
    this.texts.delete(uri);
    await this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  async changeSettings(settings: Record<string, unknown>): Promise<void> {
    this.settings = settings;
    await this.connection.sendNotification('workspace/didChangeConfiguration', {
      settings: { eforms: settings },
    });
  }

  validateNow(uri: string): Promise<{ started: boolean; message?: string }> {
    return this.connection.sendRequest('eforms/validateNow', { uri });
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      await this.connection.sendNotification('exit');
    } catch {
      // The process may be gone already.
    }
    const exited = new Promise<void>((r) => {
      if (this.child.exitCode !== null) r();
      else this.child.once('exit', () => r());
    });
    const kill = setTimeout(() => this.child.kill(), 3000);
    await exited;
    clearTimeout(kill);
    this.connection.dispose();
  }
}

/** Zero-based line and UTF-16 column of an offset, counted by splitting the text. */
export function lineCol(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: (before[before.length - 1] ?? '').length };
}

/** The uri of a test document (never read from disk: the text comes with didOpen). */
export function docUri(name: string): string {
  return `file:///lsp-test/${name}`;
}
