// The eNotices2 client against a hand-written hostile server (not the sandbox): hostile strings in
// answers, 429 and 5xx, connection resets (GET retried once, submit never), dead network, insecure URLs,
// and both encodings of convert's "list of byte arrays".

import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  businessIdOfNotice,
  decodeByteArrays,
  EnoticesClient,
  EnoticesError,
  sanitizeServiceText,
} from '../../core/services/enotices-client';

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;
let server: Server;
let base = '';
let handler: Handler = (_q, r) => r.end();
let count = 0;

before(async () => {
  server = createServer((req, res) => {
    count++;
    req.resume();
    handler(req, res, count);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/esenders`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

function serve(h: Handler): EnoticesClient {
  count = 0;
  handler = h;
  return new EnoticesClient({ baseUrl: base, apiKey: 'secret-key-123' });
}
/** Control characters and the right-to-left override that could disguise a message. */
const hasControl = (t: string) => [...t].some((ch) => ch.charCodeAt(0) < 0x20 || ch === '\u202e');
const BID = '52fe3748-f475-4381-9dbf-31ebb08889e8-01';
const NOTICE = '<ContractNotice/>';

describe('hostile answers', () => {
  test('control characters and floods in ExceptionBody are cleaned and capped', async () => {
    const c = serve((_q, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ code: 'X\u0007Y', message: `\u001b[31mboom\u0000${'A'.repeat(10000)}\u202e` }),
      );
    });
    const e = await c.validationReport(BID).catch((x: unknown) => x);
    assert.ok(e instanceof EnoticesError);
    assert.equal(e.status, 500);
    assert.ok(!hasControl(e.message));
    assert.ok(e.message.length < 1000);
    assert.equal(e.code, undefined);
    assert.ok(!e.message.includes('secret-key-123'));
  });
  test('search: a page at most, and a total that counts at least the page', async () => {
    let body: unknown = {};
    const c = serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    const row = (k: number) => ({ id: `n${k}`, versionId: '01', status: 'SUBMITTED' });
    const rows = (n: number) => Array.from({ length: n }, (_, k) => row(k));
    for (const [totalSize, expected] of [
      [null, 2],
      [1e23, 2],
      [-5, 2],
      [1.5, 2],
      ['7', 2],
      [1, 2],
      [40, 40],
    ] as const) {
      body = { totalSize, content: rows(2) };
      assert.equal((await c.search()).totalSize, expected, String(totalSize));
    }
    // A version given as a number or unpadded is read as the two digits of a business id.
    body = {
      totalSize: 3,
      content: [
        { ...row(0), versionId: 1 },
        { ...row(1), versionId: '2' },
        { ...row(2), versionId: 12 },
      ],
    };
    const versions = (await c.search()).content.map((n) => businessIdOfNotice(n));
    assert.deepEqual(versions, ['n0-01', 'n1-02', 'n2-12']);
    body = { totalSize: 100_000, content: rows(1000) };
    const page = await c.search({}, { size: 20 });
    assert.equal(page.content.length, 20);
    assert.equal(page.totalSize, 100_000);
  });

  test('stop: only a 200 that is not a web page means stopped (the spec: 200 = publication stopped)', async () => {
    let answer: (res: import('node:http').ServerResponse) => void = () => {};
    const c = serve((_q, res) => answer(res));
    const outcome = async () => {
      try {
        await c.stopPublication(BID);
        return 'stopped';
      } catch (e) {
        return e instanceof EnoticesError ? e.kind : String(e);
      }
    };
    answer = (res) => {
      res.writeHead(200);
      res.end();
    };
    assert.equal(await outcome(), 'stopped');
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"STOPPED"}');
    };
    assert.equal(await outcome(), 'stopped');
    for (const status of [201, 202, 204]) {
      answer = (res) => {
        res.writeHead(status);
        res.end();
      };
      assert.equal(await outcome(), 'protocol', `HTTP ${status}`);
    }
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('\n  <html><body>Sign in</body></html>');
    };
    assert.equal(await outcome(), 'protocol', 'a sign-in page');
  });

  test('submit: an answer that does not say whether the notice was submitted is not "validation failed"', async () => {
    let body = '';
    const c = serve((_q, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(body);
    });
    const meta = { noticeAuthorEmail: 'a@example.org', noticeAuthorLocale: 'en' };
    for (const b of ['{"success":"true"}', '{}', '{"success":null}']) {
      body = b;
      const e = await c.submit(NOTICE, meta).catch((x: unknown) => x);
      assert.ok(e instanceof EnoticesError && e.kind === 'protocol', `${b}: ${String(e)}`);
    }
    body = '{"success":false}';
    assert.equal((await c.submit(NOTICE, meta)).success, false);
    body = '{"success":true}';
    assert.equal((await c.submit(NOTICE, meta)).success, true);
  });

  test('the key is never shown, even spelt apart with invisible characters, on errors and answers', async () => {
    const KEY = 'secret-key-123';
    // Each character of the key followed by a zero-width space: removing those joins the key again.
    const spelt = [...KEY].join('\u200b');
    let answer: (res: import('node:http').ServerResponse) => void = () => {};
    const c = serve((_q, res) => answer(res));
    answer = (res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'X', message: `bad key ${spelt} and ${KEY}` }));
    };
    const e = await c.validationReport(BID).catch((x: unknown) => x);
    assert.ok(e instanceof EnoticesError);
    assert.ok(!e.message.includes(KEY), e.message);
    assert.match(e.message, /bad key \*\*\* and \*\*\*/);
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          totalSize: 1,
          content: [
            { id: BID.slice(0, -3), versionId: '01', status: 'SUBMITTED', noticeAuthor: `by ${spelt}` },
          ],
        }),
      );
    };
    const page = await c.search({});
    assert.equal(page.content[0]?.noticeAuthor, 'by ***');
    answer = (res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ success: true, validationReportUrl: `https://cvs.example/r?apikey=${spelt}` }),
      );
    };
    const sent = await c.submit(NOTICE, { noticeAuthorEmail: 'a@example.org', noticeAuthorLocale: 'en' });
    assert.equal(sent.validationReportUrl, 'https://cvs.example/r?apikey=***');
  });

  test('search answers with hostile fields are sanitized, junk entries dropped', async () => {
    const c = serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          totalSize: 'lots',
          content: [
            null,
            7,
            { id: `id\u0000\n${'x'.repeat(500)}`, status: 'SUBMITTED\u0007', languages: ['EN\u0001G'] },
          ],
        }),
      );
    });
    const r = await c.search();
    assert.equal(r.content.length, 1);
    assert.ok(r.content[0].id.length <= 200);
    assert.ok(!hasControl(r.content[0].id + r.content[0].status + r.content[0].languages.join('')));
    assert.equal(r.totalSize, 1);
  });
  test('a notice without a status has none (""), not a made-up one', async () => {
    const c = serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          totalSize: 2,
          content: [
            { id: 'a', versionId: '01' },
            { id: 'b', status: null },
          ],
        }),
      );
    });
    assert.deepEqual(
      (await c.search()).content.map((n) => n.status),
      ['', ''],
    );
  });
  test('an HTML page instead of JSON is a protocol error naming the URL to check', async () => {
    const c = serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    });
    await assert.rejects(
      c.search(),
      (e: EnoticesError) => e.kind === 'protocol' && /\/esenders/.test(e.message),
    );
  });
  test('429 says to wait; 503 says to try later', async () => {
    let status = 429;
    const c = serve((_q, res) => {
      res.writeHead(status);
      res.end();
    });
    await assert.rejects(
      c.search(),
      (e: EnoticesError) => e.kind === 'rate-limited' && /wait a minute/.test(e.message),
    );
    status = 503;
    await assert.rejects(
      c.search(),
      (e: EnoticesError) => e.kind === 'service' && /try again/.test(e.message),
    );
  });
});

