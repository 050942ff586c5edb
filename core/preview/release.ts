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

/** The release to render a notice with; throws SdkError('no-sdk') when none has view templates. */
export async function previewSdkFor(
  sources: Pick<SdkSources, 'path' | 'cacheRoot'>,
  want: { pinned?: string; declared?: string },
): Promise<ChosenPreviewSdk> {
  let first: SdkRelease | undefined;
  let why = '';
  try {
    first = (await resolveSdk({ ...sources }, want)).release;
  } catch (e) {
    if (!(e instanceof SdkError)) throw e;
    why = e.message;
  }
  if (first && hasTemplates(first)) return { sdk: await loadPreviewSdk(first.dir) };
  const withTemplates = availableSdkReleases(sources)
    .filter(hasTemplates)
    .sort((a, b) => compareSdkVersions(b.version, a.version));
  const best = withTemplates[0];
  if (!best) throw new SdkError('no-sdk', { wanted: want.pinned || want.declared });
  const wanted = want.pinned || want.declared;
  const note = first
    ? `eForms SDK ${first.version} has no view templates: rendered with those of ${best.version}`
    : wanted
      ? `eForms SDK ${wanted} is not available (${why}): rendered with the view templates of ${best.version}`
      : `the notice declares no SDK version: rendered with the view templates of ${best.version}`;
  return { sdk: await loadPreviewSdk(best.dir), note };
}
