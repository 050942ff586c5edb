// How market data is shown, the same in the "Market prices" tree, the CPV hover and the Market
// Explorer webview (which bundles this module): sectors in A→Z order, which series a freshly loaded
// explorer draws (the EU aggregate when there is one), a price with its unit (the currency once), and
// the named periods a change is computed over. Pure and editor-free: no `vscode` import, no DOM, no I/O.

import { ENDPOINTS, SECTOR_IDS } from './endpoints';
import { EU_AGGREGATE } from './member-states';
import { formatAmount } from './price';
import type { SectorId } from './records';
import { type PriceChange, priceChange, type SeriesPoint } from './series';
import { DAY, formatDmy } from './weeks';

/** Sector ids ordered by their label, A→Z (the endpoints table lists them otherwise). */
export function sectorsAtoZ(): SectorId[] {
  return [...SECTOR_IDS].sort((a, b) => ENDPOINTS[a].label.localeCompare(ENDPOINTS[b].label, 'en'));
}

/** The most lines a freshly loaded chart draws before the user ticks more. */
export const INITIAL_LINES = 6;

/**
 * Which series (indexes) a freshly loaded chart draws: the EU aggregate's series when the answer has
 * them (what a user who picked one product asked for: "E" pig carcasses means the EU price, not
 * Austria's, Belgium's, …), else the first few.
 */
export function initialSeries(
  series: readonly { fields: Record<string, string> }[],
  max = INITIAL_LINES,
): number[] {
  const eu: number[] = [];
  series.forEach((s, i) => {
    if (s.fields.memberStateCode === EU_AGGREGATE.code) eu.push(i);
  });
  if (eu.length > 0) return eu.slice(0, max);
  return series.slice(0, max).map((_, i) => i);
}

/**
 * A price with its unit, naming the currency once: "234.28 €/100kg" when the unit carries the
 * currency, "€234.28 per t" style otherwise ("€234.28 t" reads as the unit).
 */
export function formatPrice(value: number, currency: string | undefined, unit: string): string {
  const u = unit.trim();
  const unitHasCurrency =
    currency !== undefined &&
    (u.includes(currency) || (currency === 'EUR' && u.includes('€')) || /^(€|EUR|£|\$)/.test(u));
  if (unitHasCurrency) return `${formatAmount(value, undefined)} ${u}`;
  return u ? `${formatAmount(value, currency)} ${u}` : formatAmount(value, currency);
}

/** A change between two named dates of one series, as the hover and the explorer both state it. */
export interface NamedChange {
  /** "12-month change" / "Change over the period" */
  name: string;
  change: PriceChange;
  /** "21/10/2024 → 20/10/2025": the periods (their first days) whose prices are compared. */
  periods: string;
}

/** Change from the price a year before the latest one to the latest one (priceChange, like the calculator). */
export function twelveMonthChange(points: readonly SeriesPoint[]): NamedChange | undefined {
  const latest = points[points.length - 1];
  if (!latest) return undefined;
  const c = priceChange(points, latest.start - 365 * DAY, latest.start);
  if ('problem' in c) return undefined;
  return {
    name: '12-month change',
    change: c,
    periods: `${formatDmy(c.from.start)} → ${formatDmy(c.to.start)}`,
  };
}

/** Change from the first to the latest price loaded (priceChange over the whole period shown). */
export function periodChange(points: readonly SeriesPoint[]): NamedChange | undefined {
  const first = points[0];
  const latest = points[points.length - 1];
  if (!first || !latest) return undefined;
  const c = priceChange(points, first.start, latest.start);
  if ('problem' in c) return undefined;
  return {
    name: 'Change over the period',
    change: c,
    periods: `${formatDmy(c.from.start)} → ${formatDmy(c.to.start)}`,
  };
}
