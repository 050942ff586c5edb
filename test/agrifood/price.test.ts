// Price strings of the agri-food service: the real ones in ../shared/agrifood-samples read as a person
// reads them, and amounts written by an independent formatter (Intl) in both decimal styles read back.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parsePrice } from '../../core/agrifood/price';
import { AGRIFOOD_SAMPLES_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(AGRIFOOD_SAMPLES_DIR);
const samples = (): Record<string, unknown> =>
  JSON.parse(readFileSync(join(AGRIFOOD_SAMPLES_DIR, 'records.json'), 'utf8')) as Record<string, unknown>;

/**
 * How a person reads a price that has exactly two decimals (as every sample has): the digits,
 * with the last two after the decimal point, whatever mark separates them. Independent of parsePrice.
 */
function humanReading(text: string): number {
  const digits = text.replace(/\D/g, '');
  return Number(digits) / 100;
}

test('every real price string in the samples reads as a person reads it', { skip }, () => {
  const s = samples();
  const seen = s['price strings seen'] as string[];
  assert.ok(seen.length >= 5);
  for (const text of seen) {
    assert.match(text, /[.,]\d{2}$/, `sample ${text} has two decimals`);
    const p = parsePrice(text);
    assert.ok(p, `${text} parses`);
    assert.equal(p.amount, humanReading(text), text);
    assert.equal(p.currency, text.startsWith('€') ? 'EUR' : undefined, text);
  }
});

test('the price of every sample record parses, the comma-decimal cereal ones never x100', { skip }, () => {
  const s = samples();
  let n = 0;
  for (const [key, v] of Object.entries(s)) {
    if (!Array.isArray(v)) continue;
    for (const r of v) {
      if (!r || typeof r !== 'object' || typeof (r as { price?: unknown }).price !== 'string') continue;
      const text = (r as { price: string }).price;
      assert.equal(parsePrice(text)?.amount, humanReading(text), `${key}: ${text}`);
      n++;
    }
  }
  assert.ok(n >= 4, `found ${n} sample records with a price`);
  assert.equal(parsePrice('€233,00')?.amount, humanReading('€233,00'));
  assert.notEqual(parsePrice('€233,00')?.amount, 23300);
});

test('thousands separators in both styles, as the samples README lists them', () => {
  for (const text of ['€1,230.00', '€1.230,00']) {
    assert.equal(parsePrice(text)?.amount, humanReading(text), text);
  }
});

test('amounts written by Intl in en-US, de-DE and fr-FR styles read back exactly', () => {
  const styles = ['en-US', 'de-DE', 'en-GB', 'it-IT'].map(
    (l) => new Intl.NumberFormat(l, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
  );
  // A deterministic spread of amounts, from cents to millions.
  let x = 12345;
  for (let i = 0; i < 2000; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const cents = x % (i < 1000 ? 100_000 : 500_000_000);
    const amount = cents / 100;
    for (const f of styles) {
      const text = `€${f.format(amount)}`;
      assert.equal(parsePrice(text)?.amount, amount, text);
    }
    assert.equal(parsePrice(amount.toFixed(2))?.amount, amount, 'sugar prices come without a symbol');
  }
});

test('prices without a symbol (sugar) have no currency; junk is no price', () => {
  assert.deepEqual(parsePrice('308.56'), { amount: 308.56, currency: undefined });
  for (const junk of ['', '€', 'n.a.', '-', '€1.2.3,4,5', 'abc', '€12a']) {
    assert.equal(parsePrice(junk), undefined, JSON.stringify(junk));
  }
  assert.equal(parsePrice('€ 1 230,50')?.amount, 1230.5);
  assert.equal(parsePrice('-€5.00'), undefined);
  assert.equal(parsePrice('€-5.00')?.amount, -5);
  assert.equal(parsePrice('€0,125')?.amount, 0.125, 'a zero integer part is never a thousands group');
});
