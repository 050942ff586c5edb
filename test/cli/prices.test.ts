// `eforms prices` in-process against the sandbox, compared with the service's raw JSON fetched directly.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { main } from '../../cli/main';
import { type RunningSandbox, startSandbox } from '../../sandbox/server';

let sb: RunningSandbox;
let cache: string;
before(async () => {
  sb = await startSandbox({ port: 0 });
  cache = mkdtempSync(join(tmpdir(), 'eforms-cli-cache-'));
});
after(async () => {
  await sb.close();
  rmSync(cache, { recursive: true, force: true });
});

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['prices', ...args, '--agrifood-url', `${sb.origin}/agrifood`], {
    out: (t) => {
      out += `${t}\n`;
    },
    err: (t) => {
      err += `${t}\n`;
    },
    env: { XDG_CACHE_HOME: cache },
    cwd: process.cwd(),
  });
  return { code, out, err };
}

/** Minimal RFC 4180 reader, independent of the exporter. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let q = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') q = false;
      else cell += c;
    } else if (c === '"') q = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

test('CSV carries every record the service sent, field for field', async () => {
  const query = 'memberStateCodes=FR,IT&beginDate=01/01/2022&endDate=31/03/2022';
  const raw = (await (await fetch(`${sb.origin}/agrifood/api/cereal/prices?${query}`)).json()) as Record<
    string,
    unknown
  >[];
  const r = await run([
    'cereal',
    '--memberStateCodes',
    'FR,IT',
    '--beginDate',
    '01/01/2022',
    '--endDate',
    '31/03/2022',
    '--format',
    'csv',
  ]);
  assert.equal(r.code, 0, r.err);
  const rows = readCsv(r.out);
  const header = rows[0] as string[];
  assert.equal(rows.length - 1, raw.length);
  for (let i = 0; i < raw.length; i++) {
    for (const [k, v] of Object.entries(raw[i] as object)) {
      assert.equal(rows[i + 1]?.[header.indexOf(k)], String(v), `${i} ${k}`);
    }
  }
});

test('JSON output is the records as sent; --list prints a listing; filters repeat or comma-separate', async () => {
  const raw = await (
    await fetch(`${sb.origin}/agrifood/api/beef/prices?memberStateCodes=IE,FR&years=2021&weeks=7`)
  ).json();
  const a = await run([
    'beef',
    '--memberStateCodes',
    'IE',
    '--memberStateCodes',
    'FR',
    '--years',
    '2021',
    '--weeks',
    '7',
    '--format',
    'json',
  ]);
  assert.equal(a.code, 0, a.err);
  assert.deepEqual(JSON.parse(a.out), raw);
  const list = await run(['wine', '--list', 'descriptions']);
  const rawList = (await (await fetch(`${sb.origin}/agrifood/api/wine/descriptions`)).json()) as {
    description: string;
  }[];
  assert.deepEqual(
    list.out.trim().split('\n'),
    rawList.map((d) => d.description),
  );
});

test('summary: one line per series with latest, min, max and change computed from the raw prices', async () => {
  const raw = (await (
    await fetch(`${sb.origin}/agrifood/api/rawMilk/prices?memberStateCodes=EU&products=Raw%20milk&years=2020`)
  ).json()) as { price: string; month: number }[];
  const values = raw.sort((x, y) => x.month - y.month).map((x) => Number(x.price.replace(/[^\d.]/g, '')));
  const r = await run([
    'raw-milk',
    '--memberStateCodes',
    'EU',
    '--products',
    'Raw milk',
    '--years',
    '2020',
    '--summary',
    '--format',
    'json',
  ]);
  assert.equal(r.code, 0, r.err);
  const [s] = JSON.parse(r.out) as Record<string, string>[];
  assert.ok(s);
  const eur = (v: number) => `€${v.toFixed(2)}`;
  assert.equal(s.Latest, eur(values[values.length - 1] as number));
  assert.equal(s.Min, eur(Math.min(...values)));
  assert.equal(s.Max, eur(Math.max(...values)));
  const change = (((values[values.length - 1] as number) / (values[0] as number) - 1) * 100).toFixed(1);
  assert.equal(
    s.Change?.replace('−', '-').replace(/^\+/, '').replace(' %', ''),
    change.replace(/^-0\.0$/, '0.0'),
  );
});

test('refused queries and unknown sectors exit 2 with one clear line', async () => {
  const t = await run(['taxud', '--memberStateCodes', 'FR']);
  assert.equal(t.code, 2);
  assert.match(t.err, /sectors or products/);
  const p = await run(['pigmeat', '--pigClasses', 'X']);
  assert.equal(p.code, 2);
  assert.match(p.err, /S, E, R, SE, Piglet/);
  const u = await run(['bananas']);
  assert.equal(u.code, 2);
  assert.match(u.err, /unknown sector/);
  const f = await run(['beef', '--colour', 'red']);
  assert.equal(f.code, 2);
});

test('a busy service: each wait before asking again is said on stderr, and the records come', async () => {
  sb.context.faults.add('agrifood.rate-limit:1');
  try {
    const r = await run([
      'cereal',
      '--memberStateCodes',
      'FR',
      '--beginDate',
      '01/01/2022',
      '--endDate',
      '31/01/2022',
      '--no-cache',
    ]);
    assert.equal(r.code, 0, r.err);
    // The sandbox answers 429 with Retry-After: 1 once, then the records.
    assert.match(r.err, /… the agri-food service is busy \(HTTP 429\): asking again in 1 s\n/);
    assert.match(r.err, /\d+ record\(s\) from /);
  } finally {
    sb.context.faults.delete('agrifood.rate-limit:1');
  }
});
