// Dates as the service writes them (dd/mm/yyyy) and what a week number means in each sector: the
// spec gives every sector its own week 1. Periods on charts come from beginDate/endDate, never from
// week numbers; week numbers are only labelled with their sector's meaning. Pure functions, UTC only.

import type { SectorId } from './records';

const DAY = 86_400_000;
const WEEK = 7 * DAY;

/** Milliseconds (UTC midnight) of a dd/mm/yyyy date, or undefined when it is not a real calendar date. */
export function parseDmy(text: unknown): number | undefined {
  // A record's date is whatever the service sent: null, a number, an object.
  if (typeof text !== 'string') return undefined;
  // Hot path: 200,000 records a chart, so no regex and no Date object per call.
  const t = text.length === 10 ? text : text.trim();
  if (t.length !== 10 || t.charCodeAt(2) !== 47 || t.charCodeAt(5) !== 47) return undefined;
  let d = 0;
  let mo = 0;
  let y = 0;
  for (let i = 0; i < 10; i++) {
    if (i === 2 || i === 5) continue;
    const c = t.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return undefined;
    if (i < 2) d = d * 10 + c;
    else if (i < 5) mo = mo * 10 + c;
    else y = y * 10 + c;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return undefined;
  return Date.UTC(y, mo - 1, d);
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export function formatDmy(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

/** Monday (UTC) of the week holding `ms`; weeks run Monday to Sunday. */
export function mondayOf(ms: number): number {
  const day = Math.floor(ms / DAY) * DAY;
  const dow = (new Date(day).getUTCDay() + 6) % 7;
  return day - dow * DAY;
}

/**
 * How a sector counts weeks. Week 1 of a (marketing) year is the Monday-to-Sunday week holding the
 * first Thursday of `startMonth`: for January that is ISO 8601, for rice the spec says so in as many
 * words, and the observed oilseeds record (27/07/2026 = week 5, marketing year from July) agrees.
 */
export interface WeekRule {
  /** 0 = January. */
  startMonth: number;
  /** The spec's own words. */
  meaning: string;
  /** False when the spec is silent and the rule is an assumption. */
  documented: boolean;
}

const JAN: WeekRule = { startMonth: 0, meaning: 'week 1 is the first week of January', documented: true };

export const WEEK_RULES: Partial<Record<SectorId, WeekRule>> = {
  wine: {
    startMonth: 7,
    meaning: 'marketing-year week; week 1 is the first week of August',
    documented: true,
  },
  taxud: JAN,
  sheepAndGoat: JAN,
  rice: {
    startMonth: 8,
    meaning: 'week 1 is the week holding the first Thursday of September',
    documented: true,
  },
  poultry: JAN,
  pigmeat: JAN,
  beef: JAN,
  cereal: { startMonth: 6, meaning: 'week 1 is the first week of July', documented: true },
  oilseeds: {
    startMonth: 6,
    meaning: 'marketing-year week; week 1 is the first week of July (as observed; the spec does not say)',
    documented: false,
  },
  oliveOil: {
    startMonth: 0,
    meaning: 'week numbering of olive oil is not documented by the service',
    documented: false,
  },
};

/** Monday of week 1 of the (marketing) year that starts in `year` under `rule`. */
export function weekOneMonday(rule: WeekRule, year: number): number {
  const first = Date.UTC(year, rule.startMonth, 1);
  const dow = (new Date(first).getUTCDay() + 6) % 7; // Monday = 0, Thursday = 3
  const firstThursday = first + ((3 - dow + 7) % 7) * DAY;
  return firstThursday - 3 * DAY;
}

/** The week number of `ms` and the year its (marketing) year starts in, under `rule`. */
export function weekOf(rule: WeekRule, ms: number): { week: number; startYear: number } {
  const monday = mondayOf(ms);
  let y = new Date(ms).getUTCFullYear() + 1;
  while (weekOneMonday(rule, y) > monday) y--;
  return { week: Math.floor((monday - weekOneMonday(rule, y)) / WEEK) + 1, startYear: y };
}

/** "week 5 (marketing-year week; week 1 is the first week of August)" */
export function weekLabel(sector: SectorId, week: number): string {
  const rule = WEEK_RULES[sector];
  return rule ? `week ${week} (${rule.meaning})` : `week ${week}`;
}

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** 1..12 from "Jan", "January", "jan." ; undefined otherwise. */
export function monthNumber(name: string): number | undefined {
  const n = name.trim().toLowerCase().replace(/\.$/, '');
  if (n.length < 3) return undefined;
  const i = MONTHS.findIndex((m) => m.toLowerCase().startsWith(n));
  return i >= 0 ? i + 1 : undefined;
}

export { DAY, WEEK };
