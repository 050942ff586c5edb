// The Market Explorer webview panel: serves the bundled page (dist/market-explorer) under a strict
// Content-Security-Policy with a nonce, runs the queries the page asks for through MarketData and
// posts compact series back, exports CSV and copies Markdown. Test hook: open() resolves with what
// the page reports once it has drawn the chart ({rendered, series}).

import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { RecordTypes, SectorId } from '../../core/agrifood';
import {
  AgrifoodError,
  ENDPOINTS,
  type Filters,
  type HostMessage,
  isSectorId,
  LISTINGS,
  memberStateOptions,
  type ParamSpec,
  recordsToCsv,
  sectorInfos,
  sectorsAtoZ,
  toMarkdown,
  toWire,
  type WebviewMessage,
} from '../../core/agrifood';
import type { ExtensionState } from '../extension-state';
import { wordFailure } from '../failure-wording';
import { DEFAULT_HINT, defaultExplorerTarget } from './explorer-default';
import type { MarketData } from './market-data';

/** What opens the explorer on a series: `eforms.openMarketExplorer` takes it as its argument. */
export interface ExplorerTarget {
  sector: SectorId;
  filters?: Record<string, string | number | (string | number)[]>;
}

export interface RenderReport {
  rendered: number;
  series: number;
  ms: number;
}

function sortedSectorInfos() {
  const order = sectorsAtoZ();
  return sectorInfos().sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
}

export function normalizeTarget(arg: unknown): ExplorerTarget | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const a = arg as { sector?: unknown; filters?: unknown };
  if (!isSectorId(a.sector)) return undefined;
  const filters: Record<string, string[]> = {};
  if (a.filters && typeof a.filters === 'object') {
    for (const [k, v] of Object.entries(a.filters as Record<string, unknown>)) {
      const list = Array.isArray(v)
        ? v
        : typeof v === 'string'
          ? v.split(',')
          : typeof v === 'number'
            ? [v]
            : [];
      filters[k] = list.map((x) => String(x).trim()).filter(Boolean);
    }
  }
  return { sector: a.sector, filters };
}

export class MarketExplorerPanel implements vscode.Disposable {
  private static current: MarketExplorerPanel | undefined;
  private readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private pending: HostMessage[] = [];
  private abort: AbortController | undefined;
  private last: { sector: SectorId; records: unknown[] } | undefined;
  private waiters: { resolve(r: RenderReport): void; reject(e: Error): void }[] = [];

  static async open(
    state: ExtensionState,
    data: MarketData,
    target?: ExplorerTarget,
  ): Promise<RenderReport | undefined> {
    const p = MarketExplorerPanel.current ?? new MarketExplorerPanel(state, data);
    MarketExplorerPanel.current = p;
    p.panel.reveal(vscode.ViewColumn.Active);
    return p.show(target);
  }

  static get active(): MarketExplorerPanel | undefined {
    return MarketExplorerPanel.current;
  }

  private constructor(
    private readonly state: ExtensionState,
    private readonly data: MarketData,
  ) {
    const dist = vscode.Uri.joinPath(state.context.extensionUri, 'dist', 'market-explorer');
    this.panel = vscode.window.createWebviewPanel(
      'eforms.marketExplorer',
      'Market Explorer',
      vscode.ViewColumn.Active,
      {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [dist],
      },
    );
    this.panel.webview.html = this.html(dist);
    this.disposables.push(
      this.panel.webview.onDidReceiveMessage((m: WebviewMessage) => this.onMessage(m)),
      this.panel.onDidDispose(() => this.dispose()),
    );
  }

