// Proxies, tested with a CONNECT proxy written here on loopback (no package, no network): the three
// service clients send their traffic through it, NO_PROXY and loopback bypass it, a refusing or absent
// proxy gives one clear failure of kind `proxy` that names the proxy without its credentials, and the
// command line reads HTTPS_PROXY/HTTP_PROXY/NO_PROXY. Host names end in `.invalid`, which no resolver
// answers: only the proxy (which sends every tunnel to the sandbox) can reach them, so a request that
// succeeds went through it, and one that bypasses it fails with "host name not found".
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AgrifoodClient } from '../../core/agrifood/client';
import { AgrifoodError } from '../../core/agrifood/errors';
import {
  bypassesProxy,
  proxyConfigFromEnv,
  proxyConfigFromVsCode,
  RoutingDispatcher,
  ServiceError,
} from '../../core/http';
import { CvsError, validateNotice } from '../../core/services/cvs-client';
import { EnoticesClient, EnoticesError } from '../../core/services/enotices-client';
import {
  readNoticeFixture,
  type SandboxHarness,
  startHarness,
  TEST_API_KEY,
} from '../support/sandbox-harness';
import { PROJECT_ROOT } from '../support/shared-data';

interface TestProxy {
  url: string;
  /** `host:port` of every CONNECT received, in order. */
  tunnels: string[];
  /** Proxy-Authorization headers received. */
  auth: (string | undefined)[];
  refuse: number | undefined;
  close(): Promise<void>;
}

