// Bench section: parse and summarise 200,000 agri-food records (cereal prices with decimal commas,
// olive oil with thousands separators, as the emulation writes them), our pipeline (series.ts:
// single-pass price reader, grouping, summaries) side by side with the naive alternative (regex +
// parseFloat per record, grouping by JSON key, sort for min/max) in the same run on the same input,
// median of N rounds, plus how many values the naive reading gets wrong. Also (unless
// EFORMS_BENCH_CHART=0) the time to first chart of the Market Explorer webview in headless
// Chromium (playwright-core, /usr/bin/chromium) with the same 200,000 records.
// Run alone: node out/test/bench/agrifood-bench.js

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { memberStateOptions, sectorInfos, toWire } from '../../core/agrifood/explorer-protocol';
import { parsePrice } from '../../core/agrifood/price';
import type { CerealPrice, OliveOilPrice } from '../../core/agrifood/records';
import { summarize, toSeries } from '../../core/agrifood/series';
import { matching } from '../../sandbox/agrifood/generator';
import { PROJECT_ROOT } from '../support/shared-data';

export interface AgrifoodBenchRow {
  case: string;
  pipeline: string;
  records: number;
  medianMs: number;
  /** Values that differ from what a person reads. */
  wrongValues?: number;
  note?: string;
}

const N = 200_000;
const NOW = Date.UTC(2027, 0, 1);

