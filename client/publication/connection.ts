// How the publication features reach eNotices2 from the editor: the client for the configured
// environment, API family and key, and the one way EnoticesErrors are shown to the user (with a button
// that fixes the cause when there is one). The key is never logged; messages come from the client.

import * as vscode from 'vscode';
import { EnoticesClient, EnoticesError } from '../../core/enotices-client';
import { Commands } from '../command-ids';
import type { ExtensionState } from '../extension-state';

/** The client, asking for the key once when none is set; undefined when the user declines. */
export async function enoticesClient(
  state: ExtensionState,
  opts: { prompt: boolean; scope?: vscode.Uri },
): Promise<EnoticesClient | undefined> {
  let key = await state.apiKey();
  if (!key && opts.prompt) key = await state.promptForApiKey();
  if (!key) return undefined;
  const s = state.settings(opts.scope);
  return new EnoticesClient({
    baseUrl: state.urls(opts.scope).enotices,
    apiKey: key,
    family: s.publication.apiFamily,
    timeoutMs: s.validation.timeoutMs,
  });
}

/** Shows a failure once, with the action that addresses its kind; logs it without any key. */
export async function showFailure(state: ExtensionState, err: unknown, what: string): Promise<void> {
  const message = err instanceof Error ? err.message : String(err);
  state.log.warn(`${what}: ${message}`);
  if (!(err instanceof EnoticesError)) {
    void vscode.window.showErrorMessage(`eForms: ${what} failed: ${message}`);
    return;
  }
  const actions: string[] = [];
  if (err.kind === 'auth') actions.push('Set API Key');
  if (err.kind === 'network' || err.kind === 'local') actions.push('Select Environment');
  if (err.kind === 'state' || err.kind === 'busy') actions.push('Refresh My Notices');
  actions.push('Show Log');
  const pick = await vscode.window.showErrorMessage(`eForms: ${message}`, ...actions);
  if (pick === 'Set API Key') await vscode.commands.executeCommand(Commands.setApiKey);
  else if (pick === 'Select Environment') await vscode.commands.executeCommand(Commands.selectEnvironment);
  else if (pick === 'Refresh My Notices') await vscode.commands.executeCommand(Commands.refreshNotices);
  else if (pick === 'Show Log') await vscode.commands.executeCommand(Commands.showLog);
}
