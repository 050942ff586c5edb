// What the first run says and decides when no eForms SDK is on the machine, as plain data: the
// notification's sentence and its three choices (download a named release of a stated size, choose a
// folder, not now), the status item's warning, and where a chosen folder is written so that it takes
// effect (a workspace value would shadow a user one). Pure: no `vscode` import, so it is tested under
// node:test; client/sdk-download.ts shows it. It never downloads or writes anything itself.

import { Commands } from './command-ids';
import type { StatusPresentation } from './status-presentation';

/** The release offered when nothing asks for a particular one: the newest minor the rules are tested with. */
export const OFFERED_SDK = { version: '1.15', approxMegabytes: 20 } as const;

export interface SdkOffer {
  message: string;
  download: string;
  chooseFolder: string;
  notNow: string;
}

/** The notification: why the SDK matters, in a buyer's words, and the three ways on. */
export function sdkOffer(wanted?: string): SdkOffer {
  const version = wanted?.trim() || OFFERED_SDK.version;
  return {
    message: wanted
      ? `eForms: this notice needs the eForms SDK ${version}, which is not on this machine. Without it there are no official rules, hovers or completions.`
      : 'eForms: no eForms SDK is on this machine. Without it there are no official rules, hovers or completions, and New Notice cannot write a notice.',
    download: `Download eForms SDK ${version} (about ${OFFERED_SDK.approxMegabytes} MB)`,
    chooseFolder: 'Choose SDK folder…',
    notNow: 'Not now',
  };
}

/** The status item while no SDK is available: a warning that opens the same three choices. */
export function presentNoSdk(wanted?: string): StatusPresentation {
  const text = `$(warning) eForms: no SDK${wanted ? ` ${wanted}` : ''}`;
  const tooltip = `${wanted ? `The eForms SDK ${wanted} is not on this machine` : 'No eForms SDK is on this machine'}: notices are not checked with the official rules. Click to download one or choose its folder.`;
  return {
    text,
    tooltip,
    ariaLabel: `eForms: no SDK${wanted ? ` ${wanted}` : ''}. ${tooltip}`,
    command: Commands.getSdk,
    background: 'warning',
  };
}

/** Where a setting's values are, as VS Code's `inspect` reports them. */
export interface InspectedSetting {
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * Where the chosen SDK folder is written. `eforms.sdk.path` is machine-scoped (a workspace must not
 * point the extension at code of its choosing), so it goes to the user settings, which VS Code writes
 * to the remote machine's settings in a remote window (code-server, SSH), where the server reads it.
 * Were the setting ever machine-overridable, the value that decides today (a folder's, then the
 * workspace's) would be overwritten instead.
 */
export function sdkPathTarget(
  i: InspectedSetting | undefined,
  scope: 'machine' | 'machine-overridable' = 'machine',
): 'workspaceFolder' | 'workspace' | 'global' {
  if (scope === 'machine') return 'global';
  if (i?.workspaceFolderValue !== undefined) return 'workspaceFolder';
  if (i?.workspaceValue !== undefined) return 'workspace';
  return 'global';
}

/** The settings editor command that shows machine settings: the remote tab in a remote window. */
export function settingsCommandFor(remoteName: string | undefined): string {
  return remoteName ? 'workbench.action.openRemoteSettings' : 'workbench.action.openSettings';
}
