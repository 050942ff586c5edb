// Proxy support for every service client, in one place: which proxy a request goes through (if any),
// read from HTTPS_PROXY/HTTP_PROXY/NO_PROXY (the CLI, and the default everywhere) or from an explicit
// configuration (VS Code's http.proxy, http.proxyStrictSSL, http.noProxy, which do not reach the
// language server's process by themselves). Loopback never goes through a proxy. It must never put a
// proxy's credentials in a message, a log or a field: `describeProxy` is the only way a proxy is named.
// Certificates: nothing here passes `ca`, so Node's store, including NODE_EXTRA_CA_CERTS, stays in force.

import type { Agent, Dispatcher, ProxyAgent } from 'undici';
import { isLoopbackUrl } from './environments';
import { undici } from './undici';

// The base class alone (undici's small dispatcher module, the very one undici itself exports as
// `Dispatcher`): the rest of undici is loaded when a dispatcher first sends or makes an agent.
const DispatcherBase = require('undici/lib/dispatcher/dispatcher') as typeof Dispatcher;

export interface ProxyConfig {
  /** Proxy for https targets, e.g. http://proxy.example:3128 (credentials allowed, never shown). */
  httpsProxy?: string;
  /** Proxy for plain http targets. */
  httpProxy?: string;
  /** Hosts that bypass the proxy: `example.org` (and its subdomains), `.example.org`, `*.example.org`, `host:port`, `*`. */
  noProxy?: readonly string[];
  /** false: accept any certificate on proxied connections (VS Code's http.proxyStrictSSL). Default true. */
  strictSSL?: boolean;
}

/** VS Code's `http` settings section, as the client or the server reads it. */
export interface VsCodeHttpSettings {
  proxy?: unknown;
  proxyStrictSSL?: unknown;
  noProxy?: unknown;
}

type Env = Record<string, string | undefined>;

function envValue(env: Env, name: string): string | undefined {
  const v = env[name] ?? env[name.toLowerCase()];
  return v?.trim() ? v.trim() : undefined;
}

/** HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either case), as undici's EnvHttpProxyAgent reads them: https targets fall back to HTTP_PROXY. */
export function proxyConfigFromEnv(env: Env): ProxyConfig {
  const httpProxy = envValue(env, 'HTTP_PROXY');
  return {
    httpsProxy: envValue(env, 'HTTPS_PROXY') ?? httpProxy,
    httpProxy,
    noProxy: splitNoProxy(envValue(env, 'NO_PROXY')),
    strictSSL: true,
  };
}

/**
 * The proxy configuration VS Code users expect: `http.proxy` for every target when set, else the
 * environment's; `http.noProxy` added to NO_PROXY; `http.proxyStrictSSL` (default true).
 */
export function proxyConfigFromVsCode(http: VsCodeHttpSettings | undefined, env: Env = {}): ProxyConfig {
  const fromEnv = proxyConfigFromEnv(env);
  const proxy = typeof http?.proxy === 'string' && http.proxy.trim() ? http.proxy.trim() : undefined;
  const extra = Array.isArray(http?.noProxy)
    ? http.noProxy.filter((s): s is string => typeof s === 'string')
    : typeof http?.noProxy === 'string'
      ? splitNoProxy(http.noProxy)
      : [];
  return {
    httpsProxy: proxy ?? fromEnv.httpsProxy,
    httpProxy: proxy ?? fromEnv.httpProxy,
    noProxy: [...(fromEnv.noProxy ?? []), ...extra.map((s) => s.trim()).filter(Boolean)],
    strictSSL: http?.proxyStrictSSL !== false,
  };
}

