// The extension's own requests follow VS Code's `http.proxy`: with the agri-food service set to a host
// name that exists nowhere, the Market Explorer still draws its chart, because the request goes through
// a proxy written here (on loopback) that carries it to the sandbox. (Without the proxy the request
// would look the name up and fail; that is not run, so that no test asks a resolver.) Every other
// service URL points at the sandbox meanwhile, so nothing leaves loopback.

import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import * as vscode from 'vscode';
import { Commands } from '../../../client/command-ids';
import { closeAll, setSetting, testEnv } from './editor-support';

/** A host no resolver knows (RFC 2606 reserves .test): only the proxy can reach "it". */
const FAKE_HOST = 'agrifood.eforms-proxy.test';

const SERIES = {
  sector: 'pigmeat',
  filters: {
    memberStateCodes: ['EU'],
    pigClasses: ['E'],
    beginDate: ['01/01/2023'],
    endDate: ['31/12/2023'],
  },
};

/** A proxy that sends every CONNECT tunnel and every absolute-form request to the sandbox; it records what it was asked. */
function startProxy(sandbox: URL): Promise<{ server: Server; url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`GET ${req.url}`);
    const target = new URL(req.url ?? '/');
    const fwd = httpRequest(
      {
        host: sandbox.hostname,
        port: sandbox.port,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    fwd.on('error', () => res.destroy());
    req.pipe(fwd);
  });
  server.on('connect', (req, socket, head) => {
    seen.push(`CONNECT ${req.url}`);
    const up = connect(Number(sandbox.port), sandbox.hostname, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }),
    ),
  );
}

async function setHttp(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('http').update(key, value, vscode.ConfigurationTarget.Global);
}

suite("VS Code's proxy settings", () => {
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;

  suiteSetup(async () => {
    if (!testEnv.sandboxUrl) throw new Error('EFORMS_TEST_SANDBOX_URL must be set by the in-editor runner');
    const sandbox = new URL(testEnv.sandboxUrl);
    proxy = await startProxy(sandbox);
    // Validation and publication stay on the sandbox; only agri-food goes to the made-up host.
    await setSetting('customUrls.cvs', `${testEnv.sandboxUrl}/cvs`);
    await setSetting('customUrls.enotices', `${testEnv.sandboxUrl}/esenders`);
    await setSetting('customUrls.agrifood', `http://${FAKE_HOST}:${sandbox.port}/agrifood`);
    await setSetting('environment', 'custom');
    await setSetting('agrifood.cacheTtlHours', 0);
  });
  teardown(closeAll);
  suiteTeardown(async () => {
    await setHttp('proxy', undefined);
    await setSetting('environment', 'sandbox');
    for (const k of [
      'customUrls.cvs',
      'customUrls.enotices',
      'customUrls.agrifood',
      'agrifood.cacheTtlHours',
    ])
      await setSetting(k, undefined);
    await new Promise((r) => proxy?.server.close(r));
  });

  test('with http.proxy the request goes through the proxy and the chart is drawn', async () => {
    assert.ok(proxy);
    await setHttp('proxy', proxy.url);
    const report = await vscode.commands.executeCommand<{ rendered: number; series: number }>(
      Commands.openMarketExplorer,
      SERIES,
    );
    assert.ok(report && report.series === 1 && report.rendered > 40, JSON.stringify(report));
    assert.ok(
      proxy.seen.some((s) => s.includes(FAKE_HOST)),
      `the proxy carried the request: ${proxy.seen.join(', ') || 'nothing'}`,
    );
  });
});
