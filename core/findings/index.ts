// Room: the finding, the one type every validator, mapper and front end shares (rule, severity, message,
// range and what links it to the SDK). Each front end maps it once (server: toDiagnostic; CLI: its
// formats). No `vscode` import here, no I/O.
export {
  type DiagnosticData,
  diagnosticDataOf,
  type Finding,
  type Range,
  type RelatedPlace,
  readDiagnosticData,
  type Severity,
  sortByPosition,
} from './finding';
