// The endpoint table against the spec's own text: every data endpoint, record name, parameter (name and
// type) and listing path it names, nothing more and nothing less.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENDPOINTS, LISTINGS, SECTOR_IDS } from '../../core/agrifood/endpoints';
import { readSpec, specSkip } from '../sandbox/agrifood-spec';

test('every data endpoint of the spec is in the table with its record and parameters', {
  skip: specSkip,
}, () => {
  const spec = readSpec();
  assert.equal(spec.endpoints.length, 17, 'the spec lists 17 data endpoints');
  const byPath = new Map(SECTOR_IDS.map((id) => [ENDPOINTS[id].path, ENDPOINTS[id]]));
  assert.deepEqual([...byPath.keys()].sort(), spec.endpoints.map((e) => e.path).sort());
  for (const e of spec.endpoints) {
    const mine = byPath.get(e.path);
    assert.ok(mine, e.path);
    assert.equal(mine.record, e.record, e.path);
    assert.deepEqual(
      mine.params.map((p) => p.name).sort(),
      e.params.map((p) => p.name).sort(),
      `${e.path} parameters`,
    );
    for (const p of e.params) {
      const kind: string | undefined = mine.params.find((q) => q.name === p.name)?.kind;
      const expected = p.type === 'S' ? (/Date$|referencePeriod/.test(p.name) ? 'date' : 'S') : p.type;
      assert.equal(kind, expected, `${e.path} ${p.name}`);
    }
  }
});

test('every listing path the spec names is in the table, tied to the endpoint naming it', {
  skip: specSkip,
}, () => {
  const spec = readSpec();
  const mine = new Set(LISTINGS.map((l) => l.path));
  assert.deepEqual([...mine].sort(), [...spec.listings].sort());
  for (const e of spec.endpoints) {
    const sector = SECTOR_IDS.find((id) => ENDPOINTS[id].path === e.path);
    for (const l of e.listings) {
      assert.equal(LISTINGS.find((x) => x.path === l)?.sector, sector, l);
    }
  }
});

test('table columns are exactly the fields of each record in the spec', { skip: specSkip }, () => {
  const spec = readSpec();
  for (const id of SECTOR_IDS) {
    const fields = spec.records.get(ENDPOINTS[id].record);
    assert.ok(fields, ENDPOINTS[id].record);
    assert.deepEqual([...ENDPOINTS[id].columns].sort(), [...fields.keys()].sort(), id);
  }
});
