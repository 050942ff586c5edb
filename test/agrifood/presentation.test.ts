// How market data is shown in the tree, the hover and the explorer: sectors A→Z, the EU series drawn
// first when a product was picked, the currency once, and one computation of a change with its periods
// (checked against a hand computation on a series built here).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENDPOINTS } from '../../core/agrifood/endpoints';
import {
  formatPrice,
  initialSeries,
  periodChange,
  sectorsAtoZ,
  twelveMonthChange,
} from '../../core/agrifood/presentation';
import { DAY } from '../../core/agrifood/weeks';

test('sectors are listed A→Z by their label', () => {
  const labels = sectorsAtoZ().map((id) => ENDPOINTS[id].label);
  assert.ok(labels.length > 10);
  for (let i = 1; i < labels.length; i++)
    assert.ok(
      (labels[i - 1] as string).localeCompare(labels[i] as string, 'en') <= 0,
      `${labels[i - 1]} before ${labels[i]}`,
    );
});

test('a freshly loaded chart draws the EU series when there is one, else the first few', () => {
  const ms = ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EU', 'FR'];
  const series = ms.map((code) => ({ fields: { memberStateCode: code, pigClass: 'E' } }));
  assert.deepEqual(initialSeries(series), [7]);
  const noEu = ms.filter((c) => c !== 'EU').map((code) => ({ fields: { memberStateCode: code } }));
  assert.deepEqual(initialSeries(noEu), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(initialSeries([{ fields: { product: 'Tomatoes' } }]), [0]);
});

test('a price names its currency once', () => {
  assert.equal(formatPrice(234.28, 'EUR', '€/100kg'), '234.28 €/100kg');
  assert.equal(formatPrice(234.28, 'EUR', 'EUR/t'), '234.28 EUR/t');
  assert.equal(formatPrice(1230, 'EUR', 't'), '€1,230.00 t');
  assert.equal(formatPrice(12, undefined, 'index'), '12.00 index');
  assert.equal(formatPrice(12, 'EUR', ''), '€12.00');
});

test('the 12-month change compares the latest price with the one that applied a year before it', () => {
  const start = Date.UTC(2024, 0, 1);
  // Weekly prices rising by 1 a week from 100.
  const points = Array.from({ length: 70 }, (_, i) => ({
    start: start + i * 7 * DAY,
    end: start + i * 7 * DAY + 6 * DAY,
    value: 100 + i,
  }));
  const latest = points[69] as (typeof points)[number];
  // A year (365 days) before the latest start falls in week 69 - 52.14…: the week that began before it.
  const yearBefore = points.filter((p) => p.start <= latest.start - 365 * DAY).pop();
  assert.ok(yearBefore);
  const c = twelveMonthChange(points);
  assert.ok(c);
  assert.equal(c.change.from, yearBefore);
  assert.equal(c.change.to, latest);
  const expected = ((latest.value - yearBefore.value) / yearBefore.value) * 100;
  assert.ok(Math.abs((c.change.changePct as number) - expected) < 1e-9);
  assert.match(c.periods, /^\d{2}\/\d{2}\/\d{4} → \d{2}\/\d{2}\/\d{4}$/);
  const p = periodChange(points);
  assert.ok(p);
  assert.ok(Math.abs((p.change.changePct as number) - 69) < 1e-9, 'first 100 → latest 169');
  // Shorter than a year: no 12-month change rather than a made-up one.
  assert.equal(twelveMonthChange(points.slice(0, 20)), undefined);
});
