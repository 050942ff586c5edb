// `eforms stop BUSINESS_ID`: asks eNotices2 to stop the publication of a notice (only a SUBMITTED
// notice can be stopped). Not retried.

import { businessIdProblem, isNoticeId } from '../../core/notice';
import { type CliIo, EXIT_OK, parseCommandLine, UsageError } from '../io';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, connect, reportFailure } from './enotices-connection';

const USAGE = `Usage: eforms stop BUSINESS_ID

Stops the publication of a SUBMITTED notice. BUSINESS_ID is the notice id and its two-digit version,
e.g. 52fe3748-f475-4381-9dbf-31ebb08889e8-01 (--legacy also accepts the notice id alone).
${CONNECTION_USAGE}

Exit status: 0 stopped, 1 refused (not SUBMITTED, locked, not found, key), 2 usage error or service failure.`;

export async function stop(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args);
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError("give one business id. Run 'eforms stop --help'.");
  const id = positionals[0].trim();
  const problem = values.legacy && isNoticeId(id) ? undefined : businessIdProblem(id);
  if (problem) throw new UsageError(problem);
  const client = connect(values, io);
  try {
    await client.stopPublication(id);
  } catch (e) {
    return reportFailure(io, 'stop', e);
  }
  io.out(`Publication of ${id} stopped: the notice is STOPPED.`);
  return EXIT_OK;
}

function parse(args: string[]) {
  return parseCommandLine('stop', { args, allowPositionals: true, options: { ...CONNECTION_OPTIONS } });
}
