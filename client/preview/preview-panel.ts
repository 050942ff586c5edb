// The notice preview in the editor: a webview beside the notice (as Markdown's preview) that shows the
// notice as TED publishes it, rendered by the language server (`eforms/renderPreview`). It re-renders
// ~100 ms after the last edit (a newer edit cancels the request under way), highlights the line of the
// element under the cursor, selects a line's element in the XML when the line is clicked (or Enter is
// pressed on it), offers the release's languages and remembers the choice in `eforms.preview.language`,
// and is restored after a reload (registerWebviewPanelSerializer). The page gets no offsets, only line
// ids; ranges stay here, tied to the document version they were rendered from.

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { RenderPreviewRequest, type RenderPreviewResult } from '../../core/protocol';
import { Commands } from '../command-ids';
import type { ExtensionState } from '../extension-state';
import { isEformsNotice } from '../language-client';
import {
  type HostMessage,
  lineAt,
  type PanelState,
  parseWebviewMessage,
  previewHtml,
  type Range,
  requestedLanguage,
  selectionFor,
  toWire,
  type WireLine,
  type WireNotice,
} from './preview-logic';

export const PREVIEW_VIEW_TYPE = 'eforms.preview';
/** Quiet time after an edit before the render is asked for. */
export const DEBOUNCE_MS = 100;
/** How long after a line is chosen the preview taking the focus back is undone (see refocusUntil). */
const REFOCUS_MS = 1000;

/** What a test (or another extension) can see of a preview: what the page reported it drew. */
export interface PreviewSnapshot {
  uri: string;
  /** Document version of the render the page drew last (undefined before the first). */
  drawnVersion?: number;
  /** Lines the page drew for it. */
  drawnLines: number;
  /** Renders the page drew since the panel opened. */
  renders: number;
  language?: string;
  languages: string[];
  sdkVersion?: string;
  /** The render's lines, flattened in document order, with the ranges the panel keeps. */
  lines: { id: string; label: string; value: string; flagged: boolean; range?: Range }[];
  /** The line the page reports as highlighted. */
  highlighted: string | null;
  /** The last failure shown on the page (the previous render stays under it). */
  error?: string;
  /** Milliseconds from the first edit of a burst to the page drawing its render (the 200 ms goal). */
  lastEditToDrawnMs?: number;
}

/** What `eforms.openPreview` resolves with, once the page drew its first render. */
export interface PreviewProbe {
  snapshot(): PreviewSnapshot;
  /** In-editor tests: the page runs the very handler a click on that line runs. */
  click(id: string): void;
  /** In-editor tests: as if the picker chose this language. */
  chooseLanguage(language: string): Promise<void>;
}

class PreviewPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private request: vscode.CancellationTokenSource | undefined;
  private rendered: { version: number; ranges: Map<string, Range>; notice: WireNotice } | undefined;
  private drawn: { version: number; lines: number; count: number } | undefined;
  private highlighted: string | null = null;
  private error: string | undefined;
  private editStarted: number | undefined;
  private lastEditToDrawnMs: number | undefined;
  /** The picker's choice for this panel (written to the setting too). */
  private language: string | undefined;
  private firstDrawn: (() => void) | undefined;
  readonly firstDraw: Promise<void>;
  private disposed = false;
  /**
   * Until when (Date.now()) the preview taking the focus back is undone, once: a click in a webview
   * gives it the focus, but the workbench hears of it late, sometimes after `select` has focused the
   * notice (microsoft/vscode#199816), which left the selection made and the focus in the preview.
   */
  private refocusUntil = 0;

  constructor(
    private readonly s: ExtensionState,
    readonly panel: vscode.WebviewPanel,
    readonly document: vscode.TextDocument,
    state: PanelState | undefined,
    private readonly onDispose: (p: PreviewPanel) => void,
  ) {
    this.language = state?.language;
    this.firstDraw = new Promise((r) => {
      this.firstDrawn = r;
    });
    const media = vscode.Uri.joinPath(s.context.extensionUri, 'dist', 'preview');
    panel.webview.options = { enableScripts: true, localResourceRoots: [media] };
    panel.title = this.title();
    panel.iconPath = vscode.Uri.joinPath(s.context.extensionUri, 'media', 'eforms.svg');
    const w = panel.webview;
    w.html = previewHtml({
      cspSource: w.cspSource,
      nonce: randomBytes(16).toString('base64'),
      scriptUri: w.asWebviewUri(vscode.Uri.joinPath(media, 'preview.js')).toString(),
      styleUri: w.asWebviewUri(vscode.Uri.joinPath(media, 'preview.css')).toString(),
      title: this.title(),
    });
    this.disposables.push(
      w.onDidReceiveMessage((m: unknown) => this.onMessage(m)),
      panel.onDidDispose(() => this.dispose()),
      panel.onDidChangeViewState(() => {
        if (!panel.active || Date.now() >= this.refocusUntil) return;
        this.refocusUntil = 0;
        const editor = vscode.window.visibleTextEditors.find((e) => e.document === this.document);
        if (editor)
          void vscode.window.showTextDocument(this.document, {
            viewColumn: editor.viewColumn,
            preserveFocus: false,
            preview: false,
          });
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document !== this.document || e.contentChanges.length === 0) return;
        this.editStarted ??= Date.now();
        this.schedule();
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor.document === this.document) this.followCursor(e.textEditor);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d === this.document) this.panel.dispose();
      }),
      s.onDidChangeSettings(() => this.schedule()),
    );
  }

  private title(): string {
    return `Preview ${this.document.uri.path.split('/').pop() ?? ''}`;
  }

  private post(m: HostMessage): void {
    if (this.ready && !this.disposed) void this.panel.webview.postMessage(m);
  }

  schedule(delay = DEBOUNCE_MS): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.render();
    }, delay);
  }

  private async render(): Promise<void> {
    if (this.disposed || !this.ready) return;
    // A newer edit cancels the request under way: the server drops it unless it already started.
    this.request?.cancel();
    this.request?.dispose();
    const cts = new vscode.CancellationTokenSource();
    this.request = cts;
    const language = requestedLanguage(
      this.language,
      this.s.settings(this.document.uri).preview.language,
      this.rendered?.notice.languages,
    );
    let r: RenderPreviewResult | undefined;
    try {
      r = await this.s.serverRequest(
        RenderPreviewRequest.type,
        { uri: this.document.uri.toString(), ...(language ? { language } : {}) },
        cts.token,
      );
    } catch (err) {
      if (cts.token.isCancellationRequested) return;
      r = { error: err instanceof Error ? err.message : String(err), kind: 'failed' };
    }
    if (cts.token.isCancellationRequested || this.disposed) return;
    if (!r) r = { error: 'The eForms language server is not running.', kind: 'failed' };
    if ('error' in r) {
      if (r.kind === 'superseded') return;
      this.error = r.error;
      this.post({ type: 'error', message: r.error });
      return;
    }
    this.error = undefined;
    const { notice, ranges } = toWire(r);
    const version = r.version ?? this.document.version;
    this.rendered = { version, ranges, notice };
    this.post({
      type: 'render',
      version,
      notice,
      title: this.title(),
      state: { uri: this.document.uri.toString(), ...(this.language ? { language: this.language } : {}) },
      highlight: this.cursorLine(vscode.window.activeTextEditor) ?? undefined,
    });
  }

  private cursorLine(editor: vscode.TextEditor | undefined): string | null {
    const r = this.rendered;
    if (!editor || editor.document !== this.document || !r) return null;
    // Ranges are offsets in the rendered version's text: an older render waits for its successor.
    if (r.version !== this.document.version) return null;
    return lineAt(r.ranges, this.document.offsetAt(editor.selection.active)) ?? null;
  }

  private followCursor(editor: vscode.TextEditor): void {
    const id = this.cursorLine(editor);
    if (id !== null) this.post({ type: 'highlight', id });
  }

  private async onMessage(raw: unknown): Promise<void> {
    const m = parseWebviewMessage(raw);
    if (!m) return;
    switch (m.type) {
      case 'ready':
        this.ready = true;
        await this.render();
        return;
      case 'rendered':
        this.drawn = { version: m.version, lines: m.lines, count: (this.drawn?.count ?? 0) + 1 };
        if (this.editStarted !== undefined && m.version >= this.document.version) {
          this.lastEditToDrawnMs = Date.now() - this.editStarted;
          this.editStarted = undefined;
        }
        this.firstDrawn?.();
        return;
      case 'highlighted':
        this.highlighted = m.id;
        return;
      case 'select':
        await this.select(m.id);
        return;
      case 'language':
        await this.chooseLanguage(m.language);
        return;
    }
  }

  async chooseLanguage(language: string): Promise<void> {
    this.language = language;
    // The choice is remembered for every notice (user settings), as the issue asks.
    try {
      await vscode.workspace
        .getConfiguration('eforms')
        .update('preview.language', language, vscode.ConfigurationTarget.Global);
    } catch (err) {
      this.s.log.warn(`preview: could not save eforms.preview.language: ${(err as Error).message}`);
    }
    await this.render();
  }

  /** Selects the line's element in the notice, in the editor beside the preview (opened if needed). */
  private async select(id: string): Promise<void> {
    const r = this.rendered;
    if (!r) return;
    if (r.version !== this.document.version) {
      // Offsets of an older text: render the current one first, then find the same line again.
      await this.render();
    }
    const now = this.rendered;
    if (!now || now.version !== this.document.version) return;
    const sel = selectionFor(now.ranges.get(id), this.document.getText().length);
    if (!sel) return;
    const visible = vscode.window.visibleTextEditors.find((e) => e.document === this.document);
    const column =
      visible?.viewColumn ??
      (this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One);
    const editor = await vscode.window.showTextDocument(this.document, {
      viewColumn: column,
      preserveFocus: false,
      preview: false,
    });
    const start = this.document.positionAt(sel.start);
    const end = this.document.positionAt(sel.end);
    this.refocusUntil = Date.now() + REFOCUS_MS;
    // The cursor goes to the element's start, where the reverse sync finds this same line again.
    editor.selection = new vscode.Selection(end, start);
    editor.revealRange(new vscode.Range(start, end), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  snapshot(): PreviewSnapshot {
    const lines: PreviewSnapshot['lines'] = [];
    const walk = (ls: WireLine[]) => {
      for (const l of ls) {
        lines.push({
          id: l.id,
          label: l.label,
          value: l.value,
          flagged: l.flagged === true,
          range: this.rendered?.ranges.get(l.id),
        });
        walk(l.children);
      }
    };
    walk(this.rendered?.notice.lines ?? []);
    return {
      uri: this.document.uri.toString(),
      drawnVersion: this.drawn?.version,
      drawnLines: this.drawn?.lines ?? 0,
      renders: this.drawn?.count ?? 0,
      language: this.rendered?.notice.language,
      languages: this.rendered?.notice.languages ?? [],
      sdkVersion: this.rendered?.notice.sdkVersion,
      lines,
      highlighted: this.highlighted,
      error: this.error,
      lastEditToDrawnMs: this.lastEditToDrawnMs,
    };
  }

  probe(): PreviewProbe {
    return {
      snapshot: () => this.snapshot(),
      click: (id) => this.post({ type: 'testClick', id }),
      chooseLanguage: (l) => this.chooseLanguage(l),
    };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.request?.cancel();
    this.request?.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.onDispose(this);
    this.panel.dispose();
  }
}

/** The preview panels, one per notice, and the commands and serializer that open and restore them. */
export function registerPreview(s: ExtensionState): undefined {
  const panels = new Map<string, PreviewPanel>();
  const attach = (panel: vscode.WebviewPanel, doc: vscode.TextDocument, state?: PanelState) => {
    const p = new PreviewPanel(s, panel, doc, state, (gone) => {
      if (panels.get(gone.document.uri.toString()) === gone) panels.delete(gone.document.uri.toString());
    });
    panels.set(doc.uri.toString(), p);
    return p;
  };

  const open = async (arg: unknown, side: boolean): Promise<PreviewProbe | undefined> => {
    const doc = await targetDocument(arg);
    if (!doc || !isEformsNotice(doc)) {
      void vscode.window.showWarningMessage(
        'eForms: Open Preview works on an eForms notice: open the notice XML first.',
      );
      return undefined;
    }
    const existing = panels.get(doc.uri.toString());
    if (existing) {
      existing.panel.reveal(undefined, true);
      await existing.firstDraw;
      return existing.probe();
    }
    const panel = vscode.window.createWebviewPanel(
      PREVIEW_VIEW_TYPE,
      'Preview',
      { viewColumn: side ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active, preserveFocus: side },
      { enableScripts: true, retainContextWhenHidden: false },
    );
    const p = attach(panel, doc);
    await p.firstDraw;
    return p.probe();
  };

  s.context.subscriptions.push(
    vscode.commands.registerCommand(Commands.openPreview, (arg?: unknown) => open(arg, false)),
    vscode.commands.registerCommand(Commands.openPreviewToSide, (arg?: unknown) => open(arg, true)),
    vscode.window.registerWebviewPanelSerializer(PREVIEW_VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        const st = state as Partial<PanelState> | undefined;
        const uri = typeof st?.uri === 'string' ? st.uri : undefined;
        let doc: vscode.TextDocument | undefined;
        try {
          doc = uri ? await vscode.workspace.openTextDocument(vscode.Uri.parse(uri)) : undefined;
        } catch {
          doc = undefined;
        }
        // The notice is gone (deleted, or an untitled one not restored): nothing to show.
        if (!doc || !isEformsNotice(doc)) {
          panel.dispose();
          return;
        }
        attach(panel, doc, {
          uri: doc.uri.toString(),
          language: typeof st?.language === 'string' ? st.language : undefined,
        });
      },
    }),
    {
      dispose: () => {
        for (const p of [...panels.values()]) p.dispose();
      },
    },
  );
  return undefined;
}

/** The notice a command is about: its Uri argument (editor title, explorer), else the active editor's. */
async function targetDocument(arg: unknown): Promise<vscode.TextDocument | undefined> {
  if (arg instanceof vscode.Uri) {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === arg.toString());
    try {
      return open ?? (await vscode.workspace.openTextDocument(arg));
    } catch {
      return undefined;
    }
  }
  return vscode.window.activeTextEditor?.document;
}
