// The Market Explorer webview: sector and filters, a uPlot time-series chart, summaries per series, a
// price-change calculator for revision clauses and a virtualized, sortable table. Data comes from the
// extension host as compact series (core/agrifood/explorer-protocol.ts); nothing here talks to the
// network. Every string from the service reaches the page through textContent, never innerHTML.
// Dates are typed and shown as dd/mm/yyyy everywhere (the service's format and the fields' labels):
// a native date picker would show the browser's locale order (mm/dd/yyyy here) against the labels.

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './explorer.css';
import { optionText } from '../../client/market/value-notes';
import type {
  Filters,
  HostMessage,
  SectorInfo,
  WebviewMessage,
  WireSeries,
} from '../../core/agrifood/explorer-protocol';
import { SUMMARY_HEADER as SUMMARY_COLUMNS, summaryRow } from '../../core/agrifood/export';
import { initialSeries, periodChange, twelveMonthChange } from '../../core/agrifood/presentation';
import { formatAmount } from '../../core/agrifood/price';
import type { SectorId } from '../../core/agrifood/records';
import { formatPct, priceChange, type SeriesPoint } from '../../core/agrifood/series';
import { formatDmy, parseDmy } from '../../core/agrifood/weeks';

interface VsCodeApi {
  postMessage(m: WebviewMessage): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();
const post = (m: WebviewMessage) => vscode.postMessage(m);

/** Most lines drawn at once: beyond this a chart is unreadable; the summary table toggles which. */
const MAX_LINES = 12;
/** Most x positions drawn: longer spans are averaged into buckets. */
const MAX_X = 2500;
const ROW_H = 22;

/** summaryRow's columns, its change named by its period, then the change the CPV hover shows. */
const SUMMARY_HEADER = [...SUMMARY_COLUMNS.slice(0, -1), 'Change over the period', '12-month change'];

/** A text field for a dd/mm/yyyy date, marked invalid while what is typed is not one. */
function dateInput(label: string, value = ''): HTMLInputElement {
  const input = el('input', {
    type: 'text',
    inputmode: 'numeric',
    placeholder: 'dd/mm/yyyy',
    pattern: '\\d{2}/\\d{2}/\\d{4}',
    maxlength: 10,
    size: 11,
    value,
    'aria-label': label,
    className: 'date',
  });
  input.addEventListener('input', () => {
    const bad = input.value.trim() !== '' && parseDmy(input.value.trim()) === undefined;
    input.setAttribute('aria-invalid', bad ? 'true' : 'false');
    input.title = bad ? 'A date as dd/mm/yyyy, e.g. 31/01/2025' : '';
  });
  return input;
}

/** Most rows a multiple-choice list shows before it scrolls (Member States: all 28 would be too tall). */
const LIST_ROWS = 10;

type Attrs = Record<string, string | number | boolean | undefined>;
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === 'text') e.textContent = String(v);
    else if (k === 'className') e.className = String(v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children)
    if (c !== null && c !== undefined) e.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return e;
}

const state = {
  sectors: [] as SectorInfo[],
  memberStates: [] as { code: string; name: string }[],
  sector: 'pigmeat' as SectorId,
  filters: {} as Filters,
  options: new Map<string, string[]>(),
  series: [] as WireSeries[],
  visible: new Set<number>(),
  sort: { col: 1, asc: true },
  rows: new Int32Array(0),
  chart: undefined as uPlot | undefined,
};

const root = document.getElementById('app') ?? document.body;
const status = el('div', { className: 'status', role: 'status', 'aria-live': 'polite' });
const sectorSelect = el('select', { id: 'sector', 'aria-label': 'Sector' });
const filtersBox = el('div', { className: 'filters' });
const loadButton = el('button', { id: 'load', text: 'Load' });
const csvButton = el('button', { id: 'export-csv', text: 'Export CSV…', disabled: true });
const mdButton = el('button', { id: 'copy-md', text: 'Copy summary as Markdown', disabled: true });
const chartBox = el('div', { className: 'chart', id: 'chart' });
const legendNote = el('div', { className: 'note' });
const summaryBody = el('tbody');
const calcSeries = el('select', { 'aria-label': 'Series for the price change' });
const calcFrom = dateInput('From date (dd/mm/yyyy)');
const calcTo = dateInput('To date (dd/mm/yyyy)');
const calcOut = el('div', { className: 'calc-result', role: 'status' });
const tableHead = el('div', { className: 'vhead' });
const tableViewport = el('div', { className: 'viewport', tabindex: 0 });
const tableSpacer = el('div', { className: 'spacer' });
const tableRows = el('div', { className: 'rows' });
tableViewport.append(tableSpacer, tableRows);

