// Domain types shared by the language server, the VS Code client and the command-line tool: the
// finding, complete (its front ends add nothing), and the typed `data` of its LSP diagnostic.
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
  /** The element the finding is placed on, as written (`cbc:ID`); set by completion. */
  node?: string;
  /** Documentation of the rule (`https://docs.ted.europa.eu/…#BR-…`); set by completion. */
  help?: string;
  /** Other places in the notice the rule involves (its other fields), each with what it is. */
  related?: RelatedPlace[];
}

/** A place in the same notice that a finding involves. */
export interface RelatedPlace {
  range: Range;
  /** `BT-31-Procedure · Maximum number of lots`: the field and its label. */
  message: string;
}

/**
 * What travels in an LSP diagnostic's `data`: written by the server's toDiagnostic, read back by the
 * code actions (the client returns it unchanged, but as JSON: read it with readDiagnosticData).
 */
export interface DiagnosticData {
  location: string;
  resolved: boolean;
  field?: string;
  flag?: string;
  missing?: string;
  node?: string;
  /** For `sdk-version-not-accepted`: the accepted `MAJOR.MINOR` its quick fix moves the notice to. */
  moveTo?: string;
}

/** The finding's `data`, as toDiagnostic writes it. */
export function diagnosticDataOf(f: Finding): DiagnosticData {
  const data: DiagnosticData = { location: f.location, resolved: f.resolved };
  if (f.field) data.field = f.field;
  if (f.flag) data.flag = f.flag;
  if (f.missing) data.missing = f.missing;
  if (f.node) data.node = f.node;
  if (f.moveTo) data.moveTo = f.moveTo;
  return data;
}

/** A diagnostic's `data` as it comes back from a client: only the fields of the right type survive. */
export function readDiagnosticData(data: unknown): Partial<DiagnosticData> {
  if (typeof data !== 'object' || data === null) return {};
  const d = data as Record<string, unknown>;
  const out: Partial<DiagnosticData> = {};
  if (typeof d.location === 'string') out.location = d.location;
  if (typeof d.resolved === 'boolean') out.resolved = d.resolved;
  for (const k of ['field', 'flag', 'missing', 'node', 'moveTo'] as const) {
    const v = d[k];
    if (typeof v === 'string') out[k] = v;
  }
  return out;
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
