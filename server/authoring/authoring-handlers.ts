// The language server's authoring requests: hover, completion, code actions, document and workspace
// symbols, definition, references, rename, and the New Notice messages. Each handler finds the SDK the
// notice needs (eforms.sdk.path, chosen by the pinned or declared version through core/sdk), keeps one
// index per document version, calls core/authoring, and answers null rather than dying on odd input.
// Errors from core carry a kind; they are worded here, for LSP clients.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type CancellationToken,
  type ClientCapabilities,
  type CodeAction,
  CodeActionKind,
  type CompletionItem,
  CompletionItemKind,
  type Connection,
  type Diagnostic,
  type DocumentSymbol,
  ErrorCodes,
  InsertTextFormat,
  InsertTextMode,
  type Location,
  ResponseError,
  type ServerCapabilities,
  SymbolKind,
  type TextDocuments,
  type WorkspaceSymbol,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  type AuthoringAction,
  codeActions,
  completeAt,
  completeFindings,
  definitionOf,
  documentSymbols,
  type FixAllGroup,
  fixAllAction,
  hoverAt,
  isFixAllGroup,
  type NoticeSymbol,
  newNoticeChecked,
  newNoticeChoices,
  newNoticeFileName,
  prepareRename,
  referencesOf,
  renameIdentifier,
  type SdkKnowledge,
  sdkKnowledge,
} from '../../core/authoring';
import type { Finding } from '../../core/findings';
import { declaredSdkVersion, indexXml, noticeKindOf, type XmlIndex } from '../../core/notice';
import {
  type NewNoticeChoicesParams,
  NewNoticeChoicesRequest,
  type NewNoticeChoicesResult,
  type NewNoticeParams,
  NewNoticeRequest,
  type NewNoticeResult,
  type NoticeSdkVersionItem,
  type NoticeSdkVersionsParams,
  NoticeSdkVersionsRequest,
  type NoticeSubtypeItem,
  type NoticeSubtypesParams,
  NoticeSubtypesRequest,
} from '../../core/protocol';
import { loadRuleSet, phaseForSubType, RuleSetError } from '../../core/schematron';
import {
  availableSdkReleases,
  chooseSdkRelease,
  compareSdkVersions,
  minorOf,
  type SdkRelease,
} from '../../core/sdk';
import { type SdkVersionRange, sdkLifecycle } from '../../core/services';
import type { EformsSettings } from '../../core/settings';
import { documentIndexes } from '../index-cache';
import { cancelled, runSafeAsync } from '../run-safe';

export const AUTHORING_CAPABILITIES: ServerCapabilities = {
  hoverProvider: true,
  completionProvider: { triggerCharacters: ['<', '"', ':', ' '], resolveProvider: false },
  codeActionProvider: {
    codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite],
    resolveProvider: true,
  },
  documentSymbolProvider: { label: 'eForms' },
  workspaceSymbolProvider: true,
  definitionProvider: true,
  referencesProvider: true,
  renameProvider: { prepareProvider: true },
};

export interface AuthoringDeps {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  settings: (uri: string) => Promise<EformsSettings>;
  log: (message: string) => void;
  /** The SDK download cache the local rules read too, so a downloaded release also helps authoring. */
  sdkCacheRoot?: string;
  /** What the validation service accepts (cached by the caller); undefined when it is not known. */
  versionRange?: (settings: EformsSettings) => Promise<SdkVersionRange | undefined>;
  /** Today as `YYYY-MM-DD` (tests fix it). */
  today?: () => string;
}

const SYMBOL_KINDS: Record<NoticeSymbol['kind'], SymbolKind> = {
  notice: SymbolKind.File,
  procedure: SymbolKind.Namespace,
  lot: SymbolKind.Package,
  organisation: SymbolKind.Class,
  result: SymbolKind.Event,
  tender: SymbolKind.Object,
  contract: SymbolKind.Struct,
  party: SymbolKind.Interface,
  group: SymbolKind.Namespace,
};

