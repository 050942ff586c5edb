// XPath 2.0 values and their semantics, as the SDK rules rely on them: untypedAtomic (node content)
// promoted by the other operand in general comparisons, existential comparisons over sequences,
// xs:date/xs:time with time zones, day-time and year-month durations and their arithmetic, number
// formatting (XPath's and XSLT 2.0's format-number pictures), rounding, distinct-values equality, date and
// duration components, and XSD regular expressions translated to JavaScript ones (with the `u` flag).
// Dynamic errors are thrown as XPathDynamicError with the W3C error code. No I/O.

import { INPUT_LIMITS } from '../notice';
import { clip } from '../text';
import { XNode } from './document';

/** Node content, before a comparison gives it a type. */
export class Untyped {
  constructor(readonly s: string) {}
}

export class XDate {
  constructor(
    readonly kind: 'date' | 'time' | 'dateTime',
    /** The starting instant in ms (time zone applied; implicit time zone = UTC). */
    readonly ms: number,
    /** Time zone offset in minutes, undefined when the value had none. */
    readonly tz: number | undefined,
  ) {}
}

export class XDuration {
  constructor(
    readonly kind: 'dayTime' | 'yearMonth',
    readonly months: number,
    readonly ms: number,
  ) {}
}

export type Atomic = string | number | boolean | Untyped | XDate | XDuration;
export type Item = XNode | Atomic;
export type Seq = Item[];

export class XPathDynamicError extends Error {
  override name = 'XPathDynamicError';
  constructor(
    readonly code: string,
    message: string,
    /** FORG0001 of a cast: the value (cut as `quoted` cuts it) and the XSD type it is not. */
    readonly invalid?: { value: string; type: string },
  ) {
    super(`${code}: ${message}`);
  }
}

/** FORG0001: a value that cannot be read as `type` (an XSD type name, `xs:date`). */
export function notValid(s: string, type: string): XPathDynamicError {
  const value = clip(s, INPUT_LIMITS.echoChars.max);
  return new XPathDynamicError('FORG0001', `'${value}' is not a valid ${type}`, { value, type });
}

/**
 * A value quoted in an error's message, cut to INPUT_LIMITS.echoChars with `…`: a cast error repeats the
 * value it could not read, and a notice's value may be megabytes long (the message reaches the report's
 * "not evaluated" list and the editor's log).
 */
export function quoted(s: string): string {
  return `'${clip(s, INPUT_LIMITS.echoChars.max)}'`;
}

export function atomize(item: Item): Atomic {
  if (!(item instanceof XNode)) return item;
  const v = item.val;
  // The node's one value slot holds its string until first atomized, then the untypedAtomic of it.
  if (v instanceof Untyped) return v;
  const u = new Untyped(typeof v === 'string' ? v : item.string);
  item.val = u;
  return u;
}

export function typeName(a: Atomic): string {
  if (typeof a === 'string') return 'xs:string';
  if (typeof a === 'number') return 'xs:double';
  if (typeof a === 'boolean') return 'xs:boolean';
  if (a instanceof Untyped) return 'xs:untypedAtomic';
  if (a instanceof XDate) return `xs:${a.kind}`;
  return a.kind === 'dayTime' ? 'xs:dayTimeDuration' : 'xs:yearMonthDuration';
}

// ---- strings and numbers ----

export function stringOf(item: Item): string {
  if (item instanceof XNode) return item.string;
  if (typeof item === 'string') return item;
  if (item instanceof Untyped) return item.s;
  if (typeof item === 'number') return numberToString(item);
  if (typeof item === 'boolean') return item ? 'true' : 'false';
  if (item instanceof XDate) return dateToString(item);
  return durationToString(item);
}

