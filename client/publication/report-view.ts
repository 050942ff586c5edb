// The validation report of a submitted notice, shown two ways: as diagnostics on the notice when it is
// open (DiagnosticCollection `eforms-report`, mapped with mapSvrl), and as a readable webview grouped
// by rule, each place a command link that reveals its range in the notice. Every service string is
// HTML-escaped; the webview runs no script and may only run the reveal command.
// The report's diagnostics never repeat what live validation already shows at the same place (they
// are recomputed when live diagnostics change), and they go when the report's view or the notice is
// closed, or once the notice is edited.

import * as vscode from 'vscode';
import type { Finding } from '../../core/findings';
import { indexXml, readNoticeIdentity } from '../../core/notice';
import { assertionMessage, mapSvrl, parseSvrl, type SvrlReport, severityOf } from '../../core/svrl';
import { Commands } from '../command-ids';
import { notShownLive, type Place, placesKey } from './report-overlap';

export const REVEAL_COMMAND = Commands.revealReportFinding;
export const REPORT_SOURCE = 'eForms report';

export class ReportPresenter implements vscode.Disposable {
  readonly diagnostics = vscode.languages.createDiagnosticCollection('eforms-report');
  private readonly panels = new Map<string, vscode.WebviewPanel>();
  /** Per notice uri: the report's findings and the business id whose view shows them. */
  private readonly placed = new Map<string, { businessId: string; findings: Finding[] }>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    this.disposables.push(
      vscode.commands.registerCommand(REVEAL_COMMAND, (uri: string, range: number[]) =>
        this.reveal(uri, range),
      ),
      // A report is about the text that was submitted: once the notice changes, its places are stale.
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length) this.unplace(e.document.uri.toString());
      }),
      vscode.workspace.onDidCloseTextDocument((d) => this.unplace(d.uri.toString())),
      vscode.languages.onDidChangeDiagnostics((e) => {
        for (const uri of e.uris) if (this.placed.has(uri.toString())) this.applyDiagnostics(uri);
      }),
    );
  }

  /** Business ids whose report view is open (for the in-editor tests). */
  openReports(): string[] {
    return [...this.panels.keys()];
  }

  /** The open notice document with this business id, if any. */
  findNotice(businessId: string, hint?: vscode.Uri): vscode.TextDocument | undefined {
    const docs = vscode.workspace.textDocuments.filter(
      (d) => d.languageId === 'xml' || d.uri.path.endsWith('.xml'),
    );
    if (hint) {
      const d = docs.find((x) => x.uri.toString() === hint.toString());
      if (d) return d;
    }
    const noticeId = businessId.slice(0, 36).toLowerCase();
    return docs.find((d) => {
      const text = d.getText();
      // Cheap text test first: reading the identity indexes the whole document.
      if (!text.toLowerCase().includes(noticeId)) return false;
      const id = readNoticeIdentity(text);
      return id.ok && id.identity.businessId?.toLowerCase() === businessId.toLowerCase();
    });
  }

  /** Shows the report; returns the findings placed on the notice (empty when it is not open). */
  show(businessId: string, svrl: string, notice?: vscode.TextDocument): Finding[] {
    let report: SvrlReport;
    try {
      report = parseSvrl(svrl);
    } catch (e) {
      throw new Error(`the report of ${businessId} is not a readable SVRL report (${(e as Error).message}).`);
    }
    let findings: Finding[] = [];
    if (notice) {
      findings = mapSvrl(indexXml(notice.getText()), report);
      this.placed.set(notice.uri.toString(), { businessId, findings });
      this.applyDiagnostics(notice.uri);
    }
    this.render(businessId, report, findings, notice);
    return findings;
  }

  /** The report diagnostics now on `uri` (for the in-editor tests). */
  shownOn(uri: vscode.Uri): number {
    return this.diagnostics.get(uri)?.length ?? 0;
  }

  /** Sets the report's diagnostics on `uri` to those live validation does not show; no-op when unchanged. */
  private applyDiagnostics(uri: vscode.Uri): void {
    const entry = this.placed.get(uri.toString());
    if (!entry) return;
    const live: Place[] = vscode.languages
      .getDiagnostics(uri)
      .filter((d) => d.source !== REPORT_SOURCE)
      .map((d) => ({
        code: typeof d.code === 'object' ? d.code.value : d.code,
        line: d.range.start.line,
        character: d.range.start.character,
      }));
    const place = (f: Finding): Place => ({
      code: f.id,
      line: f.range.start.line,
      character: f.range.start.character,
    });
    const wanted = notShownLive(entry.findings, place, live);
    const current = (this.diagnostics.get(uri) ?? []).map((d) => ({
      code: typeof d.code === 'object' ? d.code.value : d.code,
      line: d.range.start.line,
      character: d.range.start.character,
    }));
    // Setting our own collection fires onDidChangeDiagnostics again: only a real change is applied.
    if (placesKey(current) === placesKey(wanted.map(place))) return;
    this.diagnostics.set(uri, wanted.map(toDiagnostic));
  }

  private unplace(uri: string): void {
    if (!this.placed.delete(uri)) return;
    this.diagnostics.delete(vscode.Uri.parse(uri));
  }

  private render(
    businessId: string,
    report: SvrlReport,
    findings: Finding[],
    notice?: vscode.TextDocument,
  ): void {
    let panel = this.panels.get(businessId);
    if (!panel) {
      panel = vscode.window.createWebviewPanel(
        'eforms.validationReport',
        `Report ${businessId.slice(0, 8)}…-${businessId.slice(-2)}`,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: false, enableCommandUris: [REVEAL_COMMAND] },
      );
      const p = panel;
      this.panels.set(businessId, p);
      p.onDidDispose(() => {
        this.panels.delete(businessId);
        // The report's findings go with its view.
        for (const [uri, e] of [...this.placed]) if (e.businessId === businessId) this.unplace(uri);
      });
    }
    panel.webview.html = reportHtml(businessId, report, findings, notice);
    panel.reveal(vscode.ViewColumn.Beside, true);
  }

  private async reveal(uri: string, r: number[]): Promise<void> {
    if (!Array.isArray(r) || r.length !== 4 || !r.every((n) => Number.isInteger(n) && n >= 0)) return;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
    const range = new vscode.Range(r[0], r[1], r[2], r[3]);
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One });
    editor.selection = new vscode.Selection(range.start, range.end);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  dispose(): void {
    for (const p of this.panels.values()) p.dispose();
    for (const d of this.disposables) d.dispose();
    this.diagnostics.dispose();
  }
}

