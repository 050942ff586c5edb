// The CVS client against the real sandbox emulation (the contract's 200/400/401/403 answers and its
// fault switches) and against tiny local servers for what the sandbox never does (an HTML 502, a hostile
// message, a hang, a closed port). Expected rule ids come from the fixture's own header comment; the
// bytes received are compared with the file's bytes.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CvsError, type CvsErrorKind, validateNotice } from '../../core/services/cvs-client';
import { type RunningSandbox, startSandbox } from '../../sandbox/server';
import { PROJECT_ROOT } from '../support/shared-data';

const KEY = 'cvs-client-test-key-5d1c';
const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'notices');
const invalidCn = readFileSync(join(FIXTURES, 'invalid-cn.xml'));
const validCn = readFileSync(join(FIXTURES, 'valid-cn.xml'));

async function rejection(p: Promise<unknown>): Promise<CvsError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof CvsError, `expected a CvsError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the call to fail');
}

function assertKind(e: CvsError, kind: CvsErrorKind, retryable: boolean): void {
  assert.equal(e.kind, kind, e.message);
  assert.equal(e.retryable, retryable, `${kind} retryable`);
  assert.ok(!e.message.includes(KEY), 'the key never appears in a message');
}

/** A local server with one handler; returns its origin and the requests it saw. */
async function localServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void,
): Promise<{
  origin: string;
  server: Server;
  seen: { headers: IncomingMessage['headers']; body: Buffer }[];
}> {
  const seen: { headers: IncomingMessage['headers']; body: Buffer }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen };
}

function close(server: Server): Promise<void> {
  return new Promise((r) => {
    server.close(() => r());
    server.closeAllConnections();
  });
}

describe('validateNotice against the sandbox', () => {
  let sb: RunningSandbox;
  let cvs: string;
  const faults = async (on: string[], off: string[] = []) => {
    const r = await fetch(`${sb.origin}/_sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ on, off }),
    });
    assert.equal(r.status, 200);
  };
  const stats = async () =>
    (await (await fetch(`${sb.origin}/_sandbox/stats`)).json()) as {
      requests: Record<string, number>;
      aborted: Record<string, number>;
    };
  const STAT = 'POST /cvs/v1/notices/validation';

  before(async () => {
    sb = await startSandbox({ port: 0, apiKeys: [KEY] });
    cvs = `${sb.origin}/cvs`;
  });
  after(() => sb.close());

  test('returns the SVRL report listing the failed assertions the fixture declares', async () => {
    const expected = [...invalidCn.toString('utf8').matchAll(/expect: (\w+) (\S+) (\S+)/g)].map((m) => m[2]);
    assert.ok(expected.length >= 5, 'the fixture header lists its rule ids');
    const { svrl } = await validateNotice({
      baseUrl: cvs,
      apiKey: KEY,
      notice: invalidCn,
      language: 'en',
      validationMode: 'static',
      eFormsSdkVersion: '1.15',
      timeoutMs: 20000,
    });
    assert.match(svrl, /schematron-output/);
    for (const id of expected) assert.ok(svrl.includes(`id="${id}"`), `report names ${id}`);
  });

  test('a valid notice gets a report without failed assertions', async () => {
    const { svrl } = await validateNotice({
      baseUrl: `${cvs}/`,
      apiKey: KEY,
      notice: validCn,
      timeoutMs: 20000,
    });
    assert.match(svrl, /schematron-output/);
    assert.doesNotMatch(svrl, /failed-assert/);
  });

  test('no key: refused locally, without a request', async () => {
    await fetch(`${sb.origin}/_sandbox/stats/reset`, { method: 'POST' });
    const e = await rejection(validateNotice({ baseUrl: cvs, apiKey: '', notice: validCn, timeoutMs: 5000 }));
    assertKind(e, 'missing-key', false);
    assert.equal((await stats()).requests[STAT] ?? 0, 0);
  });

  test('an unknown key gives the 403 message', async () => {
    const e = await rejection(
      validateNotice({ baseUrl: cvs, apiKey: 'not-the-key', notice: validCn, timeoutMs: 5000 }),
    );
    assertKind(e, 'forbidden', false);
    assert.equal(e.status, 403);
    assert.equal(e.message, "The API key was refused (403): set a valid key with 'eForms: Set API Key'.");
  });

  test('a language the contract does not list gives the service 400 message', async () => {
    const raw = await fetch(`${cvs}/v1/notices/validation`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ notice: validCn.toString('base64'), language: 'xx' }),
    });
    assert.equal(raw.status, 400);
    const said = ((await raw.json()) as { message: string }).message;
    const e = await rejection(
      validateNotice({ baseUrl: cvs, apiKey: KEY, notice: validCn, language: 'xx', timeoutMs: 5000 }),
    );
    assertKind(e, 'bad-request', false);
    assert.equal(e.status, 400);
    assert.ok(e.message.includes(said.replace(/[.\s]+$/, '')), `${e.message} shows: ${said}`);
  });

  test('rules missing for the requested SDK version: 400', async () => {
    const e = await rejection(
      validateNotice({
        baseUrl: cvs,
        apiKey: KEY,
        notice: validCn,
        eFormsSdkVersion: '0.1',
        timeoutMs: 5000,
      }),
    );
    assertKind(e, 'bad-request', false);
  });

  test('cvs.error-500: a retryable server error', async () => {
    await faults(['cvs.error-500']);
    try {
      const e = await rejection(
        validateNotice({ baseUrl: cvs, apiKey: KEY, notice: validCn, timeoutMs: 5000 }),
      );
      assertKind(e, 'server', true);
      assert.equal(e.status, 500);
      assert.match(e.message, /500/);
    } finally {
      await faults([], ['cvs.error-500']);
    }
  });

  test('cvs.non-xml: a 200 that is not a report is a bad answer', async () => {
    await faults(['cvs.non-xml']);
    try {
      const e = await rejection(
        validateNotice({ baseUrl: cvs, apiKey: KEY, notice: validCn, timeoutMs: 5000 }),
      );
      assertKind(e, 'bad-answer', true);
      assert.doesNotMatch(e.message, /<html|<h1/i, 'no HTML shown to the user');
    } finally {
      await faults([], ['cvs.non-xml']);
    }
  });

  test('cvs.slow beyond the timeout: timeout, and the sandbox sees the request abandoned', async () => {
    await fetch(`${sb.origin}/_sandbox/stats/reset`, { method: 'POST' });
    await faults(['cvs.slow']);
    try {
      const e = await rejection(
        validateNotice({ baseUrl: cvs, apiKey: KEY, notice: validCn, timeoutMs: 1000 }),
      );
      assertKind(e, 'timeout', true);
      // The socket close reaches the sandbox shortly after the client gives up.
      for (let i = 0; i < 50 && !(await stats()).aborted[STAT]; i++)
        await new Promise((r) => setTimeout(r, 20));
      assert.equal((await stats()).aborted[STAT], 1);
    } finally {
      await faults([], ['cvs.slow']);
    }
  });

  test('an aborted signal cancels the request: kind aborted', async () => {
    await faults(['cvs.slow']);
    try {
      const controller = new AbortController();
      const p = validateNotice({
        baseUrl: cvs,
        apiKey: KEY,
        notice: validCn,
        timeoutMs: 20000,
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 100);
      assertKind(await rejection(p), 'cancelled', false);
    } finally {
      await faults([], ['cvs.slow']);
    }
  });
});

