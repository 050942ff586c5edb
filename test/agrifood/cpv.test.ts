// CPV codes to sectors: the table the task names, prefix matching for child codes, the most specific
// row winning, and codes outside the table mapping to nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CPV_SECTORS, sectorForCpv } from '../../core/agrifood/cpv';
import { ENDPOINTS } from '../../core/agrifood/endpoints';

test('the named CPV codes map to their sectors', () => {
  const expected: [string, string][] = [
    ['15511000', 'rawMilk'],
    ['15111000', 'beef'],
    ['15113000', 'pigmeat'],
    ['15411110', 'oliveOil'],
    ['15831000', 'sugar'],
    ['03211000', 'cereal'],
    ['03211300', 'rice'],
    ['15931200', 'wine'],
    ['15112000', 'poultry'],
    ['03221000', 'fruitAndVegetable'],
    ['03222000', 'fruitAndVegetable'],
  ];
  for (const [cpv, sector] of expected) assert.equal(sectorForCpv(cpv)?.sector, sector, cpv);
});

test('child codes match their parent; the most specific row wins; check digits are ignored', () => {
  assert.equal(sectorForCpv('15511100')?.sector, 'rawMilk', 'pasteurised milk is milk');
  assert.equal(sectorForCpv('15511000-3')?.sector, 'rawMilk');
  assert.equal(sectorForCpv('03211310')?.sector, 'rice', 'a child of rice, also a child of cereals');
  assert.equal(sectorForCpv('03211100')?.sector, 'cereal', 'wheat is a cereal');
  assert.equal(sectorForCpv('03221210')?.sector, 'fruitAndVegetable');
  assert.equal(sectorForCpv('15411100')?.sector, undefined, 'vegetable oils are not olive oil');
  assert.equal(sectorForCpv('15510000')?.sector, undefined, 'the milk-products parent is broader than milk');
  assert.equal(sectorForCpv('45000000'), undefined);
  assert.equal(sectorForCpv('not a code'), undefined);
});

test('every row names a real sector and only parameters of its endpoint', () => {
  for (const row of CPV_SECTORS) {
    const names = new Set(ENDPOINTS[row.sector].params.map((p) => p.name));
    for (const k of Object.keys(row.filters)) assert.ok(names.has(k), `${row.cpv}: ${k}`);
  }
});
