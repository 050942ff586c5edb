// After eNotices2 refused a submission because a notice with the same notice id and version exists,
// a diagnostic on the notice's cbc:VersionID (code `notice-version-exists`), so that the language
// server's quick fix "Increase cbc:VersionID" is one Ctrl+. away. It goes as soon as the notice changes.

import * as vscode from 'vscode';
import { VERSION_EXISTS } from '../../core/authoring';
import { indexXml } from '../../core/notice';
import type { ExtensionState } from '../extension-state';

const SOURCE = 'eForms eNotices2';
let collection: vscode.DiagnosticCollection | undefined;

function diagnostics(s: ExtensionState): vscode.DiagnosticCollection {
  if (collection) return collection;
  const c = vscode.languages.createDiagnosticCollection('eforms-enotices');
  collection = c;
  s.context.subscriptions.push(
    c,
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length > 0) c.delete(e.document.uri);
    }),
    vscode.workspace.onDidCloseTextDocument((d) => c.delete(d.uri)),
    { dispose: () => (collection = undefined) },
  );
  return c;
}

/** Marks the notice's cbc:VersionID (or its root when it has none) as the version that already exists. */
export function markVersionExists(s: ExtensionState, doc: vscode.TextDocument): void {
  const text = doc.getText();
  const index = indexXml(text);
  const root = index.elements[0];
  if (!root) return;
  const version = root.children
    .map((i) => index.elements[i])
    .find(
      (e) =>
        e?.local === 'VersionID' &&
        e.ns === 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
    );
  const target = version ?? root;
  const range = new vscode.Range(doc.positionAt(target.start), doc.positionAt(target.startTagEnd));
  const d = new vscode.Diagnostic(
    range,
    'eNotices2 already has a notice with this notice id and version: increase cbc:VersionID (Ctrl+.), then submit again.',
    vscode.DiagnosticSeverity.Error,
  );
  d.source = SOURCE;
  d.code = VERSION_EXISTS;
  diagnostics(s).set(doc.uri, [d]);
}
