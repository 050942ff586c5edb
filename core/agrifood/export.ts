// Records and series as text people take elsewhere: CSV (RFC 4180, with spreadsheet formula
// injection defused), Markdown tables and aligned plain-text tables for terminals. Service strings
// are untrusted: control characters never reach the output.

import { terminalLine } from '../text';
import { ENDPOINTS } from './endpoints';
import { formatAmount } from './price';
import type { RecordTypes, SectorId } from './records';
import { formatPct, type Series, type SeriesPoint, summarize } from './series';
import { formatDmy } from './weeks';

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  return String(v).replace(CONTROL, '');
}

/**
 * A signed plain number (`-2`, `+1.5`, `-1,234.5`, `+3.0 %`): the only text starting with + or - that a
 * spreadsheet cannot run. `-2+3+cmd|...` starts with a sign and a digit too, and is a formula.
 */
const SIGNED_NUMBER = /^[-+]\d+(?:[.,]\d+)*(?:[eE][-+]?\d+)?(?: ?%)?$/;

/** One CSV cell: quoted when needed; text starting with = + - @ gets a leading ' so spreadsheets do not run it. */
export function csvCell(v: unknown): string {
  let s = text(v).replace(/[\r\n]+/g, ' ');
  if (typeof v === 'string' && /^[=+\-@\t]/.test(s) && !SIGNED_NUMBER.test(s)) s = `'${s}`;
  return /[",;\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const lines = [header.map(csvCell).join(',')];
  for (const r of rows) lines.push(r.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Records of a sector as CSV, columns in the spec's field order. */
export function recordsToCsv<K extends SectorId>(sector: K, records: readonly RecordTypes[K][]): string {
  const cols = ENDPOINTS[sector].columns as readonly string[];
  return toCsv(
    cols,
    records.map((r) => cols.map((c) => (r as unknown as Record<string, unknown>)[c])),
  );
}

function mdCell(v: unknown): string {
  return text(v)
    .replace(/[\r\n]+/g, ' ')
    .replace(/([\\|`*_[\]<>])/g, '\\$1');
}

export function toMarkdown(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const out = [`| ${header.map(mdCell).join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`];
  for (const r of rows) out.push(`| ${r.map(mdCell).join(' | ')} |`);
  return `${out.join('\n')}\n`;
}

/**
 * Columns padded to their widest cell (at most 60), for terminals: every cell through the one terminal
 * sanitiser. Widths are found by a loop, never by spreading the rows into a call: 187,000 rows overflowed
 * the stack that way.
 */
export function toTextTable(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cell = (v: unknown) => (v === null || v === undefined ? '' : terminalLine(String(v)));
  const cells = [header.map(cell), ...rows.map((r) => r.map(cell))];
  const widths = header.map(() => 0);
  for (const r of cells)
    for (let i = 0; i < widths.length; i++)
      widths[i] = Math.max(widths[i], Math.min(60, (r[i] ?? '').length));
  return cells
    .map((r) =>
      r
        .map((c, i) => {
          const w = widths[i] ?? 0;
          const cut = c.length > w ? `${c.slice(0, w - 1)}…` : c;
          return cut.padEnd(w);
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export const SUMMARY_HEADER = [
  'Series',
  'Unit',
  'Points',
  'From',
  'To',
  'Latest',
  'Min',
  'Max',
  'Change',
] as const;

/**
 * The summary row of one series (latest, min, max, change over the period), or undefined when it has
 * no point. The explorer's table and the exports share it, so they cannot disagree.
 */
export function summaryRow(
  s: { label: string; unit: string; currency?: string },
  points: readonly SeriesPoint[],
): string[] | undefined {
  const sum = summarize(points);
  if (!sum) return undefined;
  const f = (v: number) => formatAmount(v, s.currency);
  return [
    s.label,
    s.unit,
    String(sum.count),
    formatDmy(sum.first.start),
    formatDmy(sum.latest.start),
    f(sum.latest.value),
    f(sum.min.value),
    f(sum.max.value),
    formatPct(sum.changePct),
  ];
}

/** One row per series with points. */
export function summaryRows(series: readonly Series[]): string[][] {
  const rows: string[][] = [];
  for (const s of series) {
    const row = summaryRow(s, s.points);
    if (row) rows.push(row);
  }
  return rows;
}
