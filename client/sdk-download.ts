// Getting an eForms SDK release onto the machine from VS Code, with the user's consent: when the
// language server reports that a notice needs a release it does not have, the user is asked once
// (download it, choose a folder, or not now); `eforms.sdk.allowDownload` answers for later. The
// download itself is core/sdk's (checked against the published SHA-1, atomic in the cache), shown
// with progress and cancellable. Afterwards the server is told to run the local rules again.
// On the first run with no SDK at all, the user is told at once (a notification and the status
// item's warning) and offered the same choices; the wording is client/first-run.ts's.

import { join } from 'node:path';
import * as vscode from 'vscode';
import { dispatcherForVsCodeHttp } from '../core/http';
import type { ValidationStatusParams } from '../core/protocol';
import { availableSdkReleases, listSdkReleases, resolveSdk, SdkError } from '../core/sdk';
import { Commands } from './command-ids';
import { readConfig, readHttpSettings, SECTION } from './config';
import { wordFailure } from './failure-wording';
import { OFFERED_SDK, sdkOffer, sdkPathTarget, settingsCommandFor } from './first-run';

/** Asked once per machine: a refusal is remembered, the setting and the status item remain. */
const ASKED_KEY = 'eforms.sdk.downloadAsked';
const DOWNLOADABLE = new Set(['consent-needed', 'no-sdk', 'version-missing']);

/** Told whether an SDK is available (undefined) or which one is missing ('' for any). */
export type SdkMissingListener = (wanted: string | undefined) => void;

