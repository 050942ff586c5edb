// The Market Explorer opens on a series with data (pork, class E, EU level, the last ~14 months), not
// on an empty form, and the short codes of its filters are explained: every allowed value of the pig
// classes and sheep categories that the agri-food API specification lists (S, E, R, SE, Piglet; EU_L,
// EU_H) has words beside it, and the pig classes follow the EU carcass grading (lean meat shares).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultExplorerTarget } from '../../client/market/explorer-default';
import { optionText, VALUE_NOTES } from '../../client/market/value-notes';
import { DAY, ENDPOINTS, formatDmy, type ParamSpec } from '../../core/agrifood';

test('the default is the EU price of pig carcasses of class E over the last ~14 months', () => {
  const now = Date.UTC(2026, 10, 24);
  const t = defaultExplorerTarget(now);
  assert.equal(t.sector, 'pigmeat');
  assert.deepEqual(t.filters?.pigClasses, ['E']);
  assert.deepEqual(t.filters?.memberStateCodes, ['EU']);
  assert.deepEqual(t.filters?.beginDate, [formatDmy(now - 430 * DAY)]);
});

test('every code the API lists for pig classes and lamb categories is explained', () => {
  // The values as the agri-food data API specification lists them.
  const spec: Record<string, string[]> = {
    pigClasses: ['S', 'E', 'R', 'SE', 'Piglet'],
    productCodes: ['EU_L', 'EU_H'],
  };
  for (const [param, values] of Object.entries(spec)) {
    const allowed = Object.values(ENDPOINTS)
      .flatMap((e) => e.params as readonly ParamSpec[])
      .find((p) => p.name === param && p.allowed)?.allowed;
    assert.deepEqual([...(allowed ?? [])].sort(), [...values].sort(), `${param} as the endpoints list it`);
    for (const v of values) {
      assert.ok(VALUE_NOTES[param]?.[v], `${param} ${v} is explained`);
      assert.match(optionText(param, v), new RegExp(`^${v} — .+`));
    }
  }
  assert.match(optionText('pigClasses', 'S'), /60%/);
  assert.match(optionText('pigClasses', 'E'), /55%.*60%/);
  assert.match(optionText('pigClasses', 'R'), /45%.*50%/);
  assert.equal(optionText('memberStateCodes', 'FR'), 'FR');
  // The values come from the service: an object's own members are no notes.
  for (const v of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
    assert.equal(optionText('productCodes', v), v);
  assert.equal(optionText('constructor', 'name'), 'name');
});
