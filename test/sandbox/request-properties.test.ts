// Property-based test of the sandbox (fast-check, fixed seed; see test/support/fuzz.ts): arbitrary
// methods, paths, headers and bodies, sent whole, cut off mid-body or with a body shorter than announced,
// to all three services. Whatever comes, each answer is a well-formed HTTP status line (or the
// connection is closed), and afterwards the same sandbox still answers its health request and its data
// folder holds only whole notices.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { type RunningSandbox, startSandbox } from '../../sandbox/server';
import { fuzzParameters } from '../support/fuzz';
import { freshNotice, KEY, NO_ACCOUNT_KEY } from './enotices-kit';

const PATHS = [
  '/cvs/v1/notices/validation',
  '/esenders/api/v2/notice/notices/submit',
  '/esenders/api/notice/notices/submit',
  '/esenders/api/v2/notice/notices/convert',
  '/esenders/api/v2/notice/notices/search-esentool?statuses=SUBMITTED',
  '/esenders/api/v2/notice/notices/%E0%A4%A/validation-report',
  '/esenders/api/v2/notice/notices/x-01/stop-publication-esentool',
  '/agrifood/api/pigmeat/prices?beginDate=31/02/2024',
  '/agrifood/api/cereal/prices?memberStateCodes=%00',
  '/_sandbox/health',
  '//..%2f/../x',
];

/** One request as raw bytes, and how it ends: whole, cut mid-body (connection dropped) or short. */
interface Shot {
  bytes: Buffer;
  ending: 'whole' | 'drop' | 'short';
}

const boundary = 'fuzzB';
const part = (name: string, body: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="f"\r\nContent-Type: application/xml\r\n\r\n${body}\r\n`;

const bodyArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constant('{"notice":"PD94bWwgdmVyc2lvbj0iMS4wIj8+PGEvPg==","language":"en"}'),
  fc
    .record({ notice: fc.anything(), language: fc.anything(), validationMode: fc.anything() })
    .map((r) => JSON.stringify(r) ?? ''),
  fc
    .tuple(fc.anything(), fc.boolean())
    .map(
      ([meta, withNotice]) =>
        `${part('metadata', JSON.stringify(meta) ?? '')}${withNotice ? part('notice', freshNotice().xml) : ''}--${boundary}--\r\n`,
    ),
  fc
    .array(
      fc.constantFrom(
        part('notice', '<TED_EXPORT/>'),
        part('metadata', '{}'),
        `--${boundary}`,
        '\r\n',
        '--',
        'x',
      ),
      { maxLength: 8 },
    )
    .map((a) => a.join('')),
);

const shotArb: fc.Arbitrary<Shot> = fc
  .record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
    path: fc.oneof(
      fc.constantFrom(...PATHS),
      fc.string({ maxLength: 30 }).map((s) => `/${encodeURIComponent(s)}`),
    ),
    auth: fc.constantFrom(`Bearer ${KEY}`, `Bearer ${NO_ACCOUNT_KEY}`, 'Bearer junk', '', KEY),
    apiKey: fc.constantFrom(KEY, '', 'junk'),
    type: fc.constantFrom(
      `multipart/form-data; boundary=${boundary}`,
      'multipart/form-data',
      'application/json',
      'text/plain',
      '',
    ),
    extra: fc.array(
      fc.tuple(
        fc.constantFrom('X-Junk', 'Content-Encoding', 'Transfer-Encoding', 'Accept'),
        fc.constantFrom('gzip', 'chunked', 'x', ''),
      ),
      { maxLength: 2 },
    ),
    body: bodyArb,
    ending: fc.constantFrom('whole', 'drop', 'short'),
    cut: fc.nat(),
  })
  .map((r) => {
    const body = Buffer.from(r.body, 'latin1');
    const announced = r.ending === 'whole' ? body.length : body.length + 100;
    const sent = r.ending === 'whole' ? body : body.subarray(0, body.length === 0 ? 0 : r.cut % body.length);
    const headers = [
      `${r.method} ${r.path} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Connection: close',
      ...(r.auth ? [`Authorization: ${r.auth}`] : []),
      ...(r.apiKey ? [`X-API-Key: ${r.apiKey}`] : []),
      ...(r.type ? [`Content-Type: ${r.type}`] : []),
      ...r.extra.filter(([k]) => k !== 'Transfer-Encoding').map(([k, v]) => `${k}: ${v}`),
      `Content-Length: ${announced}`,
      '',
      '',
    ].join('\r\n');
    return {
      bytes: Buffer.concat([Buffer.from(headers, 'latin1'), sent]),
      ending: r.ending as Shot['ending'],
    };
  });

function send(port: number, shot: Shot): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(got);
    };
    socket.on('data', (d) => {
      got += d.toString('latin1');
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(shot.bytes, () => {
      if (shot.ending === 'drop') done();
    });
    // 'short' waits for the sandbox's request deadline (shortened for this test) to answer 408.
    const timer = setTimeout(done, 5_000);
  });
}

describe('sandbox: arbitrary requests (fast-check)', () => {
  let sb: RunningSandbox;
  let dataDir: string;
  const logged: string[] = [];

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'eforms-fuzz-'));
    sb = await startSandbox({
      port: 0,
      apiKeys: [KEY],
      dataDir,
      log: (m) => logged.push(m),
      requestTimeoutMs: 400,
    });
  });
  after(() => sb.close());

  test('every request is answered or dropped cleanly; the sandbox still answers and stores only whole notices', async () => {
    await fc.assert(
      fc.asyncProperty(shotArb, async (shot) => {
        const answer = await send(sb.port, shot);
        if (answer !== '') assert.match(answer, /^HTTP\/1\.1 \d{3} /);
        if (shot.ending === 'whole') assert.notEqual(answer, '', 'a whole request gets an answer');
      }),
      fuzzParameters(120),
    );
    const r = await fetch(`${sb.origin}/_sandbox/health`);
    assert.equal(r.status, 200);
    const files = readdirSync(join(dataDir, 'enotices'));
    assert.deepEqual(
      files.filter((f) => f.includes('.tmp-')),
      [],
    );
    const ids = new Set(files.map((f) => f.replace(/\.(json|xml|svrl)$/, '')));
    for (const id of ids)
      for (const ext of ['json', 'xml', 'svrl']) assert.ok(files.includes(`${id}.${ext}`), `${id}.${ext}`);
    assert.deepEqual(logged, [], 'no request failed inside the sandbox');
  });
});
