// "eForms: Convert Legacy TED Notice to eForms": sends a legacy TED XML notice to eNotices2's convert
// operation and opens the eForms result in a new untitled XML editor beside the source. The source is
// never modified.

import * as vscode from 'vscode';
import type { ExtensionState } from '../extension-state';
import { enoticesClient, showFailure } from './connection';

export async function convertLegacyNotice(
  state: ExtensionState,
  arg?: vscode.Uri | string,
): Promise<vscode.TextDocument | undefined> {
  let source: vscode.TextDocument | undefined;
  if (arg)
    source = await vscode.workspace.openTextDocument(typeof arg === 'string' ? vscode.Uri.parse(arg) : arg);
  else source = vscode.window.activeTextEditor?.document;
  if (
    !source ||
    !/<(TED_EXPORT|TED_ESENDERS|F\d\d_20\d\d)\b/.test(source.getText(new vscode.Range(0, 0, 400, 0)))
  ) {
    const picked = await vscode.window.showOpenDialog({
      title: 'Legacy TED XML notice to convert',
      canSelectMany: false,
      filters: { 'TED XML': ['xml'] },
    });
    if (!picked?.[0]) return undefined;
    source = await vscode.workspace.openTextDocument(picked[0]);
  }
  const client = await enoticesClient(state, { prompt: true, scope: source.uri });
  if (!client) return undefined;
  const text = source.getText();
  let xml: string;
  try {
    xml = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'eForms: converting the legacy notice…' },
      () => client.convert(text),
    );
  } catch (err) {
    void showFailure(state, err, 'Converting the legacy notice');
    return undefined;
  }
  const doc = await vscode.workspace.openTextDocument({ language: 'xml', content: xml });
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  void vscode.window.showInformationMessage(
    'eForms: converted. Review every field (a legacy form lacks some eForms fields), then save and validate.',
  );
  return doc;
}
