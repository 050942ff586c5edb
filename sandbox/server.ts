// The sandbox: faithful loopback emulations of the three services on one port, each under the prefix
// that makes its base URL look like the real one (/cvs, /esenders, /agrifood), plus `/_sandbox/...`
// controls for tests: GET /_sandbox/health, GET /_sandbox/stats (requests and aborted requests per
// `METHOD /path`), POST /_sandbox/stats/reset, GET|POST /_sandbox/faults. The sandbox never imports client or server code.
// Bad input never takes it down: every request runs inside a guard that answers 500 and logs, the
// streams of a request cannot raise an unhandled 'error', and a request body that trickles in is cut
// with 408 after INPUT_LIMITS.requestMs (answers themselves may take as long as they need).

import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INPUT_LIMITS } from '../core/notice';
import { clip, terminalText } from '../core/text';
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
  /**
   * Seconds a submitted notice stays SUBMITTED, then PUBLISHING (`eforms sandbox --publish-delay`).
   * Default: EFORMS_SANDBOX_PUBLISH_STEP_SECONDS, else 5 s.
   */
  publishStepSeconds?: number;
  /** The official SDK rules for the CVS emulation (sandbox/sdk-rules.ts); absent: its own rules. */
  sdkRules?: SandboxContext['sdkRules'];
  /** Extra services (later features mount theirs here too). */
  services?: ((ctx: SandboxContext) => SandboxService)[];
  /** Where a request that failed inside the sandbox is logged (default: stderr). */
  log?: (message: string) => void;
  /** Deadline for receiving a whole request (default INPUT_LIMITS.requestMs); tests shorten it. */
  requestTimeoutMs?: number;
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
  const factories = [
    createCvsService,
    ...defaultServices({ publishStepSeconds: options.publishStepSeconds }),
    ...(options.services ?? []),
  ];
  const services = factories.map((f) => f(context));
  /** Requests per `METHOD /path` and those the client abandoned: tests prove caching and cancellation by them. */
  const stats: { requests: Record<string, number>; aborted: Record<string, number> } = {
    requests: {},
    aborted: {},
  };

  const log = options.log ?? ((m: string) => process.stderr.write(`${terminalText(m)}\n`));
  /** The crash guard's answer: 500 when nothing was sent yet, else the connection is closed. */
  const internalError = (req: IncomingMessage, res: ServerResponse, err: unknown): void => {
    // A client that went away mid-request is not a failure of the sandbox: nothing to answer or log.
    const clientLeft = res.destroyed || req.socket.destroyed;
    if (!clientLeft)
      log(
        `sandbox: ${req.method} ${clip(req.url ?? '', 200)} failed inside the sandbox: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
    try {
      if (!res.headersSent) {
        sendJson(res, 500, {
          errorCode: 500,
          message: `sandbox internal error: ${clip(err instanceof Error ? err.message : String(err), 300)}`,
          timestamp: new Date().toISOString(),
        });
      } else res.destroy();
    } catch {
      res.destroy();
    }
    // Whatever is left of the body is read and dropped, so the client gets the answer.
    if (!req.complete) req.resume();
  };

  const requestTimeout = options.requestTimeoutMs ?? INPUT_LIMITS.requestMs.max;
  // Node looks for overdue requests every connectionsCheckingInterval (30 s by default).
  const checkEvery = Math.max(100, Math.min(30_000, Math.floor(requestTimeout / 4)));
  const server: Server = createServer({ connectionsCheckingInterval: checkEvery }, (req, res) => {
    // A client that resets the connection errors these streams: that is its business, not a crash.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    try {
      route(req, res);
    } catch (err) {
      internalError(req, res, err);
    }
  });

  const route = (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    } catch {
      // `//host/...` with a host the URL parser refuses, `http://[`: not a path any service has.
      return sendJson(res, 400, { error: 'Bad Request', message: 'the request target is not a valid path' });
    }
    const path = url.pathname;
    const done = (p: Promise<void>) => p.catch((err: unknown) => internalError(req, res, err));
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
    sendJson(res, 404, { error: 'Not Found', message: `no emulated service at ${clip(path, 200)}` });
  };
  // Receiving a request (headers and body) has a deadline: a body that trickles in would hold a
  // connection and its buffers forever. Sending the answer has none, so large agri-food answers and the
  // cvs.slow fault are never cut.
  server.requestTimeout = requestTimeout;
  server.headersTimeout = Math.min(server.headersTimeout, requestTimeout);

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
