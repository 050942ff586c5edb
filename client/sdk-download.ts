// Getting an eForms SDK release onto the machine from VS Code, with the user's consent: when the
// language server reports that a notice needs a release it does not have, the user is asked once
// (download it, choose a folder, or not now); `eforms.sdk.allowDownload` answers for later. The
// download itself is core/sdk's (checked against the published SHA-1, atomic in the cache), shown
// with progress and cancellable. Afterwards the server is told to run the local rules again.

import { join } from 'node:path';
import * as vscode from 'vscode';
import { dispatcherForVsCodeHttp } from '../core/http';
import type { ValidationStatusParams } from '../core/protocol';
import { resolveSdk, SdkError } from '../core/sdk';
import { readConfig, readHttpSettings, SECTION } from './config';
import { wordFailure } from './failure-wording';

/** Asked once per machine: a refusal is remembered, the setting and the status item remain. */
const ASKED_KEY = 'eforms.sdk.downloadAsked';
const DOWNLOADABLE = new Set(['consent-needed', 'no-sdk', 'version-missing']);

export class SdkDownloads {
  private busy = new Set<string>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly sdkChanged: () => void,
  ) {}

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
    void this.ask(wanted, scope);
  }

  private async ask(wanted: string, scope: vscode.Uri | undefined): Promise<void> {
    const download = 'Download';
    const folder = 'Choose SDK Folder…';
    const pick = await vscode.window.showInformationMessage(
      `eForms: this notice needs the eForms SDK ${wanted} to be checked offline with the official rules. Download it from ${readConfig(scope).sdk.repositoryUrl} (about 25 MB), and allow such downloads from now on?`,
      download,
      folder,
    );
    if (pick === download) {
      await vscode.workspace
        .getConfiguration(SECTION)
        .update('sdk.allowDownload', true, vscode.ConfigurationTarget.Global);
      await this.download(wanted, scope);
    } else if (pick === folder) {
      const chosen = await vscode.window.showOpenDialog({
        canSelectFolders: true,
        canSelectFiles: false,
        openLabel: 'Use this eForms SDK',
        title: 'A folder holding an eForms SDK release (schematrons/, fields/…) or a folder of releases',
      });
      const dir = chosen?.[0]?.fsPath;
      if (dir)
        await vscode.workspace
          .getConfiguration(SECTION)
          .update('sdk.path', dir, vscode.ConfigurationTarget.Global);
    }
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