root.append(
  el('header', {}, el('label', { text: 'Sector ' }, sectorSelect), loadButton, csvButton, mdButton),
  filtersBox,
  status,
  el('section', {}, el('h2', { text: 'Prices' }), chartBox, legendNote),
  el(
    'section',
    {},
    el('h2', { text: 'Summary per series' }),
    el(
      'div',
      { className: 'summary-wrap' },
      el(
        'table',
        { className: 'summary' },
        el('thead', {}, el('tr', {}, ...['Chart', ...SUMMARY_HEADER].map((h) => el('th', { text: h })))),
        summaryBody,
      ),
    ),
  ),
  el(
    'section',
    { className: 'calc' },
    el('h2', { text: 'Price change between two dates (revision clause)' }),
    el(
      'div',
      { className: 'row' },
      calcSeries,
      el('label', { text: 'from ' }, calcFrom),
      el('label', { text: 'to ' }, calcTo),
    ),
    calcOut,
  ),
  el('section', {}, el('h2', { text: 'Data' }), tableHead, tableViewport),
);

function setStatus(text: string, kind: 'info' | 'error' = 'info'): void {
  status.textContent = text;
  status.className = `status ${kind}`;
}

function sectorInfo(): SectorInfo | undefined {
  return state.sectors.find((s) => s.id === state.sector);
}

function renderFilters(): void {
  filtersBox.replaceChildren();
  const info = sectorInfo();
  if (!info) return;
  for (const p of info.params) {
    const current = state.filters[p.name] ?? [];
    let control: HTMLElement;
    if (p.kind === 'date') {
      const input = dateInput(p.label, current[0] ?? '');
      input.addEventListener('change', () => {
        const v = input.value.trim();
        state.filters[p.name] = v && parseDmy(v) !== undefined ? [v] : [];
      });
      control = input;
    } else if (p.memberStates || p.allowed || p.listed) {
      const values = p.allowed
        ? [...p.allowed]
        : p.listed
          ? (state.options.get(`${info.id}|${p.name}`) ?? [])
          : state.memberStates.map((m) => m.code);
      const count = new Set([...values, ...current]).size;
      const sel = el('select', { multiple: true, size: Math.max(4, Math.min(LIST_ROWS, count)) });
      for (const v of new Set([...values, ...current])) {
        const name = p.memberStates ? state.memberStates.find((m) => m.code === v)?.name : undefined;
        // Codes are explained (pig classes S, E, R, SE): the service lists them without words.
        const o = el('option', { value: v, text: name ? `${v} — ${name}` : optionText(p.name, v) });
        o.selected = current.includes(v);
        sel.append(o);
      }
      if (p.listed && !p.allowed && !state.options.has(`${info.id}|${p.name}`)) {
        sel.append(el('option', { disabled: true, text: 'loading…' }));
        post({ type: 'listing', sector: info.id, param: p.name });
      }
      sel.addEventListener('change', () => {
        state.filters[p.name] = [...sel.selectedOptions].map((o) => o.value);
      });
      control = sel;
    } else {
      const input = el('input', {
        type: 'text',
        value: current.join(','),
        placeholder: p.kind === 'I[]' ? 'e.g. 2023,2024' : 'comma-separated',
      });
      input.addEventListener('change', () => {
        state.filters[p.name] = input.value
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean);
      });
      control = input;
    }
    control.setAttribute('aria-label', p.label);
    control.dataset.param = p.name;
    filtersBox.append(el('label', { className: 'filter' }, el('span', { text: p.label }), control));
  }
  if (info.weekMeaning)
    filtersBox.append(el('div', { className: 'note', text: `Weeks: ${info.weekMeaning}.` }));
}

function load(): void {
  const filters: Filters = {};
  for (const [k, v] of Object.entries(state.filters)) if (v.length) filters[k] = v;
  vscode.setState({ sector: state.sector, filters });
  setStatus('Loading…');
  post({ type: 'query', sector: state.sector, filters });
}

// ---- chart -------------------------------------------------------------------------------------

