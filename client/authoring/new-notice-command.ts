// The New Notice command: asks which SDK version to write for when several releases are on disk (the
// ones TED accepts today, when the service's range is known), then the notice subtypes of that
// release, and opens the notice the server writes in a new untitled editor. The server does the writing
// (core/authoring), so other LSP editors can offer the same; this module only words and shows.

import * as vscode from 'vscode';
import {
  NewNoticeRequest,
  type NewNoticeResult,
  type NoticeSdkVersionItem,
  NoticeSdkVersionsRequest,
  NoticeSubtypesRequest,
} from '../../core/protocol';
import { Commands } from '../command-ids';
import type { ExtensionState } from '../extension-state';

export function registerNewNotice(s: ExtensionState): undefined {
  s.context.subscriptions.push(
    vscode.commands.registerCommand(Commands.newNotice, (arg?: unknown) => newNoticeCommand(s, arg)),
  );
  return undefined;
}

/** With a subtype argument (`'16'`, tests) no picker is shown. Returns the new document's text. */
export async function newNoticeCommand(s: ExtensionState, arg?: unknown): Promise<string | undefined> {
  const scopeUri = vscode.window.activeTextEditor?.document.uri.toString();
  let subtype = typeof arg === 'string' ? arg : undefined;
  let sdkVersion: string | undefined;
  if (!subtype) {
    const versions = await s.serverRequest(NoticeSdkVersionsRequest.type, {
      scopeUri,
    });
    if (versions && versions.length > 1) {
      const chosen = await pickVersion(versions);
      if (!chosen) return undefined;
      sdkVersion = chosen;
    }
    const items = await s.serverRequest(NoticeSubtypesRequest.type, {
      scopeUri,
      sdkVersion,
    });
    if (!items || items.length === 0) {
      await explain(s, { ok: false, kind: 'no-sdk' });
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      items.map((i) => ({ label: i.label, description: i.description, id: i.id })),
      { title: 'eForms: New Notice', placeHolder: 'Notice subtype', matchOnDescription: true },
    );
    if (!pick) return undefined;
    subtype = pick.id;
  }
  const r = await s.serverRequest(NewNoticeRequest.type, {
    subtype,
    scopeUri,
    sdkVersion,
  });
  if (!r?.ok) {
    await explain(s, r ?? { ok: false, kind: 'no-sdk' });
    return undefined;
  }
  const doc = await vscode.workspace.openTextDocument({ language: 'xml', content: r.xml });
  await vscode.window.showTextDocument(doc);
  s.log.info(`new notice of subtype ${subtype} from SDK ${r.sdkVersion}`);
  return r.xml;
}

/**
 * The version to write for: those TED accepts today when the service said so (newest first), else
 * every release on disk, each with what is known of it.
 */
async function pickVersion(versions: NoticeSdkVersionItem[]): Promise<string | undefined> {
  const accepted = versions.filter((v) => v.accepted === true);
  const shown = accepted.length > 0 ? accepted : versions;
  const pick = await vscode.window.showQuickPick(
    shown.map((v) => ({
      label: `eforms-sdk-${v.version}`,
      description: `release ${v.release} on this machine`,
      detail:
        v.accepted === undefined
          ? 'Whether TED accepts it is not known (no API key, or the service did not say).'
          : v.accepted
            ? `Accepted by TED for publication${v.until ? ` until ${v.until}` : ' today'}.`
            : 'Not accepted by TED for publication today.',
      version: v.version,
    })),
    {
      title: 'eForms: New Notice',
      placeHolder:
        accepted.length > 0 ? 'SDK version (those TED accepts today)' : 'SDK version of the new notice',
    },
  );
  return pick?.version;
}

async function explain(s: ExtensionState, r: Extract<NewNoticeResult, { ok: false }>): Promise<void> {
  let message: string;
  switch (r.kind) {
    case 'no-sdk':
      message =
        'eForms: New Notice needs the eForms SDK on this machine. Set eforms.sdk.path to the folder of an SDK release (or of several releases).';
      break;
    case 'version-missing':
      message = `eForms: the SDK ${r.detail ?? ''} pinned in eforms.validation.sdkVersion is not in eforms.sdk.path. Add it there or change the pin.`;
      break;
    case 'no-version':
      message =
        'eForms: eforms.sdk.path holds several SDK releases: pin one with eforms.validation.sdkVersion.';
      break;
    case 'unknown-subtype':
      message = `eForms: the SDK has no notice subtype ${r.detail ?? ''}.`;
      break;
    default:
      message = `eForms: the SDK could not be read (${r.detail ?? 'unknown problem'}). Check eforms.sdk.path.`;
  }
  s.log.warn(message);
  const a = await vscode.window.showWarningMessage(message, 'Open Settings');
  if (a) await vscode.commands.executeCommand('workbench.action.openSettings', 'eforms.sdk.path');
}
