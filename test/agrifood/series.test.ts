// Series and their summaries checked against brute force over the same points: min and max by sorting,
// change by the first and last, the revision-clause change by a linear scan.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { minMaxIndices } from '../../core/agrifood/downsample';
import type { CerealPrice, SugarPrice } from '../../core/agrifood/records';
import { priceChange, type SeriesPoint, summarize, toSeries, valueAt } from '../../core/agrifood/series';

const DAY = 86_400_000;
const pad = (n: number) => String(n).padStart(2, '0');
const dmy = (ms: number) => {
  const d = new Date(ms);
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
};

function cereal(ms: string, product: string, start: number, cents: number): CerealPrice {
  const euros = Math.floor(cents / 100);
  return {
    memberStateCode: ms,
    memberStateName: ms,
    beginDate: dmy(start),
    endDate: dmy(start + 6 * DAY),
    price: `€${euros},${pad(cents % 100)}`,
    unit: 'TONNES',
    weekNumber: 1,
    productName: product,
    marketName: 'Rouen',
    stageName: 'Delivered',
    referencePeriod: dmy(start + 10 * DAY),
  };
}

test('records group into one series per key, points in time order, prices as people read them', () => {
  const t0 = Date.UTC(2024, 0, 1);
  const recs: CerealPrice[] = [];
  // Out of order on purpose.
  for (const w of [3, 0, 2, 1]) {
    recs.push(cereal('FR', 'Maize', t0 + w * 7 * DAY, 20000 + w * 150));
    recs.push(cereal('DE', 'Maize', t0 + w * 7 * DAY, 21000 - w * 99));
  }
  recs.push({ ...cereal('FR', 'Maize', t0, 1), price: 'n.a.' });
  const set = toSeries('cereal', recs);
  assert.equal(set.series.length, 2);
  assert.equal(set.skipped, 1);
  const fr = set.series.find((s) => s.fields.memberStateCode === 'FR');
  assert.ok(fr);
  assert.deepEqual(
    fr.points.map((p) => p.value),
    [200, 201.5, 203, 204.5],
  );
  assert.deepEqual(
    fr.points.map((p) => p.start),
    [0, 1, 2, 3].map((w) => t0 + w * 7 * DAY),
  );
  assert.equal(fr.currency, 'EUR');
  assert.match(fr.label, /FR · Maize/);
});

test('summaries equal brute force on a random walk', () => {
  let x = 7;
  const pts: SeriesPoint[] = [];
  let v = 100;
  for (let i = 0; i < 500; i++) {
    x = (x * 48271) % 2147483647;
    v = Math.max(1, v + ((x % 1000) - 500) / 100);
    pts.push({ start: i * 7 * DAY, end: i * 7 * DAY + 6 * DAY, value: Math.round(v * 100) / 100 });
  }
  const s = summarize(pts);
  assert.ok(s);
  const sorted = [...pts].map((p) => p.value).sort((a, b) => a - b);
  assert.equal(s.min.value, sorted[0]);
  assert.equal(s.max.value, sorted[sorted.length - 1]);
  assert.equal(s.latest, pts[pts.length - 1]);
  const first = pts[0] as SeriesPoint;
  const last = pts[pts.length - 1] as SeriesPoint;
  assert.ok(Math.abs((s.changePct as number) - (last.value / first.value - 1) * 100) < 1e-9);
  assert.equal(summarize([]), undefined);
});

test('the price on a date is the latest report that began on or before it; change between two dates', () => {
  const pts: SeriesPoint[] = [0, 1, 2, 3, 4].map((m) => ({
    start: Date.UTC(2023, m, 1),
    end: Date.UTC(2023, m + 1, 1) - DAY,
    value: 100 + m * 10,
  }));
  const scan = (d: number) => pts.filter((p) => p.start <= d).pop();
  for (let d = Date.UTC(2022, 11, 1); d < Date.UTC(2023, 7, 1); d += DAY)
    assert.equal(valueAt(pts, d), scan(d));
  const c = priceChange(pts, Date.UTC(2023, 0, 15), Date.UTC(2023, 3, 2));
  assert.ok('changePct' in c);
  assert.equal(c.from.value, 100);
  assert.equal(c.to.value, 130);
  assert.ok(Math.abs((c.changePct as number) - 30) < 1e-9);
  const early = priceChange(pts, Date.UTC(2022, 5, 1), Date.UTC(2023, 3, 2));
  assert.ok('problem' in early && /starts on 01\/01\/2023/.test(early.problem));
});

test('sugar series read yyyy-mm (as observed) and yyyy/mm (as documented) as the same month', () => {
  const base: SugarPrice = {
    sugarRegion: 'Region EU Average',
    price: '308.56',
    unit: 'Tonne',
    ym: '2020-10',
    marketingYear: '2020/2021',
    marketingYearMonth: 'October',
    weight: 1,
    contractType: 'Monthly data',
  };
  const set = toSeries('sugar', [base, { ...base, ym: '2020/11', price: '€310.00' }]);
  const pts = set.series[0]?.points ?? [];
  assert.deepEqual(
    pts.map((p) => [p.start, p.value]),
    [
      [Date.UTC(2020, 9, 1), 308.56],
      [Date.UTC(2020, 10, 1), 310],
    ],
  );
});

test('min-max downsampling keeps every extreme of each bucket and stays within budget', () => {
  const n = 200_000;
  const xs = Array.from({ length: n }, (_, i) => i);
  const ys = xs.map((i) => Math.sin(i / 500) * 100 + (i % 7919 === 0 ? 1000 : 0));
  const keep = minMaxIndices(xs, ys, 2000);
  assert.ok(keep.length <= 2000);
  const kept = new Set(keep);
  for (let i = 0; i < n; i += 7919) assert.ok(kept.has(i), `spike at ${i} kept`);
  assert.ok(
    keep.every((v, i) => i === 0 || v > (keep[i - 1] as number)),
    'in order',
  );
});
