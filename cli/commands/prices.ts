// `eforms prices SECTOR [--FILTER value]... [--format table|csv|json] [--summary]` and
// `eforms prices SECTOR --list LISTING`: agri-food market prices from the command line, through the
// same core client as the extension (checked queries, on-disk cache in ~/.cache/eforms, retries).

import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { SectorId } from '../../core/agrifood';
import {
  AgrifoodClient,
  AgrifoodError,
  ENDPOINTS,
  LISTINGS,
  type ParamSpec,
  recordsToCsv,
  SECTOR_IDS,
  SUMMARY_HEADER,
  sectorFromName,
  summaryRows,
  toCsv,
  toSeries,
  toTextTable,
  WEEK_RULES,
} from '../../core/agrifood';
import { sanitizeServiceText } from '../../core/http';
import { DEFAULT_SETTINGS } from '../../core/settings';
import { type ConnectionValues, serviceUrlsOf } from '../environment';
import { reportFailure } from '../failure-wording';
import { type CliIo, EXIT_FAILURE, UsageError } from '../io';

const USAGE = `Usage: eforms prices SECTOR [--FILTER VALUE]... [--format table|csv|json] [--summary]
       eforms prices SECTOR --list LISTING
       eforms prices --sectors

Agri-food market data (prices, trade, indicators) from the EU agri-food data service.
Sectors: ${SECTOR_IDS.join(', ')}
Filters are the service's parameters (see 'eforms prices SECTOR --help'); lists are comma-separated:
  eforms prices pigmeat --memberStateCodes DE,FR,ES --pigClasses S --beginDate 01/01/2024 --endDate 30/06/2024
  eforms prices cereal --productCodes BLTPAN --marketingYears 2023/2024 --summary
  eforms prices wine --list descriptions

Options:
  --format F          table (default), csv or json (records as the service sent them)
  --summary           one line per series: latest, min, max, change over the period
  --list LISTING      values of a listing endpoint (e.g. products, markets, descriptions)
  --env ENV           preview (default), production, sandbox or custom
  --agrifood-url URL  base URL of the service (overrides --env)
  --sandbox-url URL   origin of the sandbox for --env sandbox (default http://127.0.0.1:8723)
  --timeout-ms N      how long one query may take, waits between retries included (default ${DEFAULT_SETTINGS.agrifood.timeoutMs})
  --cache-ttl-hours N answers are cached in ~/.cache/eforms (default ${DEFAULT_SETTINGS.agrifood.cacheTtlHours}; 0: no cache)
  --no-cache          ask the service even when a cached answer is fresh`;

function sectorUsage(id: SectorId): string {
  const e = ENDPOINTS[id];
  const lines = (e.params as readonly ParamSpec[]).map((p) => {
    const note = p.allowed
      ? `one or more of: ${p.allowed.join(', ')}`
      : p.kind === 'date'
        ? 'dd/mm/yyyy'
        : p.format
          ? p.format.text
          : p.kind === 'I[]'
            ? 'integers, comma-separated'
            : p.listing
              ? `values from --list ${p.listing.split('/').pop()}`
              : 'comma-separated';
    // Date labels already name their format ("From (dd/mm/yyyy)"): say it once.
    return `  --${p.name.padEnd(22)} ${p.label.includes(`(${note})`) ? p.label : `${p.label} (${note})`}`;
  });
  const rule = WEEK_RULES[id];
  return `eforms prices ${id}: ${e.label} (GET ${e.path})\n\nFilters:\n${lines.join('\n')}${
    e.requireOneOf ? `\n\nAt least one of --${e.requireOneOf.join(' or --')} is required.` : ''
  }${rule ? `\n\nWeek numbers: ${rule.meaning}.` : ''}\n\nListings: ${
    LISTINGS.filter((l) => l.sector === id)
      .map((l) => l.path.split('/').pop())
      .join(', ') || 'none'
  }`;
}

function cacheRoot(env: NodeJS.ProcessEnv): string {
  return env.XDG_CACHE_HOME ? join(env.XDG_CACHE_HOME, 'eforms') : join(homedir(), '.cache', 'eforms');
}

