// `eforms versions [NOTICE.xml...]`: the eForms SDK versions the Central Validation Service accepts for
// publication (GET /v1/version-range) today, the releases of them on disk (--sdk-dir and the download
// cache), the switch dates when the service gives them, and for each notice given, whether the version
// its cbc:CustomizationID declares is accepted, until when, and which to move it to. The key
// (EFORMS_API_KEY) is sent when set, never printed. Reads folders, never downloads.

import { resolve } from 'node:path';
import { declaredSdkVersion, indexXml } from '../../core/notice';
import { availableSdkReleases, defaultSdkCacheRoot } from '../../core/sdk';
import {
  CvsError,
  describeAccepted,
  describeLifecycle,
  describeSwitches,
  fetchVersionRange,
  type SdkLifecycle,
  type SdkVersionRange,
  sdkLifecycle,
} from '../../core/services';
import { serviceUrlsOf } from '../environment';
import { reportFailure } from '../failure-wording';
import { decodeInputText, InputFileError, readInputFile } from '../input-files';
import { type CliIo, EXIT_FAILURE, EXIT_FINDINGS, EXIT_OK, parseCommandLine, UsageError } from '../io';

const USAGE = `Usage: eforms versions [NOTICE.xml...] [--env ENV] [--cvs-url URL] [--sdk-dir DIR] [--format text|json]

Prints the eForms SDK versions the Central Validation Service currently accepts for publication, the
releases of them on this machine, and the dates on which that changes when the service gives them. For
each notice given, says whether the version its cbc:CustomizationID declares is accepted, until when,
and which accepted version to move it to.

Options:
  --sdk-dir DIR    a folder of SDK releases (as for validate --local); the download cache is read too
  --today DATE     judge on this day (YYYY-MM-DD) instead of today
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
      'sdk-dir': { type: 'string' },
      today: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError('--format must be text or json');
  const today = values.today ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new UsageError('--today takes a date such as 2025-06-30');
  const onDisk = availableSdkReleases({
    path: values['sdk-dir'] ? resolve(io.cwd, values['sdk-dir']) : '',
    cacheRoot: io.env.EFORMS_SDK_CACHE?.trim() || defaultSdkCacheRoot(io.env),
  }).map((r) => r.version);
  const { cvs } = serviceUrlsOf(values, io);
  let range: SdkVersionRange;
  try {
    range = await fetchVersionRange({ baseUrl: cvs, apiKey: io.env.EFORMS_API_KEY?.trim() || undefined });
  } catch (e) {
    if (e instanceof CvsError) return reportFailure(io, 'versions', e);
    throw e;
  }
  const overall = sdkLifecycle(undefined, range, onDisk, today);
  const notices: ({ file: string; declared?: string; accepted: boolean; place?: string } & Partial<
    Pick<SdkLifecycle, 'until' | 'moveTo'>
  > & { says: string })[] = [];
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
    const l = sdkLifecycle(declaredSdkVersion(indexXml(text)), range, onDisk, today);
    notices.push({
      file,
      declared: l.declared,
      place: l.place,
      accepted: l.acceptedToday,
      ...(l.until ? { until: l.until } : {}),
      ...(l.moveTo ? { moveTo: l.moveTo } : {}),
      says: describeLifecycle(l),
    });
  }
  if (format === 'json')
    io.out(
      JSON.stringify(
        {
          min: range.min,
          max: range.max,
          service: cvs,
          today,
          accepted: overall.accepted,
          switches: overall.switches,
          notices,
        },
        null,
        2,
      ),
    );
  else {
    io.out(`${cvs} accepts eForms SDK ${range.min} to ${range.max}.`);
    io.out(`Accepted on ${today}: ${describeAccepted(overall)}.`);
    const switches = describeSwitches(overall);
    io.out(switches ? `Switch dates: ${switches}.` : 'The service gives no switch dates.');
    for (const n of notices) io.out(`${n.file}: ${n.says}`);
  }
  return notices.every((n) => n.accepted) ? EXIT_OK : EXIT_FINDINGS;
}
