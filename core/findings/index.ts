// Room: the finding, the one type every validator, mapper and front end shares (rule, field, node,
// severity, message, range, help link, related places, engine), and DiagnosticData, what an LSP
// diagnostic carries for the code actions. Findings are completed in core (core/authoring's
// completeFindings); each front end maps them once and adds nothing (server: toDiagnostic; CLI: its
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
