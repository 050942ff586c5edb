// The sandbox: faithful loopback emulations of the three services on one port, each under the prefix
// that makes its base URL look like the real one (/cvs, /esenders, /agrifood), plus `/_sandbox/...`
// controls for tests: GET /_sandbox/health, GET /_sandbox/stats (requests and aborted requests per
// `METHOD /path`), POST /_sandbox/stats/reset, GET|POST /_sandbox/faults. The sandbox never imports client or server code.

import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_DEMO_KEY, type SandboxContext, type SandboxService } from './context';
import { createCvsService } from './cvs/service';
import { readBody, sendJson } from './http-kit';
import { defaultServices } from './services';

export interface SandboxOptions {
  /** 0 takes a free port. */
  port: number;
  host?: string;
  /** Valid keys; when empty, SANDBOX_DEMO_KEY is the one valid key. */
  apiKeys?: string[];
  dataDir?: string;
  /** The official SDK rules for the CVS emulation (sandbox/sdk-rules.ts); absent: its own rules. */
  sdkRules?: SandboxContext['sdkRules'];
  /** Extra services (later features mount theirs here too). */
  services?: ((ctx: SandboxContext) => SandboxService)[];
}

export interface RunningSandbox {
  origin: string;
  port: number;
  context: SandboxContext;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const keys = options.apiKeys?.length ? options.apiKeys : [SANDBOX_DEMO_KEY];
  const dataDir = options.dataDir ?? join(tmpdir(), `eforms-sandbox-${process.pid}`);
  mkdirSync(dataDir, { recursive: true });
  const context: SandboxContext = {
    apiKeys: new Set(keys),
    dataDir,
    faults: new Set(),
    now: () => Date.now(),
    origin: '',
    ...(options.sdkRules ? { sdkRules: options.sdkRules } : {}),
  };
  const factories = [createCvsService, ...defaultServices, ...(options.services ?? [])];
  const services = factories.map((f) => f(context));
  /** Requests per `METHOD /path` and those the client abandoned: tests prove caching and cancellation by them. */
  const stats: { requests: Record<string, number>; aborted: Record<string, number> } = {
    requests: {},
    aborted: {},
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const path = url.pathname;
    const done = (p: Promise<void>) =>
      p.catch((err: unknown) => {
        if (!res.headersSent) {
          sendJson(res, 500, {
            errorCode: 500,
            message: `sandbox internal error: ${err instanceof Error ? err.message : String(err)}`,
            timestamp: new Date().toISOString(),
          });
        } else res.destroy();
      });
    if (path === '/_sandbox/health') return sendJson(res, 200, { ok: true });
    if (path === '/_sandbox/stats') return sendJson(res, 200, stats);
    if (path === '/_sandbox/stats/reset' && req.method === 'POST') {
      stats.requests = {};
      stats.aborted = {};
      return sendJson(res, 200, stats);
    }
    if (path === '/_sandbox/faults' && req.method === 'POST') return void done(setFaults(req, res, context));
    if (path === '/_sandbox/faults' && req.method === 'GET')
      return sendJson(res, 200, { on: [...context.faults] });
    for (const s of services) {
      if (path === s.prefix || path.startsWith(`${s.prefix}/`)) {
        const key = `${req.method} ${path}`;
        stats.requests[key] = (stats.requests[key] ?? 0) + 1;
        // A client that gives up (AbortSignal, timeout) closes the socket before the answer is written.
        res.once('close', () => {
          if (!res.writableFinished) stats.aborted[key] = (stats.aborted[key] ?? 0) + 1;
        });
        return void done(s.handle(req, res, path.slice(s.prefix.length) || '/', url));
      }
    }
    sendJson(res, 404, { error: 'Not Found', message: `no emulated service at ${path}` });
  });
  // Long answers (large agri-food queries) must not be cut by Node's default request timeout.
  server.requestTimeout = 0;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${options.host ?? '127.0.0.1'}:${port}`;
  context.origin = origin;

  return {
    origin,
    port,
    context,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      for (const s of services) await s.close?.();
    },
  };
}

async function setFaults(
  req: import('node:http').IncomingMessage,
  res: import('node:http').ServerResponse,
  ctx: SandboxContext,
): Promise<void> {
  let body: { on?: unknown; off?: unknown };
  try {
    body = JSON.parse((await readBody(req, 65536)).toString('utf8'));
  } catch {
    return sendJson(res, 400, { message: 'body must be JSON {"on": [...], "off": [...]}' });
  }
  for (const f of Array.isArray(body.off) ? body.off : []) ctx.faults.delete(String(f));
  for (const f of Array.isArray(body.on) ? body.on : []) ctx.faults.add(String(f));
  sendJson(res, 200, { on: [...ctx.faults] });
}
