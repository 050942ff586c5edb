// The validation side's commands: API key, environment, validate now, log. One function per command,
// each a plain function of the extension state (the rust-analyzer pattern).

import * as vscode from 'vscode';
import { type EnvironmentName, keyTransportProblem } from '../core/http';
import { checkApiKeyInput } from './api-key';
import type { EformsClientState } from './client-state';
import { Commands } from './command-ids';
import { writeEnvironment } from './config';

export function registerValidationCommands(s: EformsClientState): void {
  const reg = (id: string, fn: (...args: unknown[]) => unknown) =>
    s.context.subscriptions.push(vscode.commands.registerCommand(id, fn));

  reg(Commands.setApiKey, (arg) => setApiKey(s, arg));
  reg(Commands.clearApiKey, () => clearApiKey(s));
  reg(Commands.validateNow, (arg) => validateNow(s, arg));
  reg(Commands.selectEnvironment, (arg) => selectEnvironment(arg));
  reg(Commands.showLog, () => s.log.show());
}

/** With a string argument (tests, other extensions) the key is stored without a prompt. */
export async function setApiKey(s: EformsClientState, arg?: unknown): Promise<string | undefined> {
  if (typeof arg === 'string') {
    const problem = checkApiKeyInput(arg);
    if (problem) throw new Error(problem);
    await s.keys.set(arg);
    s.log.info('API key stored in secret storage');
    return arg.trim();
  }
  const urls = s.urls();
  const key = await vscode.window.showInputBox({
    title: 'eForms: Set API Key',
    prompt: `API key of your TED developer account for ${s.settings().environment} (${urls.cvs}). It is kept in VS Code's secret storage.`,
    password: true,
    ignoreFocusOut: true,
    validateInput: checkApiKeyInput,
  });
  if (key === undefined) return undefined;
  await s.keys.set(key);
  s.log.info('API key stored in secret storage');
  void vscode.window.showInformationMessage('eForms: API key saved. Open notices are validated again.');
  return key.trim();
}

async function clearApiKey(s: EformsClientState): Promise<void> {
  await s.keys.clear();
  s.log.info('API key removed from secret storage');
  if (process.env.EFORMS_API_KEY) {
    void vscode.window.showInformationMessage(
      'eForms: API key removed from secret storage. The EFORMS_API_KEY environment variable still provides one.',
    );
  }
}

async function validateNow(s: EformsClientState, arg?: unknown): Promise<void> {
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  const doc = uri && vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (!doc) {
    void vscode.window.showWarningMessage('eForms: open an eForms notice to validate it.');
    return;
  }
  if (!s.isNotice(doc)) {
    void vscode.window.showWarningMessage(
      'eForms: this file is not an eForms notice (its root must be a ContractNotice, ContractAwardNotice, PriorInformationNotice or BusinessRegistrationInformationNotice in the eForms namespace).',
    );
    return;
  }
  const result = await s.languageClient.validateNow(doc.uri);
  if (!result.started && result.message) void vscode.window.showWarningMessage(`eForms: ${result.message}`);
}

const ENV_ITEMS: (vscode.QuickPickItem & { env: EnvironmentName })[] = [
  {
    env: 'preview',
    label: 'Preview',
    description: 'cvs.preview.ted.europa.eu — for testing with a preview key',
  },
  {
    env: 'production',
    label: 'Production',
    description: 'cvs.ted.europa.eu — notices submitted here are published',
  },
  { env: 'sandbox', label: 'Sandbox', description: 'local emulation (eforms sandbox / npm start)' },
  { env: 'custom', label: 'Custom URL…', description: 'your own validation service base URL' },
];

async function selectEnvironment(arg?: unknown): Promise<void> {
  let env: EnvironmentName | undefined = ENV_ITEMS.find((i) => i.env === arg)?.env;
  if (!env) {
    const pick = await vscode.window.showQuickPick(ENV_ITEMS, { title: 'eForms: Select Environment' });
    env = pick?.env;
  }
  if (!env) return;
  let custom: string | undefined;
  if (env === 'custom') {
    custom = await vscode.window.showInputBox({
      title: 'eForms: Validation service base URL',
      prompt: 'Base URL of the Central Validation Service (the path /v1/notices/validation is added).',
      placeHolder: 'https://cvs.example.eu',
      ignoreFocusOut: true,
      validateInput: (v) => keyTransportProblem(v.trim()),
    });
    if (custom === undefined) return;
    custom = custom.trim();
  }
  await writeEnvironment(env, custom);
}
