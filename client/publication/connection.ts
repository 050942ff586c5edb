// How the extension's own requests reach eNotices2: the client for the configured environment, API
// family, key and VS Code's proxy settings, and the one way a service failure (any of the three
// services) is shown to the user, worded from its kind and fields (client/failure-wording.ts) with the
// button that fixes the cause. The key is never logged; proxy credentials never reach a message.

import * as vscode from 'vscode';
import { EnoticesClient } from '../../core/services';
import { Commands } from '../command-ids';
import type { ExtensionState } from '../extension-state';
import { type FailureAction, wordFailure } from '../failure-wording';

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
    dispatcher: state.dispatcher(),
  });
}

const ACTIONS: Record<FailureAction, () => Thenable<unknown>> = {
  'Set API Key': () => vscode.commands.executeCommand(Commands.setApiKey),
  'Select Environment': () => vscode.commands.executeCommand(Commands.selectEnvironment),
  'Proxy Settings': () => vscode.commands.executeCommand('workbench.action.openSettings', 'http.proxy'),
  'Refresh My Notices': () => vscode.commands.executeCommand(Commands.refreshNotices),
  'Show Log': () => vscode.commands.executeCommand(Commands.showLog),
};

/** Shows a failure once, with the actions that address its kind; logs it without any key. */
export async function showFailure(state: ExtensionState, err: unknown, what: string): Promise<void> {
  const { message, actions } = wordFailure(err, what);
  state.log.warn(message);
  if (actions.length === 0) return; // cancelled by the user: nothing to show
  const pick = await vscode.window.showErrorMessage(`eForms: ${message}`, ...actions);
  if (pick) await ACTIONS[pick]();
}
