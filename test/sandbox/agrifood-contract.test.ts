// The agri-food client against the emulated service, and the emulation against the spec's text: every
// data and listing endpoint, record fields and types as section 2 lists them, filters as section 4
// describes them, errors as section 7 shows them, and the client's retries, timeouts and cache.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AgrifoodClient } from '../../core/agrifood/client';
import { ENDPOINTS, LISTINGS, SECTOR_IDS } from '../../core/agrifood/endpoints';
import { AgrifoodError } from '../../core/agrifood/errors';
import type { SectorId } from '../../core/agrifood/records';
import { type RunningSandbox, startSandbox } from '../../sandbox/server';
import { readSpec, specSkip } from './agrifood-spec';

let sb: RunningSandbox;
let base: string;
const cacheDirs: string[] = [];

before(async () => {
  sb = await startSandbox({ port: 0 });
  base = `${sb.origin}/agrifood`;
});
after(async () => {
  await sb.close();
  for (const d of cacheDirs) rmSync(d, { recursive: true, force: true });
});

const client = (extra: Partial<ConstructorParameters<typeof AgrifoodClient>[0]> = {}) =>
  new AgrifoodClient({ baseUrl: base, timeoutMs: 60_000, ...extra });

async function faults(on: string[], off: string[] = []): Promise<void> {
  const r = await fetch(`${sb.origin}/_sandbox/faults`, {
    method: 'POST',
    body: JSON.stringify({ on, off }),
  });
  assert.equal(r.status, 200);
}
async function requests(pathPart: string): Promise<number> {
  const s = (await (await fetch(`${sb.origin}/_sandbox/stats`)).json()) as {
    requests: Record<string, number>;
  };
  return Object.entries(s.requests)
    .filter(([k]) => k.includes(pathPart))
    .reduce((a, [, n]) => a + n, 0);
}
async function rejects(p: Promise<unknown>, kind: string, mention?: RegExp): Promise<AgrifoodError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof AgrifoodError, String(e));
    assert.equal(e.kind, kind, e.message);
    if (mention) assert.match(e.message, mention);
    return e;
  }
  assert.fail(`expected an AgrifoodError ${kind}`);
}

const dmy = (s: string) => {
  const [d, m, y] = s.split('/').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
};

/** A narrow query per endpoint: one recent year or a date interval, so answers stay small. */
function narrow(id: SectorId): Record<string, string> {
  const names = new Set(ENDPOINTS[id].params.map((p) => p.name));
  const q: Record<string, string> = {};
  if (names.has('beginDate')) Object.assign(q, { beginDate: '01/03/2021', endDate: '30/04/2021' });
  else if (names.has('years')) q.years = '2021';
  else if (names.has('yms')) q.yms = '2021/03,2021/04';
  if (id === 'taxud') Object.assign(q, { sectors: 'Cereals', marketingYears: '2021', weeks: '10,11' });
  return q;
}

test('every data endpoint answers records with exactly the fields and types of the spec', {
  skip: specSkip,
}, async () => {
  const spec = readSpec();
  const c = client();
  for (const id of SECTOR_IDS) {
    const fields = spec.records.get(ENDPOINTS[id].record);
    assert.ok(fields, id);
    const { records } = await c.query(id, narrow(id));
    assert.ok(records.length > 0, `${id} has records for ${JSON.stringify(narrow(id))}`);
    for (const r of records.slice(0, 200)) {
      assert.deepEqual(Object.keys(r).sort(), [...fields.keys()].sort(), id);
      for (const [f, t] of fields) {
        const v = (r as unknown as Record<string, unknown>)[f];
        const ok =
          t === 'S'
            ? typeof v === 'string'
            : t === 'S?'
              ? typeof v === 'string' || v === null
              : t === 'I'
                ? Number.isInteger(v)
                : typeof v === 'number';
        assert.ok(ok, `${id}.${f} should be ${t}: ${JSON.stringify(v)}`);
      }
    }
  }
});

