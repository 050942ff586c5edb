// The only module that reads `workspace.getConfiguration`: typed getters over core/settings (its table names
// the sections read here), so
// that the client and the language server interpret the `eforms` section identically.

import * as vscode from 'vscode';
import type { EnvironmentName, ServiceUrls, VsCodeHttpSettings } from '../core/http';
import { type EformsSettings, readSettings, SETTINGS_ROOTS, urlsOf } from '../core/settings';

export const SECTION = 'eforms';

export function readConfig(scope?: vscode.Uri): EformsSettings {
  const c = vscode.workspace.getConfiguration(SECTION, scope);
  // `get` of the section's sub-objects gives the merged (default+user+workspace) values as nested objects.
  const raw: Record<string, unknown> = {};
  // The sections come from the one settings table, so a new setting needs no edit here.
  for (const key of SETTINGS_ROOTS) raw[key] = c.get(key);
  return readSettings(raw);
}

export function serviceUrlsFor(scope?: vscode.Uri): ServiceUrls {
  return urlsOf(readConfig(scope));
}

/** Writes the environment where the user most likely expects it: the workspace if it sets one, else the user settings. */
export async function writeEnvironment(env: EnvironmentName, customCvsUrl?: string): Promise<void> {
  const c = vscode.workspace.getConfiguration(SECTION);
  const inspected = c.inspect('environment');
  const target =
    inspected?.workspaceValue !== undefined
      ? vscode.ConfigurationTarget.Workspace
      : vscode.ConfigurationTarget.Global;
  if (customCvsUrl !== undefined) await c.update('customUrls.cvs', customCvsUrl, target);
  await c.update('environment', env, target);
}

/** VS Code's proxy settings, for the extension's own requests (core/http routes them). */
export function readHttpSettings(): VsCodeHttpSettings {
  const c = vscode.workspace.getConfiguration('http');
  return { proxy: c.get('proxy'), proxyStrictSSL: c.get('proxyStrictSSL'), noProxy: c.get('noProxy') };
}

export function affectsHttp(e: vscode.ConfigurationChangeEvent): boolean {
  return (
    e.affectsConfiguration('http.proxy') ||
    e.affectsConfiguration('http.proxyStrictSSL') ||
    e.affectsConfiguration('http.noProxy')
  );
}

export function affectsEforms(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration(SECTION);
}
