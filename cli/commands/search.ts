// `eforms search`: lists the notices of the API key's account in eNotices2, filtered, one page at a
// time, as a table or JSON. Service strings are shown sanitized (the client cleans them).

import {
  businessIdOfNotice,
  isNoticeStatus,
  NOTICE_STATUSES,
  type SearchCriteria,
} from '../../core/services';
import { type CliIo, EXIT_OK, parseCommandLine, UsageError } from '../io';
import {
  CONNECTION_OPTIONS,
  CONNECTION_USAGE,
  connect,
  isoDateTime,
  reportFailure,
} from './enotices-connection';

const USAGE = `Usage: eforms search [--status SUBMITTED,...] [--author EMAIL] [--since DATE] [--until DATE]
                     [--id NOTICE_ID] [--version NN] [--page N] [--size N] [--sort PROPERTY] [--asc]
                     [--format table|json]

Lists your notices in eNotices2, newest first.

Options:
  --status LIST       comma-separated: ${NOTICE_STATUSES.join(', ')}
  --author EMAIL      notice author (not in the --legacy family)
  --since, --until    submitted on/after, before (2025-03-01 or an ISO date-time)
  --published-since   published on/after
  --id, --version     one notice id, one version
  --page N, --size N  page (counted from 1, as the output counts them) and page size (default 1 and 20)
  --sort PROPERTY     submittedAt (default), updatedAt, publicationDate, status, noticeType, id
  --asc               ascending order (default descending)
  --format FORMAT     table (default) or json
${CONNECTION_USAGE}

Exit status: 0 listed (even when nothing matches), 1 refused by eNotices2, 2 usage error or service failure.`;

export async function search(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args);
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (positionals.length)
    throw new UsageError(`unexpected argument "${positionals[0]}". Run 'eforms search --help'.`);
  const format = values.format ?? 'table';
  if (format !== 'table' && format !== 'json') throw new UsageError('--format must be table or json');
  const statuses = (values.status ?? '')
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
  for (const s of statuses)
    if (!isNoticeStatus(s))
      throw new UsageError(`--status: "${s.slice(0, 30)}" is not one of ${NOTICE_STATUSES.join(', ')}`);
  const num = (v: string | undefined, name: string, min: number, d: number) => {
    if (v === undefined) return d;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new UsageError(`${name} must be an integer ≥ ${min}`);
    return n;
  };
  const criteria: SearchCriteria = {
    id: values.id,
    versionId: values.version,
    statuses,
    noticeAuthor: values.author,
    submittedAfter: values.since ? isoDateTime(values.since, '--since') : undefined,
    submittedBefore: values.until ? isoDateTime(values.until, '--until') : undefined,
    publishedAfter: values['published-since']
      ? isoDateTime(values['published-since'], '--published-since')
      : undefined,
  };
  // Pages count from 1 here, as the output shows them; the service counts from 0.
  const page = num(values.page, '--page', 1, 1) - 1;
  const size = num(values.size, '--size', 1, 20);
  const client = connect(values, io);
  let result: Awaited<ReturnType<typeof client.search>>;
  try {
    result = await client.search(criteria, {
      page,
      size,
      sortProperty: values.sort ?? 'submittedAt',
      sortDirection: values.asc ? 'ASC' : 'DESC',
    });
  } catch (e) {
    return reportFailure(io, 'search', e);
  }
  if (format === 'json') {
    io.out(JSON.stringify(result, null, 2));
    return EXIT_OK;
  }
  if (result.content.length === 0) {
    io.out(
      result.totalSize > 0
        ? `Page ${page + 1} is past the last page (${Math.ceil(result.totalSize / size)}; ${result.totalSize} notices).`
        : 'No notices match.',
    );
    return EXIT_OK;
  }
  const rows = result.content.map((n) => [
    businessIdOfNotice(n),
    n.status || '(not given)',
    n.noticeType ?? '',
    (n.submittedAt ?? '').replace('T', ' ').slice(0, 16),
    n.publicationDate ?? n.expectedPublicationDate ?? '',
  ]);
  const head = ['BUSINESS ID', 'STATUS', 'TYPE', 'SUBMITTED (UTC)', 'PUBLICATION'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  io.out([line(head), ...rows.map(line)].join('\n'));
  const pages = Math.max(1, Math.ceil(result.totalSize / size));
  io.out(
    `Page ${page + 1} of ${pages} (${result.totalSize} notice${result.totalSize === 1 ? '' : 's'})${page + 1 < pages ? ` — next: --page ${page + 2}` : ''}`,
  );
  return EXIT_OK;
}

function parse(args: string[]) {
  return parseCommandLine('search', {
    args,
    allowPositionals: true,
    options: {
      ...CONNECTION_OPTIONS,
      status: { type: 'string' },
      author: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      'published-since': { type: 'string' },
      id: { type: 'string' },
      version: { type: 'string' },
      page: { type: 'string' },
      size: { type: 'string' },
      sort: { type: 'string' },
      asc: { type: 'boolean' },
      format: { type: 'string' },
    },
  });
}