/** A CONNECT proxy that tunnels every request to `target` (the sandbox), or refuses with `refuse`. */
async function startProxy(targetPort: number): Promise<TestProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => {
    res.writeHead(405).end('CONNECT only');
  });
  const proxy: TestProxy = {
    url: '',
    tunnels: [],
    auth: [],
    refuse: undefined,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    proxy.tunnels.push(req.url ?? '');
    proxy.auth.push(req.headers['proxy-authorization']);
    if (proxy.refuse) {
      client.end(`HTTP/1.1 ${proxy.refuse} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function failure(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ServiceError, `expected a ServiceError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a failure');
}

let h: SandboxHarness;
let proxy: TestProxy;
let port: number;
before(async () => {
  h = await startHarness();
  port = h.sandbox.port;
  proxy = await startProxy(port);
});
after(async () => {
  await proxy?.close();
  await h?.close();
});

const FAR = (service: string) => `http://${service}.proxy-test.invalid`;

describe('through a CONNECT proxy', () => {
  test('agri-food: the answer comes through the proxy, which saw the tunnel', async () => {
    proxy.tunnels.length = 0;
    const dispatcher = new RoutingDispatcher(proxyConfigFromEnv({ HTTP_PROXY: proxy.url }));
    try {
      const client = new AgrifoodClient({
        baseUrl: `${FAR('agrifood')}:${port}/agrifood`,
        dispatcher,
        maxRetries: 0,
      });
      const r = await client.query('beef', { years: '2020', memberStateCodes: 'DE' });
      assert.ok(r.records.length > 0, 'records came back');
      assert.deepEqual(proxy.tunnels, [`agrifood.proxy-test.invalid:${port}`]);
    } finally {
      await dispatcher.close();
    }
  });

  test('NO_PROXY bypasses it (and the .invalid host then cannot be resolved)', async () => {
    proxy.tunnels.length = 0;
    for (const noProxy of [
      'agrifood.proxy-test.invalid',
      '.proxy-test.invalid',
      '*',
      `proxy-test.invalid:${port}`,
    ]) {
      const dispatcher = new RoutingDispatcher(
        proxyConfigFromEnv({ HTTP_PROXY: proxy.url, NO_PROXY: noProxy }),
      );
      try {
        const client = new AgrifoodClient({
          baseUrl: `${FAR('agrifood')}:${port}/agrifood`,
          dispatcher,
          maxRetries: 0,
        });
        const e = await failure(client.query('beef', { years: '2020' }));
        assert.equal(e.kind, 'network', noProxy);
        assert.equal(e.fields.reason, 'unknown-host', noProxy);
      } finally {
        await dispatcher.close();
      }
    }
    assert.deepEqual(proxy.tunnels, [], 'nothing reached the proxy');
  });

  test('loopback never goes through the proxy', async () => {
    proxy.tunnels.length = 0;
    const dispatcher = new RoutingDispatcher({ httpProxy: proxy.url, httpsProxy: proxy.url });
    try {
      const client = new AgrifoodClient({ baseUrl: `${h.origin}/agrifood`, dispatcher, maxRetries: 0 });
      assert.ok((await client.query('beef', { years: '2020', memberStateCodes: 'DE' })).records.length > 0);
      assert.deepEqual(proxy.tunnels, []);
    } finally {
      await dispatcher.close();
    }
  });

  test('a refusing proxy: one failure of kind proxy, for every service, naming it without credentials', async () => {
    proxy.refuse = 403;
    proxy.tunnels.length = 0;
    proxy.auth.length = 0;
    const withCredentials = proxy.url.replace('http://', 'http://alice:s3cr%40t@');
    const dispatcher = new RoutingDispatcher(proxyConfigFromVsCode({ proxy: withCredentials }));
    try {
      const cvs = await failure(
        validateNotice({
          baseUrl: 'https://cvs.proxy-test.invalid',
          apiKey: TEST_API_KEY,
          notice: readNoticeFixture('valid-cn.xml'),
          timeoutMs: 10_000,
          dispatcher,
        }),
      );
      const enotices = await failure(
        new EnoticesClient({
          baseUrl: 'https://enotices.proxy-test.invalid/esenders',
          apiKey: TEST_API_KEY,
          dispatcher,
        }).search(),
      );
      const agrifood = await failure(
        new AgrifoodClient({
          baseUrl: 'https://agrifood.proxy-test.invalid/agrifood',
          dispatcher,
          maxRetries: 0,
        }).query('beef', {
          years: '2020',
        }),
      );
      assert.ok(
        cvs instanceof CvsError && enotices instanceof EnoticesError && agrifood instanceof AgrifoodError,
      );
      for (const e of [cvs, enotices, agrifood]) {
        assert.equal(e.kind, 'proxy', `${e.service}: ${e.message}`);
        assert.equal(e.fields.status, 403);
        assert.equal(e.fields.proxy, proxy.url, 'named by its origin');
        const shown = `${e.message} ${JSON.stringify(e.fields)}`;
        assert.doesNotMatch(shown, /alice|s3cr|%40/, 'credentials never shown');
        assert.doesNotMatch(shown, new RegExp(TEST_API_KEY), 'the API key never shown');
      }
      assert.deepEqual(proxy.tunnels, [
        'cvs.proxy-test.invalid:443',
        'enotices.proxy-test.invalid:443',
        'agrifood.proxy-test.invalid:443',
      ]);
      const basic = `Basic ${Buffer.from('alice:s3cr@t').toString('base64')}`;
      assert.deepEqual(proxy.auth, [basic, basic, basic], 'credentials sent to the proxy, decoded once');
    } finally {
      proxy.refuse = undefined;
      await dispatcher.close();
    }
  });

  test('a proxy that is not there: kind proxy, reason refused', async () => {
    const dispatcher = new RoutingDispatcher({ httpsProxy: `http://127.0.0.1:${await deadPort()}` });
    try {
      const e = await failure(
        validateNotice({
          baseUrl: 'https://cvs.proxy-test.invalid',
          apiKey: TEST_API_KEY,
          notice: readNoticeFixture('valid-cn.xml'),
          timeoutMs: 10_000,
          dispatcher,
        }),
      );
      assert.equal(e.kind, 'proxy');
      assert.equal(e.fields.reason, 'refused');
      assert.equal((e as CvsError).retryable, true);
    } finally {
      await dispatcher.close();
    }
  });
});

describe('proxy configuration', () => {
  test('NO_PROXY forms, and loopback always bypasses', () => {
    const cases: [string, string[], boolean][] = [
      ['https://cvs.ted.europa.eu', ['ted.europa.eu'], true],
      ['https://cvs.ted.europa.eu', ['.europa.eu'], true],
      ['https://cvs.ted.europa.eu', ['*.europa.eu'], true],
      ['https://cvs.ted.europa.eu', ['cvs.ted.europa.eu:443'], true],
      ['https://cvs.ted.europa.eu', ['cvs.ted.europa.eu:8443'], false],
      ['https://cvs.ted.europa.eu', ['europa.eu.example'], false],
      ['https://cvs.ted.europa.eu', ['ted.europa'], false],
      ['https://cvs.ted.europa.eu', [], false],
      ['https://anything.example', ['*'], true],
      ['http://127.0.0.1:8723/cvs', [], true],
      ['http://localhost:8723/cvs', [], true],
      ['http://[::1]:8723/cvs', [], true],
    ];
    for (const [url, noProxy, bypass] of cases)
      assert.equal(bypassesProxy(url, noProxy), bypass, `${url} ${noProxy}`);
  });

  test("VS Code's http settings win over the environment's proxy, and add to its NO_PROXY", () => {
    const c = proxyConfigFromVsCode(
      { proxy: 'http://corp:3128', proxyStrictSSL: false, noProxy: ['intranet.example'] },
      { HTTPS_PROXY: 'http://env:8080', NO_PROXY: 'a.example' },
    );
    assert.equal(c.httpsProxy, 'http://corp:3128');
    assert.equal(c.httpProxy, 'http://corp:3128');
    assert.deepEqual(c.noProxy, ['a.example', 'intranet.example']);
    assert.equal(c.strictSSL, false);
    const env = proxyConfigFromVsCode({ proxy: '' }, { https_proxy: 'http://env:8080' });
    assert.equal(env.httpsProxy, 'http://env:8080', 'empty http.proxy: the environment (either case)');
    assert.equal(env.strictSSL, true);
  });
});

describe('the command line reads HTTP_PROXY, HTTPS_PROXY and NO_PROXY', () => {
  function cli(
    args: string[],
    env: Record<string, string>,
  ): Promise<{ code: number; out: string; err: string }> {
    return new Promise((resolve) => {
      const p = spawn(process.execPath, [join(PROJECT_ROOT, 'dist', 'cli.js'), ...args], {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          XDG_CACHE_HOME: join(PROJECT_ROOT, 'out', '.proxy-test-cache'),
          ...env,
        },
      });
      let out = '';
      let err = '';
      p.stdout.on('data', (d) => {
        out += d;
      });
      p.stderr.on('data', (d) => {
        err += d;
      });
      p.on('close', (code) => resolve({ code: code ?? -1, out, err }));
    });
  }

  test('through the proxy; bypassing it with NO_PROXY; one clear line when it refuses', async () => {
    const args = [
      'prices',
      'beef',
      '--years',
      '2020',
      '--memberStateCodes',
      'DE',
      '--no-cache',
      '--format',
      'json',
    ];
    const url = `${FAR('agrifood')}:${port}/agrifood`;
    proxy.tunnels.length = 0;
    const ok = await cli(args, { HTTP_PROXY: proxy.url, EFORMS_AGRIFOOD_URL: url });
    assert.equal(ok.code, 0, ok.err);
    assert.ok((JSON.parse(ok.out) as unknown[]).length > 0);
    assert.equal(proxy.tunnels.length, 1);

    const bypass = await cli(args, {
      HTTP_PROXY: proxy.url,
      NO_PROXY: 'proxy-test.invalid',
      EFORMS_AGRIFOOD_URL: url,
    });
    assert.equal(bypass.code, 2);
    assert.match(bypass.err, /host name not found/);
    assert.equal(proxy.tunnels.length, 1, 'the proxy saw nothing more');

    proxy.refuse = 407;
    try {
      const refused = await cli(args, {
        HTTP_PROXY: proxy.url.replace('http://', 'http://bob:hunter2@'),
        EFORMS_AGRIFOOD_URL: url,
      });
      assert.equal(refused.code, 2);
      const lines = refused.err.trim().split('\n');
      assert.equal(lines.length, 1, refused.err);
      assert.match(
        lines[0] ?? '',
        new RegExp(
          `the proxy ${proxy.url.replace(/[.]/g, '\\.')} refused the connection .*\\(407\\).*HTTPS_PROXY`,
        ),
      );
      assert.doesNotMatch(refused.err, /bob|hunter2/);
    } finally {
      proxy.refuse = undefined;
    }
  });
});
