// Findings as LSP diagnostics: which source names them, and what
// travels in `data` for code actions. Pure mapping; never touches the connection.

import { type Diagnostic, DiagnosticSeverity } from 'vscode-languageserver';
import type { Finding, Severity } from '../core/finding';

export const LOCAL_SOURCE = 'eForms';
export const SERVICE_SOURCE = 'eForms CVS';

/** What a diagnostic carries beyond the message, for the client's quick fixes and hovers. */
export interface FindingData {
  location: string;
  field?: string;
  flag?: string;
  missing?: string;
  resolved: boolean;
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

export function toDiagnostic(f: Finding): Diagnostic {
  const d: Diagnostic = {
    range: f.range,
    severity: SEVERITY[f.severity],
    source: f.source === 'local' ? LOCAL_SOURCE : SERVICE_SOURCE,
    code: f.id,
    // The mapping already opens the message with the flag ("[LAWFULNESS] …"): adding it here doubled it.
    message: f.message,
  };
  if (f.source === 'cvs') {
    const data: FindingData = { location: f.location, resolved: f.resolved };
    if (f.field) data.field = f.field;
    if (f.flag) data.flag = f.flag;
    if (f.missing) data.missing = f.missing;
    d.data = data;
  }
  return d;
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