const COMPLETION_KINDS = {
  value: CompletionItemKind.Value,
  attribute: CompletionItemKind.Property,
  element: CompletionItemKind.Snippet,
  reference: CompletionItemKind.Reference,
} as const;

export class Authoring {
  private readonly indexes = new Map<string, { version: number; index: XmlIndex }>();
  private readonly published = new Map<string, Diagnostic[]>();
  private readonly releases = new Map<string, SdkRelease[]>();
  private readonly warned = new Set<string>();
  /** The SDK and language each document was last served with (diagnostics are enriched with them). */
  private readonly sdkOf = new Map<string, SdkKnowledge>();
  private readonly language = new Map<string, string>();
  private folders: string[] = [];
  /** The client fills a code action's edit on demand (codeAction/resolve): "fix all" waits for it. */
  private resolvesEdits = false;
  /** Outline of notices on disk (workspace symbols), by path, valid while mtime and size stay. */
  private readonly files = new Map<string, { mtimeMs: number; size: number; symbols?: NoticeSymbol[] }>();

  constructor(private readonly d: AuthoringDeps) {}

  /** What the client said at initialize that the handlers depend on. */
  setClientCapabilities(caps: ClientCapabilities): void {
    this.resolvesEdits = caps.textDocument?.codeAction?.resolveSupport?.properties.includes('edit') === true;
  }

