// Findings as LSP diagnostics, the one mapping: which source names them, the rule's link, the related
// places, and what travels in `data` for code actions (core/findings' DiagnosticData). Findings arrive
// complete (core/authoring's completeFindings); nothing is added to a diagnostic after this. Pure
// mapping; never touches the connection.

import { type Diagnostic, DiagnosticSeverity } from 'vscode-languageserver';
import { diagnosticDataOf, type Finding, type Severity } from '../core/findings';
import { terminalText } from '../core/text';

export const LOCAL_SOURCE = 'eForms';
export const SERVICE_SOURCE = 'eForms CVS';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

/** `uri`: the document the finding is in (its related places are in the same one). */
export function toDiagnostic(f: Finding, uri: string): Diagnostic {
  const d: Diagnostic = {
    range: f.range,
    severity: SEVERITY[f.severity],
    source: sourceOf(f),
    // A report's words reach the Problems panel as they reach a terminal: a right-to-left override or a
    // zero-width character could make a message read as something else (shown escaped, as the CLI does).
    code: terminalText(f.id),
    // The mapping already opens the message with the flag ("[LAWFULNESS] …"): adding it here doubled it.
    message: terminalText(f.message),
  };
  if (f.help) d.codeDescription = { href: f.help };
  if (f.related?.length)
    d.relatedInformation = f.related.map((r) => ({
      location: { uri, range: r.range },
      message: terminalText(r.message),
    }));
  // The version warning is local, but its quick fix needs the version to move to.
  if (f.source !== 'local' || f.moveTo) d.data = diagnosticDataOf(f);
  return d;
}

/** The diagnostic's source names the engine, and for the SDK's rules the release ("eForms SDK 1.15.1"). */
export function sourceOf(f: Finding): string {
  if (f.source === 'local') return LOCAL_SOURCE;
  if (f.source === 'sdk') return sdkSource(f.sdkVersion);
  return SERVICE_SOURCE;
}

export function sdkSource(version: string | undefined): string {
  return version ? `eForms SDK ${version}` : 'eForms SDK';
}

export interface SeverityCounts {
  errors: number;
  warnings: number;
  infos: number;
}

export function countSeverities(findings: readonly Finding[]): SeverityCounts {
  const c = { errors: 0, warnings: 0, infos: 0 };
  for (const f of findings) {
    if (f.severity === 'error') c.errors++;
    else if (f.severity === 'warning') c.warnings++;
    else c.infos++;
  }
  return c;
}
