// Room: the finding, the one type every validator, mapper and front end shares (rule, severity, message,
// range and what links it to the SDK). Each front end maps it once (server: toDiagnostic; CLI: its
// formats). No `vscode` import here, no I/O.
export { type Finding, type Range, type Severity, sortByPosition } from './finding';
