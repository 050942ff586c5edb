// The agri-food market data feature: the Market Explorer webview (eforms.openMarketExplorer), the
// "Market prices" tree (eforms.marketPrices, eforms.refreshMarketPrices) and the CPV price hover in
// notices. Registered by client/extension.ts as `registerMarket(state)`.

import * as vscode from 'vscode';
import { Commands, Views } from '../command-ids';
import type { Feature } from '../extension-state';
import { CpvPriceHover } from './cpv-hover';
import { MarketExplorerPanel, normalizeTarget } from './explorer-panel';
import { MarketData } from './market-data';
import { MarketPricesTree } from './prices-tree';

/** Not contributed to the palette: the explorer's own button runs it; tests pass a target Uri. */
export const EXPORT_CSV_COMMAND = Commands.exportMarketCsv;

export const registerMarket: Feature = (state) => {
  const data = new MarketData(state);
  const tree = new MarketPricesTree(data);
  const hover = new CpvPriceHover(data);
  const subs = state.context.subscriptions;
  subs.push(
    vscode.window.createTreeView(Views.marketPrices, { treeDataProvider: tree, showCollapseAll: true }),
    vscode.commands.registerCommand(Commands.openMarketExplorer, (arg?: unknown) =>
      MarketExplorerPanel.open(state, data, normalizeTarget(arg)),
    ),
    vscode.commands.registerCommand(Commands.refreshMarketPrices, async () => {
      await data.clearCache();
      hover.clear();
      tree.refresh();
    }),
    vscode.commands.registerCommand(EXPORT_CSV_COMMAND, async (target?: vscode.Uri) => {
      const panel = MarketExplorerPanel.active;
      if (!panel) {
        void vscode.window.showWarningMessage('Open the Market Explorer and load some prices first.');
        return undefined;
      }
      return panel.exportCsv(target instanceof vscode.Uri ? target : undefined);
    }),
    vscode.languages.registerHoverProvider([{ language: 'xml' }], hover),
    state.onDidChangeSettings(() => {
      hover.clear();
      tree.refresh();
    }),
  );
  return undefined;
};
