// The extension's access to the agri-food service: one core client built from the current settings
// (base URL, timeout, cache time to live), with its on-disk cache in the extension's global storage,
// rebuilt when any of those change. Editor glue only; the HTTP, parsing and caching live in core/.

import type * as vscode from 'vscode';
import type { QueryParams, RecordTypes, SectorId } from '../../core/agrifood';
import { AgrifoodClient, type FetchOptions, type QueryResult } from '../../core/agrifood';
import type { ExtensionState } from '../extension-state';

export class MarketData {
  private cached: { key: string; client: AgrifoodClient; dispatcher: unknown } | undefined;

  constructor(private readonly state: ExtensionState) {}

  client(): AgrifoodClient {
    const s = this.state.settings();
    const baseUrl = this.state.urls().agrifood;
    // The dispatcher follows VS Code's proxy settings; a new one means a new client.
    const dispatcher = this.state.dispatcher();
    const key = `${baseUrl}|${s.agrifood.timeoutMs}|${s.agrifood.cacheTtlHours}`;
    if (this.cached?.key !== key || this.cached.dispatcher !== dispatcher) {
      this.cached = {
        key,
        client: new AgrifoodClient({
          baseUrl,
          timeoutMs: s.agrifood.timeoutMs,
          cacheTtlHours: s.agrifood.cacheTtlHours,
          cacheDir: this.state.context.globalStorageUri.fsPath,
          dispatcher,
        }),
        dispatcher,
      };
    }
    return this.cached.client;
  }

  async query<K extends SectorId>(
    sector: K,
    params: QueryParams,
    opts: FetchOptions = {},
  ): Promise<QueryResult<RecordTypes[K]>> {
    const started = Date.now();
    const r = await this.client().query(sector, params, opts);
    this.state.log.info(
      `agri-food: ${r.records.length} record(s) from ${r.url}${r.fromCache ? ' (cache)' : ''} in ${Date.now() - started} ms`,
    );
    return r;
  }

  listing(path: string, opts: FetchOptions = {}): Promise<string[]> {
    return this.client().listing(path, opts);
  }

  async clearCache(): Promise<void> {
    await this.client().clearCache();
  }
}

/** An AbortSignal that follows a VS Code cancellation token. */
export function signalOf(token: vscode.CancellationToken | undefined): AbortSignal | undefined {
  if (!token) return undefined;
  const ac = new AbortController();
  if (token.isCancellationRequested) ac.abort();
  else token.onCancellationRequested(() => ac.abort());
  return ac.signal;
}
