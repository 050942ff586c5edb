// What the in-editor tests share: the extension under test and its API, the workspace's notices, waits
// that poll instead of sleeping for a fixed time, and expected positions computed from the fixture text
// itself (never from the extension). Runs inside the extension host; never imported by node:test files.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

export const PROJECT_ROOT = join(__dirname, '..', '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  publisher: string;
  name: string;
};
export const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;

export const LOCAL_SOURCE = 'eForms';
export const SERVICE_SOURCE = 'eForms CVS';

/** The extension's API as the contract describes it (client/extension.ts returns it from activate). */
export interface EformsApi {
  isServerRunning(): boolean;
  status(): {
    state: string;
    text: string;
    errors: number;
    warnings: number;
    infos: number;
    message?: string;
    environment: string;
    ariaLabel: string;
  };
  publication(): PublicationSnapshot;
}

/** What EformsExtensionApi.publication() returns (client/publication/index.ts). */
export interface PublicationSnapshot {
  tree: {
    total: number;
    notices: { businessId: string; status: string }[];
    problem?: string;
    groups: string[];
    nextRefreshSeconds?: number;
  };
  reports: string[];
  reportDiagnostics: Record<string, number>;
  submitting: string[];
}

/** The environment the runner (scripts/vscode/session.mjs) gives the extension host. */
export const testEnv = {
  sandboxUrl: process.env.EFORMS_TEST_SANDBOX_URL ?? '',
  apiKey: process.env.EFORMS_TEST_API_KEY ?? '',
  resultsDir: process.env.EFORMS_TEST_RESULTS ?? '',
};

export function extension(): vscode.Extension<EformsApi> {
  const ext = vscode.extensions.getExtension<EformsApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded in this window`);
  return ext;
}

/** The API, activating the extension if nothing did yet (activation itself is cheap by contract). */
export async function api(): Promise<EformsApi> {
  const ext = extension();
  const exports = ext.isActive ? ext.exports : await ext.activate();
  assert.equal(
    typeof exports?.isServerRunning,
    'function',
    'activate() must return { isServerRunning, status }',
  );
  assert.equal(typeof exports?.status, 'function', 'activate() must return { isServerRunning, status }');
  return exports;
}

export function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(
    folder,
    'the test window has no workspace folder (the runner opens a copy of test/fixtures/notices)',
  );
  return folder.uri.fsPath;
}

export function fixtureUri(name: string): vscode.Uri {
  return vscode.Uri.file(join(workspaceDir(), name));
}

/** The fixture as it is on disk in the workspace copy (not as any editor shows it). */
export function fixtureText(name: string): string {
  return readFileSync(join(workspaceDir(), name), 'utf8');
}

export async function open(name: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(fixtureUri(name));
  return vscode.window.showTextDocument(doc, { preview: false });
}

/** Closes every editor, reverting unsaved edits, so the next test starts from the files on disk. */
export async function closeAll(): Promise<void> {
  for (const editor of vscode.window.visibleTextEditors) {
    if (editor.document.isDirty) {
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

const POLL_MS = 100;
export const WAIT_MS = 20000;

/**
 * Polls `probe` every 100 ms until it returns something other than undefined, or fails after `ms`
 * with `what` and the last observed state, so a failure says what was seen instead.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  describe: () => string = () => '',
  ms = WAIT_MS,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) assert.fail(`timed out after ${ms / 1000} s waiting for ${what}. ${describe()}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export function diagnostics(uri: vscode.Uri, source?: string): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => source === undefined || d.source === source);
}

export function codeOf(d: vscode.Diagnostic): string {
  const c = d.code;
  if (c === undefined) return '';
  return typeof c === 'object' ? String(c.value) : String(c);
}

export function describeDiagnostics(uri: vscode.Uri): string {
  const all = vscode.languages.getDiagnostics(uri);
  if (all.length === 0) return 'No diagnostics.';
  return `Diagnostics: ${all
    .map((d) => `[${d.source} ${codeOf(d)} ${d.range.start.line}:${d.range.start.character}] ${d.message}`)
    .join(' | ')}`;
}

export function describeStatus(a: EformsApi): string {
  return `Status: ${JSON.stringify(a.status())}.`;
}

/** Zero-based line and UTF-16 column of `offset`, counted here from the raw text. */
export function positionAt(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, character: offset - lineStart };
}

/** The status text without its `$(icon)` prefixes, as the status bar shows it. */
export function plainText(statusText: string): string {
  return statusText.replace(/\$\([^)]*\)/g, '').trim();
}

export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('eforms').update(key, value, vscode.ConfigurationTarget.Global);
}
