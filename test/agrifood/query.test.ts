// What the spec forbids is refused before any request, with a message naming the fix; what it allows is
// written its way (one comma-separated parameter per list, dd/mm/yyyy dates).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgrifoodError } from '../../core/agrifood/errors';
import { requestPath } from '../../core/agrifood/query';
import type { SectorId } from '../../core/agrifood/records';

function refused(sector: SectorId, params: Record<string, string | string[]>, mention: RegExp): void {
  assert.throws(
    () => requestPath(sector, params),
    (e: unknown) => e instanceof AgrifoodError && e.kind === 'invalid-query' && mention.test(e.message),
    `${sector} ${JSON.stringify(params)}`,
  );
}

test('the spec rules are refused before any request', () => {
  refused('taxud', { memberStateCodes: 'FR' }, /sectors or products/);
  refused('taxud', {}, /sectors or products/);
  refused('poultry', { products: 'Turkey' }, /Broiler, Breast, Legs/);
  refused('poultry', { products: 'broiler' }, /Broiler/);
  refused('pigmeat', { pigClasses: 'S,X' }, /S, E, R, SE, Piglet/);
  refused('sugar', { contractTypes: 'yearly' }, /monthly, short/);
  refused('beef', { beginDate: '2024-01-01' }, /dd\/mm\/yyyy/);
  refused('beef', { endDate: '31/02/2024' }, /dd\/mm\/yyyy/);
  refused('beef', { beginDate: '02/03/2024', endDate: '01/03/2024' }, /after endDate/);
  refused('beef', { years: '2024,twenty' }, /integers/);
  refused('rice', { marketingYears: '2023' }, /yyyy\/yyyy/);
  refused('taxud', { sectors: 'Cereals', cn8ProductCodes: '1001' }, /8 characters/);
  refused('wine', { descriptions: ['Red, dry'] }, /comma/);
  refused('wine', { colour: 'red' }, /no parameter "colour"/);
  refused('cereal', { referencePeriod: '01/01/2024,08/01/2024' }, /one value/);
  refused('sheepAndGoat', { productCodes: 'EU_X' }, /EU_L, EU_H/);
});

test('allowed queries are written as one comma-separated parameter per list', () => {
  assert.equal(
    requestPath('rawMilk', {
      products: ['raw milk', 'smp'],
      memberStateCodes: 'BG,NL',
      years: [2017],
      months: '7, 8',
    }),
    '/api/rawMilk/prices?memberStateCodes=BG,NL&products=raw%20milk,smp&years=2017&months=7,8',
  );
  assert.equal(requestPath('taxud', { products: 'Maize' }), '/api/taxud/weeklyData/import?products=Maize');
  assert.equal(requestPath('pigmeat', {}), '/api/pigmeat/prices');
  assert.equal(
    requestPath('wine', { beginDate: '22/01/2019', endDate: '22/04/2020', memberStateCodes: ['PT', 'ES'] }),
    '/api/wine/prices?memberStateCodes=PT,ES&beginDate=22/01/2019&endDate=22/04/2020',
  );
  assert.equal(
    requestPath('poultry', { priceTypes: 'Selling price,All' }),
    '/api/poultry/prices?priceTypes=Selling%20price,All',
  );
});
