// Emulated agri-food data service under /agrifood: every data and listing endpoint of the spec, the
// filters applied as it describes, empty results and unknown paths as 404 APIError bodies, failures as
// 500. Large answers are streamed record by record. Fault switches (ctx.faults):
//   agrifood.error-500          every request fails with 500
//   agrifood.rate-limit[:N]     the next N requests (default 2) get 429 with Retry-After: 1
//   agrifood.unavailable[:N]    the next N requests (default 2) get 503
//   agrifood.slow[:MS]          answers wait MS milliseconds (default 3000) before the headers
//   agrifood.malformed          200 with a cut-off JSON body
//   agrifood.hostile-500        500 whose message carries control characters, markup and 20 kB of text
// The counted faults switch themselves off once used up. The sandbox never imports client or server code.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SectorId } from '../../core/agrifood';
import { ENDPOINTS, LISTINGS, SECTOR_IDS } from '../../core/agrifood';
import type { SandboxContext, SandboxService } from '../context';
import { sendJson } from '../http-kit';
import { MODELS } from './catalogue';
import { BadParameter, distinct, matching, type RawQuery } from './generator';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

function timestamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

function apiError(
  ctx: SandboxContext,
  res: ServerResponse,
  status: number,
  message: string,
  technical: string,
  headers: Record<string, string> = {},
): void {
  sendJson(
    res,
    status,
    {
      error: REASONS[status] ?? 'Error',
      status: String(status),
      message,
      technicalErrorMessage: technical,
      apiSubErrors: [],
      timestamp: timestamp(ctx.now()),
    },
    headers,
  );
}

/** Takes one use of a counted fault (`name` or `name:N`); true while it still applies. */
function useCounted(ctx: SandboxContext, name: string, counts: Map<string, number>): boolean {
  const entry = [...ctx.faults].find((f) => f === name || f.startsWith(`${name}:`));
  if (!entry) return false;
  const n = Number(entry.split(':')[1] ?? 2) || 2;
  const used = (counts.get(entry) ?? 0) + 1;
  if (used >= n) {
    ctx.faults.delete(entry);
    counts.delete(entry);
  } else counts.set(entry, used);
  return true;
}

function faultValue(ctx: SandboxContext, name: string): string | undefined {
  const entry = [...ctx.faults].find((f) => f === name || f.startsWith(`${name}:`));
  return entry === undefined ? undefined : (entry.split(':')[1] ?? '');
}

function rawQuery(url: URL): RawQuery {
  const q: RawQuery = new Map();
  for (const [k, v] of url.searchParams) {
    const values = v
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
    if (values.length) q.set(k, [...(q.get(k) ?? []), ...values]);
  }
  return q;
}

/** Listing path -> its values, as the real service shapes them. */
function listingBody(path: string): unknown[] | undefined {
  const spec = LISTINGS.find((l) => l.path === path);
  if (!spec) return undefined;
  const sector = spec.sector;
  const param = (
    ENDPOINTS[sector].params as readonly { name: string; listing?: string; allowed?: readonly string[] }[]
  ).find((p) => p.listing === path);
  if (!param) return undefined;
  if (path === '/api/wine/descriptions')
    return distinct('wine', 'description').map((description) => ({ description }));
  // Observed: the listing says "Raw Milk" where price records say "Raw milk".
  if (path === '/api/rawMilk/products') return ['Organic raw milk', 'Raw Milk'];
  if (param.allowed) return [...param.allowed];
  const field = MODELS[sector].match[param.name];
  if (!field) return [];
  return distinct(sector, field).filter((v) => v !== 'EU' || param.name !== 'memberStateCodes');
}

const DATA_PATHS = new Map<string, SectorId>(SECTOR_IDS.map((id) => [ENDPOINTS[id].path, id]));

export function createAgrifoodService(ctx: SandboxContext): SandboxService {
  const counts = new Map<string, number>();
  return {
    prefix: '/agrifood',
    async handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL) {
      if (req.method !== 'GET') {
        return apiError(
          ctx,
          res,
          404,
          'The requested resource was not found.',
          `No handler found for ${req.method} ${path}`,
        );
      }
      const slow = faultValue(ctx, 'agrifood.slow');
      if (slow !== undefined) await new Promise((r) => setTimeout(r, Number(slow) || 3000));
      if (useCounted(ctx, 'agrifood.rate-limit', counts)) {
        return apiError(ctx, res, 429, 'Too many requests.', 'Rate limit exceeded', { 'retry-after': '1' });
      }
      if (useCounted(ctx, 'agrifood.unavailable', counts)) {
        return apiError(ctx, res, 503, 'Service unavailable.', 'The gateway could not reach the API');
      }
      if (ctx.faults.has('agrifood.hostile-500')) {
        return apiError(
          ctx,
          res,
          500,
          `\u001b[31mFAIL\u001b[0m <script>alert(1)</script>\u202eevil\r\nInjected: line${'x'.repeat(20000)}`,
          '<img src=x onerror=alert(1)>\u0000\u0007',
        );
      }
      if (ctx.faults.has('agrifood.error-500')) {
        return apiError(
          ctx,
          res,
          500,
          'An internal error occurred on the server.',
          'The API cannot provide results at the moment. Please contact the helpdesk at agri-data-helpdesk@sandbox.invalid',
        );
      }
      const sector = DATA_PATHS.get(path);
      if (sector) return data(ctx, res, sector, url, path);
      const listing = listingBody(path);
      if (listing) return sendJson(res, 200, listing);
      return apiError(
        ctx,
        res,
        404,
        'The requested resource was not found.',
        `No handler found for GET ${path}`,
      );
    },
  };
}

async function data(
  ctx: SandboxContext,
  res: ServerResponse,
  sector: SectorId,
  url: URL,
  path: string,
): Promise<void> {
  const q = rawQuery(url);
  if (sector === 'taxud' && !q.get('sectors') && !q.get('products')) {
    return apiError(
      ctx,
      res,
      400,
      'At least one sector or one product is required.',
      `Missing filter on GET ${path}`,
    );
  }
  let records: Generator<Record<string, unknown>>;
  try {
    records = matching(sector, q, ctx.now());
  } catch (err) {
    if (err instanceof BadParameter) return apiError(ctx, res, 400, 'Invalid parameter.', err.message);
    throw err;
  }
  const first = records.next();
  if (first.done) {
    return apiError(
      ctx,
      res,
      404,
      'No results found for the selected parameter(s).',
      'no data available for these parameters',
    );
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  if (ctx.faults.has('agrifood.malformed')) {
    res.end(`[${JSON.stringify(first.value).slice(0, 40)}`);
    return;
  }
  let closed = false;
  res.once('close', () => {
    closed = true;
  });
  let buf = `[${JSON.stringify(first.value)}`;
  for (const r of records) {
    buf += `,${JSON.stringify(r)}`;
    if (buf.length > 256 * 1024) {
      if (closed) return;
      const ok = res.write(buf);
      buf = '';
      if (!ok)
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
    }
  }
  if (!closed) res.end(`${buf}]`);
}