function palette(): string[] {
  const css = getComputedStyle(document.body);
  const names = ['blue', 'orange', 'green', 'red', 'purple', 'yellow'];
  const fallback = ['#3794ff', '#d18616', '#89d185', '#f14c4c', '#b180d7', '#cca700'];
  const base = names.map(
    (n, i) => css.getPropertyValue(`--vscode-charts-${n}`).trim() || (fallback[i] as string),
  );
  return [...base, ...base.map((c) => `color-mix(in srgb, ${c} 55%, var(--vscode-foreground, #888))`)];
}

/** Aligned x (seconds) and one y array per visible series; averaged into buckets past MAX_X. */
function alignedData(visible: WireSeries[]): { data: uPlot.AlignedData; points: number } {
  const xsSet = new Set<number>();
  for (const s of visible) for (const t of s.starts) xsSet.add(t);
  const xs = [...xsSet].sort((a, b) => a - b);
  const bucketOf = new Map<number, number>();
  const buckets = Math.min(xs.length, MAX_X);
  const size = xs.length / Math.max(1, buckets);
  const bx: number[] = [];
  for (let b = 0; b < buckets; b++) bx.push((xs[Math.floor(b * size)] as number) / 1000);
  xs.forEach((t, i) => {
    bucketOf.set(t, Math.min(buckets - 1, Math.floor(i / size)));
  });
  let points = 0;
  const ys = visible.map((s) => {
    const sum = new Float64Array(buckets);
    const cnt = new Uint32Array(buckets);
    for (let i = 0; i < s.starts.length; i++) {
      const b = bucketOf.get(s.starts[i] as number) as number;
      sum[b] = (sum[b] as number) + (s.values[i] as number);
      cnt[b] = (cnt[b] as number) + 1;
    }
    const y: (number | null)[] = new Array(buckets);
    for (let b = 0; b < buckets; b++) {
      y[b] = cnt[b] ? (sum[b] as number) / (cnt[b] as number) : null;
      if (cnt[b]) points++;
    }
    return y;
  });
  return { data: [bx, ...ys] as uPlot.AlignedData, points };
}

function renderChart(t0: number): void {
  state.chart?.destroy();
  state.chart = undefined;
  chartBox.replaceChildren();
  const visible = [...state.visible].map((i) => state.series[i]).filter((s): s is WireSeries => !!s);
  if (visible.length === 0) {
    chartBox.append(el('div', { className: 'empty', text: 'No series to draw.' }));
    post({ type: 'rendered', points: 0, series: 0, ms: performance.now() - t0 });
    return;
  }
  const { data, points } = alignedData(visible);
  const colors = palette();
  const fg = getComputedStyle(document.body).getPropertyValue('--vscode-foreground').trim() || '#ccc';
  const grid = 'rgba(128,128,128,0.2)';
  let reported = false;
  const unit = visible[0]?.unit ?? '';
  const opts: uPlot.Options = {
    width: Math.max(320, chartBox.clientWidth || 800),
    height: 320,
    series: [
      { label: 'Period' },
      ...visible.map((s, i) => ({
        label: s.label,
        stroke: colors[i % colors.length],
        width: 1.5,
        spanGaps: true,
        value: (_u: uPlot, v: number | null) => (v === null ? '–' : formatAmount(v, s.currency)),
      })),
    ],
    axes: [
      { stroke: fg, grid: { stroke: grid } },
      { stroke: fg, grid: { stroke: grid }, label: unit, size: 70 },
    ],
    legend: { live: true },
    hooks: {
      draw: [
        () => {
          if (reported) return;
          reported = true;
          post({ type: 'rendered', points, series: visible.length, ms: performance.now() - t0 });
        },
      ],
    },
  };
  state.chart = new uPlot(opts, data, chartBox);
  legendNote.textContent =
    state.series.length > visible.length
      ? `Showing ${visible.length} of ${state.series.length} series: tick others in the summary (at most ${MAX_LINES}).`
      : '';
}

// ---- summary, calculator -----------------------------------------------------------------------

function points(s: WireSeries): SeriesPoint[] {
  return s.starts.map((start, i) => ({ start, end: s.ends[i] as number, value: s.values[i] as number }));
}

function summaryRows(): string[][] {
  return state.series.map((s) => {
    const pts = points(s);
    const row = summaryRow(s, pts) ?? [s.label, s.unit, '0', '', '', '', '', '', ''];
    // The same computation as the hover's, so both say the same for the same series.
    const period = periodChange(pts);
    if (period) row[8] = formatPct(period.change.changePct);
    const year = twelveMonthChange(pts);
    return [...row, year ? formatPct(year.change.changePct) : 'n/a'];
  });
}

