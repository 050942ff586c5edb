// `eforms versions [NOTICE.xml...]`: the eForms SDK versions the Central Validation Service accepts for
// publication (GET /v1/version-range), and for each notice given, whether the version its
// cbc:CustomizationID declares is among them. The key (EFORMS_API_KEY) is sent when set, never printed.

import { declaredSdkVersion, indexXml } from '../../core/notice';
import { CvsError, fetchVersionRange, placeInRange, type SdkVersionRange } from '../../core/services';
import { serviceUrlsOf } from '../environment';
import { reportFailure } from '../failure-wording';
import { decodeInputText, InputFileError, readInputFile } from '../input-files';
import { type CliIo, EXIT_FAILURE, EXIT_FINDINGS, EXIT_OK, parseCommandLine, UsageError } from '../io';

const USAGE = `Usage: eforms versions [NOTICE.xml...] [--env ENV] [--cvs-url URL] [--format text|json]

Prints the eForms SDK versions the Central Validation Service currently accepts for publication. For
each notice given, says whether the version its cbc:CustomizationID declares is accepted.

Options:
  --env ENV        preview (default, or $EFORMS_ENV), production, sandbox or custom (with --cvs-url)
  --cvs-url URL    base URL of the CVS (or $EFORMS_CVS_URL)
  --format FORMAT  text (default) or json
  -h, --help       show this help

Exit status: 0 when every notice given is accepted, 1 when one is not (or declares no version), 2 on a
usage error, an unreadable file or a failure of the service.`;

export async function versions(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine('versions', {
    args,
    allowPositionals: true,
    strict: true,
    options: {
      env: { type: 'string' },
      'cvs-url': { type: 'string' },
      format: { type: 'string', short: 'f' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError('--format must be text or json');
  const { cvs } = serviceUrlsOf(values, io);
  let range: SdkVersionRange;
  try {
    range = await fetchVersionRange({ baseUrl: cvs, apiKey: io.env.EFORMS_API_KEY?.trim() || undefined });
  } catch (e) {
    if (e instanceof CvsError) return reportFailure(io, 'versions', e);
    throw e;
  }
  const notices: { file: string; declared?: string; accepted: boolean; place?: string }[] = [];
  for (const file of positionals) {
    let text: string;
    try {
      text = decodeInputText(readInputFile(io.cwd, file, 'notice'), file, 'notice');
    } catch (e) {
      if (e instanceof InputFileError) {
        io.err(`eforms versions: ${e.message}`);
        return EXIT_FAILURE;
      }
      throw e;
    }
    const declared = declaredSdkVersion(indexXml(text));
    const place = declared ? placeInRange(declared, range) : undefined;
    notices.push({ file, declared, place, accepted: place === 'inside' });
  }
  if (format === 'json')
    io.out(JSON.stringify({ min: range.min, max: range.max, service: cvs, notices }, null, 2));
  else {
    io.out(`${cvs} accepts eForms SDK ${range.min} to ${range.max}.`);
    for (const n of notices)
      io.out(
        !n.declared
          ? `${n.file}: declares no SDK version (cbc:CustomizationID eforms-sdk-MAJOR.MINOR).`
          : n.accepted
            ? `${n.file}: eforms-sdk-${n.declared} is accepted.`
            : `${n.file}: eforms-sdk-${n.declared} is ${n.place === 'below' ? 'older than the oldest' : 'newer than the newest'} version accepted: publication would be refused.`,
      );
  }
  return notices.every((n) => n.accepted) ? EXIT_OK : EXIT_FINDINGS;
}