describe('retries', () => {
  test('a GET is retried once after a connection reset', async () => {
    const c = serve((_q, res, n) => {
      if (n === 1) return res.socket?.destroy();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"totalSize":0,"content":[]}');
    });
    assert.deepEqual(await c.search(), { totalSize: 0, content: [] });
    assert.equal(count, 2);
  });
  test('submit is never retried: one request, and the message says to check before resubmitting', async () => {
    const c = serve((_q, res) => res.socket?.destroy());
    await assert.rejects(
      c.submit(NOTICE, { noticeAuthorEmail: 'a@b.org', noticeAuthorLocale: 'en' }),
      (e: EnoticesError) => e.kind === 'network' && /check My Notices before trying again/.test(e.message),
    );
    assert.equal(count, 1);
  });
  test('stop is never retried', async () => {
    const c = serve((_q, res) => res.socket?.destroy());
    await assert.rejects(c.stopPublication(BID));
    assert.equal(count, 1);
  });
});

describe('transport', () => {
  test('dead network: one clear message', async () => {
    const c = new EnoticesClient({ baseUrl: 'http://127.0.0.1:1/esenders', apiKey: 'k' });
    await assert.rejects(
      c.search(),
      (e: EnoticesError) => e.kind === 'network' && /could not reach eNotices2/.test(e.message),
    );
  });
  test('the key is never sent over plain http to a non-loopback host', async () => {
    const c = new EnoticesClient({ baseUrl: 'http://enotices.example.org/esenders', apiKey: 'k' });
    await assert.rejects(c.search(), (e: EnoticesError) => e.kind === 'local' && /https/.test(e.message));
  });
  test('Authorization is Bearer <key>; submit sends notice and metadata parts', async () => {
    let auth = '';
    let body = '';
    const c = serve((req, res) => {
      auth = String(req.headers.authorization);
      const chunks: Buffer[] = [];
      req.on('data', (d: Buffer) => chunks.push(d));
      req.on('end', () => {
        body = Buffer.concat(chunks).toString('utf8');
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end('{"validationReportUrl":"https://x.example/r","success":true}');
      });
    });
    const r = await c.submit(NOTICE, { noticeAuthorEmail: 'a@b.org', noticeAuthorLocale: 'fr' });
    assert.equal(auth, 'Bearer secret-key-123');
    assert.match(body, /name="notice"; filename="notice.xml"/);
    assert.match(body, /name="metadata"/);
    assert.match(body, /"noticeAuthorLocale":"fr"/);
    assert.deepEqual(r, { success: true, validationReportUrl: 'https://x.example/r', businessId: undefined });
  });
  test('a malformed business id is refused before sending', async () => {
    const c = serve((_q, res) => res.end());
    await assert.rejects(c.validationReport('nope'), (e: EnoticesError) => e.kind === 'local');
    assert.equal(count, 0);
  });
});

