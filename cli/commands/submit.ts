// `eforms submit NOTICE.xml --email X --locale en`: submits a notice to eNotices2. The notice is
// validated by the service (CVS) and created whether or not validation succeeds; only a valid one is
// submitted for publication. Never retried (a retry could submit twice).

import { readNoticeIdentity } from '../../core/notice';
import { terminalName } from '../../core/text';
import { type CliIo, EXIT_FINDINGS, EXIT_OK, parseCommandLine, UsageError } from '../io';
import {
  CONNECTION_OPTIONS,
  CONNECTION_USAGE,
  connect,
  readInput,
  reportFailure,
} from './enotices-connection';

const USAGE = `Usage: eforms submit NOTICE.xml --email AUTHOR@EXAMPLE.ORG [--locale en] [--format text|json]

Submits the notice to eNotices2. eNotices2 validates it: when validation succeeds the notice is SUBMITTED
for publication; otherwise it is created but not submitted, and 'eforms report' shows why.

Options:
  --email ADDRESS   e-mail of the person responsible for the notice (or $EFORMS_AUTHOR_EMAIL)
  --locale CODE     language of that person (default en)
  --format FORMAT   text (default) or json
${CONNECTION_USAGE}

Exit status: 0 submitted, 1 created but not submitted or refused by eNotices2, 2 usage error or service failure.`;

export async function submit(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args);
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (positionals.length !== 1)
    throw new UsageError("give one notice file. Run 'eforms submit --help' for usage.");
  const email = values.email?.trim() || io.env.EFORMS_AUTHOR_EMAIL?.trim();
  if (!email)
    throw new UsageError('give the notice author e-mail with --email (or set EFORMS_AUTHOR_EMAIL).');
  const locale = values.locale?.trim() || 'en';
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError('--format must be text or json');
  const client = connect(values, io);
  const file = positionals[0];
  const bytes = readInput(io, file, 'notice');
  const id = readNoticeIdentity(bytes);
  io.err(`Submitting ${terminalName(file)} to ${client.baseUrl}…`);
  let result: Awaited<ReturnType<typeof client.submit>>;
  try {
    result = await client.submit(bytes, { noticeAuthorEmail: email, noticeAuthorLocale: locale });
  } catch (e) {
    return reportFailure(io, 'submit', e);
  }
  const bid = result.businessId ?? (id.ok ? id.identity.businessId : undefined) ?? '(unknown business id)';
  if (format === 'json') io.out(JSON.stringify({ businessId: bid, ...result }, null, 2));
  else if (result.success)
    io.out(
      `Submitted ${bid}: validation passed and the notice is SUBMITTED for publication.\nFollow it with: eforms search --id ${bid.slice(0, 36)}`,
    );
  else
    io.out(
      `Created ${bid} but NOT submitted: validation failed.\nSee why with: eforms report ${bid} --notice ${terminalName(file)}\nFix the notice, increase cbc:VersionID, and submit again.`,
    );
  return result.success ? EXIT_OK : EXIT_FINDINGS;
}

function parse(args: string[]) {
  return parseCommandLine('submit', {
    args,
    allowPositionals: true,
    options: {
      ...CONNECTION_OPTIONS,
      email: { type: 'string' },
      locale: { type: 'string' },
      format: { type: 'string' },
    },
  });
}
