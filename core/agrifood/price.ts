// Turns the service's price strings ("€90.00", "€233,00", "€1,230.00", "€1.230,00", "308.56") into an
// amount and a currency. Never guesses a thousands separator where the text shows a decimal mark:
// "€233,00" is 233, never 23300.

export interface ParsedPrice {
  amount: number;
  /** ISO 4217 code when the symbol is known (€ -> EUR), else the prefix as written; undefined if absent. */
  currency: string | undefined;
}

const SYMBOLS: Record<string, string> = {
  '€': 'EUR',
  EUR: 'EUR',
  '£': 'GBP',
  $: 'USD',
  USD: 'USD',
  GBP: 'GBP',
};

/**
 * Parses one price string; undefined when it holds no amount (empty, "-", "n.a.").
 *
 * Decimal mark: when both `.` and `,` occur, the last one is the decimal mark. When only one of them
 * occurs: more than once, it separates thousands; once, it is the decimal mark unless exactly three
 * digits follow a non-zero integer part ("€1,230" reads 1230; the service prints two decimals, so a
 * three-digit tail is a thousands group).
 */
export function parsePrice(text: string | number | null | undefined): ParsedPrice | undefined {
  if (typeof text === 'number')
    return Number.isFinite(text) ? { amount: text, currency: undefined } : undefined;
  if (typeof text !== 'string') return undefined;
  return fastPrice(text) ?? slowPrice(text);
}

const EURO = 0x20ac;

/**
 * The shapes the service sends (optional "€", digits, at most one "." and one ","), read in one pass
 * without allocating strings; anything else returns undefined and goes to slowPrice, which applies
 * the same rules to every shape.
 */
function fastPrice(t: string): ParsedPrice | undefined {
  const n = t.length;
  let i = 0;
  let euro = false;
  if (n > 0 && t.charCodeAt(0) === EURO) {
    euro = true;
    i = 1;
  }
  let dot = -1;
  let comma = -1;
  for (let k = i; k < n; k++) {
    const c = t.charCodeAt(k);
    if (c === 46) {
      if (dot >= 0) return undefined;
      dot = k;
    } else if (c === 44) {
      if (comma >= 0) return undefined;
      comma = k;
    } else if (c < 48 || c > 57) return undefined;
  }
  let mark = -1;
  let group = -1;
  if (dot >= 0 && comma >= 0) {
    mark = Math.max(dot, comma);
    group = Math.min(dot, comma);
    // The group separator needs 1-3 digits before it and exactly 3 between it and the mark.
    if (group - i < 1 || group - i > 3 || mark - group !== 4) return undefined;
  } else if (dot >= 0 || comma >= 0) {
    const sep = dot >= 0 ? dot : comma;
    const intLen = sep - i;
    const thousands =
      n - sep - 1 === 3 && intLen >= 1 && intLen <= 3 && !(intLen === 1 && t.charCodeAt(i) === 48);
    if (thousands) group = sep;
    else mark = sep;
  }
  let digits = 0;
  let value = 0;
  let scale = 1;
  for (let k = i; k < n; k++) {
    if (k === mark || k === group) continue;
    value = value * 10 + (t.charCodeAt(k) - 48);
    digits++;
    if (mark >= 0 && k > mark) scale *= 10;
  }
  // Exact integers divided by an exact power of ten round like Number("437.13") does.
  if (digits === 0 || digits > 15) return undefined;
  return { amount: value / scale, currency: euro ? 'EUR' : undefined };
}

function slowPrice(text: string): ParsedPrice | undefined {
  const s = text.trim();
  let i = 0;
  // Currency prefix: anything before the first digit, sign or separator.
  while (i < s.length && !isNumberStart(s.charCodeAt(i))) i++;
  const prefix = s.slice(0, i).trim();
  let rest = s.slice(i).replace(/[\s\u00a0\u202f']/g, '');
  let sign = 1;
  if (rest.startsWith('-')) {
    sign = -1;
    rest = rest.slice(1);
  } else if (rest.startsWith('+')) rest = rest.slice(1);
  // A currency written after the amount ("90.00 €", "90,00 EUR").
  const tail = /[^\d.,]+$/.exec(rest);
  let suffix = '';
  if (tail) {
    // Only a currency may follow the amount: "90,00 €", "90.00 EUR"; "12a" is no price.
    if (!/^(€|£|\$|[A-Z]{3})$/.test(tail[0])) return undefined;
    suffix = tail[0];
    rest = rest.slice(0, tail.index);
  }
  if (!/^[\d.,]*\d[\d.,]*$/.test(rest)) return undefined;
  const amount = readAmount(rest);
  if (amount === undefined) return undefined;
  const cur = prefix || suffix;
  return { amount: sign * amount, currency: cur ? (SYMBOLS[cur] ?? cur) : undefined };
}

function isNumberStart(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 44;
}

function readAmount(t: string): number | undefined {
  const lastDot = t.lastIndexOf('.');
  const lastComma = t.lastIndexOf(',');
  let intPart: string;
  let frac = '';
  if (lastDot >= 0 && lastComma >= 0) {
    const mark = lastDot > lastComma ? '.' : ',';
    const group = mark === '.' ? ',' : '.';
    const at = Math.max(lastDot, lastComma);
    intPart = t.slice(0, at);
    frac = t.slice(at + 1);
    if (intPart.includes(mark) || !validGroups(intPart, group)) return undefined;
    intPart = intPart.split(group).join('');
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const parts = t.split(sep);
    if (parts.length > 2) {
      if (!validGroups(t, sep)) return undefined;
      intPart = parts.join('');
    } else {
      const [a, b] = parts as [string, string];
      const thousands = b.length === 3 && a !== '' && a !== '0' && a.length <= 3;
      if (thousands) intPart = a + b;
      else {
        intPart = a;
        frac = b;
      }
    }
  } else intPart = t;
  if (!/^\d*$/.test(intPart) || !/^\d*$/.test(frac) || (intPart === '' && frac === '')) return undefined;
  return Number(`${intPart || '0'}.${frac || '0'}`);
}

/** "1,230,000" has groups of three after the first; anything else is not a grouped number. */
function validGroups(t: string, sep: string): boolean {
  const parts = t.split(sep);
  if (parts.length === 1) return true;
  return (
    parts[0] !== undefined && /^\d{1,3}$/.test(parts[0]) && parts.slice(1).every((p) => /^\d{3}$/.test(p))
  );
}

/** Formats an amount for people: two decimals, the currency symbol in front when it is the euro. */
export function formatAmount(amount: number, currency: string | undefined): string {
  const n = amount.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  if (currency === 'EUR') return `€${n}`;
  return currency ? `${currency} ${n}` : n;
}
