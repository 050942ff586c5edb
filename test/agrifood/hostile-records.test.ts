// An agri-food answer whose entries are not all records (null, numbers, lists, strings), as a hostile or
// broken service may send: the client keeps the objects and counts the rest, and the series and the
// CLI's table and summary read what is left without failing. The truth is the answer itself.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { main } from '../../cli/main';
import { AgrifoodClient } from '../../core/agrifood';
import { toSeries } from '../../core/agrifood/series';

const record = {
  memberStateCode: 'DE',
  memberStateName: 'Germany',
  beginDate: '01/01/2024',
  endDate: '07/01/2024',
  weekNumber: 1,
  price: '€190.50',
  unit: '€/100kg',
  pigClass: 'S',
};
const answer = [null, 5, 'x', [], record, { ...record, beginDate: null, price: { amount: 1 } }, {}];

test('entries that are not records are left out and counted; odd fields are unreadable, not fatal', async () => {
  const server = createServer((_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agrifood`;
  try {
    const r = await new AgrifoodClient({ baseUrl: base, maxRetries: 0 }).query('pigmeat', {});
    // Four of the seven entries are not objects.
    assert.equal(r.records.length, 3);
    assert.equal(r.dropped, 4);
    const set = toSeries('pigmeat', r.records);
    assert.equal(set.skipped, 2, 'the record without a date and the empty one');
    assert.equal(set.series.flatMap((s) => s.points).length, 1);
    for (const extra of [[], ['--summary'], ['--format', 'csv']]) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(['prices', 'pigmeat', '--agrifood-url', base, '--no-cache', ...extra], {
        out: (t) => out.push(t),
        err: (t) => err.push(t),
        env: {},
        cwd: process.cwd(),
      });
      assert.equal(code, 0, `${extra.join(' ')}: ${err.join('\n')}`);
      assert.match(err.join('\n'), /4 entries of the answer that are not records were left out/);
      assert.doesNotMatch(err.join('\n'), /Cannot read properties/);
    }
  } finally {
    server.close();
  }
});
