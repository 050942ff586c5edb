// `eforms check NOTICE.xml --svrl REPORT.svrl`: places an SVRL report you already have (from the Central
// Validation Service, or the SDK's schematron) on the notice's text, offline, and prints the findings
// as text, JSON or SARIF. It never contacts a service and never writes files.

import { completeFindings, type SdkKnowledge, sdkKnowledge } from '../../core/authoring';
import { type Finding, sortByPosition } from '../../core/findings';
import type { InputKind, XmlIndex } from '../../core/notice';
import { declaredSdkVersion, indexXml } from '../../core/notice';
import { availableSdkReleases, chooseSdkRelease, defaultSdkCacheRoot } from '../../core/sdk';
import { mapSvrl, parseSvrl, type ReportMisfit, reportMisfits, SvrlFormatError } from '../../core/svrl';
import { terminalName } from '../../core/text';
import { checkSdkDir, decodeInputText, InputFileError, readInputFile } from '../input-files';
import { type CliIo, EXIT_FAILURE, EXIT_FINDINGS, EXIT_OK, parseCommandLine, UsageError } from '../io';
import { formatFindings, formatOutcomes, isOutputFormat, OUTPUT_FORMATS, summarize } from '../output-formats';

const USAGE = `Usage: eforms check NOTICE.xml --svrl REPORT.svrl [--sdk-dir DIR] [--format text|json|sarif]

Places every assertion of an SVRL validation report on the notice it was made for, offline, and prints
one finding per assertion at the exact line and column (columns count UTF-16 units, as editors do).

Options:
  --svrl FILE      the SVRL report (svrl:schematron-output) of the notice
  --sdk-dir DIR    a folder holding the notice's SDK release, or a folder of releases named by version
                   (default: the releases downloaded before, in $EFORMS_SDK_CACHE or ~/.cache/eforms/sdk):
                   a report that gives the rules' keys (rule|text|BR-…), as the SDK's own Schematron
                   does, gets the rules' sentences, and findings get their fields' names
  --format FORMAT  text (default; file:line:col: severity id message), json (LSP ranges, zero-based)
                   or sarif (SARIF 2.1.0, for code-scanning tools)
  -h, --help       show this help

Exit status: 0 when no finding is an error, 1 when some are, 2 on a usage error or an unreadable or
invalid file.`;

const HINT = "Run 'eforms check --help' for usage.";

/** The file's exact text: UTF-8, a leading byte-order mark dropped (editors do not show it). */
function readText(cwd: string, path: string, what: string, limit: InputKind): string {
  return decodeInputText(readInputFile(cwd, path, what, limit), path, what);
}

export async function check(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args);
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (positionals.length !== 1) {
    throw new UsageError(
      `${positionals.length === 0 ? 'give the notice file' : 'give exactly one notice file'}. ${HINT}`,
    );
  }
  if (!values.svrl) throw new UsageError(`give the SVRL report with --svrl REPORT.svrl. ${HINT}`);
  const format = values.format ?? 'text';
  if (!isOutputFormat(format)) {
    throw new UsageError(`unknown format '${format}': choose ${OUTPUT_FORMATS.join(', ')}`);
  }

  const noticeArg = positionals[0];
  const svrlArg = values.svrl;
  let findings: Finding[];
  try {
    const noticeText = readText(io.cwd, noticeArg, 'notice', 'noticeBytes');
    const svrlText = readText(io.cwd, svrlArg, 'SVRL report', 'svrlBytes');
    let report: ReturnType<typeof parseSvrl>;
    try {
      report = parseSvrl(svrlText);
    } catch (e) {
      if (e instanceof SvrlFormatError) throw new InputFileError(`${terminalName(svrlArg)}: ${e.message}`);
      throw e;
    }
    const index = indexXml(noticeText);
    if (index.errors.length > 0) {
      const first = index.errors[0];
      const p = index.positionAt(first.offset);
      const more = index.errors.length > 1 ? ` (and ${index.errors.length - 1} more)` : '';
      throw new InputFileError(
        `${terminalName(noticeArg)}:${p.line + 1}:${p.character + 1}: the notice is not well-formed XML: ${first.message}${more}`,
      );
    }
    // Completed in core as `eforms validate`'s are: rule links and nodes, and with the notice's SDK
    // release the rules' sentences where the report gives only their keys, and the related places.
    const { sdk, missing } = sdkFor(io, index, values['sdk-dir']);
    findings = completeFindings(sortByPosition(mapSvrl(index, report)), { index, sdk, language: 'en' });
    if (missing && report.assertions.some((a) => RULE_KEY.test(a.text)))
      io.err(
        `eforms check: ${terminalName(svrlArg)} gives the rules' keys, not their sentences, and ${missing}.`,
      );
    // On stderr, so that json and sarif output stay clean.
    for (const m of reportMisfits(index, report, findings))
      io.err(`eforms check: warning: ${misfitText(m, terminalName(svrlArg), terminalName(noticeArg))}`);
  } catch (e) {
    if (e instanceof InputFileError) {
      io.err(`eforms check: ${e.message}`);
      // Code scanning still gets a log, naming the notice that could not be checked.
      if (format === 'sarif')
        io.out(
          formatOutcomes([{ file: noticeArg, outcome: 'failed', findings: [], error: e.message }], 'sarif'),
        );
      return EXIT_FAILURE;
    }
    throw e;
  }

  const output = formatFindings(findings, noticeArg, format);
  if (format === 'text') {
    if (output) io.out(output);
    io.out(`${terminalName(noticeArg)}: ${summarize(findings)}`);
  } else io.out(output);
  return findings.some((f) => f.severity === 'error') ? EXIT_FINDINGS : EXIT_OK;
}

