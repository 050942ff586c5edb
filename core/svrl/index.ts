// Room: SVRL, the report language of Schematron: reading reports, placing each failed assertion on the
// notice's text (locations are read by core/xpath), and whether a report fits a notice. No `vscode`
// import here, no I/O.

export { assertionMessage, FINDINGS_OMITTED, mapSvrl, rangeOfRoot, severityOf } from './mapping';
export { parseSvrl, type SvrlAssertion, SvrlFormatError, type SvrlReport } from './report';
export { type ReportMisfit, reportMisfits } from './report-fit';
