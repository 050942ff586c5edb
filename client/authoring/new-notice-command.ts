// The New Notice command: asks the language server for the SDK's notice subtypes, lets the user pick
// one, and opens the notice the server writes in a new untitled editor. The server does the writing
// (core/authoring), so other LSP editors can offer the same; this module only words and shows.

import * as vscode from 'vscode';
import {
  NewNoticeRequest,
  type NewNoticeResult,
  type NoticeSubtypeItem,
  NoticeSubtypesRequest,
} from '../../core/protocol';
import { Commands } from '../command-ids';
import type { ExtensionState } from '../extension-state';
import { openSdkSetting } from '../sdk-download';

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
  if (!subtype) {
    const items = await s.serverRequest<NoticeSubtypeItem[]>(NoticeSubtypesRequest.method, { scopeUri });
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
  const r = await s.serverRequest<NewNoticeResult>(NewNoticeRequest.method, { subtype, scopeUri });
  if (!r?.ok) {
    await explain(s, r ?? { ok: false, kind: 'no-sdk' });
    return undefined;
  }
  const doc = await vscode.workspace.openTextDocument({ language: 'xml', content: r.xml });
  await vscode.window.showTextDocument(doc);
  s.log.info(`new notice of subtype ${subtype} from SDK ${r.sdkVersion}`);
  return r.xml;
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
  if (r.kind === 'no-sdk') {
    // The first run's choices: download a release, choose its folder, or not now.
    await vscode.commands.executeCommand(Commands.getSdk);
    return;
  }
  const a = await vscode.window.showWarningMessage(message, 'Open Settings');
  // On the tab where the machine-overridable setting shows, in code-server too.
  if (a) await openSdkSetting();
}
