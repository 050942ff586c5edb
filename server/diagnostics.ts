// Findings as LSP diagnostics: which source names them, and what
// travels in `data` for code actions. Pure mapping; never touches the connection.

import { type Diagnostic, DiagnosticSeverity } from 'vscode-languageserver';
import type { Finding, Severity } from '../core/findings';

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
    source: sourceOf(f),
    code: f.id,
    // The mapping already opens the message with the flag ("[LAWFULNESS] …"): adding it here doubled it.
    message: f.message,
  };
  if (f.source !== 'local') {
    const data: FindingData = { location: f.location, resolved: f.resolved };
    if (f.field) data.field = f.field;
    if (f.flag) data.flag = f.flag;
    if (f.missing) data.missing = f.missing;
    d.data = data;
  } else if (f.moveTo) d.data = { moveTo: f.moveTo };
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