test('date intervals, Member States and allowed-value filters narrow the answer as the spec says', async () => {
  const c = client();
  for (const id of SECTOR_IDS) {
    const names = new Set(ENDPOINTS[id].params.map((p) => p.name));
    if (!names.has('beginDate')) continue;
    const { records } = await c.query(id, { beginDate: '01/03/2021', endDate: '30/04/2021' });
    assert.ok(records.length > 0, id);
    for (const r of records as { beginDate: string }[]) {
      const t = dmy(r.beginDate);
      assert.ok(t >= dmy('01/03/2021') && t <= dmy('30/04/2021'), `${id} ${r.beginDate}`);
    }
  }
  const pig = await c.query('pigmeat', {
    memberStateCodes: 'DE,DK,FR,ES,NL',
    pigClasses: 'E',
    marketingYears: '2020',
  });
  assert.ok(pig.records.length > 0);
  for (const r of pig.records) {
    assert.ok(['DE', 'DK', 'FR', 'ES', 'NL'].includes(r.memberStateCode));
    assert.equal(r.pigClass, 'E');
  }
  const poultry = await c.query('poultry', { products: 'Breast', years: '2022', months: '2' });
  assert.ok(poultry.records.length > 0);
  for (const r of poultry.records) {
    assert.equal(r.productName, 'Breast');
    assert.equal(r.priceType, 'Selling price', 'price type defaults to Selling price when omitted');
    assert.equal(dmy(r.beginDate) >= Date.UTC(2022, 1, 1) || dmy(r.endDate) >= Date.UTC(2022, 1, 1), true);
  }
  const all = await c.query('poultry', { products: 'Breast', years: '2022', months: '2', priceTypes: 'All' });
  assert.ok(new Set(all.records.map((r) => r.priceType)).size > 1, 'All lifts the default');
  const milk = await c.query('rawMilk', { products: 'raw milk', years: '2017', months: '7,8' });
  assert.ok(milk.records.length > 0);
  for (const r of milk.records) {
    assert.equal(r.year, 2017);
    assert.ok([7, 8].includes(r.month));
  }
});

test('every listing endpoint answers; wine descriptions are objects, the others plain strings', {
  skip: specSkip,
}, async () => {
  const spec = readSpec();
  for (const path of spec.listings) {
    const r = await fetch(`${base}${path}`);
    assert.equal(r.status, 200, path);
    const body = (await r.json()) as unknown[];
    assert.ok(Array.isArray(body) && body.length > 0, path);
    if (path === '/api/wine/descriptions') {
      for (const e of body) assert.deepEqual(Object.keys(e as object), ['description']);
    } else for (const e of body) assert.equal(typeof e, 'string', path);
  }
  const c = client();
  for (const l of LISTINGS)
    assert.ok(
      (await c.listing(l.path)).every((v) => typeof v === 'string'),
      l.path,
    );
  const wines = await c.listing('/api/wine/descriptions');
  // A listed value used as a filter finds records.
  const w = await c.query('wine', { descriptions: [wines[0] as string], years: '2021' });
  assert.ok(w.records.length > 0 && w.records.every((r) => r.description === wines[0]));
});

test('no result is an empty list; the service says so with a 404 APIError', async () => {
  const raw = await fetch(`${base}/api/pigmeat/prices?marketingYears=1990`);
  assert.equal(raw.status, 404);
  const body = (await raw.json()) as Record<string, unknown>;
  assert.equal(body.error, 'Not Found');
  assert.equal(body.status, '404');
  assert.equal(body.message, 'No results found for the selected parameter(s).');
  assert.deepEqual(body.apiSubErrors, []);
  assert.match(String(body.timestamp), /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
  const r = await client().query('pigmeat', { marketingYears: '1990' });
  assert.deepEqual(r.records, []);
});

test('an unknown path is an error naming the path', async () => {
  const raw = await fetch(`${base}/api/pigmeats/prices`);
  assert.equal(raw.status, 404);
  assert.match(
    String(((await raw.json()) as { technicalErrorMessage: string }).technicalErrorMessage),
    /\/api\/pigmeats\/prices/,
  );
  await rejects(client().listing('/api/wine/colours'), 'unknown-path', /\/api\/wine\/colours/);
});

test('500 is an error carrying the service message; hostile messages arrive sanitized', async () => {
  await faults(['agrifood.error-500']);
  try {
    const raw = await fetch(`${base}/api/beef/prices`);
    assert.equal(raw.status, 500);
    const body = (await raw.json()) as Record<string, unknown>;
    assert.equal(body.error, 'Internal Server Error');
    assert.equal(body.status, '500');
    await rejects(
      client().query('beef', { years: '2020' }),
      'server',
      /An internal error occurred on the server/,
    );
  } finally {
    await faults([], ['agrifood.error-500']);
  }
  await faults(['agrifood.hostile-500']);
  try {
    const e = await rejects(client().query('beef', { years: '2020' }), 'server');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
    assert.doesNotMatch(e.message, /[\u0000-\u001f\u007f\u202e<>]/);
    assert.ok(e.message.length < 800, `message length ${e.message.length}`);
  } finally {
    await faults([], ['agrifood.hostile-500']);
  }
});

test('429 is retried as Retry-After asks, a bounded number of times', async () => {
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  const before = await requests('/api/sugar/prices');
  await faults(['agrifood.rate-limit:2']);
  const r = await client({ sleep }).query('sugar', { yms: '2021/01' });
  assert.ok(r.records.length > 0);
  assert.deepEqual(waits, [1000, 1000], 'Retry-After: 1 honoured before each retry');
  assert.equal((await requests('/api/sugar/prices')) - before, 3);

  waits.length = 0;
  await faults(['agrifood.rate-limit:10']);
  await rejects(client({ sleep, maxRetries: 3 }).query('sugar', { yms: '2021/02' }), 'unavailable', /429/);
  assert.equal(waits.length, 3, 'gives up after maxRetries');
  await faults([], ['agrifood.rate-limit:10']);

  waits.length = 0;
  await faults(['agrifood.unavailable:1']);
  const g = await client({ sleep }).query('sugar', { yms: '2021/03' });
  assert.ok(g.records.length > 0, 'a 503 from the gateway is retried');
  assert.equal(waits.length, 1);
});

test('the waits between retries stay within the time-out: a wait that would end past it is not waited', async () => {
  // A clock of its own, moved by the waits alone: the requests themselves take no time on it.
  let clock = 0;
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
    clock += ms;
  };
  await faults(['agrifood.rate-limit:10']);
  try {
    const before = await requests('/api/sugar/prices');
    // Retry-After: 1 each time; 2.5 s hold two waits, and a third would end at 3 s.
    await rejects(
      client({ sleep, now: () => clock, timeoutMs: 2500 }).query('sugar', { yms: '2021/04' }),
      'unavailable',
      /429/,
    );
    assert.deepEqual(waits, [1000, 1000]);
    assert.equal((await requests('/api/sugar/prices')) - before, 3);
    // A time-out shorter than the first wait: the first answer is the error, nothing is waited.
    waits.length = 0;
    clock = 0;
    await rejects(
      client({ sleep, now: () => clock, timeoutMs: 1000 }).query('sugar', { yms: '2021/05' }),
      'unavailable',
      /429/,
    );
    assert.deepEqual(waits, []);
  } finally {
    await faults([], ['agrifood.rate-limit:10']);
  }
});