  /** Folders searched by workspace symbols (the client's workspace folders). */
  setWorkspaceFolders(uris: readonly string[]): void {
    this.folders = uris.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u));
  }

  private async fileSymbols(
    file: string,
    uri: string,
    spent: { files: number; bytes: number },
  ): Promise<NoticeSymbol[] | undefined | 'over-budget'> {
    let stat: { mtimeMs: number; size: number };
    try {
      stat = statSync(file);
    } catch {
      return undefined;
    }
    const cached = this.files.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.symbols;
    if (
      spent.files >= WORKSPACE_SYMBOL_BUDGET.files ||
      (spent.files > 0 && spent.bytes + stat.size > WORKSPACE_SYMBOL_BUDGET.bytes)
    )
      return 'over-budget';
    spent.files++;
    spent.bytes += stat.size;
    let symbols: NoticeSymbol[] | undefined;
    try {
      const text = readFileSync(file, 'utf8');
      const index = indexXml(text);
      if (noticeKindOf(index) !== undefined) {
        const s = await this.d.settings(uri);
        const choice = this.choose(s, declaredSdkVersion(index));
        symbols = documentSymbols(index, choice.ok ? choice.sdk : undefined);
      }
    } catch {
      symbols = undefined;
    }
    this.files.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, symbols });
    return symbols;
  }

  /**
   * The findings about to be published, completed in core (node, rule link, related places) with the
   * SDK and language this document was last served with (no related places before that), on the
   * index they were placed on. Synchronous, so that publications keep their order.
   */
  completeFindings(uri: string, findings: Finding[], placedOn?: XmlIndex): Finding[] {
    if (findings.length === 0) return findings;
    const doc = placedOn ? undefined : this.d.documents.get(uri);
    const index = placedOn ?? (doc ? this.indexFor(uri, doc) : undefined);
    if (!index) return findings;
    return completeFindings(findings, {
      index,
      sdk: this.sdkOf.get(uri),
      language: this.language.get(uri) ?? 'en',
    });
  }

  /** Keeps the diagnostics just published for "fix all"; they are final (nothing is added here). */
  diagnosticsPublished(uri: string, diagnostics: Diagnostic[]): void {
    this.published.set(uri, diagnostics);
  }

  private indexFor(uri: string, doc: TextDocument): XmlIndex {
    let cached = this.indexes.get(uri);
    if (!cached || cached.version !== doc.version) {
      cached = { version: doc.version, index: documentIndexes.get(uri, doc.version, doc.getText()) };
      this.indexes.set(uri, cached);
    }
    return cached.index;
  }

  forget(uri: string): void {
    this.sdkOf.delete(uri);
    this.language.delete(uri);
    this.indexes.delete(uri);
    this.published.delete(uri);
  }

  /** The settings changed: eforms.sdk.path may point elsewhere now. */
  settingsChanged(): void {
    this.releases.clear();
  }

  register(): void {
    const c = this.d.connection;
    // Loads the SDK while the notice opens, so that the first hover does not wait for fields.json and
    // the first diagnostics get their related places.
    this.d.documents.onDidOpen((e) => void this.safe('warm-up', undefined, () => this.at(e.document.uri)));
    c.onHover((p, token) =>
      this.request('hover', null, token, async () => {
        const at = await this.at(p.textDocument.uri);
        if (!at) return null;
        const h = hoverAt(
          at.index,
          at.sdk,
          at.index.offsetAt(p.position.line, p.position.character),
          at.language,
        );
        return h ? { contents: { kind: 'markdown' as const, value: h.markdown }, range: h.range } : null;
      }),
    );
    c.onCompletion((p, token) =>
      this.request('completion', null, token, async () => {
        const at = await this.at(p.textDocument.uri);
        if (!at?.sdk) return null;
        const items = completeAt(
          at.index,
          at.sdk,
          at.index.offsetAt(p.position.line, p.position.character),
          at.language,
          {
            today: today(),
            uuid: () => crypto.randomUUID(),
          },
        );
        return {
          isIncomplete: false,
          items: items.map(
            (i): CompletionItem => ({
              label: i.label,
              kind: COMPLETION_KINDS[i.kind],
              detail: i.detail,
              documentation: i.documentation,
              sortText: i.sortText,
              filterText: i.filterText,
              textEdit: { range: i.range, newText: i.insertText },
              insertTextFormat: i.snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
              insertTextMode: InsertTextMode.asIs,
            }),
          ),
        };
      }),
    );
    c.onCodeAction((p, token) =>
      this.request('code actions', null, token, async () => {
        const uri = p.textDocument.uri;
        const at = await this.at(uri);
        if (!at) return null;
        const actions = codeActions(
          { index: at.index, sdk: at.sdk, language: at.language, today: today() },
          p.context.diagnostics,
          this.published.get(uri) ?? [],
          p.range,
          { deferFixAll: this.resolvesEdits },
        );
        return actions.map((a) => toCodeAction(a, uri));
      }),
    );
    c.onCodeActionResolve((action, token) =>
      this.request('code action', action, token, async () => {
        const fixAll = fixAllData(action.data);
        if (!fixAll || action.edit) return action;
        const at = await this.at(fixAll.uri);
        if (!at) return action;
        // The diagnostics published last, as the request counted them; an edit since then republishes.
        const done = fixAllAction(
          { index: at.index, sdk: at.sdk, language: at.language, today: today() },
          fixAll.group,
          this.published.get(fixAll.uri) ?? [],
        );
        return { ...action, edit: { changes: { [fixAll.uri]: done?.edits ?? [] } } };
      }),
    );
    c.onDocumentSymbol((p, token) =>
      this.request('document symbols', null, token, async () => {
        const at = await this.at(p.textDocument.uri);
        return at ? documentSymbols(at.index, at.sdk).map(toDocumentSymbol) : null;
      }),
    );
    c.onWorkspaceSymbol((p, token) =>
      this.request('workspace symbols', [], token, async () => {
        const q = p.query.trim().toLowerCase();
        const out: WorkspaceSymbol[] = [];
        const walk = (uri: string, syms: NoticeSymbol[], container?: string) => {
          for (const s of syms) {
            if (
              s.kind !== 'notice' &&
              s.kind !== 'group' &&
              s.kind !== 'procedure' &&
              (!q || s.name.toLowerCase().includes(q))
            )
              out.push({
                name: s.name,
                kind: SYMBOL_KINDS[s.kind],
                containerName: container,
                location: { uri, range: s.selectionRange },
              });
            walk(uri, s.children, s.kind === 'notice' ? `${s.name} ${s.detail ?? ''}`.trim() : container);
          }
        };
        const open = new Set<string>();
        for (const doc of this.d.documents.all()) {
          if (token.isCancellationRequested) return out;
          open.add(doc.uri);
          const at = await this.at(doc.uri);
          if (at) walk(doc.uri, documentSymbols(at.index, at.sdk));
        }
        // Notices on disk in the workspace folders, read once per modification. Between two files the
        // event loop turns, so that a cancellation (the next keystroke) is read and stops the walk; and
        // one request reads at most WORKSPACE_SYMBOL_BUDGET: the next request goes on from the cache.
        const files = noticeFiles(this.folders, token);
        const spent = { files: 0, bytes: 0 };
        let stopped: 'cancelled' | 'budget' | undefined;
        for (const file of files) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          if (token.isCancellationRequested) {
            stopped = 'cancelled';
            break;
          }
          const uri = pathToFileURL(file).toString();
          if (open.has(uri)) continue;
          const syms = await this.fileSymbols(file, uri, spent);
          if (syms === 'over-budget') {
            stopped = 'budget';
            break;
          }
          if (syms) walk(uri, syms);
        }
        this.d.log(
          `workspace symbols: read ${spent.files} file(s) (${spent.bytes} bytes) of ${files.length} on disk${
            stopped === 'cancelled'
              ? '; cancelled'
              : stopped === 'budget'
                ? '; the rest on the next request (per-request budget)'
                : ''
          }`,
        );
        return out;
      }),
    );
    c.onDefinition((p, token) =>
      this.request('definition', null, token, async () => {
        const at = await this.at(p.textDocument.uri);
        if (!at) return null;
        const r = definitionOf(at.index, at.sdk, at.index.offsetAt(p.position.line, p.position.character));
        return r ? ({ uri: p.textDocument.uri, range: r } satisfies Location) : null;
      }),
    );
    c.onReferences((p, token) =>
      this.request('references', null, token, async () => {
        const at = await this.at(p.textDocument.uri);
        if (!at) return null;
        const offset = at.index.offsetAt(p.position.line, p.position.character);
        return referencesOf(at.index, at.sdk, offset, p.context.includeDeclaration).map(
          (range): Location => ({ uri: p.textDocument.uri, range }),
        );
      }),
    );
    c.onPrepareRename((p, token) =>
      this.request('prepare rename', null, token, async () => {
        const at = await this.at(p.textDocument.uri);
        if (!at) return null;
        return (
          prepareRename(at.index, at.sdk, at.index.offsetAt(p.position.line, p.position.character)) ?? null
        );
      }),
    );
    c.onRenameRequest(async (p, token) => {
      // Params are whatever a client sent: a name that is not text, or no position, is refused cleanly.
      const pos = (p as { position?: { line?: unknown; character?: unknown } } | undefined)?.position;
      if (typeof p?.newName !== 'string' || !Number.isInteger(pos?.line) || !Number.isInteger(pos?.character))
        return new ResponseError(
          ErrorCodes.InvalidParams,
          'A rename needs a position and a new name as text, such as ORG-0002.',
        );
      const at = await this.safe('rename', undefined, () => this.at(p.textDocument?.uri));
      if (token.isCancellationRequested) return cancelled();
      if (!at) return null;
      const r = renameIdentifier(
        at.index,
        at.sdk,
        at.index.offsetAt(p.position.line, p.position.character),
        p.newName,
      );
      if (r.ok) return { changes: { [p.textDocument.uri]: r.edits } };
      if (r.kind === 'taken')
        return new ResponseError(
          1,
          `${r.id} is already used in this notice: choose a free identifier, so that two entities do not share one.`,
        );
      if (r.kind === 'bad-format')
        return new ResponseError(
          1,
          `An identifier of this kind has the form ${r.wanted} (same prefix, four digits).`,
        );
      return new ResponseError(
        1,
        'Place the cursor on an identifier such as ORG-0001 or LOT-0002 to rename it.',
      );
    });
    c.onRequest(NewNoticeRequest.type, (p: NewNoticeParams, token) =>
      this.request(
        'new notice',
        { ok: false, kind: 'sdk-unreadable', detail: 'see the log' } as NewNoticeResult,
        token,
        () => this.newNotice(p),
      ),
    );
    c.onRequest(NoticeSubtypesRequest.type, (p: NoticeSubtypesParams, token) =>
      this.request('notice subtypes', [] as NoticeSubtypeItem[], token, () => this.subtypes(p)),
    );
    c.onRequest(NewNoticeChoicesRequest.type, (p: NewNoticeChoicesParams, token) =>
      this.request(
        'new notice choices',
        { sdkVersions: [], procedureTypes: [], countries: [], languages: [] } as NewNoticeChoicesResult,
        token,
        () => this.newNoticeChoices(p),
      ),
    );
    c.onRequest(NoticeSdkVersionsRequest.type, (p: NoticeSdkVersionsParams, token) =>
      this.request('notice SDK versions', [] as NoticeSdkVersionItem[], token, () => this.sdkVersions(p)),
    );
  }

  /** New Notice's pickers: the releases at hand and the deciding code lists, labelled. */
  private async newNoticeChoices(p: NewNoticeChoicesParams): Promise<NewNoticeChoicesResult> {
    const s = await this.d.settings(p?.scopeUri ?? '');
    const choice = this.choose(s, undefined, p?.sdkVersion);
    const sdkVersions = availableSdkReleases({ path: s.sdk.path, cacheRoot: this.d.sdkCacheRoot ?? '' })
      .map((r) => r.version)
      .sort((a, b) => compareSdkVersions(b, a));
    if (!choice.ok) return { sdkVersions, procedureTypes: [], countries: [], languages: [] };
    const lists = newNoticeChoices(choice.sdk, String(p?.subtype ?? ''), s.validation.language);
    return { sdkVersions, sdkVersion: choice.sdk.version, ...lists };
  }

  /** The versions on disk New Notice can write for, newest first, with what TED says of each when known. */
  private async sdkVersions(p: NoticeSdkVersionsParams): Promise<NoticeSdkVersionItem[]> {
    const s = await this.d.settings(p?.scopeUri ?? '');
    const newest = new Map<string, string>();
    for (const r of availableSdkReleases({ path: s.sdk.path, cacheRoot: this.d.sdkCacheRoot ?? '' })) {
      const mm = minorOf(r.version);
      const had = mm ? newest.get(mm) : undefined;
      if (mm && (!had || compareSdkVersions(r.version, had) > 0)) newest.set(mm, r.version);
    }
    let range: SdkVersionRange | undefined;
    try {
      range = await this.d.versionRange?.(s);
    } catch {
      range = undefined;
    }
    const today = this.d.today?.() ?? new Date().toISOString().slice(0, 10);
    return [...newest]
      .sort((a, b) => compareSdkVersions(b[1], a[1]))
      .map(([version, release]) => {
        const item: NoticeSdkVersionItem = { version, release };
        if (range) {
          const l = sdkLifecycle(version, range, [release], today);
          item.accepted = l.acceptedToday;
          if (l.until) item.until = l.until;
        }
        return item;
      });
  }

  private async newNotice(p: NewNoticeParams): Promise<NewNoticeResult> {
    const s = await this.d.settings(p?.scopeUri ?? '');
    const choice = this.choose(s, undefined, p?.sdkVersion);
    if (!choice.ok) return { ok: false, kind: choice.kind, detail: choice.detail };
    const subtype = String(p?.subtype ?? '');
    const sdk = choice.sdk;
    // The official rules say which fields the choices make mandatory: written as placeholders too.
    const r = await newNoticeChecked(
      sdk,
      {
        subtype,
        language: p?.language || s.validation.language,
        ...(p?.procedureType ? { procedureType: p.procedureType } : {}),
        ...(p?.buyerCountry ? { buyerCountry: p.buyerCountry } : {}),
      },
      async (xml, st) => {
        try {
          const rules = await loadRuleSet({
            sdkDir: sdk.dir,
            sdkVersion: sdk.version,
            phase: phaseForSubType(st),
            mode: 'static',
          });
          return rules.evaluate(xml).failures;
        } catch (err) {
          // No rules for this release or phase: the notice is written from fields.json alone.
          if (err instanceof RuleSetError) return [];
          throw err;
        }
      },
    );
    if (!r.ok)
      return { ok: false, kind: r.kind, detail: r.kind === 'unknown-subtype' ? r.subtype : r.problem };
    return {
      ok: true,
      xml: r.xml,
      sdkVersion: choice.sdk.version,
      fileName: newNoticeFileName(choice.sdk, subtype),
    };
  }

  private async subtypes(p: NoticeSubtypesParams): Promise<NoticeSubtypeItem[]> {
    const s = await this.d.settings(p?.scopeUri ?? '');
    const choice = this.choose(s, undefined, p?.sdkVersion);
    if (!choice.ok) return [];
    const lang = s.validation.language;
    return choice.sdk.noticeSubtypes().map((t) => ({
      id: t.subTypeId,
      label: `${t.subTypeId} · ${t.type ?? ''}`.trim(),
      description: choice.sdk.translation('notice', `notice|name|${t.subTypeId}`, lang) ?? t.description,
    }));
  }

  private choose(
    s: EformsSettings,
    declared: string | undefined,
    /** A version the user chose for this one request (New Notice): it wins over the settings' pin. */
    chosen?: string,
  ):
    | { ok: true; sdk: SdkKnowledge }
    | { ok: false; kind: 'no-sdk' | 'version-missing' | 'no-version'; detail?: string } {
    const root = s.sdk.path;
    const cacheRoot = this.d.sdkCacheRoot ?? '';
    const key = `${root}\u0000${cacheRoot}`;
    let releases = this.releases.get(key);
    if (!releases) {
      // The folder the user named, then the releases downloaded before; newest first for the fallbacks.
      releases = availableSdkReleases({ path: root, cacheRoot }).sort((a, b) =>
        compareSdkVersions(b.version, a.version),
      );
      this.releases.set(key, releases);
    }
    if (releases.length === 0) return { ok: false, kind: 'no-sdk' };
    const pinned = chosen?.trim() || s.validation.sdkVersion;
    const pick = chooseSdkRelease(releases, { pinned, declared });
    if (!pick.ok) {
      // Without a declared version, the newest release serves (authoring help, not validation).
      if (pick.kind === 'no-version' && releases[0])
        return { ok: true, sdk: sdkKnowledge(releases[0].dir, releases[0].version) };
      // A notice declaring a release that is not on disk still gets help from the newest one (unless
      // the user pinned a version): field ids and code lists change little between minors.
      if (pick.kind === 'version-missing' && !pinned && releases[0]) {
        const newest = releases[0];
        const note = `${root}: no SDK ${pick.wanted}; authoring help uses ${newest.version}`;
        if (!this.warned.has(note)) {
          this.warned.add(note);
          this.d.log(note);
        }
        return { ok: true, sdk: sdkKnowledge(newest.dir, newest.version) };
      }
      return {
        ok: false,
        kind: pick.kind,
        detail: pick.kind === 'version-missing' ? pick.wanted : undefined,
      };
    }
    const sdk = sdkKnowledge(pick.release.dir, pick.release.version);
    if (sdk.problem && !this.warned.has(sdk.dir)) {
      this.warned.add(sdk.dir);
      this.d.log(sdk.problem);
    }
    return { ok: true, sdk };
  }

  /** The document's index (kept per version), its SDK knowledge (if any) and the language to label in. */
  private async at(
    uri: string,
  ): Promise<{ index: XmlIndex; sdk?: SdkKnowledge; language: string } | undefined> {
    const doc = this.d.documents.get(uri);
    if (!doc) return undefined;
    const index = this.indexFor(uri, doc);
    if (!index.element(0)) return undefined;
    const s = await this.d.settings(uri);
    const choice = this.choose(s, declaredSdkVersion(index));
    if (choice.ok) this.sdkOf.set(uri, choice.sdk);
    else this.sdkOf.delete(uri);
    this.language.set(uri, s.validation.language);
    return { index, sdk: choice.ok ? choice.sdk : undefined, language: s.validation.language };
  }

  /** Work that answers no request: a failure is logged and gives `fallback`. */
  private safe<T>(what: string, fallback: T, f: () => Promise<T>): Promise<T> {
    return runSafeAsync(this.d.log, what, fallback, f) as Promise<T>;
  }

  /** A request's handler: as `safe`, and a cancelled request is answered "request cancelled". */
  private request<T>(
    what: string,
    fallback: T,
    token: CancellationToken,
    f: () => Promise<T>,
  ): Promise<T | ResponseError<void>> {
    return runSafeAsync(this.d.log, what, fallback, f, token);
  }
}