describe('convert answers', () => {
  const xml = '<?xml version="1.0"?><ContractNotice>é</ContractNotice>';
  const bytes = Buffer.from(xml, 'utf8');
  const bad = () => new Error('bad');
  test('base64 strings, split anywhere, join to the document', () => {
    const parts = [bytes.subarray(0, 7), bytes.subarray(7, 41), bytes.subarray(41)].map((b) =>
      b.toString('base64'),
    );
    assert.equal(decodeByteArrays(parts, bad), xml);
  });
  test('arrays of numbers, signed as Java writes them, join too', () => {
    const signed = [...bytes].map((b) => (b > 127 ? b - 256 : b));
    assert.equal(decodeByteArrays([signed.slice(0, 10), signed.slice(10)], bad), xml);
    assert.equal(decodeByteArrays(signed, bad), xml);
  });
  test('anything else is refused', () => {
    assert.throws(() => decodeByteArrays({ a: 1 }, bad));
    assert.throws(() => decodeByteArrays([[1, 2, 999]], bad));
    assert.throws(() => decodeByteArrays(['<not base64>'], bad));
  });
  test('the client accepts an XML body as well', async () => {
    const c = serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(xml);
    });
    assert.equal(await c.convert('<TED_EXPORT/>'), xml);
  });
  test('sanitizeServiceText caps and strips', () => {
    assert.equal(sanitizeServiceText('a\u0000b\nc', 10), 'a b c');
    assert.equal(sanitizeServiceText('x'.repeat(20), 5).length, 5);
    assert.equal(sanitizeServiceText({}), '');
  });
});
