// core/http, the one HTTP layer of the three service clients: one sanitizer, one cancellation kind, one
// timeout, one capped reader and redirects turned into errors, the same for CVS, eNotices2 and agri-food.
// Loopback servers only.
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { AgrifoodClient } from '../../core/agrifood/client';
import {
  httpRequest,
  isTransportKind,
  ServiceError,
  sanitizeServiceText,
  TransportError,
} from '../../core/http';
import { validateNotice } from '../../core/services/cvs-client';
import { EnoticesClient } from '../../core/services/enotices-client';

describe('sanitizeServiceText', () => {
  test('removes control, bidi and zero-width characters and terminal escapes; collapses whitespace', () => {
    assert.equal(sanitizeServiceText('a\u0000b\nc\u202e\u200bd \u001b[31mred\u001b[0m  e'), 'a b cd red e');
    // Whole sequences: a window title (OSC, ended by BEL or ESC \\) and the C1 forms leave nothing behind.
    assert.equal(
      sanitizeServiceText('a\u001b]0;pwn\u0007b \u001b]8;;http://x\u001b\\link\u009b2Jc \u009d0;t\u009cd'),
      'ab linkc d',
    );
  });
  test('caps the length without splitting a surrogate pair', () => {
    const s = sanitizeServiceText(`${'x'.repeat(8)}😀😀😀`, 10);
    assert.ok(s.length <= 10);
    assert.ok(!/[\ud800-\udbff]…$/.test(s), JSON.stringify(s));
    assert.ok(s.endsWith('…'));
  });
  test('keeps element names unless markup is to be dropped; anything but text gives nothing', () => {
    assert.equal(sanitizeServiceText('missing <cbc:ID>'), 'missing <cbc:ID>');
    assert.equal(sanitizeServiceText('<h1>Bad</h1> gateway', 300, { stripMarkup: true }), 'Bad gateway');
    assert.equal(sanitizeServiceText({ message: 'x' }), '');
    assert.equal(sanitizeServiceText(undefined), '');
    assert.equal(sanitizeServiceText(404), '404');
  });
  test('a secret is shown as *** after the invisible characters that could spell it apart are removed', () => {
    const spelt = [...'K3Y-abc'].join('\u200b');
    assert.equal(sanitizeServiceText(`key ${spelt}, K3Y-abc`, 300, { secret: 'K3Y-abc' }), 'key ***, ***');
    // Spelt apart by control characters (shown as spaces) or spaces, and with regex characters in it.
    assert.equal(
      sanitizeServiceText('k\u0001e\u0007y-1 and k e y-1', 300, { secret: 'key-1' }),
      '*** and ***',
    );
    assert.equal(sanitizeServiceText('a.b+c (a.b+c)', 300, { secret: 'a.b+c' }), '*** (***)');
    assert.equal(sanitizeServiceText('axb+c', 300, { secret: 'a.b+c' }), 'axb+c');
    // Without the secret the key is what the text says, joined.
    assert.equal(sanitizeServiceText(`key ${spelt}`), 'key K3Y-abc');
  });
  test('bounded work on huge input', () => {
    assert.equal(sanitizeServiceText('y'.repeat(5_000_000), 50).length, 50);
  });
});

