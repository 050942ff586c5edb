// XPath 2.0 values and their semantics, as the SDK rules rely on them: untypedAtomic (node content)
// promoted by the other operand in general comparisons, existential comparisons over sequences,
// xs:date/xs:time with time zones, day-time and year-month durations and their arithmetic, number
// formatting, and XSD regular expressions translated to JavaScript ones (with the `u` flag).
// Dynamic errors are thrown as XPathDynamicError with the W3C error code. No I/O.

import { XNode } from './document';

/** Node content, before a comparison gives it a type. */
export class Untyped {
  constructor(readonly s: string) {}
}

export class XDate {
  constructor(
    readonly kind: 'date' | 'time',
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
  ) {
    super(`${code}: ${message}`);
  }
}

export function atomize(item: Item): Atomic {
  if (!(item instanceof XNode)) return item;
  let u = item.untyped as Untyped | undefined;
  if (u === undefined) {
    u = new Untyped(item.string);
    item.untyped = u;
  }
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

function castDouble(s: string): number {
  const n = toDouble(s);
  if (Number.isNaN(n) && s.trim() !== 'NaN') {
    throw new XPathDynamicError('FORG0001', `'${s}' is not a valid xs:double`);
  }
  return n;
}

export function normalizeSpace(s: string): string {
  return s.replace(/[ \t\n\r]+/g, ' ').replace(/^ | $/g, '');
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
    throw new XPathDynamicError('FORG0001', `'${s}' is not a valid xs:date`);
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
    throw new XPathDynamicError('FORG0001', `'${s}' is not a valid xs:time`);
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
  if (d.kind === 'date') {
    const y = local.getUTCFullYear();
    return `${y < 0 ? '-' : ''}${pad(y, 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}${tzToString(d.tz)}`;
  }
  const msPart = local.getUTCMilliseconds();
  const secs = `${pad(local.getUTCSeconds())}${msPart ? `.${String(msPart).padStart(3, '0').replace(/0+$/, '')}` : ''}`;
  return `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${secs}${tzToString(d.tz)}`;
}

const DUR_RE =
  /^\s*(-)?P(?:([0-9]+)Y)?(?:([0-9]+)M)?(?:([0-9]+)D)?(?:T(?:([0-9]+)H)?(?:([0-9]+)M)?(?:([0-9]+(?:\.[0-9]+)?)S)?)?\s*$/;

export function parseDuration(s: string, kind: 'dayTime' | 'yearMonth'): XDuration {
  const m = DUR_RE.exec(s);
  const typeName = kind === 'dayTime' ? 'xs:dayTimeDuration' : 'xs:yearMonthDuration';
  const fail = (): never => {
    throw new XPathDynamicError('FORG0001', `'${s}' is not a valid ${typeName}`);
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
    throw new XPathDynamicError('FORG0001', `'${u.s}' is not a valid xs:boolean`);
  }
  if (other instanceof XDate) return other.kind === 'date' ? parseDate(u.s) : parseTime(u.s);
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

// ---- regular expressions ----

const regexCache = new Map<string, RegExp>();

const BLOCKS: Record<string, string> = {
  IsBasicLatin: '\\u0000-\\u007F',
  IsLatin1Supplement: '\\u0080-\\u00FF',
  IsLatinExtendedA: '\\u0100-\\u017F',
  IsLatinExtendedB: '\\u0180-\\u024F',
  IsGreek: '\\u0370-\\u03FF',
  IsCyrillic: '\\u0400-\\u04FF',
};
const NAME_START_CLASS =
  ':A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD';
const NAME_CLASS = `${NAME_START_CLASS}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;

/**
 * An XSD/XPath regular expression as a JavaScript one (`u` flag): `\p{..}` categories and blocks,
 * `\i` `\c` `\I` `\C`, XSD's `\s` `\d` `\w` and `.`, and character-class subtraction `[a-z-[aeiou]]`.
 * Throws FORX0002 on what it cannot translate.
 */
export function xsdRegex(pattern: string, flags = ''): RegExp {
  const key = `${flags}\u0000${pattern}`;
  const hit = regexCache.get(key);
  if (hit) return hit;
  if (/[^smix]/.test(flags))
    throw new XPathDynamicError('FORX0001', `invalid regular expression flags '${flags}'`);
  let src = flags.includes('x') ? pattern.replace(/[ \t\n\r]/g, '') : pattern;
  src = translate(src, flags.includes('s'));
  let re: RegExp;
  try {
    re = new RegExp(src, `u${flags.includes('i') ? 'i' : ''}${flags.includes('m') ? 'm' : ''}`);
  } catch (e) {
    throw new XPathDynamicError(
      'FORX0002',
      `invalid regular expression '${pattern}': ${(e as Error).message}`,
    );
  }
  regexCache.set(key, re);
  return re;
}

const SYNTAX = new Set([...'\\^$.|?*+()[]{}/-']);

function escapeChar(c: string): string {
  return SYNTAX.has(c) ? `\\${c}` : c;
}

function translate(p: string, dotAll: boolean): string {
  let out = '';
  let i = 0;
  const fail = (why: string): never => {
    throw new XPathDynamicError('FORX0002', `invalid regular expression '${p}': ${why}`);
  };
  /** An escape at p[i] === '\\'; returns [class-body fragment, standalone fragment]. */
  const readEscape = (): [string, string] => {
    const c = p[i + 1];
    if (c === undefined) return fail('trailing backslash');
    i += 2;
    if (c === 'p' || c === 'P') {
      const close = p.indexOf('}', i);
      if (p[i] !== '{' || close < 0) return fail('bad \\p');
      const name = p.slice(i + 1, close);
      i = close + 1;
      if (name.startsWith('Is')) {
        const range = BLOCKS[name];
        if (!range) return fail(`unknown block ${name}`);
        return c === 'p' ? [range, `[${range}]`] : fail('negated block in a class');
      }
      const frag = `\\${c}{${name}}`;
      return [frag, frag];
    }
    switch (c) {
      case 'i':
        return [NAME_START_CLASS, `[${NAME_START_CLASS}]`];
      case 'c':
        return [NAME_CLASS, `[${NAME_CLASS}]`];
      case 'I':
        return ['', `[^${NAME_START_CLASS}]`];
      case 'C':
        return ['', `[^${NAME_CLASS}]`];
      case 's':
        return [' \\t\\n\\r', '[ \\t\\n\\r]'];
      case 'S':
        return ['', '[^ \\t\\n\\r]'];
      case 'd':
        return ['\\p{Nd}', '\\p{Nd}'];
      case 'D':
        return ['\\P{Nd}', '\\P{Nd}'];
      case 'w':
        return ['', '[^\\p{P}\\p{Z}\\p{C}]'];
      case 'W':
        return ['\\p{P}\\p{Z}\\p{C}', '[\\p{P}\\p{Z}\\p{C}]'];
      case 'n':
        return ['\\n', '\\n'];
      case 'r':
        return ['\\r', '\\r'];
      case 't':
        return ['\\t', '\\t'];
      default:
        if (/[0-9]/.test(c)) {
          let digits = c;
          while (i < p.length && /[0-9]/.test(p[i])) digits += p[i++];
          return [fail('back-reference in a class'), `\\${digits}`];
        }
        if ('\\|.-^?*+{}()[]$'.includes(c)) return [`\\${c}`, `\\${c}`];
        return fail(`unknown escape \\${c}`);
    }
  };
  const charClass = (): string => {
    // p[i] === '['
    i++;
    let negate = false;
    if (p[i] === '^') {
      negate = true;
      i++;
    }
    let body = '';
    let subtract: string | undefined;
    let first = true;
    while (i < p.length && p[i] !== ']') {
      if (p[i] === '-' && p[i + 1] === '[') {
        i++;
        subtract = charClass();
        if (p[i] !== ']') fail('subtraction must end the class');
        break;
      }
      if (p[i] === '\\') {
        const [frag] = readEscape();
        if (frag === '') fail('negated escape inside a class');
        body += frag;
      } else if (p[i] === '-' && !first && p[i + 1] !== ']') {
        body += '-';
        i++;
      } else {
        body += p[i] === '-' ? '\\-' : escapeChar(p[i]);
        i++;
      }
      first = false;
    }
    if (p[i] !== ']') fail('unterminated character class');
    i++;
    const cls = `[${negate ? '^' : ''}${body}]`;
    return subtract === undefined ? cls : `(?:(?!${subtract})${cls})`;
  };
  while (i < p.length) {
    const c = p[i];
    if (c === '\\') out += readEscape()[1];
    else if (c === '[') out += charClass();
    else if (c === '.') {
      out += dotAll ? '[^]' : '[^\\n\\r]';
      i++;
    } else if (c === '(' && p[i + 1] === '?') fail('(? is not XSD syntax');
    else {
      out += c;
      i++;
    }
  }
  return out;
}
