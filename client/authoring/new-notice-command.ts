// The New Notice command: asks which SDK version to write for when several releases are on disk (the
// ones TED accepts today, when the service's range is known), then the subtype and the code lists
// that decide a notice (procedure type, buyer country, language), and opens the notice the server
// writes in a new untitled editor named as the notice. The server does the writing
// (core/authoring), so other LSP editors can offer the same; this module only words and shows.

import * as vscode from 'vscode';
import {
  type CodeChoiceItem,
  NewNoticeChoicesRequest,
  NewNoticeRequest,
  type NewNoticeResult,
  type NoticeSdkVersionItem,
  NoticeSdkVersionsRequest,
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

/** What New Notice asks; given whole as the command's argument, no picker is shown (tests, links). */
export interface NewNoticeArgs {
  subtype: string;
  sdkVersion?: string;
  procedureType?: string;
  buyerCountry?: string;
  language?: string;
}

/** Picked by a quick pick item to leave a choice to the notice's placeholders. */
const LATER = '\u0000later';

/**
 * Asks for the few choices that decide a notice (SDK version when there are several, subtype,
 * procedure type, buyer country, notice language), each a keyboard-friendly quick pick labelled from
 * the SDK's code lists, then opens the notice under a real name (`cn-standard-16.xml`). With a subtype
 * argument (`'16'`) or a whole NewNoticeArgs, no picker is shown. Returns the new document's text.
 */
export async function newNoticeCommand(s: ExtensionState, arg?: unknown): Promise<string | undefined> {
  const scopeUri = vscode.window.activeTextEditor?.document.uri.toString();
  let args: NewNoticeArgs | undefined =
    typeof arg === 'string'
      ? { subtype: arg }
      : arg && typeof arg === 'object' && typeof (arg as NewNoticeArgs).subtype === 'string'
        ? (arg as NewNoticeArgs)
        : undefined;
  if (!args) {
    args = await ask(s, scopeUri);
    if (!args) return undefined;
  }
  const r = await s.serverRequest(NewNoticeRequest.type, { ...args, scopeUri });
  if (!r?.ok) {
    await explain(s, r ?? { ok: false, kind: 'no-sdk' });
    return undefined;
  }
  const doc = await openNamed(r.fileName ?? `notice-${args.subtype}.xml`, r.xml);
  await vscode.window.showTextDocument(doc);
  s.log.info(`new notice of subtype ${args.subtype} from SDK ${r.sdkVersion} (${doc.uri.toString()})`);
  return r.xml;
}

async function ask(s: ExtensionState, scopeUri: string | undefined): Promise<NewNoticeArgs | undefined> {
  const title = 'eForms: New Notice';
  // The SDK version first (those TED accepts today, when known): the subtypes and code lists are
  // those of the release.
  let sdkVersion: string | undefined;
  const versions = await s.serverRequest(NoticeSdkVersionsRequest.type, { scopeUri });
  if (versions && versions.length > 1) {
    sdkVersion = await pickVersion(versions);
    if (!sdkVersion) return undefined;
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
    { title: `${title} (2/5)`, placeHolder: 'Notice subtype', matchOnDescription: true },
  );
  if (!pick) return undefined;
  const lists = await s.serverRequest(NewNoticeChoicesRequest.type, {
    scopeUri,
    subtype: pick.id,
    sdkVersion,
  });
  const args: NewNoticeArgs = { subtype: pick.id, ...(sdkVersion ? { sdkVersion } : {}) };
  const choose = async (
    list: CodeChoiceItem[] | undefined,
    step: string,
    placeHolder: string,
    preferred?: string,
  ): Promise<string | undefined | null> => {
    if (!list || list.length === 0) return undefined;
    const sorted = [...list].sort((a, b) =>
      a.code === preferred ? -1 : b.code === preferred ? 1 : a.label.localeCompare(b.label),
    );
    const p = await vscode.window.showQuickPick(
      [
        ...sorted.map((c) => ({ label: c.label, description: c.code, code: c.code })),
        { label: 'Decide later', description: 'left empty, with completion to fill it', code: LATER },
      ],
      { title: `${title} (${step})`, placeHolder, matchOnDescription: true },
    );
    if (!p) return null;
    return p.code === LATER ? undefined : p.code;
  };
  const procedure = await choose(lists?.procedureTypes, '3/5', 'Type of procedure (BT-105)');
  if (procedure === null) return undefined;
  if (procedure) args.procedureType = procedure;
  const country = await choose(lists?.countries, '4/5', "The buyer's country (BT-514)");
  if (country === null) return undefined;
  if (country) args.buyerCountry = country;
  const settingsLanguage = vscode.workspace
    .getConfiguration('eforms', undefined)
    .get<string>('validation.language');
  const language = await choose(
    lists?.languages,
    '5/5',
    'Notice language (BT-702)',
    noticeLanguageOf(settingsLanguage ?? 'en'),
  );
  if (language === null) return undefined;
  if (language) args.language = language;
  return args;
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
      title: 'eForms: New Notice (1/5)',
      placeHolder:
        accepted.length > 0 ? 'SDK version (those TED accepts today)' : 'SDK version of the new notice',
    },
  );
  return pick?.version;
}

/** The settings' two-letter language as the notice writes it (`en` -> `ENG`), for the preferred pick. */
function noticeLanguageOf(two: string): string {
  const map: Record<string, string> = { en: 'ENG', fr: 'FRA', de: 'DEU', it: 'ITA', es: 'SPA', nl: 'NLD' };
  return map[two] ?? two.toUpperCase();
}

/**
 * An untitled document named as the notice (`cn-standard-16.xml`, in the workspace's first folder so
 * that Save proposes it there), holding the text. A name already open or on disk gets a number.
 */
export async function openNamed(fileName: string, text: string): Promise<vscode.TextDocument> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const stem = fileName.replace(/\.xml$/i, '');
  const taken = new Set(vscode.workspace.textDocuments.map((d) => d.uri.path));
  let uri: vscode.Uri | undefined;
  for (let n = 1; n < 1000 && !uri; n++) {
    const name = n === 1 ? `${stem}.xml` : `${stem}-${n}.xml`;
    const file = folder ? vscode.Uri.joinPath(folder, name) : vscode.Uri.file(`/${name}`);
    if (taken.has(file.path)) continue;
    if (folder) {
      try {
        await vscode.workspace.fs.stat(file);
        continue;
      } catch {
        // free
      }
    }
    uri = folder ? file.with({ scheme: 'untitled' }) : vscode.Uri.from({ scheme: 'untitled', path: name });
  }
  const doc = await vscode.workspace.openTextDocument(
    uri ?? vscode.Uri.from({ scheme: 'untitled', path: `${stem}-${Date.now()}.xml` }),
  );
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, new vscode.Position(0, 0), text);
  await vscode.workspace.applyEdit(edit);
  return doc.languageId === 'xml' ? doc : vscode.languages.setTextDocumentLanguage(doc, 'xml');
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