function splitNoProxy(v: string | undefined): string[] {
  return (v ?? '')
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** True when `target` must not go through the proxy: loopback, or a NO_PROXY entry matches it. */
export function bypassesProxy(target: string | URL, noProxy: readonly string[] = []): boolean {
  let u: URL;
  try {
    u = typeof target === 'string' ? new URL(target) : target;
  } catch {
    return true;
  }
  if (isLoopbackUrl(u.href)) return true;
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy) {
    const entry = raw.trim().toLowerCase();
    if (entry === '*') return true;
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry);
    if (!m) continue;
    if (m[2] && m[2] !== port) continue;
    const name = (m[1] ?? '').replace(/^\[|\]$/g, '').replace(/^\*?\./, '');
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** `scheme://host:port` of a proxy URL: never its credentials. */
export function describeProxy(proxyUrl: string): string {
  try {
    const u = new URL(proxyUrl);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'the configured proxy (not a valid URL)';
  }
}

/**
 * An undici dispatcher that sends each request directly or through the configured proxy, per target.
 * Pass it to the service clients (`dispatcher` option); `proxyFor` tells the transport which proxy
 * a failed request went through, so the failure can name it.
 */
export class RoutingDispatcher extends DispatcherBase {
  #direct: Agent | undefined;
  private readonly proxies = new Map<string, ProxyAgent>();

  constructor(readonly config: ProxyConfig = {}) {
    super();
  }

  /** The proxy URL (with any credentials: internal use only) that a request to `target` goes through. */
  proxyFor(target: string | URL): string | undefined {
    let u: URL;
    try {
      u = typeof target === 'string' ? new URL(target) : target;
    } catch {
      return undefined;
    }
    const proxy = u.protocol === 'https:' ? this.config.httpsProxy : this.config.httpProxy;
    if (!proxy || bypassesProxy(u, this.config.noProxy)) return undefined;
    return proxy;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const proxy = options.origin ? this.proxyFor(String(options.origin)) : undefined;
    return (proxy ? this.agentFor(proxy) : this.direct()).dispatch(options, handler);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | undefined {
    const done = Promise.all([
      this.#direct?.close(),
      ...[...this.proxies.values()].map((p) => p.close()),
    ]).then(() => undefined);
    if (!callback) return done;
    void done.then(callback, callback);
    return undefined;
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | undefined {
    const err = typeof a === 'function' ? null : (a ?? null);
    const callback = typeof a === 'function' ? a : b;
    const done = Promise.all([
      this.#direct?.destroy(err),
      ...[...this.proxies.values()].map((p) => p.destroy(err)),
    ]).then(() => undefined);
    if (!callback) return done;
    void done.then(callback, callback);
    return undefined;
  }

  /** The agent of direct requests, made on first use. */
  private direct(): Agent {
    this.#direct ??= new (undici().Agent)();
    return this.#direct;
  }

  private agentFor(proxy: string): ProxyAgent {
    let agent = this.proxies.get(proxy);
    if (!agent) {
      const u = new URL(proxy);
      const token =
        u.username || u.password
          ? `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`
          : undefined;
      u.username = '';
      u.password = '';
      const insecure = this.config.strictSSL === false ? { rejectUnauthorized: false } : undefined;
      agent = new (undici().ProxyAgent)({ uri: u.href, token, requestTls: insecure, proxyTls: insecure });
      this.proxies.set(proxy, agent);
    }
    return agent;
  }
}

/** The dispatcher for VS Code's `http` settings section (the client and the server call this). */
export function dispatcherForVsCodeHttp(
  http: VsCodeHttpSettings | undefined,
  env: Env = process.env,
): RoutingDispatcher {
  return new RoutingDispatcher(proxyConfigFromVsCode(http, env));
}

let processDispatcher: RoutingDispatcher | undefined;

/**
 * The dispatcher a client uses when it is given none: the environment's proxy settings, created once
 * per process. The language server replaces it when VS Code's `http` settings arrive; the extension
 * host must pass its own instead (setting a process-wide one there would affect other extensions).
 */
export function defaultDispatcher(): RoutingDispatcher {
  processDispatcher ??= new RoutingDispatcher(proxyConfigFromEnv(process.env));
  return processDispatcher;
}

/** Replaces this process's default dispatcher (the old one is closed once its requests finish). */
export function setDefaultDispatcher(d: RoutingDispatcher): void {
  const old = processDispatcher;
  processDispatcher = d;
  if (old && old !== d) void old.close().catch(() => undefined);
}
