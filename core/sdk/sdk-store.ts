// Where a notice's SDK release comes from, in order: the folder the user names (eforms.sdk.path,
// --sdk-dir), the download cache (one folder per version), and, only with consent, a download from
// the Maven repository into that cache. Errors are SdkErrors with a kind and fields. Never downloads
// without `download.allowed`. No `vscode` import here.

import { homedir } from 'node:os';
import { join } from 'node:path';
import { type DownloadOptions, downloadSdkRelease, resolveRemoteVersion } from './sdk-download';
import { SdkError } from './sdk-errors';
import { chooseSdkRelease, listSdkReleases, type SdkRelease } from './sdk-folder';

export interface SdkSources {
  /** A folder of one release or of releases; '' for none. */
  path: string;
  /** The download cache: `<cacheRoot>/<version>/`. */
  cacheRoot: string;
  /** Absent or not allowed: a missing release is an error (`consent-needed` when a download could help). */
  download?: DownloadOptions & { allowed: boolean };
}

export interface ResolvedSdk {
  release: SdkRelease;
  because: 'pinned' | 'declared' | 'only';
  /** True when it was downloaded by this call. */
  downloaded: boolean;
}

/**
 * Where downloaded SDK releases are kept, resolved in one place for the server and the CLI:
 * `$EFORMS_SDK_CACHE` when set, else `~/.cache/eforms/sdk` (or `$XDG_CACHE_HOME/eforms/sdk`), the CLI's
 * and other editors' cache.
 */
export function defaultSdkCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const pinned = env.EFORMS_SDK_CACHE?.trim();
  if (pinned) return pinned;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'eforms', 'sdk');
}

/** Every release available without a download: the named folder's first, then the cache's. */
export function availableSdkReleases(sources: Pick<SdkSources, 'path' | 'cacheRoot'>): SdkRelease[] {
  const seen = new Set<string>();
  const out: SdkRelease[] = [];
  for (const r of [
    ...(sources.path ? listSdkReleases(sources.path) : []),
    ...listSdkReleases(sources.cacheRoot),
  ]) {
    if (seen.has(r.version)) continue;
    seen.add(r.version);
    out.push(r);
  }
  return out;
}

const downloads = new Map<string, Promise<SdkRelease>>();

/**
 * The release for a notice: the pinned version, else the declared one, else the only one available.
 * Downloads the wanted version (newest patch of its MAJOR.MINOR) only when `download.allowed`.
 */
export async function resolveSdk(
  sources: SdkSources,
  want: { pinned?: string; declared?: string },
): Promise<ResolvedSdk> {
  const releases = availableSdkReleases(sources);
  const choice = chooseSdkRelease(releases, want);
  if (choice.ok) return { release: choice.release, because: choice.because, downloaded: false };
  const wanted = want.pinned?.trim() || want.declared?.trim();
  if (choice.kind === 'no-version') throw new SdkError('no-version', { available: choice.available });
  if (!wanted) throw new SdkError('no-sdk');
  const d = sources.download;
  if (!d?.allowed) {
    if (!d)
      throw releases.length
        ? new SdkError('version-missing', { wanted, available: releases.map((r) => r.version) })
        : new SdkError('no-sdk', { wanted });
    throw new SdkError('consent-needed', { wanted, available: releases.map((r) => r.version) });
  }
  const version = await resolveRemoteVersion(wanted, d);
  const key = `${sources.cacheRoot}\u0000${version}`;
  let p = downloads.get(key);
  if (!p) {
    p = downloadSdkRelease(version, sources.cacheRoot, d).finally(() => downloads.delete(key));
    downloads.set(key, p);
  }
  const release = await p;
  return { release, because: want.pinned?.trim() ? 'pinned' : 'declared', downloaded: true };
}