export function numberToString(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Number.POSITIVE_INFINITY) return 'INF';
  if (n === Number.NEGATIVE_INFINITY) return '-INF';
  if (Object.is(n, -0)) return '-0';
  const js = String(n);
  // Where JavaScript switches to an exponent (below 1e-6, from 1e21), XPath 2.0 F&O 17.1.2 writes the
  // canonical xs:double: a mantissa with one digit before the point and at least one after, `E`, and
  // the exponent without `+` (`1.0E21`, `1.5E-7`). Between, numbers are written as decimals, as
  // integers and decimals are (the engine does not tell a double from a decimal there).
  const e = js.indexOf('e');
  if (e < 0) return js;
  const mantissa = js.slice(0, e);
  const exponent = js.slice(e + 1).replace(/^\+/, '');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${exponent}`;
}

const NUMBER_RE = /^\s*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*$/;

/** xs:double cast of a string; NaN when not a number (as fn:number does). */
export function toDouble(s: string): number {
  if (NUMBER_RE.test(s)) return Number(s);
  const t = s.trim();
  if (t === 'INF' || t === '+INF') return Number.POSITIVE_INFINITY;
  if (t === '-INF') return Number.NEGATIVE_INFINITY;
  return Number.NaN;
}

/** untypedAtomic cast to xs:double, as a general comparison with a number does (FORG0001 if it is not one). */
export function castDouble(s: string): number {
  const n = toDouble(s);
  if (Number.isNaN(n) && s.trim() !== 'NaN') {
    throw notValid(s, 'xs:double');
  }
  return n;
}

/** fn:normalize-space in one pass: XML white space runs become one space, none at either end. */
export function normalizeSpace(s: string): string {
  const n = s.length;
  let i = 0;
  // Most values are already normal: hand them back without building a new string.
  let clean = true;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (i === 0 || i === n - 1 || s.charCodeAt(i + 1) === 32 || isXmlSpaceCode(s.charCodeAt(i + 1))) {
        clean = false;
        break;
      }
    } else if (c === 9 || c === 10 || c === 13) {
      clean = false;
      break;
    }
  }
  if (clean) return s;
  let out = '';
  i = 0;
  while (i < n) {
    while (i < n && isSpaceCode(s.charCodeAt(i))) i++;
    if (i === n) break;
    const start = i;
    while (i < n && !isSpaceCode(s.charCodeAt(i))) i++;
    out += out === '' ? s.slice(start, i) : ` ${s.slice(start, i)}`;
  }
  return out;
}

function isXmlSpaceCode(c: number): boolean {
  return c === 9 || c === 10 || c === 13;
}

function isSpaceCode(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

// ---- dates and durations ----

const DATE_RE = /^\s*(-?[0-9]{4,})-([0-9]{2})-([0-9]{2})(Z|[+-][0-9]{2}:[0-9]{2})?\s*$/;
const TIME_RE = /^\s*([0-9]{2}):([0-9]{2}):([0-9]{2}(?:\.[0-9]+)?)(Z|[+-][0-9]{2}:[0-9]{2})?\s*$/;
const MS_PER_DAY = 86_400_000;

function parseTz(tz: string | undefined): number | undefined {
  if (tz === undefined) return undefined;
  if (tz === 'Z') return 0;
  const sign = tz[0] === '-' ? -1 : 1;
  const h = Number(tz.slice(1, 3));
  const m = Number(tz.slice(4, 6));
  if (h > 14 || m > 59 || (h === 14 && m > 0)) return Number.NaN;
  return sign * (h * 60 + m);
}

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

export function parseDate(s: string): XDate {
  const m = DATE_RE.exec(s);
  const fail = (): never => {
    throw notValid(s, 'xs:date');
  };
  if (!m) return fail();
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const tz = parseTz(m[4]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || Number.isNaN(tz) || y === 0) return fail();
  const local = Date.UTC(y, mo - 1, d);
  const utc = new Date(local);
  utc.setUTCFullYear(y); // Date.UTC maps years 0-99 to 1900-1999
  return new XDate('date', utc.getTime() - (tz ?? 0) * 60_000, tz);
}

export function parseTime(s: string): XDate {
  const m = TIME_RE.exec(s);
  const fail = (): never => {
    throw notValid(s, 'xs:time');
  };
  if (!m) return fail();
  const h = Number(m[1]);
  const mi = Number(m[2]);
  const sec = Number(m[3]);
  const tz = parseTz(m[4]);
  const isMidnight24 = h === 24 && mi === 0 && sec === 0;
  if ((h > 23 && !isMidnight24) || mi > 59 || sec >= 60 || Number.isNaN(tz)) return fail();
  // Times compare on a reference date (1972-12-31), as XPath F&O §10.4 says.
  const ref = Date.UTC(1972, 11, 31);
  const ms = ref + (isMidnight24 ? 0 : ((h * 60 + mi) * 60 + sec) * 1000) - (tz ?? 0) * 60_000;
  return new XDate('time', ms, tz);
}

const DATETIME_RE =
  /^\s*(-?[0-9]{4,})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2}(?:\.[0-9]+)?)(Z|[+-][0-9]{2}:[0-9]{2})?\s*$/;

/** xs:dateTime (XSD 1.0 §3.2.7): `24:00:00` is the first instant of the next day. */
export function parseDateTime(s: string): XDate {
  const m = DATETIME_RE.exec(s);
  const fail = (): never => {
    throw notValid(s, 'xs:dateTime');
  };
  if (!m) return fail();
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const h = Number(m[4]);
  const mi = Number(m[5]);
  const sec = Number(m[6]);
  const tz = parseTz(m[7]);
  const midnight24 = h === 24 && mi === 0 && sec === 0;
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || Number.isNaN(tz) || y === 0) return fail();
  if ((h > 23 && !midnight24) || mi > 59 || sec >= 60) return fail();
  const day = new Date(Date.UTC(2000, mo - 1, d));
  day.setUTCFullYear(y);
  const local = day.getTime() + (midnight24 ? 86_400_000 : ((h * 60 + mi) * 60 + sec) * 1000);
  return new XDate('dateTime', Math.round(local) - (tz ?? 0) * 60_000, tz);
}

function pad(n: number, w = 2): string {
  return String(Math.trunc(Math.abs(n))).padStart(w, '0');
}

function tzToString(tz: number | undefined): string {
  if (tz === undefined) return '';
  if (tz === 0) return 'Z';
  return `${tz < 0 ? '-' : '+'}${pad(Math.abs(tz) / 60)}:${pad(Math.abs(tz) % 60)}`;
}

export function dateToString(d: XDate): string {
  const local = new Date(d.ms + (d.tz ?? 0) * 60_000);
  const y = local.getUTCFullYear();
  const date = `${y < 0 ? '-' : ''}${pad(y, 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  if (d.kind === 'date') return `${date}${tzToString(d.tz)}`;
  const msPart = local.getUTCMilliseconds();
  const secs = `${pad(local.getUTCSeconds())}${msPart ? `.${String(msPart).padStart(3, '0').replace(/0+$/, '')}` : ''}`;
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${secs}`;
  return `${d.kind === 'dateTime' ? `${date}T` : ''}${time}${tzToString(d.tz)}`;
}

const DUR_RE =
  /^\s*(-)?P(?:([0-9]+)Y)?(?:([0-9]+)M)?(?:([0-9]+)D)?(?:T(?:([0-9]+)H)?(?:([0-9]+)M)?(?:([0-9]+(?:\.[0-9]+)?)S)?)?\s*$/;

export function parseDuration(s: string, kind: 'dayTime' | 'yearMonth'): XDuration {
  const m = DUR_RE.exec(s);
  const typeName = kind === 'dayTime' ? 'xs:dayTimeDuration' : 'xs:yearMonthDuration';
  const fail = (): never => {
    throw notValid(s, typeName);
  };
  if (!m) return fail();
  const hasDate = m[2] !== undefined || m[3] !== undefined || m[4] !== undefined;
  const hasTime = m[5] !== undefined || m[6] !== undefined || m[7] !== undefined;
  if (!hasDate && !hasTime) return fail();
  if (/T\s*$/.test(s)) return fail();
  const sign = m[1] ? -1 : 1;
  if (kind === 'yearMonth') {
    if (m[4] !== undefined || hasTime) return fail();
    const months = (Number(m[2] ?? 0) * 12 + Number(m[3] ?? 0)) * sign;
    return new XDuration('yearMonth', months || 0, 0);
  }
  if (m[2] !== undefined || m[3] !== undefined) return fail();
  const ms =
    (((Number(m[4] ?? 0) * 24 + Number(m[5] ?? 0)) * 60 + Number(m[6] ?? 0)) * 60 + Number(m[7] ?? 0)) * 1000;
  // Not rounded: a fraction of a millisecond (`PT0.0001S`) is kept, as xs:dayTimeDuration requires.
  return new XDuration('dayTime', 0, ms * sign || 0);
}

export function durationToString(d: XDuration): string {
  if (d.kind === 'yearMonth') {
    const a = Math.abs(d.months);
    const y = Math.floor(a / 12);
    const mo = a % 12;
    return `${d.months < 0 ? '-' : ''}P${y ? `${y}Y` : ''}${mo || !y ? `${mo}M` : ''}`;
  }
  let a = Math.abs(d.ms);
  const days = Math.floor(a / MS_PER_DAY);
  a -= days * MS_PER_DAY;
  const h = Math.floor(a / 3_600_000);
  a -= h * 3_600_000;
  const mi = Math.floor(a / 60_000);
  a -= mi * 60_000;
  // Written with at most nine decimals: what parsing and arithmetic in binary floating point can hold.
  const sec = Number((a / 1000).toFixed(9));
  let t = '';
  if (h) t += `${h}H`;
  if (mi) t += `${mi}M`;
  if (sec) t += `${sec}S`;
  const body = `${days ? `${days}D` : ''}${t ? `T${t}` : ''}`;
  return `${d.ms < 0 ? '-' : ''}P${body || 'T0S'}`;
}

function addMonths(d: XDate, months: number): XDate {
  const local = new Date(d.ms + (d.tz ?? 0) * 60_000);
  const y = local.getUTCFullYear();
  const total = local.getUTCMonth() + months;
  const ny = y + Math.floor(total / 12);
  const nm = ((total % 12) + 12) % 12;
  const day = Math.min(local.getUTCDate(), daysInMonth(ny, nm + 1));
  const shifted = new Date(local.getTime());
  shifted.setUTCFullYear(ny, nm, day);
  return new XDate(d.kind, shifted.getTime() - (d.tz ?? 0) * 60_000, d.tz);
}

function addDayTime(d: XDate, ms: number): XDate {
  if (d.kind === 'time') {
    const ref = Date.UTC(1972, 11, 31);
    const local = d.ms + (d.tz ?? 0) * 60_000 - ref;
    const wrapped = (((local + ms) % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY;
    return new XDate('time', ref + wrapped - (d.tz ?? 0) * 60_000, d.tz);
  }
  if (d.kind === 'dateTime') return new XDate('dateTime', d.ms + ms, d.tz);
  // A date plus a duration is the date of the resulting instant, in the date's own time zone.
  const local = d.ms + (d.tz ?? 0) * 60_000 + ms;
  const day = Math.floor(local / MS_PER_DAY) * MS_PER_DAY;
  return new XDate('date', day - (d.tz ?? 0) * 60_000, d.tz);
}

// ---- arithmetic ----

export function arithmetic(op: '+' | '-' | '*' | 'div' | 'idiv' | 'mod', a: Atomic, b: Atomic): Atomic {
  const x = a instanceof Untyped ? castDouble(a.s) : a;
  const y = b instanceof Untyped ? castDouble(b.s) : b;
  if (typeof x === 'number' && typeof y === 'number') {
    switch (op) {
      case '+':
        return x + y;
      case '-':
        return x - y;
      case '*':
        return x * y;
      case 'div':
        return x / y;
      case 'idiv':
        if (y === 0) throw new XPathDynamicError('FOAR0001', 'integer division by zero');
        return Math.trunc(x / y);
      case 'mod':
        return x % y;
    }
  }
  if (x instanceof XDate && y instanceof XDuration && (op === '+' || op === '-')) {
    const s = op === '+' ? 1 : -1;
    return y.kind === 'yearMonth' ? addMonths(x, s * y.months) : addDayTime(x, s * y.ms);
  }
  if (x instanceof XDuration && y instanceof XDate && op === '+') return arithmetic('+', y, x);
  if (x instanceof XDate && y instanceof XDate && op === '-' && x.kind === y.kind) {
    return new XDuration('dayTime', 0, x.ms - y.ms);
  }
  if (x instanceof XDuration && y instanceof XDuration && x.kind === y.kind && (op === '+' || op === '-')) {
    const s = op === '+' ? 1 : -1;
    return new XDuration(x.kind, x.months + s * y.months, x.ms + s * y.ms);
  }
  if (x instanceof XDuration && typeof y === 'number' && (op === '*' || op === 'div')) {
    const f = op === '*' ? y : 1 / y;
    return new XDuration(x.kind, Math.round(x.months * f), x.kind === 'dayTime' ? x.ms * f : 0);
  }
  if (typeof x === 'number' && y instanceof XDuration && op === '*') return arithmetic('*', y, x);
  throw new XPathDynamicError('XPTY0004', `${typeName(x)} ${op} ${typeName(y)} is not defined`);
}

// ---- comparisons ----

export type CmpOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

function order(c: number, op: CmpOp): boolean {
  switch (op) {
    case '=':
      return c === 0;
    case '!=':
      return c !== 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
  }
}

function compareNumbers(x: number, y: number, op: CmpOp): boolean {
  // NaN compares false with everything, except for `!=`.
  if (Number.isNaN(x) || Number.isNaN(y)) return op === '!=';
  return order(x < y ? -1 : x > y ? 1 : 0, op);
}

/** A value comparison (`eq`, `lt`…) of two atomic values, untypedAtomic already cast. */
export function compareValues(x: Atomic, y: Atomic, op: CmpOp): boolean {
  if (typeof x === 'string' && typeof y === 'string') {
    return order(x < y ? -1 : x > y ? 1 : 0, op);
  }
  if (typeof x === 'number' && typeof y === 'number') return compareNumbers(x, y, op);
  if (typeof x === 'boolean' && typeof y === 'boolean') return order(Number(x) - Number(y), op);
  if (x instanceof XDate && y instanceof XDate && x.kind === y.kind) return order(Math.sign(x.ms - y.ms), op);
  if (x instanceof XDuration && y instanceof XDuration) {
    if (op === '=' || op === '!=') return order(x.months === y.months && x.ms === y.ms ? 0 : 1, op);
    if (x.kind === y.kind) {
      return order(x.kind === 'yearMonth' ? Math.sign(x.months - y.months) : Math.sign(x.ms - y.ms), op);
    }
  }
  throw new XPathDynamicError('XPTY0004', `cannot compare ${typeName(x)} with ${typeName(y)}`);
}

/** Casts untypedAtomic the way a general comparison does, given the other operand. */
function promote(u: Untyped, other: Atomic): Atomic {
  if (typeof other === 'string' || other instanceof Untyped) return u.s;
  if (typeof other === 'number') return castDouble(u.s);
  if (typeof other === 'boolean') {
    const t = u.s.trim();
    if (t === 'true' || t === '1') return true;
    if (t === 'false' || t === '0') return false;
    throw notValid(u.s, 'xs:boolean');
  }
  if (other instanceof XDate)
    return other.kind === 'date'
      ? parseDate(u.s)
      : other.kind === 'time'
        ? parseTime(u.s)
        : parseDateTime(u.s);
  return parseDuration(u.s, other.kind);
}

/** One pair of a general comparison (`=`, `<`…). */
export function compareGeneral(a: Atomic, b: Atomic, op: CmpOp): boolean {
  if (a instanceof Untyped) {
    if (b instanceof Untyped) return compareValues(a.s, b.s, op);
    return compareValues(promote(a, b), b, op);
  }
  if (b instanceof Untyped) return compareValues(a, promote(b, a), op);
  return compareValues(a, b, op);
}

// ---- numeric functions (F&O 2.0 §6.4), over xs:double ----

/** fn:round (F&O §6.4.4): half rounds towards positive infinity; NaN, ±INF, ±0 unchanged. */
export function roundXPath(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const r = Math.floor(x + 0.5);
  // -0.5 rounds to -0 (F&O §6.4.4 example: round(-2.5) is -2, round(-0.4) is -0).
  return r === 0 && x < 0 ? -0 : r;
}

/**
 * fn:round-half-to-even (F&O §6.4.5) at `precision` decimal digits. Works on the shortest decimal form
 * of the double (as Saxon does when it converts a double to decimal for rounding), so that 0.125 and
 * 2.675 round from the digits the user wrote, not from their binary approximation.
 */
export function roundHalfToEven(x: number, precision = 0): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const digits = decimalDigits(Math.abs(x));
  const rounded = roundDigits(digits, precision);
  const v = Number(rounded) * (x < 0 ? -1 : 1);
  return v === 0 && x < 0 ? -0 : v;
}

/** A non-negative finite double as plain decimal digits (no exponent): `1e21` -> `1000000000000000000000`. */
export function decimalDigits(x: number): string {
  const s = String(x);
  const m = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const int = m[1];
  const frac = m[2] ?? '';
  const exp = Number(m[3]);
  const all = int + frac;
  const point = int.length + exp;
  if (point <= 0) return `0.${'0'.repeat(-point)}${all}`.replace(/\.?0+$/, '') || '0';
  if (point >= all.length) return all + '0'.repeat(point - all.length);
  return `${all.slice(0, point)}.${all.slice(point)}`;
}

/** Rounds a plain decimal string (no sign) half-to-even at `precision` fraction digits (may be < 0). */
function roundDigits(s: string, precision: number): string {
  const [ip, fp = ''] = s.split('.');
  const digits = ip + fp;
  const point = ip.length;
  const keep = point + precision;
  if (keep >= digits.length) return s;
  if (keep < 0) return '0';
  const head = digits.slice(0, keep);
  const first = digits.charCodeAt(keep) - 48;
  const restNonZero = /[1-9]/.test(digits.slice(keep + 1));
  const last = keep > 0 ? digits.charCodeAt(keep - 1) - 48 : 0;
  const up = first > 5 || (first === 5 && (restNonZero || last % 2 === 1));
  let body = head;
  if (up) {
    const arr = [...(head || '0')].map(Number);
    let i = arr.length - 1;
    while (i >= 0) {
      if (arr[i] === 9) {
        arr[i] = 0;
        i--;
      } else {
        arr[i]++;
        break;
      }
    }
    body = (i < 0 ? '1' : '') + arr.join('');
    if (!head) return precision < 0 ? `1${'0'.repeat(-precision)}` : body;
  }
  const intLen = body.length - Math.max(precision, 0);
  if (precision <= 0) return (body || '0') + '0'.repeat(-precision);
  const ints = body.slice(0, intLen) || '0';
  return `${ints}.${body.slice(intLen)}`;
}

// ---- format-number (XSLT 2.0 §16.4) with the default decimal format ----

const DF = {
  decimal: '.',
  grouping: ',',
  percent: '%',
  perMille: '\u2030',
  zero: '0',
  digit: '#',
  pattern: ';',
  minus: '-',
  infinity: 'Infinity',
  nan: 'NaN',
};

interface SubPicture {
  prefix: string;
  suffix: string;
  minInt: number;
  minFrac: number;
  maxFrac: number;
  /** Grouping positions in the integer part, counted from the decimal separator. */
  intGroups: number[];
  /** Grouping positions in the fraction, counted from the decimal separator. */
  fracGroups: number[];
  percent: boolean;
  perMille: boolean;
}

function pictureError(picture: string, why: string): never {
  throw new XPathDynamicError('XTDE1310', `invalid picture string '${picture}' for format-number(): ${why}`);
}

const isDigitSign = (c: string): boolean => c === DF.digit || (c >= '0' && c <= '9');
const isActive = (c: string): boolean => isDigitSign(c) || c === DF.decimal || c === DF.grouping;

function parseSubPicture(sub: string, picture: string): SubPicture {
  const chars = [...sub];
  let first = -1;
  let last = -1;
  chars.forEach((c, i) => {
    if (isActive(c)) {
      if (first < 0) first = i;
      last = i;
    }
  });
  const digitCount = chars.filter(isDigitSign).length;
  if (digitCount === 0) pictureError(picture, 'a sub-picture must contain at least one digit sign');
  const prefix = chars.slice(0, first).join('');
  const suffix = chars.slice(last + 1).join('');
  const body = chars.slice(first, last + 1);
  const passiveInBody = body.find((c) => !isActive(c));
  if (passiveInBody !== undefined)
    pictureError(picture, `a passive character '${passiveInBody}' between active characters`);
  if (body.filter((c) => c === DF.decimal).length > 1)
    pictureError(picture, 'more than one decimal separator');
  const pc = chars.filter((c) => c === DF.percent).length;
  const pm = chars.filter((c) => c === DF.perMille).length;
  if (pc + pm > 1) pictureError(picture, 'more than one percent or per-mille sign');
  const dot = body.indexOf(DF.decimal);
  const intPart = dot < 0 ? body : body.slice(0, dot);
  const fracPart = dot < 0 ? [] : body.slice(dot + 1);
  // A zero digit may not follow an optional digit in the integer part, nor precede one in the fraction.
  const intDigits = intPart.filter(isDigitSign);
  const firstZero = intDigits.findIndex((c) => c !== DF.digit);
  if (firstZero >= 0 && intDigits.slice(firstZero).includes(DF.digit))
    pictureError(picture, "'#' after '0' in the integer part");
  const fracDigits = fracPart.filter(isDigitSign);
  const firstHash = fracDigits.indexOf(DF.digit);
  if (firstHash >= 0 && fracDigits.slice(firstHash).some((c) => c !== DF.digit))
    pictureError(picture, "'0' after '#' in the fractional part");
  if (intPart.length > 0 && intPart[intPart.length - 1] === DF.grouping)
    pictureError(picture, 'a grouping separator next to the decimal separator');
  if (fracPart.length > 0 && fracPart[0] === DF.grouping)
    pictureError(picture, 'a grouping separator next to the decimal separator');
  for (let i = 1; i < body.length; i++)
    if (body[i] === DF.grouping && body[i - 1] === DF.grouping)
      pictureError(picture, 'adjacent grouping separators');
  const intGroups: number[] = [];
  let seen = 0;
  for (let i = intPart.length - 1; i >= 0; i--) {
    if (intPart[i] === DF.grouping) intGroups.push(seen);
    else seen++;
  }
  const fracGroups: number[] = [];
  seen = 0;
  for (const c of fracPart) {
    if (c === DF.grouping) fracGroups.push(seen);
    else seen++;
  }
  let minInt = intDigits.filter((c) => c !== DF.digit).length;
  const minFrac = fracDigits.filter((c) => c !== DF.digit).length;
  const maxFrac = fracDigits.length;
  // XSLT 2.0 §16.4.3: with no zero digit in the integer part and no decimal separator, one digit.
  if (minInt === 0 && dot < 0) minInt = 1;
  return {
    prefix,
    suffix,
    minInt,
    minFrac,
    maxFrac,
    intGroups,
    fracGroups,
    percent: pc > 0,
    perMille: pm > 0,
  };
}

function insertGroups(digits: string, groups: number[], fromRight: boolean): string {
  if (groups.length === 0 || digits.length < 2) return digits;
  // Regular grouping (positions N, 2N, 3N…, XSLT 2.0 §16.4.3) repeats as far as the number needs.
  const g = Math.min(...groups);
  const regular =
    fromRight &&
    g > 0 &&
    groups.every((p) => p % g === 0) &&
    new Set(groups).size === Math.max(...groups) / g;
  const at = new Set(groups);
  const n = digits.length;
  let out = '';
  for (let i = 0; i < n; i++) {
    // Digits on the side of the separator the positions count: right of it for the integer part.
    const count = fromRight ? n - i : i;
    if (i > 0 && (regular ? count % g === 0 : at.has(count))) out += DF.grouping;
    out += digits[i];
  }
  return out;
}

/** fn:format-number with the default decimal format (XSLT 2.0 §16.4); `value` is an xs:double. */
export function formatNumber(value: number, picture: string): string {
  const subs = picture.split(DF.pattern);
  if (subs.length > 2) pictureError(picture, 'more than one pattern separator');
  const pos = parseSubPicture(subs[0], picture);
  const neg = subs.length === 2 ? parseSubPicture(subs[1], picture) : undefined;
  if (Number.isNaN(value)) return DF.nan;
  const negative = value < 0 || Object.is(value, -0);
  const sp = negative && neg ? neg : pos;
  const prefix = negative && !neg ? DF.minus + pos.prefix : sp.prefix;
  let v = Math.abs(value);
  if (sp.percent) v *= 100;
  else if (sp.perMille) v *= 1000;
  if (!Number.isFinite(v)) return prefix + DF.infinity + sp.suffix;
  const rounded = roundDigits(decimalDigits(v), sp.maxFrac);
  let [ip, fp = ''] = rounded.split('.');
  ip = ip.replace(/^0+/, '');
  if (ip.length < sp.minInt) ip = ip.padStart(sp.minInt, '0');
  fp = fp.replace(/0+$/, '');
  if (fp.length < sp.minFrac) fp = fp.padEnd(sp.minFrac, '0');
  // XSLT 2.0: if there is no integer digit and no fraction digit, the result still shows one zero.
  if (ip === '' && fp === '') ip = '0';
  const intText = insertGroups(ip, sp.intGroups, true);
  const fracText = insertGroups(fp, sp.fracGroups, false);
  return prefix + intText + (fracText ? DF.decimal + fracText : '') + sp.suffix;
}

// ---- distinct-values and sequence equality (F&O §15.1.6) ----

/** A key under which two atomic values are equal for fn:distinct-values; NaN equals NaN. */
export function distinctKey(a: Atomic): string {
  if (a instanceof Untyped) return `s:${a.s}`;
  if (typeof a === 'string') return `s:${a}`;
  if (typeof a === 'number') return Number.isNaN(a) ? 'n:NaN' : `n:${a === 0 ? 0 : a}`;
  if (typeof a === 'boolean') return `b:${a}`;
  if (a instanceof XDate) return `${a.kind}:${a.ms}:${a.tz === undefined ? 'local' : 'tz'}`;
  return `d:${a.kind === 'yearMonth' ? a.months * 2_629_746_000 : a.ms}:${a.months}:${a.ms}`;
}

/** The year, month, day (and hours, minutes, seconds of a time) of a date in its own time zone. */
export function dateParts(d: XDate): {
  year: number;
  month: number;
  day: number;
  hours: number;
  minutes: number;
  seconds: number;
} {
  const local = new Date(d.ms + (d.tz ?? 0) * 60_000);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hours: local.getUTCHours(),
    minutes: local.getUTCMinutes(),
    seconds: local.getUTCSeconds() + local.getUTCMilliseconds() / 1000,
  };
}

/** Components of a duration (F&O §10.5): years, months, days, hours, minutes, seconds, with its sign. */
export function durationParts(d: XDuration): {
  years: number;
  months: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
} {
  const sign = d.months < 0 || d.ms < 0 ? -1 : 1;
  const m = Math.abs(d.months);
  let a = Math.abs(d.ms);
  const days = Math.floor(a / MS_PER_DAY);
  a -= days * MS_PER_DAY;
  const hours = Math.floor(a / 3_600_000);
  a -= hours * 3_600_000;
  const minutes = Math.floor(a / 60_000);
  a -= minutes * 60_000;
  const z = (n: number): number => (n === 0 ? 0 : sign * n);
  return {
    years: z(Math.floor(m / 12)),
    months: z(m % 12),
    days: z(days),
    hours: z(hours),
    minutes: z(minutes),
    seconds: z(a / 1000),
  };
}
