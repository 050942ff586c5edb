// `eforms report BUSINESS_ID [--notice NOTICE.xml] [--format text|json|sarif|svrl]`: fetches the
// validation report (SVRL) of a submitted notice from eNotices2. With --notice, places every assertion
// on the notice's text (mapSvrl) and prints findings as `eforms check` does.

import { completeFindings } from '../../core/authoring';
import { type Finding, sortByPosition } from '../../core/findings';
import { businessIdProblem, indexXml, isNoticeId } from '../../core/notice';
import { mapSvrl, parseSvrl, reportMisfits, type SvrlReport, severityOf } from '../../core/svrl';
import { terminalLine, terminalName } from '../../core/text';
import { type CliIo, EXIT_FAILURE, EXIT_FINDINGS, EXIT_OK, parseCommandLine, UsageError } from '../io';
import { formatFindings, isOutputFormat, summarize } from '../output-formats';
import { misfitText } from './check';
import {
  CONNECTION_OPTIONS,
  CONNECTION_USAGE,
  connect,
  readInput,
  reportFailure,
} from './enotices-connection';

const USAGE = `Usage: eforms report BUSINESS_ID [--notice NOTICE.xml] [--format text|json|sarif|svrl]

Fetches the validation report eNotices2 keeps for a submitted notice.

Options:
  --notice FILE    the notice that was submitted: findings are placed on its lines and columns
  --format FORMAT  text (default), json, sarif (needs --notice) or svrl (the report as received)
${CONNECTION_USAGE}

Exit status: 0 no error in the report, 1 the report has errors or eNotices2 refused, 2 usage error or
service failure.`;

export async function report(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args);
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError("give one business id. Run 'eforms report --help'.");
  const id = positionals[0].trim();
  const problem = values.legacy && isNoticeId(id) ? undefined : businessIdProblem(id);
  if (problem) throw new UsageError(problem);
  const format = values.format ?? 'text';
  if (format !== 'svrl' && !isOutputFormat(format))
    throw new UsageError('--format must be text, json, sarif or svrl');
  if (format === 'sarif' && !values.notice)
    throw new UsageError('--format sarif needs --notice (SARIF points into a file)');
  const client = connect(values, io);
  const notice = values.notice ? readInput(io, values.notice, 'notice') : undefined;
  let svrl: string;
  try {
    svrl = await client.validationReport(id);
  } catch (e) {
    return reportFailure(io, 'report', e);
  }
  // Read first in every format: an answer that is not a report (a sign-in page) is said so, not printed
  // as the report with "no error in it".
  let parsedReport: SvrlReport;
  try {
    parsedReport = parseSvrl(svrl);
  } catch (e) {
    io.err(
      `eforms report: the report of ${terminalName(id)} is not a readable SVRL report (${(e as Error).message}).`,
    );
    return EXIT_FAILURE;
  }
  const exitStatus = parsedReport.assertions.some((a) => severityOf(a.role) === 'error')
    ? EXIT_FINDINGS
    : EXIT_OK;
  if (format === 'svrl') {
    io.out(svrl.replace(/\n$/, ''));
    return exitStatus;
  }
  if (notice && values.notice) {
    const text = notice.toString('utf8').replace(/^\uFEFF/, '');
    const noticeIndex = indexXml(text);
    // Completed in core as `eforms validate`'s are: rule links and nodes (no SDK here, so no related places).
    const findings: Finding[] = completeFindings(sortByPosition(mapSvrl(noticeIndex, parsedReport)), {
      index: noticeIndex,
    });
    for (const m of reportMisfits(noticeIndex, parsedReport, findings))
      io.err(
        `eforms report: warning: ${misfitText(m, `the report of ${terminalName(id)}`, terminalName(values.notice ?? ''))}`,
      );
    const out = formatFindings(findings, values.notice, format as 'text' | 'json' | 'sarif');
    if (out) io.out(out);
    if (format === 'text') io.out(`${terminalName(id)}: ${summarize(findings)}`);
    return findings.some((f) => f.severity === 'error') ? EXIT_FINDINGS : EXIT_OK;
  }
  const asserts = parsedReport.assertions;
  // Past the findings limit the report was read in part: said, as the mapped path says it with a finding.
  if (parsedReport.omitted)
    io.err(
      `eforms report: warning: the report of ${terminalName(id)} holds ${parsedReport.omitted.toLocaleString('en-US')} more assertions than the ${asserts.length.toLocaleString('en-US')} read and shown here: correct these and validate again to see the rest.`,
    );
  if (format === 'json')
    io.out(
      JSON.stringify(
        asserts.map((a) => ({ id: a.id, role: a.role, location: a.location, text: a.text, flag: a.flag })),
        null,
        2,
      ),
    );
  else {
    // Report text from the service: through the one terminal sanitiser, as every text output.
    for (const a of asserts)
      io.out(
        `${severityOf(a.role)} ${terminalLine(a.id)} ${terminalLine(a.location)}\n    ${terminalLine(a.text)}`,
      );
    const errors = asserts.filter((a) => severityOf(a.role) === 'error').length;
    io.out(
      `${id}: ${asserts.length} assertion${asserts.length === 1 ? '' : 's'} failed, ${errors} error${errors === 1 ? '' : 's'}. Add --notice FILE to see them on the notice's lines.`,
    );
  }
  return exitStatus;
}

function parse(args: string[]) {
  return parseCommandLine('report', {
    args,
    allowPositionals: true,
    options: { ...CONNECTION_OPTIONS, notice: { type: 'string' }, format: { type: 'string' } },
  });
}