function renderSummary(): void {
  summaryBody.replaceChildren();
  const rows = summaryRows();
  rows.forEach((r, i) => {
    const box = el('input', { type: 'checkbox', 'aria-label': `Show ${r[0]} on the chart` });
    box.checked = state.visible.has(i);
    box.addEventListener('change', () => {
      if (box.checked) {
        if (state.visible.size >= MAX_LINES) {
          box.checked = false;
          setStatus(`At most ${MAX_LINES} series on the chart: untick one first.`);
          return;
        }
        state.visible.add(i);
      } else state.visible.delete(i);
      renderChart(performance.now());
    });
    summaryBody.append(
      el(
        'tr',
        {},
        el('td', {}, box),
        ...r.map((c, k) => el('td', { text: c, className: k >= 8 ? changeClass(c) : undefined })),
      ),
    );
  });
  calcSeries.replaceChildren(
    ...state.series.map((s, i) => el('option', { value: String(i), text: s.label })),
  );
  const first = state.series[0];
  if (first?.starts.length) {
    calcFrom.value = formatDmy(first.starts[0] as number);
    calcTo.value = formatDmy(first.starts[first.starts.length - 1] as number);
  }
  calc();
}

function changeClass(c: string): string | undefined {
  return c.startsWith('+') ? 'up' : c.startsWith('−') ? 'down' : undefined;
}

function calc(): void {
  const s = state.series[Number(calcSeries.value)];
  const from = parseDmy(calcFrom.value.trim());
  const to = parseDmy(calcTo.value.trim());
  if (!s || !calcFrom.value.trim() || !calcTo.value.trim()) {
    calcOut.textContent = '';
    return;
  }
  if (from === undefined || to === undefined) {
    calcOut.textContent = 'Type both dates as dd/mm/yyyy.';
    return;
  }
  const r = priceChange(points(s), from, to);
  if ('problem' in r) {
    calcOut.textContent = r.problem;
    return;
  }
  const f = (v: number) => formatAmount(v, s.currency);
  calcOut.textContent = `${f(r.from.value)} (period from ${formatDmy(r.from.start)}) → ${f(r.to.value)} (period from ${formatDmy(r.to.start)}): ${formatPct(r.changePct)}, index ratio ${Number.isFinite(r.ratio) ? r.ratio.toFixed(4) : 'n/a'}`;
}
for (const c of [calcSeries, calcFrom, calcTo]) c.addEventListener('change', calc);

// ---- table (virtualized) -----------------------------------------------------------------------

const COLS = ['Series', 'Period start', 'Period end', 'Week', 'Price', 'Unit'];

function cell(row: number, col: number): string {
  const si = row >>> 20;
  const pi = row & 0xfffff;
  const s = state.series[si] as WireSeries;
  switch (col) {
    case 0:
      return s.label;
    case 1:
      return formatDmy(s.starts[pi] as number);
    case 2:
      return formatDmy(s.ends[pi] as number);
    case 3:
      return s.weeks ? String(s.weeks[pi]) : '';
    case 4:
      return formatAmount(s.values[pi] as number, s.currency);
    default:
      return s.unit;
  }
}

function sortKey(row: number, col: number): number | string {
  const si = row >>> 20;
  const pi = row & 0xfffff;
  const s = state.series[si] as WireSeries;
  if (col === 1 || col === 2) return (col === 1 ? s.starts : s.ends)[pi] as number;
  if (col === 3) return s.weeks?.[pi] ?? 0;
  if (col === 4) return s.values[pi] as number;
  return col === 0 ? si : s.unit;
}

function buildRows(): void {
  let n = 0;
  for (const s of state.series) n += s.starts.length;
  const rows = new Int32Array(n);
  let k = 0;
  state.series.forEach((s, si) => {
    for (let pi = 0; pi < s.starts.length; pi++) rows[k++] = (si << 20) | pi;
  });
  state.rows = rows;
  sortRows();
}

function sortRows(): void {
  const { col, asc } = state.sort;
  const keys = new Map<number, number | string>();
  const arr = Array.from(state.rows);
  for (const r of arr) keys.set(r, sortKey(r, col));
  arr.sort((a, b) => {
    const x = keys.get(a) as number | string;
    const y = keys.get(b) as number | string;
    const c = x < y ? -1 : x > y ? 1 : a - b;
    return asc ? c : -c;
  });
  state.rows = Int32Array.from(arr);
  renderHead();
  tableSpacer.style.height = `${state.rows.length * ROW_H}px`;
  renderVisibleRows();
}