function toDiagnostic(f: Finding): vscode.Diagnostic {
  const r = f.range;
  const d = new vscode.Diagnostic(
    new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character),
    f.message,
    f.severity === 'error'
      ? vscode.DiagnosticSeverity.Error
      : f.severity === 'warning'
        ? vscode.DiagnosticSeverity.Warning
        : vscode.DiagnosticSeverity.Information,
  );
  d.source = REPORT_SOURCE;
  d.code = f.id;
  return d;
}

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function reportHtml(
  businessId: string,
  report: SvrlReport,
  findings: Finding[],
  notice?: vscode.TextDocument,
): string {
  const byRule = new Map<
    string,
    { role: string; text: string; places: { location: string; finding?: Finding }[] }
  >();
  report.assertions.forEach((a, i) => {
    const g = byRule.get(a.id) ?? { role: a.role, text: assertionMessage(a), places: [] };
    // mapSvrl keeps the assertions' order and drops none: the i-th finding is the i-th assertion.
    g.places.push({ location: a.location, finding: findings[i] });
    byRule.set(a.id, g);
  });
  const counts = { error: 0, warning: 0, info: 0 };
  for (const a of report.assertions) counts[severityOf(a.role)]++;
  const sections = [...byRule.entries()]
    .sort(([, a], [, b]) => rank(a.role) - rank(b.role))
    .map(([id, g]) => {
      const places = g.places
        .map((p) => {
          const f = p.finding;
          if (!f || !notice) return `<li><code>${escapeHtml(p.location)}</code></li>`;
          const args = encodeURIComponent(
            JSON.stringify([
              notice.uri.toString(),
              [f.range.start.line, f.range.start.character, f.range.end.line, f.range.end.character],
            ]),
          );
          const where = `line ${f.range.start.line + 1}, column ${f.range.start.character + 1}`;
          return `<li><a href="command:${REVEAL_COMMAND}?${args}">${where}</a> <code>${escapeHtml(p.location)}</code>${f.resolved ? '' : ' (place not found: shown on the root element)'}</li>`;
        })
        .join('');
      return `<section class="${severityOf(g.role)}"><h2>${escapeHtml(severityOf(g.role).toUpperCase())} ${escapeHtml(id)}</h2><p>${escapeHtml(g.text)}</p><ul>${places}</ul></section>`;
    })
    .join('\n');
  const where = notice
    ? `Places link to <code>${escapeHtml(vscode.workspace.asRelativePath(notice.uri))}</code>.`
    : 'Open the submitted notice and run "eForms: Open Validation Report" again to link each place to its line.';
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">
<style>body{font-family:var(--vscode-font-family);color:var(--vscode-foreground)}section{border-left:3px solid var(--vscode-editorInfo-foreground);padding-left:.8em;margin:1em 0}section.error{border-color:var(--vscode-editorError-foreground)}section.warning{border-color:var(--vscode-editorWarning-foreground)}h2{font-size:1.05em;margin:.2em 0}code{font-size:.9em}</style>
</head><body><h1>Validation report of ${escapeHtml(businessId)}</h1>
<p>${counts.error} error(s), ${counts.warning} warning(s), ${counts.info} information(s). ${where}</p>
${sections || '<p>No failed assertion: the notice passed validation.</p>'}
</body></html>`;
}

function rank(role: string): number {
  const s = severityOf(role);
  return s === 'error' ? 0 : s === 'warning' ? 1 : 2;
}
