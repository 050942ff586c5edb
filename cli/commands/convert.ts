// `eforms convert LEGACY.xml [-o OUT.xml]`: converts a legacy TED XML notice into an eForms notice with
// eNotices2's convert operation. Writes the result to stdout, or to OUT.xml (never over the input).

import { renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readNoticeIdentity } from '../../core/notice';
import { terminalName } from '../../core/text';
import { type CliIo, EXIT_FAILURE, EXIT_OK, parseCommandLine, UsageError } from '../io';
import {
  CONNECTION_OPTIONS,
  CONNECTION_USAGE,
  connect,
  readInput,
  reportFailure,
} from './enotices-connection';

const USAGE = `Usage: eforms convert LEGACY.xml [-o OUT.xml]

Converts a notice in the legacy TED XML format (TED_EXPORT, F01–F25 forms) into an eForms notice.
Review the result: a conversion cannot fill fields the legacy form does not have.

Options:
  -o, --output FILE  write the eForms notice there instead of to standard output
${CONNECTION_USAGE}

Exit status: 0 converted, 1 refused by eNotices2, 2 usage error or service failure.`;

export async function convert(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args);
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (positionals.length !== 1)
    throw new UsageError("give one legacy notice file. Run 'eforms convert --help'.");
  const input = positionals[0];
  const out = values.output;
  if (out && resolve(io.cwd, out) === resolve(io.cwd, input))
    throw new UsageError('-o must not be the input file: the legacy notice would be lost.');
  const client = connect(values, io);
  const bytes = readInput(io, input, 'legacy notice');
  let xml: string;
  try {
    xml = await client.convert(bytes);
  } catch (e) {
    return reportFailure(io, 'convert', e);
  }
  if (!out) {
    io.out(xml.replace(/\n$/, ''));
    return EXIT_OK;
  }
  const target = resolve(io.cwd, out);
  try {
    // Through a temporary file, so that a failed write never leaves half a notice behind.
    const tmp = `${target}.tmp-${process.pid}`;
    writeFileSync(tmp, xml, 'utf8');
    renameSync(tmp, target);
  } catch (e) {
    io.err(`eforms convert: cannot write ${terminalName(out)}: ${(e as Error).message}`);
    return EXIT_FAILURE;
  }
  const id = readNoticeIdentity(xml);
  const what = id.ok ? `${id.identity.rootName} ${id.identity.businessId ?? ''}`.trim() : 'eForms notice';
  io.err(`Wrote ${terminalName(out)} (${what}). Review it, then: eforms validate ${terminalName(out)}`);
  return EXIT_OK;
}

function parse(args: string[]) {
  return parseCommandLine('convert', {
    args,
    allowPositionals: true,
    options: { ...CONNECTION_OPTIONS, output: { type: 'string', short: 'o' } },
  });
}