export async function prices(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--sectors')) {
    io.out(
      toTextTable(
        ['Sector', 'Data'],
        SECTOR_IDS.map((id) => [id, ENDPOINTS[id].label]),
      ),
    );
    return 0;
  }
  const first = args[0];
  if (!first || first === '--help' || first === '-h') {
    io.out(USAGE);
    return first ? 0 : EXIT_FAILURE;
  }
  if (first.startsWith('-')) throw new UsageError(`the first argument must be a sector.\n${USAGE}`);
  const sector = sectorFromName(first);
  if (!sector) throw new UsageError(`unknown sector '${first}'. Sectors: ${SECTOR_IDS.join(', ')}`);
  const spec = ENDPOINTS[sector];
  const filterOptions = Object.fromEntries(
    (spec.params as readonly ParamSpec[]).map((p) => [
      p.name,
      { type: 'string' as const, multiple: true as const },
    ]),
  );
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: args.slice(1),
      options: {
        ...filterOptions,
        format: { type: 'string' },
        summary: { type: 'boolean' },
        list: { type: 'string' },
        env: { type: 'string' },
        'agrifood-url': { type: 'string' },
        'sandbox-url': { type: 'string' },
        'timeout-ms': { type: 'string' },
        'cache-ttl-hours': { type: 'string' },
        'no-cache': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\nRun 'eforms prices ${sector} --help' for its filters.`);
  }
  if (values.help) {
    io.out(sectorUsage(sector));
    return 0;
  }
  const format = (values.format as string | undefined) ?? 'table';
  if (!['table', 'csv', 'json'].includes(format)) throw new UsageError('--format must be table, csv or json');
  const baseUrl = serviceUrlsOf(values as ConnectionValues, io).agrifood;
  const num = (name: string, d: number, min: number) => {
    const v = values[name] as string | undefined;
    if (v === undefined) return d;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}`);
    return n;
  };
  const client = new AgrifoodClient({
    baseUrl,
    timeoutMs: num('timeout-ms', DEFAULT_SETTINGS.agrifood.timeoutMs, 1),
    cacheDir: cacheRoot(io.env),
    cacheTtlHours: num('cache-ttl-hours', DEFAULT_SETTINGS.agrifood.cacheTtlHours, 0),
  });
  const fresh = values['no-cache'] === true;
  try {
    if (values.list !== undefined) return await list(client, sector, String(values.list), format, io, fresh);
    const params: Record<string, string> = {};
    for (const p of spec.params as readonly ParamSpec[]) {
      const v = values[p.name] as string[] | undefined;
      if (v?.length) params[p.name] = v.join(',');
    }
    let lastReport = 0;
    const r = await client.query(sector, params, {
      fresh,
      onProgress: (bytes) => {
        // Large answers take a while: say so every 10 MB, on stderr so stdout stays data.
        if (bytes - lastReport >= 10 * 1048576) {
          lastReport = bytes;
          io.err(`… ${(bytes / 1048576).toFixed(0)} MB received`);
        }
      },
      // A busy service may ask for a minute between retries: the wait is said, not silent.
      onRetry: ({ status, waitMs }) =>
        io.err(
          `… the agri-food service is busy (HTTP ${status}): asking again in ${Math.ceil(waitMs / 1000)} s`,
        ),
    });
    io.err(`${r.records.length} record(s) from ${r.url}${r.fromCache ? ' (cached)' : ''}`);
    if (r.dropped > 0)
      io.err(
        `${r.dropped} entr${r.dropped === 1 ? 'y' : 'ies'} of the answer that are not records were left out.`,
      );
    if (values.summary) {
      const set = toSeries(sector, r.records);
      const rows = summaryRows(set.series);
      if (format === 'json')
        io.out(
          JSON.stringify(rows.map((row) => Object.fromEntries(SUMMARY_HEADER.map((h, i) => [h, row[i]])))),
        );
      else if (format === 'csv') io.out(toCsv(SUMMARY_HEADER, rows).trimEnd());
      else io.out(toTextTable(SUMMARY_HEADER, rows));
      if (set.skipped) io.err(`${set.skipped} record(s) without a readable price or period were left out.`);
      return 0;
    }
    if (format === 'json') io.out(JSON.stringify(r.records, null, 1));
    else if (format === 'csv') io.out(recordsToCsv(sector, r.records).trimEnd());
    else if (r.records.length === 0) io.out('No results for these filters.');
    else {
      const cols = spec.columns as readonly string[];
      io.out(
        toTextTable(
          cols,
          r.records.map((rec) => cols.map((c) => (rec as unknown as Record<string, unknown>)[c])),
        ),
      );
    }
    return 0;
  } catch (err) {
    if (err instanceof AgrifoodError && err.kind === 'invalid-query') throw new UsageError(err.message);
    return reportFailure(io, 'prices', err);
  }
}

async function list(
  client: AgrifoodClient,
  sector: SectorId,
  name: string,
  format: string,
  io: CliIo,
  fresh: boolean,
): Promise<number> {
  const mine = LISTINGS.filter((l) => l.sector === sector);
  const spec = ENDPOINTS[sector].params as readonly ParamSpec[];
  const wanted = name.toLowerCase();
  const hit =
    mine.find((l) => l.path.split('/').pop()?.toLowerCase() === wanted) ??
    mine.find((l) => spec.find((p) => p.listing === l.path)?.name.toLowerCase() === wanted);
  if (!hit) {
    throw new UsageError(
      `${sector} has no listing '${name}'. Listings: ${mine.map((l) => l.path.split('/').pop()).join(', ') || 'none'}`,
    );
  }
  const values = await client.listing(hit.path, { fresh });
  if (format === 'json') io.out(JSON.stringify(values));
  else io.out(values.map((v) => sanitizeServiceText(v, 500)).join('\n'));
  return 0;
}
