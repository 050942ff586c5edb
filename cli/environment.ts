// The one way every subcommand reads its environment: which environment (--env, else EFORMS_ENV, else
// preview), the base URL of each service (--cvs-url/--enotices-url/--agrifood-url, else EFORMS_CVS_URL/
// EFORMS_ENOTICES_URL/EFORMS_AGRIFOOD_URL, else the environment's), the sandbox address, and the table
// of environment variables that `eforms --help` and the README list. Proxies (HTTPS_PROXY, HTTP_PROXY,
// NO_PROXY) and NODE_EXTRA_CA_CERTS are read by core/http, for every subcommand alike.

import {
  ENVIRONMENTS,
  type EnvironmentName,
  isEnvironmentName,
  SANDBOX_DEFAULT_PORT,
  type ServiceUrls,
  serviceUrls,
} from '../core/http';
import { type CliIo, UsageError } from './io';

/** Every environment variable the command line reads, with what it does. */
export const ENVIRONMENT_VARIABLES: readonly (readonly [string, string])[] = [
  ['EFORMS_API_KEY', 'the API key of the services (never read from the command line)'],
  ['EFORMS_ENV', 'default of --env: preview, production, sandbox or custom'],
  [
    'EFORMS_SANDBOX_URL',
    `address of the sandbox for --env sandbox (default http://127.0.0.1:${SANDBOX_DEFAULT_PORT})`,
  ],
  ['EFORMS_CVS_URL', 'default of --cvs-url'],
  ['EFORMS_ENOTICES_URL', 'default of --enotices-url'],
  ['EFORMS_AGRIFOOD_URL', 'default of --agrifood-url'],
  ['EFORMS_AUTHOR_EMAIL', 'default of submit --email'],
  ['EFORMS_SANDBOX_PUBLISH_STEP_SECONDS', 'default of sandbox --publish-delay'],
  ['HTTPS_PROXY, HTTP_PROXY', 'proxy for https and http requests (loopback is always reached directly)'],
  ['NO_PROXY', 'hosts reached without the proxy, comma-separated (example.org, .example.org, host:port, *)'],
  ['NODE_EXTRA_CA_CERTS', "a PEM file of extra certificate authorities (a company's TLS-inspecting proxy)"],
];

export interface ConnectionValues {
  env?: string;
  'cvs-url'?: string;
  'enotices-url'?: string;
  'agrifood-url'?: string;
  'sandbox-url'?: string;
}

/** The environment these options and variables choose, or a UsageError naming the valid ones. */
export function environmentOf(values: ConnectionValues, io: CliIo): EnvironmentName {
  const name = values.env ?? io.env.EFORMS_ENV?.trim() ?? 'preview';
  if (!isEnvironmentName(name))
    throw new UsageError(
      `${values.env === undefined ? 'EFORMS_ENV' : '--env'} must be one of ${ENVIRONMENTS.join(', ')} (got "${name.slice(0, 40)}")`,
    );
  return name;
}

/** The base URLs of the three services for these options and variables. */
export function serviceUrlsOf(values: ConnectionValues, io: CliIo): ServiceUrls & { env: EnvironmentName } {
  const env = environmentOf(values, io);
  const pick = (option: string | undefined, variable: string | undefined) => {
    const v = option?.trim() || variable?.trim();
    if (!v) return undefined;
    try {
      return new URL(v).href.replace(/\/+$/, '');
    } catch {
      throw new UsageError(`"${v.slice(0, 80)}" is not a URL`);
    }
  };
  const urls = serviceUrls(
    env,
    {
      cvs: pick(values['cvs-url'], io.env.EFORMS_CVS_URL),
      enotices: pick(values['enotices-url'], io.env.EFORMS_ENOTICES_URL),
      agrifood: pick(values['agrifood-url'], io.env.EFORMS_AGRIFOOD_URL),
    },
    pick(values['sandbox-url'], io.env.EFORMS_SANDBOX_URL) ?? `http://127.0.0.1:${SANDBOX_DEFAULT_PORT}`,
  );
  return { env, ...urls };
}

/** The environment variables as help text lines. */
export function environmentHelp(): string {
  const width = Math.max(...ENVIRONMENT_VARIABLES.map(([n]) => n.length));
  return ENVIRONMENT_VARIABLES.map(([n, d]) => `  ${n.padEnd(width)}  ${d}`).join('\n');
}
