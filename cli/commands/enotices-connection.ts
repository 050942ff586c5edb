// What the publication subcommands (submit, convert, report, search, stop) share: the eNotices2
// options (--env, --enotices-url, --legacy), the API key from EFORMS_API_KEY, file reading, and the
// mapping of EnoticesError kinds to exit statuses. It never prints or logs the API key.

import { keyTransportProblem } from '../../core/http';
import { EnoticesClient } from '../../core/services';
import { type ConnectionValues as EnvironmentValues, serviceUrlsOf } from '../environment';
import { readInputFile } from '../input-files';
import { type CliIo, UsageError } from '../io';

export const CONNECTION_OPTIONS = {
  env: { type: 'string' },
  'enotices-url': { type: 'string' },
  legacy: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const CONNECTION_USAGE = `Connection:
  --env NAME            preview (default, or $EFORMS_ENV), production, sandbox (http://127.0.0.1:8723)
  --enotices-url URL    eNotices2 base URL ending in /esenders (wins over --env; or $EFORMS_ENOTICES_URL)
  --legacy              use the earlier /api/notice/... path family
The API key is read from EFORMS_API_KEY; proxies from HTTPS_PROXY and NO_PROXY ('eforms --help').`;

export interface ConnectionValues extends EnvironmentValues {
  legacy?: boolean;
}

/** The client for these options, or a UsageError saying what to set. */
export function connect(values: ConnectionValues, io: CliIo): EnoticesClient {
  const baseUrl = serviceUrlsOf(values, io).enotices;
  const insecure = keyTransportProblem(baseUrl);
  if (insecure) throw new UsageError(insecure);
  const apiKey = io.env.EFORMS_API_KEY?.trim();
  if (!apiKey)
    throw new UsageError(
      'no API key: set EFORMS_API_KEY to your eNotices2 API key (TED Developer Portal; for the sandbox, the demo key it prints).',
    );
  return new EnoticesClient({ baseUrl, apiKey, family: values.legacy ? 'legacy' : 'v2' });
}

/** Reads a file as bytes, or throws a UsageError naming the file and the reason. */
export function readInput(io: CliIo, path: string, what: string): Buffer {
  return readInputFile(io.cwd, path, what);
}

export { reportFailure } from '../failure-wording';

/** `2025-03-01` or a full date-time -> ISO date-time; UsageError otherwise. */
export function isoDateTime(v: string, option: string): string {
  const s = v.trim();
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s);
  if (!/^\d{4}-\d{2}-\d{2}/.test(s) || Number.isNaN(t))
    throw new UsageError(
      `${option} must be a date (2025-03-01) or an ISO 8601 date-time (got "${s.slice(0, 40)}")`,
    );
  return new Date(t).toISOString();
}
