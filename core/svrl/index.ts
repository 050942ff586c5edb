// TODO room comment

export { assertionMessage, mapSvrl, rangeOfRoot, severityOf } from './mapping';
export { parseSvrl, type SvrlAssertion, SvrlFormatError, type SvrlReport } from './report';
export { type ReportMisfit, reportMisfits } from './report-fit';
