// Which agri-food series answers "what does this CPV product cost?": a table from CPV codes to a sector
// and the filters of its most representative EU-level series. Extend it by adding a row.
//
// Matching: a CPV code's trailing zeros mark its level in the hierarchy (15511000 = milk, 15511100 =
// pasteurised milk below it), so a row matches every code that starts with the row's code without
// its trailing zeros. The longest such prefix wins: 03211300 (rice) beats 03211000 (cereals) for
// 03211300 and its children. The check digit ("-7") is ignored.

import type { QueryParams } from './query';
import type { SectorId } from './records';

export interface CpvMapping {
  cpv: string;
  product: string;
  sector: SectorId;
  /** Filters that select the representative series (always with memberStateCodes=EU when offered). */
  filters: QueryParams;
}

export const CPV_SECTORS: readonly CpvMapping[] = [
  { cpv: '15511000', product: 'Milk', sector: 'rawMilk', filters: { products: 'Raw milk' } },
  { cpv: '15111000', product: 'Bovine meat', sector: 'beef', filters: { categories: 'Young bulls' } },
  { cpv: '15113000', product: 'Pork', sector: 'pigmeat', filters: { pigClasses: 'E' } },
  {
    cpv: '15411110',
    product: 'Olive oil',
    sector: 'oliveOil',
    filters: { products: 'Extra virgin olive oil' },
  },
  {
    cpv: '15831000',
    product: 'Sugar',
    sector: 'sugar',
    filters: { regions: 'EU Average', contractTypes: 'monthly' },
  },
  { cpv: '03211000', product: 'Cereals', sector: 'cereal', filters: { productCodes: 'BLTPAN' } },
  { cpv: '03211300', product: 'Rice', sector: 'rice', filters: { types: 'Indica' } },
  { cpv: '15931200', product: 'Table wine', sector: 'wine', filters: { descriptions: 'Table wine (white)' } },
  { cpv: '15112000', product: 'Poultry', sector: 'poultry', filters: { products: 'Broiler' } },
  { cpv: '03221000', product: 'Vegetables', sector: 'fruitAndVegetable', filters: { products: 'Tomatoes' } },
  { cpv: '03222000', product: 'Fruit', sector: 'fruitAndVegetable', filters: { products: 'Apples' } },
];

/** "15511000-7" -> "15511000"; undefined unless it is eight digits (check digit optional). */
export function normalizeCpv(code: string): string | undefined {
  const m = /^\s*(\d{8})(?:-\d)?\s*$/.exec(code);
  return m ? m[1] : undefined;
}

function significant(cpv: string): string {
  // Keep at least the division (two digits): "03000000" must not match everything.
  return cpv.replace(/0+$/, '').padEnd(2, '0');
}

/** The most specific mapping for a CPV code, or undefined when no sector covers it. */
export function sectorForCpv(code: string): CpvMapping | undefined {
  const c = normalizeCpv(code);
  if (!c) return undefined;
  let best: CpvMapping | undefined;
  let bestLen = -1;
  for (const m of CPV_SECTORS) {
    const p = significant(m.cpv);
    if (c.startsWith(p) && p.length > bestLen) {
      best = m;
      bestLen = p.length;
    }
  }
  return best;
}
