// The language server against the sandbox, on how faithfully it shows the service: an SVRL flag shows once, a
// malformed notice reports `malformed`, a notice whose SDK version the service does not accept gets a
// warning on cbc:CustomizationID (and the service's 400 on the element it names), and VS Code's
// http.proxy (asked through workspace/configuration, section `http`) is what the server's requests use.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { fixtureText } from '../support/fixture-expectations';
import { docUri, LspSession, lineCol } from '../support/lsp-session';
import { type SandboxHarness, startHarness, TEST_API_KEY } from '../support/sandbox-harness';

function settingsFor(origin: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    environment: 'sandbox',
    sandboxUrl: origin,
    validation: { debounceMs: 50, timeoutMs: 30000, language: 'en', mode: 'static' },
    ...extra,
  };
}

describe('language server: service answers shown faithfully (flags, malformed notices, SDK versions, proxy)', () => {
  let h: SandboxHarness;
  let s: LspSession;
  before(async () => {
    h = await startHarness();
    s = await LspSession.start({ apiKey: TEST_API_KEY, settings: settingsFor(h.origin) });
  });
  after(async () => {
    await s?.stop();
    await h?.close();
  });

  test('an SVRL flag opens the message once: "[LAWFULNESS] …", never twice', async () => {
    const uri = docUri('flag.xml');
    const p = await s.openAndPublish(uri, fixtureText('invalid-cn.xml'), 'service findings', (x) =>
      x.diagnostics.some((d) => d.source === 'eForms CVS'),
    );
    const flagged = p.diagnostics.filter((d) => d.data?.flag === 'LAWFULNESS');
    assert.ok(flagged.length > 0, 'the fixture has a LAWFULNESS warning');
    for (const d of flagged) {
      assert.match(d.message, /^\[LAWFULNESS\] /);
      assert.doesNotMatch(d.message, /\[LAWFULNESS\].*\[LAWFULNESS\]/);
    }
    await s.closeDocument(uri);
  });

  test('a notice that is not well-formed reports the state malformed', async () => {
    const uri = docUri('broken.xml');
    const mark = s.mark;
    await s.open(uri, fixtureText('malformed.xml'));
    const st = await s.nextStatus(mark, 'malformed status', (x) => x.uri === uri && x.state !== 'validating');
    assert.equal(st.state, 'malformed', JSON.stringify(st));
    await s.closeDocument(uri);
  });

  test('an SDK version outside the accepted range: a warning on cbc:CustomizationID, and the 400 where it points', async () => {
    const uri = docUri('future.xml');
    const text = fixtureText('valid-cn.xml').replace(/eforms-sdk-\d+\.\d+/, 'eforms-sdk-1.99');
    const at = text.indexOf('eforms-sdk-1.99');
    const p = await s.openAndPublish(
      uri,
      text,
      'the version warning and the rejection',
      (x) =>
        x.diagnostics.some((d) => d.code === 'sdk-version-not-accepted') &&
        x.diagnostics.some((d) => d.code === 'cvs-rejected'),
    );
    const warning = p.diagnostics.find((d) => d.code === 'sdk-version-not-accepted');
    assert.equal(warning?.severity, 2);
    assert.deepEqual(warning?.range.start, lineCol(text, at));
    assert.match(
      warning?.message ?? '',
      /eforms-sdk-1\.99 is newer than the versions accepted for publication/,
    );
    const rejected = p.diagnostics.find((d) => d.code === 'cvs-rejected');
    assert.equal(rejected?.severity, 1);
    // The service names cbc:CustomizationID: the finding is on that element's start tag.
    assert.deepEqual(rejected?.range.start, lineCol(text, text.lastIndexOf('<cbc:CustomizationID', at)));
    assert.match(rejected?.message ?? '', /Rules are missing for eForms SDK version 1\.99/);
    await s.closeDocument(uri);
  });
});

describe("language server: VS Code's http.proxy", () => {
  let refusing: Server;
  let tunnels: string[];
  let proxyUrl: string;
  before(async () => {
    tunnels = [];
    refusing = createServer();
    refusing.on('connect', (req, socket: Socket) => {
      tunnels.push(req.url ?? '');
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
    });
    await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', r));
    proxyUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => refusing.close(() => r())));

  test('the server sends through http.proxy, and a refusing proxy is one status naming it', async () => {
    const s = await LspSession.start({
      apiKey: TEST_API_KEY,
      settings: {
        environment: 'custom',
        customUrls: { cvs: 'https://cvs.proxy-test.invalid' },
        validation: { debounceMs: 50, timeoutMs: 30000 },
      },
      http: { proxy: proxyUrl.replace('http://', 'http://carol:pa55@'), proxyStrictSSL: true },
    });
    try {
      const uri = docUri('proxied.xml');
      await s.waitFor('the proxy settings', () => s.logs.some((l) => l.includes('through the proxy')));
      const mark = s.mark;
      await s.open(uri, fixtureText('valid-cn.xml'));
      const st = await s.nextStatus(
        mark,
        'a proxy failure',
        (x) => x.state === 'offline' || x.state === 'error',
      );
      assert.equal(st.failure?.kind, 'proxy', JSON.stringify(st));
      assert.equal(st.failure?.fields.proxy, proxyUrl);
      assert.equal(st.failure?.fields.status, 403);
      // The validation and the version-range request both went to the proxy, and nothing else.
      assert.ok(tunnels.length >= 1);
      assert.deepEqual([...new Set(tunnels)], ['cvs.proxy-test.invalid:443']);
      const everything = JSON.stringify([s.statuses, s.logs, s.published]);
      assert.doesNotMatch(everything, /carol|pa55/, 'proxy credentials never in statuses or logs');
      assert.doesNotMatch(everything, new RegExp(TEST_API_KEY));
    } finally {
      await s.stop();
    }
  });
});