  private html(dist: vscode.Uri): string {
    const w = this.panel.webview;
    const nonce = randomBytes(16).toString('base64');
    const js = w.asWebviewUri(vscode.Uri.joinPath(dist, 'explorer.js'));
    const css = w.asWebviewUri(vscode.Uri.joinPath(dist, 'explorer.css'));
    const csp = [
      "default-src 'none'",
      `img-src ${w.cspSource} data:`,
      `style-src ${w.cspSource}`,
      `font-src ${w.cspSource}`,
      `script-src 'nonce-${nonce}'`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${css}">
<title>Market Explorer</title>
</head>
<body>
<div id="app"></div>
<script nonce="${nonce}" src="${js}"></script>
</body>
</html>`;
  }

  private target: ExplorerTarget | undefined;

  private show(target?: ExplorerTarget): Promise<RenderReport | undefined> {
    this.target = target ?? this.target;
    if (this.ready) this.post(this.initMessage(target));
    if (!target) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private initMessage(target?: ExplorerTarget): HostMessage {
    const t = target ?? this.target ?? defaultExplorerTarget();
    return {
      type: 'init',
      // A→Z, as the tree lists them.
      sectors: sortedSectorInfos(),
      memberStates: memberStateOptions(),
      sector: t.sector,
      filters: (t.filters as Filters | undefined) ?? {},
      autoLoad: target !== undefined,
      ...(target || this.target ? {} : { hint: DEFAULT_HINT }),
    };
  }

  private post(m: HostMessage): void {
    if (!this.ready && m.type !== 'init') {
      this.pending.push(m);
      return;
    }
    void this.panel.webview.postMessage(m);
  }

  private async onMessage(m: WebviewMessage): Promise<void> {
    switch (m?.type) {
      case 'ready':
        this.ready = true;
        this.post(this.initMessage(this.waiters.length ? this.target : undefined));
        for (const p of this.pending.splice(0)) this.post(p);
        return;
      case 'query':
        return this.runQuery(m.sector, m.filters);
      case 'listing':
        return this.sendListing(m.sector, m.param);
      case 'exportCsv':
        await this.exportCsv();
        return;
      case 'copyMarkdown':
        await vscode.env.clipboard.writeText(toMarkdown(m.header, m.rows));
        void vscode.window.showInformationMessage(`Copied ${m.rows.length} row(s) as a Markdown table.`);
        return;
      case 'rendered':
        for (const w of this.waiters.splice(0)) w.resolve({ rendered: m.points, series: m.series, ms: m.ms });
        return;
      case 'error':
        this.state.log.error(`Market Explorer: ${m.message}`);
        for (const w of this.waiters.splice(0)) w.reject(new Error(m.message));
        return;
    }
  }

  private async runQuery(sector: SectorId, filters: Filters): Promise<void> {
    if (!isSectorId(sector)) return;
    this.abort?.abort();
    const ac = new AbortController();
    this.abort = ac;
    this.post({ type: 'loading', message: `Loading ${ENDPOINTS[sector].label}…` });
    try {
      let lastMb = 0;
      const r = await this.data.query(sector, filters, {
        signal: ac.signal,
        onProgress: (bytes) => {
          const mb = Math.floor(bytes / 1048576);
          if (mb >= lastMb + 5) {
            lastMb = mb;
            this.post({ type: 'loading', message: `Loading ${ENDPOINTS[sector].label}… ${mb} MB received` });
          }
        },
        onRetry: ({ status, waitMs }) =>
          this.post({
            type: 'loading',
            message: `Loading ${ENDPOINTS[sector].label}… the service is busy (HTTP ${status}): asking again in ${Math.ceil(waitMs / 1000)} s`,
          }),
      });
      if (ac.signal.aborted) return;
      this.last = { sector, records: r.records };
      const wire = toWire(sector, r.records as RecordTypes[typeof sector][]);
      this.post({
        type: 'data',
        sector,
        series: wire.series,
        skipped: wire.skipped,
        records: r.records.length,
        url: r.url,
        fromCache: r.fromCache,
        fetchedAt: r.fetchedAt,
      });
    } catch (err) {
      if (err instanceof AgrifoodError && err.kind === 'cancelled') return;
      const { message } = wordFailure(err, `Loading ${ENDPOINTS[sector].label}`);
      this.state.log.warn(`Market Explorer: ${message}`);
      this.post({ type: 'error', message });
      for (const w of this.waiters.splice(0)) w.reject(new Error(message));
    }
  }

  private async sendListing(sector: SectorId, param: string): Promise<void> {
    const spec = (ENDPOINTS[sector]?.params as readonly ParamSpec[] | undefined)?.find(
      (p) => p.name === param,
    );
    const listing = spec?.listing && LISTINGS.find((l) => l.path === spec.listing);
    if (!listing) return;
    try {
      const values = await this.data.listing(listing.path);
      this.post({ type: 'options', sector, param, values });
    } catch (err) {
      this.post({ type: 'options', sector, param, values: [] });
      this.post({ type: 'notice', message: wordFailure(err, `Listing ${spec.label}`).message });
    }
  }

  /** Writes the last loaded records as CSV; `target` skips the save dialog (tests, scripts). */
  async exportCsv(target?: vscode.Uri): Promise<{ uri: vscode.Uri; rows: number } | undefined> {
    const last = this.last;
    if (!last) {
      void vscode.window.showWarningMessage('Load some prices in the Market Explorer first.');
      return undefined;
    }
    const uri =
      target ??
      (await vscode.window.showSaveDialog({
        filters: { CSV: ['csv'] },
        defaultUri: vscode.Uri.joinPath(
          vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(homedir()),
          `${last.sector}-prices.csv`,
        ),
        saveLabel: 'Export CSV',
      }));
    if (!uri) return undefined;
    const csv = recordsToCsv(last.sector, last.records as RecordTypes[SectorId][]);
    await vscode.workspace.fs.writeFile(uri, Buffer.from(csv, 'utf8'));
    if (!target)
      void vscode.window.showInformationMessage(`Exported ${last.records.length} row(s) to ${uri.fsPath}.`);
    return { uri, rows: last.records.length };
  }

  dispose(): void {
    if (MarketExplorerPanel.current === this) MarketExplorerPanel.current = undefined;
    this.abort?.abort();
    for (const w of this.waiters.splice(0)) w.reject(new Error('The Market Explorer was closed.'));
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}
