// Lazily generates the records of a sector that match a query: series (combos) are filtered first,
// then their periods, and records are yielded one by one so a 150,000-record answer never sits in
// memory. Values come from a seeded hash of (series, date): deterministic, smooth, seasonal.
// The sandbox never imports client or server code.

import type { SectorId } from '../../core/agrifood';
import { DAY, MEMBER_STATES, parseDmy, WEEK_RULES, type WeekRule, weekOf } from '../../core/agrifood';
import { type Combo, type GenPeriod, MODELS, type Model, type PriceStyle } from './catalogue';

const ISO: WeekRule = { startMonth: 0, meaning: 'ISO 8601', documented: true };
const ISO3 = new Map(MEMBER_STATES.map((m) => [m.code, m.iso3]));

/** FNV-1a: a stable 32-bit hash of a string. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32 step: a uniform number in [0, 1) from a seed. */
function unit(seed: number): number {
  let t = (seed + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const comboCache = new Map<SectorId, Combo[]>();

/** Every series of a sector (Member State x dimensions, some dropped, plus the EU aggregate). */
export function combos(sector: SectorId): Combo[] {
  const cached = comboCache.get(sector);
  if (cached) return cached;
  const m = MODELS[sector];
  let crossed: Record<string, string>[] = [{}];
  for (const dim of m.dims) crossed = crossed.flatMap((c) => dim.map((v) => ({ ...c, ...v })));
  const out: Combo[] = [];
  const make = (ms: string | undefined, c: Record<string, string>): Combo => {
    const seed = `${sector}|${ms ?? ''}|${Object.values(c).join('|')}`;
    const [lo, hi] = m.base;
    const base = lo + (hi - lo) * unit(hash32(seed));
    const combo = { ...c, _seed: seed, _base: String(base) } as Combo;
    if (ms !== undefined) {
      combo.ms = ms;
      combo.iso3 = ISO3.get(ms) ?? 'EUR';
    }
    return combo;
  };
  if (!m.ms) for (const c of crossed) out.push(make(undefined, c));
  else {
    for (const ms of m.ms) {
      for (const c of crossed) {
        const seed = `${sector}|keep|${ms}|${Object.values(c).join('|')}`;
        if (unit(hash32(seed)) < (m.keep ?? 1)) out.push(make(ms, c));
      }
    }
    if (m.eu) for (const c of crossed) out.push(make('EU', c));
  }
  comboCache.set(sector, out);
  return out;
}

/** Periods of a sector from its first one up to the last complete one before `now`. */
export function* periods(m: Model, now: number): Generator<GenPeriod> {
  const rule = WEEK_RULES[m.sector] ?? ISO;
  const my = (y: number, month: number) => (month - 1 >= m.myStartMonth ? y : y - 1);
  if (m.cadence === 'week') {
    for (let start = m.from; start + 7 * DAY <= now; start += 7 * DAY) {
      const d = new Date(start);
      const w = weekOf(rule, start);
      yield {
        start,
        end: start + 6 * DAY,
        year: d.getUTCFullYear(),
        month: d.getUTCMonth() + 1,
        week: w.week,
        myStart: w.startYear,
      };
    }
  } else if (m.cadence === 'month') {
    const f = new Date(m.from);
    for (let i = 0; ; i++) {
      const start = Date.UTC(f.getUTCFullYear(), f.getUTCMonth() + i, 1);
      const end = Date.UTC(f.getUTCFullYear(), f.getUTCMonth() + i + 1, 1) - DAY;
      if (end + DAY > now) return;
      const d = new Date(start);
      const month = d.getUTCMonth() + 1;
      yield { start, end, year: d.getUTCFullYear(), month, week: 0, myStart: my(d.getUTCFullYear(), month) };
    }
  } else {
    const last = m.untilYear ?? new Date(now).getUTCFullYear() - 1;
    for (let y = new Date(m.from).getUTCFullYear(); y <= last; y++) {
      yield { start: Date.UTC(y, 0, 1), end: Date.UTC(y, 11, 31), year: y, month: 1, week: 0, myStart: y };
    }
  }
}

/** The value of a series on a date: base price, two seasonal waves, a slow trend and a little noise. */
export function seriesValue(c: Combo, start: number): number {
  const seed = hash32(c._seed);
  const w = Math.floor(start / (7 * DAY));
  const phi1 = unit(seed ^ 0x1234) * 2 * Math.PI;
  const phi2 = unit(seed ^ 0x5678) * 2 * Math.PI;
  const noise = unit(seed ^ Math.imul(w, 0x9e3779b1)) - 0.5;
  const trend = 1 + 0.012 * ((w - 2400) / 52);
  const v =
    Number(c._base) *
    trend *
    (1 +
      0.12 * Math.sin((2 * Math.PI * w) / 52 + phi1) +
      0.07 * Math.sin((2 * Math.PI * w) / 230 + phi2) +
      0.03 * noise);
  return Math.round(Math.max(0.01, v) * 100) / 100;
}

const DOT = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const COMMA = new Intl.NumberFormat('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "€1,230.00" (dot), "€1.230,00" (comma, as cereals), "308.56" (plain, as the spec's sugar). */
export function priceText(v: number, style: PriceStyle): string {
  if (style === 'plain') return v.toFixed(2);
  return `€${(style === 'comma' ? COMMA : DOT).format(v)}`;
}

/** A query as the service reads it: parameter -> its comma-separated values. */
export type RawQuery = Map<string, string[]>;

export class BadParameter extends Error {}

const INT_PARAMS = new Set(['years', 'months', 'weeks']);

function ints(q: RawQuery, name: string): Set<number> | undefined {
  const v = q.get(name);
  if (!v) return undefined;
  return new Set(
    v.map((x) => {
      if (!/^-?\d+$/.test(x))
        throw new BadParameter(`Failed to convert value '${x}' of parameter '${name}' to a number`);
      return Number(x);
    }),
  );
}

function dmy(q: RawQuery, name: string): number | undefined {
  const v = q.get(name)?.[0];
  if (v === undefined) return undefined;
  // Strictly: Date.UTC would roll 31/02/2024 over to 2 March instead of refusing it.
  const t = /^\d{2}\/\d{2}\/\d{4}$/.test(v) ? parseDmy(v) : undefined;
  if (t === undefined)
    throw new BadParameter(`Failed to parse date '${v}' of parameter '${name}' (expected dd/MM/yyyy)`);
  return t;
}

/** The records of `sector` matching `q`, lazily. Throws BadParameter for values the service cannot read. */
export function matching(sector: SectorId, q: RawQuery, now: number): Generator<Record<string, unknown>> {
  const m = MODELS[sector];
  // Dimension filters first: they drop whole series.
  const dimFilters: [string, Set<string>][] = [];
  for (const [param, field] of Object.entries(m.match)) {
    const v = q.get(param);
    if (v) dimFilters.push([field, new Set(v.map((x) => x.toLowerCase()))]);
  }
  if (sector === 'poultry') {
    const types = q.get('priceTypes');
    const chosen = !types
      ? ['selling price']
      : types.some((t) => t.toLowerCase() === 'all')
        ? undefined
        : null;
    // Omitted: only selling prices (the spec's default). "All": no filter on price type.
    const idx = dimFilters.findIndex(([f]) => f === 'priceType');
    if (chosen === undefined && idx >= 0) dimFilters.splice(idx, 1);
    else if (chosen) dimFilters.push(['priceType', new Set(chosen)]);
  }
  const series = combos(sector).filter((c) =>
    dimFilters.every(([f, set]) => set.has(String(c[f]).toLowerCase())),
  );

  for (const name of INT_PARAMS) ints(q, name);
  const years = ints(q, 'years');
  const months = ints(q, 'months');
  const weeks = ints(q, 'weeks');
  const myValues = q.get('marketingYears');
  const mys = myValues && new Set(myValues.map((v) => Number(/^\d{4}/.exec(v)?.[0] ?? Number.NaN)));
  const begin = dmy(q, 'beginDate');
  const end = dmy(q, 'endDate');
  const ref = q.get('referencePeriod')?.[0];
  if (ref !== undefined) dmy(q, 'referencePeriod');
  const yms = q.get('yms') && new Set(q.get('yms')?.map((v) => v.replace('-', '/')));
  const quarters =
    q.get('quarters') && new Set(q.get('quarters')?.map((v) => v.toUpperCase().replace(/^(\d)$/, 'Q$1')));

  const keep = (p: GenPeriod) =>
    (!years || years.has(p.year)) &&
    (!months || months.has(p.month)) &&
    (!weeks || weeks.has(p.week)) &&
    (!mys || mys.has(p.myStart)) &&
    (begin === undefined || p.start >= begin) &&
    (end === undefined || p.start <= end) &&
    (!yms || yms.has(`${p.year}/${String(p.month).padStart(2, '0')}`)) &&
    (!quarters || quarters.has(`Q${Math.ceil(p.month / 3)}`)) &&
    (ref === undefined || refOf(p) === ref);
  const chosen = [...periods(m, now)].filter(keep);
  return (function* () {
    for (const c of series) {
      for (const p of chosen) {
        const v = seriesValue(c, p.start);
        yield m.record(c, p, v, priceText(v, m.style));
      }
    }
  })();
}

function refOf(p: GenPeriod): string {
  const d = new Date(p.end + 4 * DAY);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

/** Distinct values of a combo field, in first-seen order. */
export function distinct(sector: SectorId, field: string): string[] {
  return [
    ...new Set(
      combos(sector)
        .map((c) => c[field])
        .filter((v): v is string => typeof v === 'string'),
    ),
  ];
}