/** A report that does not fit its notice, in words (shared with `eforms report`). */
export function misfitText(m: ReportMisfit, svrl: string, notice: string): string {
  switch (m.kind) {
    case 'root':
      return `${svrl} was made for a ${m.reportRoot}, but ${notice} is a ${m.noticeRoot}: is it the report of another notice?`;
    case 'subtype':
      return `${svrl} ran the rules of notice subtype ${m.reportSubtype}, but ${notice} declares subtype ${m.noticeSubtype}: is it the report of another notice?`;
    case 'paths':
      return `${m.unresolved} of ${m.total} locations of ${svrl} are not in ${notice} (those findings sit on the root element): the report may be for another version of the notice.`;
  }
}

/** A raw message key of the SDK's Schematron, as its own reports give them. */
const RULE_KEY = /^rule\|text\|\S+$/;

/**
 * The SDK release the notice declares, from --sdk-dir or the releases downloaded before, or why there is
 * none (the findings then keep the report's words), said for the end of a sentence. A --sdk-dir that
 * holds no release is an error, as in `eforms validate`.
 */
function sdkFor(
  io: CliIo,
  index: XmlIndex,
  dir: string | undefined,
): { sdk?: SdkKnowledge; missing?: string } {
  const path = dir === undefined ? '' : checkSdkDir(io.cwd, dir);
  const releases = availableSdkReleases({ path, cacheRoot: defaultSdkCacheRoot(io.env) });
  const choice = chooseSdkRelease(releases, { declared: declaredSdkVersion(index) });
  if (!choice.ok) {
    const found = choice.kind === 'no-sdk' ? '' : ` (found ${(choice.available ?? []).join(', ')})`;
    return {
      missing:
        choice.kind === 'version-missing'
          ? `eForms SDK ${choice.wanted}, which the notice declares, is not at hand${found}: name a folder that holds it with --sdk-dir DIR to read them`
          : choice.kind === 'no-version'
            ? `the notice declares no SDK version and several are at hand${found}: name one release's folder with --sdk-dir DIR to read them`
            : "no eForms SDK is at hand: name the notice's release with --sdk-dir DIR to read them",
    };
  }
  try {
    return { sdk: sdkKnowledge(choice.release.dir, choice.release.version) };
  } catch {
    return {
      missing: `eForms SDK ${choice.release.version} in ${choice.release.dir} cannot be read: name another copy with --sdk-dir DIR`,
    };
  }
}

function parse(args: string[]) {
  return parseCommandLine('check', {
    args,
    allowPositionals: true,
    strict: true,
    options: {
      svrl: { type: 'string' },
      'sdk-dir': { type: 'string' },
      format: { type: 'string', short: 'f' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