describe('transport', () => {
  let server: Server;
  let base: string;
  const routes: Record<string, (res: ServerResponse) => void> = {
    '/slow': () => undefined, // never answers
    '/moved': (res) => res.writeHead(308, { location: '/elsewhere?key=secret' }).end(),
    '/big': (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`[${'1,'.repeat(600_000)}1]`);
    },
  };
  before(async () => {
    server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const route = Object.entries(routes).find(([p]) => path.includes(p));
      if (route) route[1](res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  test('a redirect is an error naming the new address (without its query), never followed', async () => {
    const e = await httpRequest(`${base}/moved`, { method: 'GET', timeoutMs: 5000, maxBytes: 1000 }).catch(
      (x) => x,
    );
    assert.ok(e instanceof TransportError);
    assert.equal(e.kind, 'redirect');
    assert.equal(e.fields.location, `${base}/elsewhere`);
    assert.equal(e.fields.status, 308);
  });

  test('an answer over the cap is kind too-large', async () => {
    const e = await httpRequest(`${base}/big`, { method: 'GET', timeoutMs: 5000, maxBytes: 100_000 }).catch(
      (x) => x,
    );
    assert.ok(e instanceof TransportError);
    assert.equal(e.kind, 'too-large');
    assert.equal(e.fields.maxBytes, 100_000);
  });

  test('one cancellation kind for the three services', async () => {
    const errors: ServiceError[] = [];
    const cancelSoon = () => {
      const c = new AbortController();
      setImmediate(() => c.abort());
      return c.signal;
    };
    const attempts = [
      validateNotice({
        baseUrl: `${base}/slow`,
        apiKey: 'k',
        notice: Buffer.from('<a/>'),
        timeoutMs: 30000,
        signal: cancelSoon(),
      }),
      new EnoticesClient({ baseUrl: `${base}/slow/esenders`, apiKey: 'k' }).search(
        {},
        {},
        { signal: cancelSoon() },
      ),
      new AgrifoodClient({ baseUrl: `${base}/slow/agrifood` }).query(
        'beef',
        { years: '2020' },
        { signal: cancelSoon() },
      ),
    ];
    for (const a of attempts)
      errors.push(
        await a.then(
          () => assert.fail('expected a failure'),
          (x: ServiceError) => x,
        ),
      );
    assert.deepEqual(
      errors.map((e) => [e instanceof ServiceError, e.service, e.kind]),
      [
        [true, 'cvs', 'cancelled'],
        [true, 'enotices', 'cancelled'],
        [true, 'agrifood', 'cancelled'],
      ],
    );
  });

  test('one timeout kind for the three services, carrying the limit', async () => {
    const attempts = [
      validateNotice({ baseUrl: `${base}/slow`, apiKey: 'k', notice: Buffer.from('<a/>'), timeoutMs: 300 }),
      new EnoticesClient({ baseUrl: `${base}/slow/esenders`, apiKey: 'k', timeoutMs: 300 }).search(),
      new AgrifoodClient({ baseUrl: `${base}/slow/agrifood`, timeoutMs: 300, maxRetries: 0 }).query('beef', {
        years: '2020',
      }),
    ];
    for (const a of attempts) {
      const e = await a.then(
        () => assert.fail('expected a failure'),
        (x: ServiceError) => x,
      );
      assert.equal(e.kind, 'timeout', `${e.service}: ${e.message}`);
      assert.equal(e.fields.timeoutMs, 300);
      assert.ok(isTransportKind(e.kind));
    }
  });
});

describe('an answer that is not HTTP', () => {
  /** A TCP server that writes `reply` to every connection once it has read the request's first bytes. */
  async function raw(reply: string | undefined): Promise<{ url: string; close: () => void }> {
    const s = createNetServer((c) => {
      c.on('error', () => {});
      c.once('data', () => {
        if (reply === undefined) c.destroy();
        else c.end(reply);
      });
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/x`, close: () => s.close() };
  }
  async function failureOf(reply: string | undefined): Promise<TransportError> {
    const s = await raw(reply);
    try {
      const e = await httpRequest(s.url, { method: 'GET', timeoutMs: 5000, maxBytes: 1000 }).catch((x) => x);
      assert.ok(e instanceof TransportError, String(e));
      return e;
    } finally {
      s.close();
    }
  }

  test('a broken status line, another protocol, a forbidden header byte, a length past any number: not-http', async () => {
    for (const reply of [
      'HTTP/1.1 2x0 OK\r\n\r\n',
      'SSH-2.0-OpenSSH_9.2\r\n',
      'HTTP/1.1 200 OK\r\nX-A: a\u0001b\r\nContent-Length: 1\r\n\r\na',
      'HTTP/1.1 200 OK\r\nContent-Length: 999999999999999999999\r\n\r\nabc',
    ]) {
      const e = await failureOf(reply);
      assert.equal(e.kind, 'network', JSON.stringify(reply));
      assert.equal(e.fields.reason, 'not-http', JSON.stringify(reply));
    }
  });

  test('a connection closed without an answer is still "closed"', async () => {
    const e = await failureOf(undefined);
    assert.equal(e.kind, 'network');
    assert.notEqual(e.fields.reason, 'not-http');
  });
});
