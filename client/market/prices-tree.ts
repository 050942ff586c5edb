// The "Market prices" view: sectors (A→Z), then the series each sector's listing endpoint (or the spec's
// allowed values) offers; opening one opens the Market Explorer on it, for the last three years.

import * as vscode from 'vscode';
import type { SectorId } from '../../core/agrifood';
import { ENDPOINTS, formatDmy, type ParamSpec, sectorsAtoZ } from '../../core/agrifood';
import { Commands } from '../command-ids';
import { wordFailure } from '../failure-wording';
import type { ExplorerTarget } from './explorer-panel';
import type { MarketData } from './market-data';

/** The parameter whose values name a sector's main series (one tree row each). */
export const PRIMARY_PARAM: Record<SectorId, string> = {
  wine: 'descriptions',
  taxud: 'products',
  sugar: 'regions',
  sheepAndGoat: 'productCodes',
  rice: 'types',
  rawMilk: 'products',
  poultry: 'products',
  pigmeat: 'pigClasses',
  organic: 'organicProducts',
  oliveOil: 'products',
  oilseeds: 'products',
  pmef: 'indicators',
  fruitAndVegetable: 'products',
  fertiliser: 'products',
  cmef: 'indicators',
  cereal: 'productCodes',
  beef: 'categories',
};

type Node =
  | { kind: 'sector'; sector: SectorId }
  | { kind: 'series'; sector: SectorId; param: string; value: string }
  | { kind: 'message'; text: string; error: boolean };

/** Filters that open a tree row: its value, and the last three years where the endpoint takes dates. */
export function seriesTarget(
  sector: SectorId,
  param: string,
  value: string,
  now = Date.now(),
): ExplorerTarget {
  const names = new Set((ENDPOINTS[sector].params as readonly ParamSpec[]).map((p) => p.name));
  const filters: Record<string, string[]> = { [param]: [value] };
  const year = new Date(now).getUTCFullYear();
  if (names.has('beginDate')) filters.beginDate = [formatDmy(Date.UTC(year - 3, 0, 1))];
  else if (names.has('years'))
    filters.years = [String(year - 3), String(year - 2), String(year - 1), String(year)];
  return { sector, filters };
}

export class MarketPricesTree implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly data: MarketData) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(n: Node): vscode.TreeItem {
    if (n.kind === 'sector') {
      const item = new vscode.TreeItem(ENDPOINTS[n.sector].label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `sector:${n.sector}`;
      item.contextValue = 'marketSector';
      item.iconPath = new vscode.ThemeIcon('graph-line');
      item.tooltip = `GET ${ENDPOINTS[n.sector].path}`;
      return item;
    }
    if (n.kind === 'series') {
      const item = new vscode.TreeItem(n.value, vscode.TreeItemCollapsibleState.None);
      item.id = `series:${n.sector}:${n.param}:${n.value}`;
      item.contextValue = 'marketSeries';
      item.iconPath = new vscode.ThemeIcon('pulse');
      item.tooltip = `${ENDPOINTS[n.sector].label}: ${n.param} = ${n.value}`;
      item.command = {
        command: Commands.openMarketExplorer,
        title: 'Open in Market Explorer',
        arguments: [seriesTarget(n.sector, n.param, n.value)],
      };
      return item;
    }
    const item = new vscode.TreeItem(n.text, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon(n.error ? 'error' : 'info');
    if (n.error) item.command = { command: Commands.refreshMarketPrices, title: 'Retry' };
    return item;
  }

  async getChildren(n?: Node): Promise<Node[]> {
    if (!n) return sectorsAtoZ().map((sector) => ({ kind: 'sector', sector }));
    if (n.kind !== 'sector') return [];
    const param = PRIMARY_PARAM[n.sector];
    const spec = (ENDPOINTS[n.sector].params as readonly ParamSpec[]).find((p) => p.name === param);
    if (!spec) return [];
    try {
      const values = spec.allowed
        ? [...spec.allowed]
        : spec.listing
          ? await this.data.listing(spec.listing)
          : [];
      if (values.length === 0)
        return [{ kind: 'message', text: 'No series listed by the service.', error: false }];
      return values.map((value) => ({ kind: 'series', sector: n.sector, param, value }));
    } catch (err) {
      const { message } = wordFailure(err, `Listing the ${ENDPOINTS[n.sector].label} series`);
      return [{ kind: 'message', text: `${message} (click to retry)`, error: true }];
    }
  }
}