describe('validateNotice against odd servers', () => {
  test('sends the exact bytes, base64-encoded, with the key header and the options', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('<?xml version="1.0"?>\r\n<a>é — 😀</a>\r\n', 'utf8'),
    ]);
    const srv = await localServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"errorCode":401,"message":"missing"}');
    });
    try {
      const e = await rejection(
        validateNotice({
          baseUrl: srv.origin,
          apiKey: KEY,
          notice: bytes,
          language: 'fr',
          validationMode: 'dynamic',
          eFormsSdkVersion: '1.12',
          timeoutMs: 5000,
        }),
      );
      assertKind(e, 'missing-key', false);
      const got = srv.seen[0];
      assert.ok(got);
      assert.equal(got.headers['x-api-key'], KEY);
      const body = JSON.parse(got.body.toString('utf8')) as Record<string, string>;
      assert.deepEqual(Buffer.from(body.notice ?? '', 'base64'), bytes);
      assert.equal(body.language, 'fr');
      assert.equal(body.validationMode, 'dynamic');
      assert.equal(
        body.eFormsSdkVersion,
        'eforms-sdk-1.12',
        'sent in the CustomizationID form known clients use',
      );
    } finally {
      await close(srv.server);
    }
  });

  test('a 502 HTML page: retryable server error without the HTML', async () => {
    const srv = await localServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body><h1>Bad Gateway</h1></body></html>');
    });
    try {
      const e = await rejection(
        validateNotice({ baseUrl: srv.origin, apiKey: KEY, notice: validCn, timeoutMs: 5000 }),
      );
      assertKind(e, 'server', true);
      assert.equal(e.status, 502);
      assert.doesNotMatch(e.message, /<|Bad Gateway/);
    } finally {
      await close(srv.server);
    }
  });

  test('a hostile 400 message is stripped of control characters, capped, and never shows the key', async () => {
    const hostile = `bad\u0000 input\u001b[31m\r\nfake line\u202e${KEY}${'x'.repeat(20000)}`;
    const srv = await localServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errorCode: 400, message: hostile, timestamp: '2025-01-01T00:00:00Z' }));
    });
    try {
      const e = await rejection(
        validateNotice({ baseUrl: srv.origin, apiKey: KEY, notice: validCn, timeoutMs: 5000 }),
      );
      assertKind(e, 'bad-request', false);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence.
      assert.doesNotMatch(e.message, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
      assert.ok(e.message.length < 1000, `message length ${e.message.length}`);
      assert.match(e.message, /bad input/);
    } finally {
      await close(srv.server);
    }
  });

  test('a 200 JSON answer is not a report', async () => {
    const srv = await localServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    try {
      const e = await rejection(
        validateNotice({ baseUrl: srv.origin, apiKey: KEY, notice: validCn, timeoutMs: 5000 }),
      );
      assertKind(e, 'bad-answer', true);
    } finally {
      await close(srv.server);
    }
  });

  test('a report in UTF-16 (either byte order, with or without a byte-order mark) is read as the same report', async () => {
    const report = `<?xml version="1.0" encoding="UTF-16"?><svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl"><svrl:failed-assert id="BR-1" location="/*" role="ERROR" test="false()"><svrl:text>Prénom manquant ✓</svrl:text></svrl:failed-assert></svrl:schematron-output>`;
    const le = Buffer.from(report, 'utf16le');
    const be = Buffer.from(le).swap16();
    const bom = (b: Buffer, mark: number[]) => Buffer.concat([Buffer.from(mark), b]);
    const answers: [string, Buffer][] = [
      ['application/xml', bom(le, [0xff, 0xfe])],
      ['application/xml', bom(be, [0xfe, 0xff])],
      ['application/xml; charset=UTF-16LE', le],
      ['application/xml', be],
      ['application/xml', bom(Buffer.from(report), [0xef, 0xbb, 0xbf])],
      // A charset the body is not in (servers get it wrong): the bytes decide.
      ['text/xml; charset=ISO-8859-1', Buffer.from(report)],
      ['application/xml; charset=utf-16', Buffer.from(report)],
    ];
    for (const [contentType, body] of answers) {
      const srv = await localServer((_req, res) => {
        res.writeHead(200, { 'content-type': contentType });
        res.end(body);
      });
      try {
        const { svrl } = await validateNotice({
          baseUrl: srv.origin,
          apiKey: KEY,
          notice: validCn,
          timeoutMs: 5000,
        });
        // Decoded from UTF-16, the declaration says UTF-8: the report is printed so (--format svrl).
        const utf16 = body[0] === 0 || body[1] === 0 || body[0] === 0xff || body[0] === 0xfe;
        assert.equal(
          svrl,
          utf16 ? report.replace('encoding="UTF-16"', 'encoding="UTF-8"') : report,
          contentType,
        );
      } finally {
        await close(srv.server);
      }
    }
  });

  test('a server that never answers: timeout', async () => {
    const srv = await localServer(() => {
      // Never answers.
    });
    try {
      const e = await rejection(
        validateNotice({ baseUrl: srv.origin, apiKey: KEY, notice: validCn, timeoutMs: 1000 }),
      );
      assertKind(e, 'timeout', true);
    } finally {
      await close(srv.server);
    }
  });

  test('a closed port: offline', async () => {
    const srv = await localServer(() => {});
    const origin = srv.origin;
    await close(srv.server);
    const e = await rejection(
      validateNotice({ baseUrl: origin, apiKey: KEY, notice: validCn, timeoutMs: 5000 }),
    );
    assertKind(e, 'network', true);
    assert.match(e.message, /connection refused/);
  });

  test('plain http to a non-loopback host: refused before any connection', async () => {
    const e = await rejection(
      validateNotice({
        baseUrl: 'http://cvs.example.invalid',
        apiKey: KEY,
        notice: validCn,
        timeoutMs: 5000,
      }),
    );
    assertKind(e, 'insecure', false);
  });
});