export class SdkDownloads {
  private busy = new Set<string>();
  private readonly listeners: SdkMissingListener[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly sdkChanged: () => void,
  ) {
    context.subscriptions.push(
      vscode.commands.registerCommand(Commands.getSdk, (wanted?: unknown) =>
        this.offer(typeof wanted === 'string' ? wanted : undefined),
      ),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.sdk.path`)) this.check();
      }),
    );
  }

  /** The status item (or a test) hears whether an SDK is missing. */
  onMissing(l: SdkMissingListener): void {
    this.listeners.push(l);
  }

  /** Whether any release is on this machine (the named folder or the cache); tells the listeners. */
  check(): boolean {
    let any = false;
    try {
      any = availableSdkReleases({ path: readConfig().sdk.path, cacheRoot: this.cacheRoot }).length > 0;
    } catch (err) {
      this.log.warn(`the eForms SDK folders could not be read: ${String(err)}`);
    }
    for (const l of this.listeners) l(any ? undefined : '');
    return any;
  }

  /**
   * The first run: with no SDK at all, the status item warns and the user is offered the choices,
   * once per machine (a "Not now" is remembered; the item and the command remain).
   */
  async firstRun(): Promise<void> {
    if (this.check()) return;
    if (this.context.globalState.get<boolean>(ASKED_KEY)) return;
    await this.context.globalState.update(ASKED_KEY, true);
    await this.offer();
  }

  /** The three choices: download a release, choose a folder, not now. Resolves to what was done. */
  async offer(wanted?: string): Promise<'downloaded' | 'folder' | 'none'> {
    const o = sdkOffer(wanted);
    const pick = await vscode.window.showWarningMessage(o.message, o.download, o.chooseFolder, o.notNow);
    if (pick === o.download) {
      const ok = await this.download(wanted ?? OFFERED_SDK.version);
      this.check();
      return ok ? 'downloaded' : 'none';
    }
    if (pick === o.chooseFolder) return (await this.chooseFolder()) ? 'folder' : 'none';
    return 'none';
  }

  /**
   * A folder picker; the folder must hold a release (or releases). It is written to eforms.sdk.path
   * where it takes effect, whatever the remote (see first-run.ts). Returns the folder written.
   */
  async chooseFolder(dir?: string): Promise<string | undefined> {
    if (!dir) {
      const chosen = await vscode.window.showOpenDialog({
        canSelectFolders: true,
        canSelectFiles: false,
        openLabel: 'Use this eForms SDK',
        title: 'A folder holding an eForms SDK release (schematrons/, fields/…) or a folder of releases',
      });
      dir = chosen?.[0]?.fsPath;
      if (!dir) return undefined;
    }
    const releases = listSdkReleases(dir);
    if (releases.length === 0) {
      const again = 'Choose Another Folder…';
      const a = await vscode.window.showWarningMessage(
        `eForms: ${dir} holds no eForms SDK release (a release has fields/fields.json and schematrons/).`,
        again,
      );
      return a === again ? this.chooseFolder() : undefined;
    }
    const c = vscode.workspace.getConfiguration(SECTION);
    const where = sdkPathTarget(c.inspect('sdk.path'));
    const target =
      where === 'workspaceFolder'
        ? vscode.ConfigurationTarget.WorkspaceFolder
        : where === 'workspace'
          ? vscode.ConfigurationTarget.Workspace
          : vscode.ConfigurationTarget.Global;
    await c.update('sdk.path', dir, target);
    this.log.info(
      `eforms.sdk.path is now ${dir} (${where} settings): ${releases.map((r) => r.version).join(', ')}`,
    );
    this.check();
    this.sdkChanged();
    return dir;
  }

  /** The cache the server reads: the extension's global storage. */
  get cacheRoot(): string {
    return join(this.context.globalStorageUri.fsPath, 'sdk');
  }

  /** A status from the server: when it says a release is missing, offer it (once) or fetch it (allowed). */
  onStatus(s: ValidationStatusParams): void {
    const p = s.sdkProblem;
    if (s.engine !== 'local' || !p?.wanted || !DOWNLOADABLE.has(p.kind)) return;
    const wanted = p.wanted;
    if (this.busy.has(wanted)) return;
    const scope = s.uri ? vscode.Uri.parse(s.uri) : undefined;
    if (readConfig(scope).sdk.allowDownload) {
      void this.download(wanted, scope);
      return;
    }
    if (this.context.globalState.get<boolean>(ASKED_KEY)) return;
    void this.context.globalState.update(ASKED_KEY, true);
    void this.offer(wanted);
  }

  /** Downloads the release with a cancellable progress notification; the server then re-runs. */
  async download(wanted: string, scope?: vscode.Uri): Promise<boolean> {
    if (this.busy.has(wanted)) return false;
    this.busy.add(wanted);
    const s = readConfig(scope).sdk;
    // Through VS Code's proxy settings (http.proxy, http.noProxy), as the extension's other requests.
    const dispatcher = dispatcherForVsCodeHttp(readHttpSettings());
    try {
      const r = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `eForms: downloading the eForms SDK ${wanted}`,
          cancellable: true,
        },
        (progress, token) => {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          let reported = 0;
          return resolveSdk(
            {
              path: s.path,
              cacheRoot: this.cacheRoot,
              download: {
                allowed: true,
                repositoryUrl: s.repositoryUrl,
                signal: controller.signal,
                dispatcher,
                onProgress: (p) => {
                  if (p.phase === 'unpack') return progress.report({ message: 'unpacking…' });
                  if (!p.total)
                    return progress.report({ message: `${(p.received / 1048576).toFixed(1)} MB` });
                  const pct = (p.received / p.total) * 100;
                  progress.report({
                    increment: pct - reported,
                    message: `${(p.received / 1048576).toFixed(1)} of ${(p.total / 1048576).toFixed(1)} MB`,
                  });
                  reported = pct;
                },
              },
            },
            { pinned: wanted },
          );
        },
      );
      this.log.info(`eForms SDK ${r.release.version} is in ${r.release.dir}`);
      this.check();
      this.sdkChanged();
      return true;
    } catch (err) {
      if (err instanceof SdkError && err.kind === 'cancelled') {
        this.log.info(`the download of eForms SDK ${wanted} was cancelled`);
        return false;
      }
      const why = err instanceof SdkError ? editorWords(err) : String(err);
      this.log.warn(`eForms SDK ${wanted}: ${why}`);
      void vscode.window.showWarningMessage(`eForms: ${why}`);
      return false;
    } finally {
      this.busy.delete(wanted);
      void dispatcher.close().catch(() => undefined);
    }
  }
}

/** The SDK's errors in the editor's words: its settings and commands. */
function editorWords(e: SdkError): string {
  // The repository failed at the transport: worded like any service's failure (failure-wording.ts).
  if (e.failure) return wordFailure(e.failure, 'Downloading the eForms SDK').message;
  const f = e.fields;
  switch (e.kind) {
    case 'offline':
      return `the eForms SDK cannot be downloaded (${f.reason ?? 'no connection'}): set "eforms.sdk.path" to a folder that holds it, or connect and reopen the notice.`;
    case 'not-found':
      return `the SDK repository has no release ${f.wanted ?? ''}: pin another version with "eforms.validation.sdkVersion".`;
    case 'corrupt':
      return `the downloaded eForms SDK was corrupt (${f.reason ?? 'checksum mismatch'}) and was discarded: try again later, or set "eforms.sdk.path".`;
    default:
      return e.message;
  }
}

/** Opens the settings editor on eforms.sdk.path, on the tab where a machine setting shows. */
export async function openSdkSetting(): Promise<void> {
  await vscode.commands.executeCommand(settingsCommandFor(vscode.env.remoteName), 'eforms.sdk.path');
}
