// Week numbers per sector (spec section 4) against week numbers computed another way: ISO 8601 by
// the textbook Thursday rule, rice by walking to September's first Thursday, oilseeds by the observed
// record in ../shared/agrifood-samples.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { formatDmy, parseDmy, WEEK_RULES, weekLabel, weekOf } from '../../core/agrifood/weeks';
import { AGRIFOOD_SAMPLES_DIR, skipUnless } from '../support/shared-data';

const DAY = 86_400_000;

/** ISO week by the textbook rule: the Thursday of the date's week decides the year; count weeks from its Jan 1. */
function isoWeek(ms: number): { week: number; year: number } {
  const dow = (new Date(ms).getUTCDay() + 6) % 7;
  const thursday = ms - dow * DAY + 3 * DAY;
  const year = new Date(thursday).getUTCFullYear();
  return { week: Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * DAY)) + 1, year };
}

test('calendar-year sectors count ISO 8601 weeks (week 1 = first week of January)', () => {
  for (const sector of ['pigmeat', 'beef', 'poultry', 'sheepAndGoat', 'taxud'] as const) {
    const rule = WEEK_RULES[sector];
    assert.ok(rule, sector);
    for (let t = Date.UTC(2015, 11, 20); t < Date.UTC(2027, 0, 20); t += 3 * DAY) {
      const mine = weekOf(rule, t);
      const iso = isoWeek(t);
      assert.deepEqual([mine.week, mine.startYear], [iso.week, iso.year], `${sector} ${formatDmy(t)}`);
    }
  }
});

test('rice: week 1 is the week holding the first Thursday of September', () => {
  const rule = WEEK_RULES.rice;
  assert.ok(rule);
  for (let y = 2016; y <= 2027; y++) {
    let t = Date.UTC(y, 8, 1);
    while (new Date(t).getUTCDay() !== 4) t += DAY;
    const monday = t - 3 * DAY;
    assert.deepEqual(weekOf(rule, monday), { week: 1, startYear: y }, `Monday before first Thursday ${y}`);
    assert.deepEqual(weekOf(rule, monday + 6 * DAY), { week: 1, startYear: y });
    assert.equal(
      weekOf(rule, monday - DAY).startYear,
      y - 1,
      'the Sunday before belongs to the previous year',
    );
    assert.equal(weekOf(rule, monday + 7 * 10 * DAY).week, 11);
  }
});

test('wine (August) and cereal (July) weeks restart in their marketing year', () => {
  for (const [sector, month] of [
    ['wine', 7],
    ['cereal', 6],
  ] as const) {
    const rule = WEEK_RULES[sector];
    assert.ok(rule);
    assert.equal(rule.startMonth, month);
    // The 15th of the start month is always in week 2 or 3 and in the marketing year starting that year.
    for (let y = 2016; y <= 2027; y++) {
      const w = weekOf(rule, Date.UTC(y, month, 15));
      assert.equal(w.startYear, y);
      assert.ok(w.week === 2 || w.week === 3, `${sector} ${y}: ${w.week}`);
    }
  }
  assert.match(weekLabel('wine', 5), /first week of August/);
  assert.match(weekLabel('cereal', 5), /first week of July/);
});

test('oilseeds: the observed record (27/07/2026 = week 5 of 2026/2027) agrees', {
  skip: skipUnless(AGRIFOOD_SAMPLES_DIR),
}, () => {
  const s = JSON.parse(readFileSync(join(AGRIFOOD_SAMPLES_DIR, 'records.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const r = (
    s['oilseeds/prices (observed 2026)'] as { beginDate: string; weekNumber: number; marketingYear: string }[]
  )[0];
  assert.ok(r);
  const rule = WEEK_RULES.oilseeds;
  assert.ok(rule);
  const w = weekOf(rule, parseDmy(r.beginDate) as number);
  assert.equal(w.week, r.weekNumber);
  assert.equal(`${w.startYear}/${w.startYear + 1}`, r.marketingYear);
});

test('dd/mm/yyyy: real dates only', () => {
  assert.equal(parseDmy('29/02/2024'), Date.UTC(2024, 1, 29));
  for (const bad of ['29/02/2023', '31/04/2024', '2024-01-01', '1/1/2024', '00/01/2024', '01/13/2024', '']) {
    assert.equal(parseDmy(bad), undefined, bad);
  }
  // What a hostile answer puts where a date should be.
  for (const bad of [null, undefined, 20240101, { d: 1 }, ['01/01/2024']])
    assert.equal(parseDmy(bad), undefined);
  for (let t = Date.UTC(1999, 0, 1); t < Date.UTC(2031, 0, 1); t += 5 * DAY)
    assert.equal(parseDmy(formatDmy(t)), t);
});