function toCodeAction(a: AuthoringAction, uri: string): CodeAction {
  const action: CodeAction = {
    title: a.title,
    kind:
      a.kind === 'quickfix'
        ? CodeActionKind.QuickFix
        : a.kind === 'source.fixAll'
          ? CodeActionKind.SourceFixAll
          : CodeActionKind.RefactorRewrite,
    diagnostics: a.diagnostics as Diagnostic[],
    isPreferred: a.isPreferred,
  };
  if (a.fixAll) action.data = { uri, fixAll: a.fixAll } satisfies FixAllData;
  else action.edit = { changes: { [uri]: a.edits } };
  return action;
}

/** What a deferred "fix all" carries to codeAction/resolve. */
interface FixAllData {
  uri: string;
  fixAll: FixAllGroup;
}

/** The data of a deferred "fix all", read from what the client sends back (anything). */
function fixAllData(data: unknown): { uri: string; group: FixAllGroup } | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { uri, fixAll } = data as Partial<Record<keyof FixAllData, unknown>>;
  if (typeof uri !== 'string' || !isFixAllGroup(fixAll)) return undefined;
  return { uri, group: fixAll };
}

function toDocumentSymbol(s: NoticeSymbol): DocumentSymbol {
  return {
    name: s.name || '(unnamed)',
    detail: s.detail,
    kind: SYMBOL_KINDS[s.kind],
    range: s.range,
    selectionRange: s.selectionRange,
    children: s.children.map(toDocumentSymbol),
  };
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Workspace files searched for notices: a bound on count, size and depth keeps a large tree cheap. */
const MAX_FILES = 2000;
const MAX_FILE_BYTES = 20 * 1024 * 1024;
const MAX_DEPTH = 8;
const SKIP_DIRS = new Set(['node_modules', '.git', 'out', 'dist', '.cache']);

/**
 * What one workspace-symbol request reads and indexes (files not in the outline cache): one request
 * over 400 large notices took 196 s before. The next request goes on where this one stopped.
 */
export const WORKSPACE_SYMBOL_BUDGET = { files: 100, bytes: 64 * 1024 * 1024 };

function noticeFiles(roots: readonly string[], token?: CancellationToken): string[] {
  const out: string[] = [];
  const visit = (dir: string, depth: number) => {
    if (depth > MAX_DEPTH || out.length >= MAX_FILES || token?.isCancellationRequested) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= MAX_FILES) return;
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) visit(p, depth + 1);
      } else if (e.isFile() && e.name.toLowerCase().endsWith('.xml')) {
        try {
          if (statSync(p).size <= MAX_FILE_BYTES) out.push(p);
        } catch {
          // Gone since the listing.
        }
      }
    }
  };
  for (const r of roots) visit(r, 0);
  return out;
}