test('timeouts, dead networks, malformed answers and cancellation each give one clear error', async () => {
  await faults(['agrifood.slow:1500']);
  try {
    await rejects(
      client({ timeoutMs: 200 }).query('beef', { years: '2020' }),
      'timeout',
      /eforms\.agrifood\.timeoutMs/,
    );
  } finally {
    await faults([], ['agrifood.slow:1500']);
  }
  await faults(['agrifood.malformed']);
  try {
    await rejects(client().query('beef', { years: '2020' }), 'bad-answer');
  } finally {
    await faults([], ['agrifood.malformed']);
  }
  const dead = await startSandbox({ port: 0 });
  const deadUrl = `${dead.origin}/agrifood`;
  await dead.close();
  await rejects(new AgrifoodClient({ baseUrl: deadUrl }).query('beef', {}), 'network', /Cannot reach/);
  const ac = new AbortController();
  ac.abort();
  await rejects(client().query('beef', {}, { signal: ac.signal }), 'cancelled');
});

test('a refused query sends nothing', async () => {
  const before = await requests('/api/taxud/');
  await rejects(client().query('taxud', { memberStateCodes: 'FR' }), 'invalid-query', /sectors or products/);
  await rejects(client().query('poultry', { products: 'Duck' }), 'invalid-query');
  assert.equal(await requests('/api/taxud/'), before);
});

test('answers are cached on disk by URL for the time to live', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agrifood-cache-'));
  cacheDirs.push(dir);
  let now = Date.UTC(2025, 0, 1);
  const c = client({ cacheDir: dir, cacheTtlHours: 1, now: () => now });
  const q = { memberStateCodes: 'FR', years: '2019' };
  const before = await requests('/api/beef/prices');
  const a = await c.query('beef', q);
  const b = await c.query('beef', q);
  assert.equal(a.fromCache, false);
  assert.equal(b.fromCache, true);
  assert.deepEqual(b.records, a.records);
  assert.equal((await requests('/api/beef/prices')) - before, 1, 'the second answer cost no request');
  // A fresh client on the same folder (the chart reopened after a restart) still hits the cache.
  assert.equal(
    (await client({ cacheDir: dir, cacheTtlHours: 1, now: () => now }).query('beef', q)).fromCache,
    true,
  );
  now += 2 * 3_600_000;
  assert.equal((await c.query('beef', q)).fromCache, false, 'expired after the TTL');
  // A damaged cache file is a miss, not an error.
  for (const f of readdirSync(join(dir, 'agrifood'))) writeFileSync(join(dir, 'agrifood', f), '{garbage');
  const d = await c.query('beef', q);
  assert.equal(d.fromCache, false);
  assert.deepEqual(d.records, a.records);
  // No cache when the TTL is 0.
  const none = client({ cacheDir: dir, cacheTtlHours: 0 });
  await none.query('beef', q);
  assert.equal((await none.query('beef', q)).fromCache, false);
});

test('a broad query returns 100,000+ records, streamed', async () => {
  let progress = 0;
  const r = await client().query('cereal', {}, { onProgress: (b) => (progress = b) });
  assert.ok(r.records.length >= 100_000, `${r.records.length} records`);
  assert.ok(progress > 10_000_000, 'progress reported in bytes');
  // Cereal prices use the decimal comma, as the real service.
  assert.match(r.records[0]?.price ?? '', /^€\d{1,3}(\.\d{3})*,\d{2}$/);
});
