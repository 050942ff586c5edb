// Domain types shared by the language server, the VS Code client and the command-line tool.
// No `vscode` import here, and nothing that does I/O.

/** Zero-based line and UTF-16 column, exactly as LSP counts them. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'info';

/** One problem found in a notice, placed on the text it concerns. */
export interface Finding {
  /** Rule id from the SVRL (`BR-BT-00024-0178`) or a local code (`xml-syntax`, `customization-id`). */
  id: string;
  severity: Severity;
  /** Human-readable, single paragraph, already trimmed. */
  message: string;
  /** The SVRL `location` XPath the finding was reported at; empty for local findings. */
  location: string;
  range: Range;
  /** `sdk`: the SDK's own rules, run in this process (see core/validation). */
  source: 'cvs' | 'local' | 'sdk';
  /** For `sdk` findings: the release whose rules produced it (`1.15.1`). */
  sdkVersion?: string;
  /** `flag` attribute of the SVRL assertion, e.g. LAWFULNESS. */
  flag?: string;
  /** The schematron `test` expression that failed. */
  test?: string;
  /** Field or node id named by a `svrl:diagnostic-reference` (`BT-24-Lot`, `ND-Organizations`). */
  field?: string;
  /** Relative path of a child that the rule expected but the notice lacks. */
  missing?: string;
  /** For `sdk-version-not-accepted`: the accepted `MAJOR.MINOR` its quick fix moves the notice to. */
  moveTo?: string;
  /** False when the location could not be resolved and the finding was placed on the root start tag. */
  resolved: boolean;
}

/** Findings in reading order: by start line, then column, then id (so equal places keep one order). */
export function sortByPosition(findings: readonly Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) =>
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}
