// Which SDK release renders a notice: the one validation would choose (pinned, else the notice's
// cbc:CustomizationID, else the only one), and when that release has no view templates (the trimmed
// 1.7–1.10 copies, or a release not on this machine), the newest available release that has them,
// saying so in `note`. Never downloads.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  availableSdkReleases,
  compareSdkVersions,
  resolveSdk,
  SdkError,
  type SdkRelease,
  type SdkSources,
} from '../sdk';
import { loadPreviewSdk, type PreviewSdk } from './sdk';

export interface ChosenPreviewSdk {
  sdk: PreviewSdk;
  /** Why the release is not the one the notice declares, in a sentence; absent when it is. */
  note?: string;
}

const hasTemplates = (r: SdkRelease): boolean => existsSync(join(r.dir, 'view-templates'));

/**
 * The release that renders, given the one validation chose (`first`, absent when none could be chosen)
 * and the releases available: `first` when it has view templates, else the newest that
 * has them, with a note saying so; undefined when no release has view templates. Shared by the CLI and
 * the language server, so both render a notice with the same release.
 */
export function previewRelease(
  first: SdkRelease | undefined,
  available: readonly SdkRelease[],
  wanted?: string,
): { release: SdkRelease; note?: string } | undefined {
  if (first && hasTemplates(first)) return { release: first };
  const best = available.filter(hasTemplates).sort((a, b) => compareSdkVersions(b.version, a.version))[0];
  if (!best) return undefined;
  const note = first
    ? `eForms SDK ${first.version} has no view templates: rendered with those of ${best.version}`
    : wanted
      ? `eForms SDK ${wanted} is not on this machine: rendered with the view templates of ${best.version}`
      : // No cbc:CustomizationID, or one that names no release (`eforms-sdk-1.15.1`).
        `the notice's cbc:CustomizationID names no SDK release: rendered with the view templates of ${best.version}`;
  return { release: best, note };
}

/** The release to render a notice with; throws SdkError('no-sdk') when none has view templates. */
export async function previewSdkFor(
  sources: Pick<SdkSources, 'path' | 'cacheRoot'>,
  want: { pinned?: string; declared?: string },
): Promise<ChosenPreviewSdk> {
  let first: SdkRelease | undefined;
  try {
    first = (await resolveSdk({ ...sources }, want)).release;
  } catch (e) {
    // No release for this notice: the note names the one that renders instead.
    if (!(e instanceof SdkError)) throw e;
  }
  const wanted = want.pinned || want.declared;
  const chosen = previewRelease(first, availableSdkReleases(sources), wanted);
  if (!chosen) throw new SdkError('no-sdk', { wanted });
  return { sdk: await loadPreviewSdk(chosen.release.dir), ...(chosen.note ? { note: chosen.note } : {}) };
}
