// Hover on a CPV code in a notice (`cbc:ItemClassificationCode listName="cpv"`): when the product maps
// to an agri-food sector (core/agrifood/cpv.ts), shows the latest EU-level price (the currency once),
// its 12-month change with the two periods compared (computed as the explorer's "12-month change"
// column, core/agrifood/presentation.ts) and a link that opens the Market Explorer on that series. Answers are cached (on disk by the
// core client, and here for ten minutes) so hovering costs no request most of the time.

import * as vscode from 'vscode';
import type { RecordTypes, SectorId } from '../../core/agrifood';
import {
  type CpvMapping,
  ENDPOINTS,
  formatDmy,
  formatPct,
  formatPrice,
  type Series,
  sectorForCpv,
  toSeries,
  twelveMonthChange,
} from '../../core/agrifood';
import { Commands } from '../command-ids';
import { wordFailure } from '../failure-wording';
import { euTarget } from './explorer-default';
import type { ExplorerTarget } from './explorer-panel';
import { type MarketData, signalOf } from './market-data';

const CPV_ELEMENT =
  /<cbc:ItemClassificationCode\b[^>]*\blistName\s*=\s*["']cpv["'][^>]*>\s*(\d{8}(?:-\d)?)\s*<\/cbc:ItemClassificationCode>/g;

/** The CPV code whose element covers `offset` in `line`, with its range. */
export function cpvAt(
  line: string,
  character: number,
): { code: string; start: number; end: number } | undefined {
  CPV_ELEMENT.lastIndex = 0;
  for (let m = CPV_ELEMENT.exec(line); m; m = CPV_ELEMENT.exec(line)) {
    if (character >= m.index && character <= m.index + m[0].length) {
      return { code: m[1] as string, start: m.index, end: m.index + m[0].length };
    }
  }
  return undefined;
}

/** Service text as inert Markdown: punctuation escaped, no HTML, no links, readable spaces. */
function text(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, '\\$&');
}

export interface EuPrice {
  mapping: CpvMapping;
  target: ExplorerTarget;
  series: Series | undefined;
}

export { euTarget } from './explorer-default';

export class CpvPriceHover implements vscode.HoverProvider {
  private readonly memo = new Map<string, { at: number; value: Promise<EuPrice> }>();

  constructor(private readonly data: MarketData) {}

  async euPrice(mapping: CpvMapping, token?: vscode.CancellationToken): Promise<EuPrice> {
    const hit = this.memo.get(mapping.cpv);
    if (hit && Date.now() - hit.at < 10 * 60_000) return hit.value;
    const target = euTarget(mapping);
    const value = (async () => {
      const r = await this.data.query(mapping.sector, target.filters ?? {}, { signal: signalOf(token) });
      const set = toSeries(mapping.sector, r.records as RecordTypes[SectorId][]);
      // The longest series is the representative one when several remain (e.g. several stages).
      const series = [...set.series].sort((a, b) => b.points.length - a.points.length)[0];
      return { mapping, target, series };
    })();
    this.memo.set(mapping.cpv, { at: Date.now(), value });
    value.catch(() => this.memo.delete(mapping.cpv));
    return value;
  }

  clear(): void {
    this.memo.clear();
  }

  async provideHover(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    const line = document.lineAt(position.line).text;
    const hit = cpvAt(line, position.character);
    if (!hit) return undefined;
    const mapping = sectorForCpv(hit.code);
    if (!mapping) return undefined;
    const range = new vscode.Range(position.line, hit.start, position.line, hit.end);
    const md = new vscode.MarkdownString(undefined, true);
    md.isTrusted = { enabledCommands: [Commands.openMarketExplorer] };
    md.appendMarkdown(`**$(graph-line) ${ENDPOINTS[mapping.sector].label} — EU market price** `);
    md.appendMarkdown(text(`(CPV ${hit.code}: ${mapping.product})\n\n`));
    let target: ExplorerTarget = euTarget(mapping);
    try {
      const p = await this.euPrice(mapping, token);
      target = p.target;
      const s = p.series;
      const latest = s?.points[s.points.length - 1];
      if (!s || !latest) {
        md.appendMarkdown(text('No EU-level price for this product in the agri-food data.\n\n'));
      } else {
        const year = twelveMonthChange(s.points);
        md.appendMarkdown(
          text(
            `Latest: ${formatPrice(latest.value, s.currency, s.unit)} (period from ${formatDmy(latest.start)} to ${formatDmy(latest.end)})\n\n`,
          ),
        );
        md.appendMarkdown(
          text(
            year
              ? `${year.name}: ${formatPct(year.change.changePct)} (${formatPrice(year.change.from.value, s.currency, s.unit)} in the period from ${formatDmy(year.change.from.start)} → ${formatPrice(year.change.to.value, s.currency, s.unit)} in the period from ${formatDmy(year.change.to.start)})\n\n`
              : '12-month change: n/a (no price a year before the latest one)\n\n',
          ),
        );
        md.appendMarkdown(text(`Series: ${s.label}\n\n`));
      }
    } catch (err) {
      if (token.isCancellationRequested) return undefined;
      md.appendMarkdown(text(`${wordFailure(err, 'Loading the EU price').message}\n\n`));
    }
    const args = encodeURIComponent(JSON.stringify([target]));
    md.appendMarkdown(`[Open in Market Explorer](command:${Commands.openMarketExplorer}?${args})`);
    return new vscode.Hover(md, range);
  }
}