/** 200,000 records as they arrive: JSON text parsed, so strings are flat as from the network. */
export function benchRecords(n = N): { cereal: CerealPrice[]; oliveOil: OliveOilPrice[] } {
  const olive = [...matching('oliveOil', new Map(), NOW)];
  const cereal: Record<string, unknown>[] = [];
  for (const r of matching('cereal', new Map(), NOW)) {
    if (cereal.length + olive.length >= n) break;
    cereal.push(r);
  }
  return {
    cereal: JSON.parse(JSON.stringify(cereal)) as CerealPrice[],
    oliveOil: JSON.parse(JSON.stringify(olive)) as OliveOilPrice[],
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

/** The naive way: strip to digits and marks, a comma becomes a point, parseFloat; group by JSON key. */
function naive(records: readonly Record<string, unknown>[], keys: readonly string[]): Map<string, number[]> {
  const groups = new Map<string, { t: number; v: number }[]>();
  for (const r of records) {
    const v = Number.parseFloat(
      String(r.price)
        .replace(/[^\d,.-]/g, '')
        .replace(',', '.'),
    );
    const [d, m, y] = String(r.beginDate).split('/').map(Number) as [number, number, number];
    const t = new Date(Date.UTC(y, m - 1, d)).getTime();
    const k = JSON.stringify(keys.map((f) => r[f]));
    const g = groups.get(k);
    if (g) g.push({ t, v });
    else groups.set(k, [{ t, v }]);
  }
  const out = new Map<string, number[]>();
  for (const [k, g] of groups) {
    g.sort((a, b) => a.t - b.t);
    const vs = g.map((p) => p.v);
    const sorted = [...vs].sort((a, b) => a - b);
    const first = vs[0] as number;
    const last = vs[vs.length - 1] as number;
    out.set(k, [
      last,
      sorted[0] as number,
      sorted[sorted.length - 1] as number,
      ((last - first) / first) * 100,
    ]);
  }
  return out;
}

/** A person's reading of a two-decimal price: all digits, the last two after the point. */
const human = (p: string) => Number(p.replace(/\D/g, '')) / 100;

export async function runAgrifoodBench(rounds = 7, chart = false): Promise<AgrifoodBenchRow[]> {
  const { cereal, oliveOil } = benchRecords();
  const total = cereal.length + oliveOil.length;
  const ours: number[] = [];
  const theirs: number[] = [];
  let sink = 0;
  for (let i = 0; i < rounds; i++) {
    let t = performance.now();
    for (const set of [toSeries('cereal', cereal), toSeries('oliveOil', oliveOil)]) {
      for (const s of set.series) sink += summarize(s.points)?.count ?? 0;
    }
    ours.push(performance.now() - t);
    t = performance.now();
    sink += naive(cereal as unknown as Record<string, unknown>[], [
      'memberStateCode',
      'productName',
      'stageName',
      'marketName',
    ]).size;
    sink += naive(oliveOil as unknown as Record<string, unknown>[], [
      'memberStateCode',
      'product',
      'market',
    ]).size;
    theirs.push(performance.now() - t);
  }
  // Correctness on the same input: how many single values each reading gets wrong.
  let wrongOurs = 0;
  let wrongNaive = 0;
  for (const r of [...cereal, ...oliveOil]) {
    const h = human(r.price);
    if (parsePrice(r.price)?.amount !== h) wrongOurs++;
    if (Number.parseFloat(r.price.replace(/[^\d,.-]/g, '').replace(',', '.')) !== h) wrongNaive++;
  }
  if (sink < 0) console.log(sink);
  const rows: AgrifoodBenchRow[] = [
    {
      case: 'parse + summarise 200,000 records',
      pipeline: 'core/agrifood series.ts',
      records: total,
      medianMs: Math.round(median(ours) * 10) / 10,
      wrongValues: wrongOurs,
    },
    {
      case: 'parse + summarise 200,000 records',
      pipeline: 'naive regex + parseFloat',
      records: total,
      medianMs: Math.round(median(theirs) * 10) / 10,
      wrongValues: wrongNaive,
      note: 'reads "€1,230.00" as 1.23 and "€1.230,00" as 1.23',
    },
  ];
  if (chart) rows.push(...(await chartBench()));
  return rows;
}

/** Time to first chart: the bundled webview in headless Chromium, fed 200,000 records. */
async function chartBench(): Promise<AgrifoodBenchRow[]> {
  const bundle = join(PROJECT_ROOT, 'dist', 'market-explorer', 'explorer.js');
  const chromium = '/usr/bin/chromium';
  const note = (n: string): AgrifoodBenchRow[] => [
    {
      case: 'time to first chart (200,000 records)',
      pipeline: 'Market Explorer webview',
      records: 0,
      medianMs: Number.NaN,
      note: n,
    },
  ];
  if (!existsSync(bundle)) return note(`${bundle} missing: run node scripts/build-webview.mjs`);
  if (!existsSync(chromium)) return note(`${chromium} missing`);
  // biome-ignore lint/suspicious/noExplicitAny: playwright-core is loaded only for this measure
  const pw = require('playwright-core') as any;
  const browser = await pw.chromium.launch({ executablePath: chromium, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const css = readFileSync(join(PROJECT_ROOT, 'dist', 'market-explorer', 'explorer.css'), 'utf8');
    await page.setContent(
      `<!doctype html><html><head><style>${css}</style></head><body><div id="app"></div></body></html>`,
    );
    await page.evaluate(() => {
      (globalThis as unknown as { acquireVsCodeApi: unknown }).acquireVsCodeApi = () => ({
        postMessage: (m: unknown) => {
          (globalThis as unknown as { __posted: unknown[] }).__posted ??= [];
          (globalThis as unknown as { __posted: unknown[] }).__posted.push(m);
        },
        getState: () => undefined,
        setState: () => undefined,
      });
    });
    await page.addScriptTag({ content: readFileSync(bundle, 'utf8') });
    const init = {
      type: 'init',
      sectors: sectorInfos(),
      memberStates: memberStateOptions(),
      sector: 'cereal',
      filters: {},
      autoLoad: false,
    };
    await page.evaluate((m: unknown) => window.postMessage(m, '*'), init);
    // Host side: records to compact series (what the extension does before posting).
    // One sector at a time on the chart: 200,000 cereal records (a longer span than the parse case).
    const big = JSON.parse(
      JSON.stringify([...matching('cereal', new Map(), Date.UTC(2028, 6, 1))].slice(0, N)),
    ) as CerealPrice[];
    const t0 = performance.now();
    const wire = toWire('cereal', big);
    const hostMs = performance.now() - t0;
    const payload = JSON.stringify({
      type: 'data',
      sector: 'cereal',
      series: wire.series,
      skipped: wire.skipped,
      records: big.length,
      url: 'bench',
      fromCache: false,
      fetchedAt: Date.now(),
    });
    const page0 = (await page.evaluate(async (p: string) => {
      const g = globalThis as unknown as { __posted: { type: string; points?: number }[] };
      g.__posted = [];
      const t = performance.now();
      window.postMessage(JSON.parse(p), '*');
      for (;;) {
        const done = g.__posted.find((m) => m.type === 'rendered');
        if (done) {
          // The table and summaries are built in the same task as the chart; wait for the frame.
          await new Promise((r) => requestAnimationFrame(() => r(undefined)));
          return { ms: performance.now() - t, points: done.points ?? 0 };
        }
        await new Promise((r) => setTimeout(r, 1));
      }
    }, payload)) as { ms: number; points: number };
    if (process.env.EFORMS_BENCH_SCREENSHOT)
      await page.screenshot({ path: process.env.EFORMS_BENCH_SCREENSHOT, fullPage: true });
    return [
      {
        case: 'time to first chart',
        pipeline: 'Market Explorer webview (headless Chromium)',
        records: big.length,
        medianMs: Math.round((hostMs + page0.ms) * 10) / 10,
        note: `host toWire ${Math.round(hostMs)} ms + webview ${Math.round(page0.ms)} ms (message to drawn chart, summaries, table); ${page0.points} points drawn`,
      },
    ];
  } finally {
    await browser.close();
  }
}

export const agrifoodBenchSection = {
  name: 'agri-food: parse + summarise 200,000 records, time to first chart',
  run: () => runAgrifoodBench(7, process.env.EFORMS_BENCH_CHART !== '0'),
};

if (require.main === module) {
  agrifoodBenchSection.run().then(
    (rows) => console.table(rows),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