function renderHead(): void {
  tableHead.replaceChildren(
    ...COLS.map((c, i) => {
      const b = el('button', {
        className: 'th',
        text: `${c}${state.sort.col === i ? (state.sort.asc ? ' ▲' : ' ▼') : ''}`,
        'aria-sort': state.sort.col === i ? (state.sort.asc ? 'ascending' : 'descending') : 'none',
      });
      b.addEventListener('click', () => {
        state.sort = { col: i, asc: state.sort.col === i ? !state.sort.asc : true };
        sortRows();
      });
      return b;
    }),
  );
}

function renderVisibleRows(): void {
  const top = tableViewport.scrollTop;
  const h = tableViewport.clientHeight || 320;
  const first = Math.max(0, Math.floor(top / ROW_H) - 5);
  const last = Math.min(state.rows.length, Math.ceil((top + h) / ROW_H) + 5);
  const frag = document.createDocumentFragment();
  for (let i = first; i < last; i++) {
    const r = state.rows[i] as number;
    const row = el('div', { className: 'vrow', role: 'row' });
    row.style.transform = `translateY(${i * ROW_H}px)`;
    for (let c = 0; c < COLS.length; c++) row.append(el('span', { text: cell(r, c) }));
    frag.append(row);
  }
  tableRows.replaceChildren(frag);
}
tableViewport.addEventListener('scroll', () => requestAnimationFrame(renderVisibleRows));

// ---- messages ----------------------------------------------------------------------------------

function onData(m: Extract<HostMessage, { type: 'data' }>): void {
  const t0 = performance.now();
  state.series = m.series;
  // The EU series when the answer has them (a product picked in the tree), else the first few.
  state.visible = new Set(initialSeries(m.series, Math.min(MAX_LINES, 6)));
  const total = m.series.reduce((a, s) => a + s.starts.length, 0);
  setStatus(
    `${m.records.toLocaleString('en-GB')} record(s), ${m.series.length} series${m.skipped ? `, ${m.skipped} without a readable price left out` : ''} — ${m.fromCache ? `cached answer from ${new Date(m.fetchedAt).toLocaleString()}` : 'fresh from the service'}.`,
  );
  if (total === 0) setStatus('No results for these filters: widen the dates or remove a filter.');
  csvButton.disabled = m.records === 0;
  mdButton.disabled = m.series.length === 0;
  renderChart(t0);
  renderSummary();
  buildRows();
}

window.addEventListener('message', (ev: MessageEvent<HostMessage>) => {
  const m = ev.data;
  try {
    switch (m?.type) {
      case 'init': {
        state.sectors = m.sectors;
        state.memberStates = m.memberStates;
        const saved = vscode.getState() as { sector?: SectorId; filters?: Filters } | undefined;
        const useSaved = !m.autoLoad && saved?.sector;
        state.sector = useSaved ? (saved.sector as SectorId) : m.sector;
        state.filters = useSaved ? { ...(saved.filters ?? {}) } : { ...m.filters };
        sectorSelect.replaceChildren(...m.sectors.map((s) => el('option', { value: s.id, text: s.label })));
        sectorSelect.value = state.sector;
        renderFilters();
        if (m.autoLoad) load();
        else if (m.hint && !useSaved) setStatus(m.hint);
        else setStatus('Choose filters, then Load.');
        break;
      }
      case 'options':
        state.options.set(`${m.sector}|${m.param}`, m.values);
        if (m.sector === state.sector) renderFilters();
        break;
      case 'loading':
        setStatus(m.message);
        break;
      case 'data':
        onData(m);
        break;
      case 'error':
        setStatus(m.message, 'error');
        break;
      case 'notice':
        setStatus(m.message);
        break;
    }
  } catch (err) {
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
});

sectorSelect.addEventListener('change', () => {
  state.sector = sectorSelect.value as SectorId;
  state.filters = {};
  renderFilters();
});
loadButton.addEventListener('click', load);
csvButton.addEventListener('click', () => post({ type: 'exportCsv' }));
mdButton.addEventListener('click', () =>
  post({
    type: 'copyMarkdown',
    header: SUMMARY_HEADER,
    rows: summaryRows(),
  }),
);
window.addEventListener('resize', () =>
  state.chart?.setSize({ width: Math.max(320, chartBox.clientWidth), height: 320 }),
);

post({ type: 'ready' });
