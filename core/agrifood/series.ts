// Records of any endpoint turned into price series (one line per combination of the endpoint's key
// fields), and what people ask of a series: latest, min, max, change over the period, and the change
// between two dates for a price-revision clause. Pure and editor-free; the webview bundles it too.

import { ENDPOINTS, type SeriesSpec } from './endpoints';
import type { RecordTypes, SectorId } from './records';
import { formatDmy } from './weeks';

export interface SeriesPoint {
  /** UTC ms of the period's first and last day. */
  start: number;
  end: number;
  value: number;
  week?: number;
}

export interface Series {
  /** Stable id: the key fields' values joined. */
  key: string;
  /** "FR · Feed wheat · Delivered · Rouen" */
  label: string;
  /** Key field -> value, to reopen the series with filters. */
  fields: Record<string, string>;
  unit: string;
  currency: string | undefined;
  /** Sorted by start. */
  points: SeriesPoint[];
}

export interface SeriesSet {
  sector: SectorId;
  series: Series[];
  /** Records without a readable value or period. */
  skipped: number;
  records: number;
}

/** Groups records into series; records whose price or period cannot be read are counted, not guessed. */
export function toSeries<K extends SectorId>(sector: K, records: readonly RecordTypes[K][]): SeriesSet {
  const spec = ENDPOINTS[sector].series as SeriesSpec<RecordTypes[K]>;
  const byKey = new Map<string, Series>();
  let skipped = 0;
  for (const r of records) {
    if (!r || typeof r !== 'object') {
      skipped++;
      continue;
    }
    const v = spec.value(r);
    const p = spec.period(r);
    if (!v || !p) {
      skipped++;
      continue;
    }
    let key = '';
    for (const f of spec.key) key += `${String(r[f] ?? '')}\u0001`;
    let s = byKey.get(key);
    if (!s) {
      const fields: Record<string, string> = {};
      for (const f of spec.key) fields[f] = String(r[f] ?? '');
      s = {
        key,
        label: Object.values(fields)
          .filter((x) => x !== '')
          .join(' · '),
        fields,
        unit: String(spec.unit(r) ?? ''),
        currency: v.currency,
        points: [],
      };
      byKey.set(key, s);
    }
    const week = spec.week?.(r);
    s.points.push(
      week === undefined
        ? { start: p.start, end: p.end, value: v.amount }
        : { start: p.start, end: p.end, value: v.amount, week },
    );
  }
  const series = [...byKey.values()];
  for (const s of series) {
    let sorted = true;
    for (let i = 1; i < s.points.length && sorted; i++) {
      if ((s.points[i] as SeriesPoint).start < (s.points[i - 1] as SeriesPoint).start) sorted = false;
    }
    if (!sorted) s.points.sort((a, b) => a.start - b.start);
  }
  series.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  return { sector, series, skipped, records: records.length };
}

export interface Summary {
  count: number;
  first: SeriesPoint;
  latest: SeriesPoint;
  min: SeriesPoint;
  max: SeriesPoint;
  /** (latest - first) / first in %, undefined when the first value is 0. */
  changePct: number | undefined;
}

export function summarize(points: readonly SeriesPoint[]): Summary | undefined {
  const first = points[0];
  const latest = points[points.length - 1];
  if (!first || !latest) return undefined;
  let min = first;
  let max = first;
  for (const p of points) {
    if (p.value < min.value) min = p;
    if (p.value > max.value) max = p;
  }
  return { count: points.length, first, latest, min, max, changePct: pct(first.value, latest.value) };
}

function pct(from: number, to: number): number | undefined {
  return from === 0 ? undefined : ((to - from) / Math.abs(from)) * 100;
}

/**
 * The price that applies on `date`: the point whose period holds it, else the latest point that
 * began before it (prices hold until the next report). Undefined before the series starts.
 */
export function valueAt(points: readonly SeriesPoint[], date: number): SeriesPoint | undefined {
  let lo = 0;
  let hi = points.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((points[mid] as SeriesPoint).start <= date) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found >= 0 ? points[found] : undefined;
}

export interface PriceChange {
  from: SeriesPoint;
  to: SeriesPoint;
  /** to / from */
  ratio: number;
  changePct: number | undefined;
}

/** Change between the prices applying on two dates, for a revision clause; a message when impossible. */
export function priceChange(
  points: readonly SeriesPoint[],
  fromDate: number,
  toDate: number,
): PriceChange | { problem: string } {
  if (points.length === 0) return { problem: 'The series has no prices.' };
  const first = points[0] as SeriesPoint;
  const a = valueAt(points, fromDate);
  const b = valueAt(points, toDate);
  if (!a || !b) {
    return {
      problem: `No price on or before ${formatDmy(a ? toDate : fromDate)}: the series starts on ${formatDmy(first.start)}.`,
    };
  }
  return {
    from: a,
    to: b,
    ratio: a.value === 0 ? Number.NaN : b.value / a.value,
    changePct: pct(a.value, b.value),
  };
}

/** "+3.2 %", "−1.0 %", "n/a" */
export function formatPct(v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return 'n/a';
  const r = Math.round(v * 10) / 10;
  return `${r > 0 ? '+' : r < 0 ? '−' : ''}${Math.abs(r).toFixed(1)} %`;
}
