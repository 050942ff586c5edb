// Where the three services live in each environment, and the rule that keeps API keys off plain
// http except to loopback. No `vscode` import here.

export type EnvironmentName = 'preview' | 'production' | 'sandbox' | 'custom';

export const ENVIRONMENTS: readonly EnvironmentName[] = ['preview', 'production', 'sandbox', 'custom'];

/** Fixed port of `eforms sandbox` when no --port is given; `--env sandbox` points here. */
export const SANDBOX_DEFAULT_PORT = 8723;

export interface ServiceUrls {
  /** Central Validation Service base URL (paths start with /v1). */
  cvs: string;
  /** eNotices2 base URL (paths start with /api). */
  enotices: string;
  /** Agri-food data service base URL (paths start with /api). */
  agrifood: string;
}

const AGRIFOOD = 'https://api.tech.ec.europa.eu/agrifood';

const KNOWN: Record<Exclude<EnvironmentName, 'custom' | 'sandbox'>, ServiceUrls> = {
  preview: {
    cvs: 'https://cvs.preview.ted.europa.eu',
    enotices: 'https://enotices2.preview.ted.europa.eu/esenders',
    agrifood: AGRIFOOD,
  },
  production: {
    cvs: 'https://cvs.ted.europa.eu',
    enotices: 'https://enotices2.ted.europa.eu/esenders',
    agrifood: AGRIFOOD,
  },
};

/** Base URLs of the services that `eforms sandbox` serves at `origin` (e.g. http://127.0.0.1:8723). */
export function sandboxUrls(origin: string): ServiceUrls {
  const o = origin.replace(/\/+$/, '');
  return { cvs: `${o}/cvs`, enotices: `${o}/esenders`, agrifood: `${o}/agrifood` };
}

/**
 * The base URLs for an environment. Explicit overrides win; `custom` without an override for a
 * service falls back to preview for that service, which is where a new user's key works.
 */
export function serviceUrls(
  env: EnvironmentName,
  overrides: Partial<ServiceUrls> = {},
  sandboxOrigin = `http://127.0.0.1:${SANDBOX_DEFAULT_PORT}`,
): ServiceUrls {
  const base =
    env === 'sandbox' ? sandboxUrls(sandboxOrigin) : env === 'production' ? KNOWN.production : KNOWN.preview;
  const pick = (v: string | undefined, d: string) => (v?.trim() ? v.trim().replace(/\/+$/, '') : d);
  return {
    cvs: pick(overrides.cvs, base.cvs),
    enotices: pick(overrides.enotices, base.enotices),
    agrifood: pick(overrides.agrifood, base.agrifood),
  };
}

export function isEnvironmentName(v: unknown): v is EnvironmentName {
  return typeof v === 'string' && (ENVIRONMENTS as readonly string[]).includes(v);
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopbackUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return LOOPBACK_HOSTS.has(u.hostname) || /^127\.\d+\.\d+\.\d+$/.test(u.hostname);
  } catch {
    return false;
  }
}

/**
 * Why an API key must not be sent to this URL, or undefined when it may be. Keys travel over https,
 * or over plain http only to loopback (the sandbox).
 */
export function keyTransportProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `"${url}" is not a valid URL.`;
  }
  if (u.protocol === 'https:') return undefined;
  if (u.protocol === 'http:' && isLoopbackUrl(url)) return undefined;
  return `Refusing to send the API key to ${u.protocol}//${u.host}: use https (plain http is allowed only for loopback addresses).`;
}

/**
 * A URL as it may be shown or sent to a client: without `user:password@` (a URL setting may carry
 * credentials for a proxy or a gateway; they never belong in a status, a log or a message).
 */
export function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    if (u.username === '' && u.password === '') return url;
    u.username = '';
    u.password = '';
    return u.href.replace(/\/$/, url.endsWith('/') ? '/' : '');
  } catch {
    // Not a URL: drop anything up to an '@' that could be credentials.
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
  }
}

/** Text (a log line, a message) with the `user:password@` of every URL in it removed. */
export function withoutUrlCredentials(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, '$1');
}
