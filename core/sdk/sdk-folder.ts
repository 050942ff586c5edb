// Finds eForms SDK releases on disk and picks the one a notice needs. A "root" is either one release
// (a folder holding `schematrons/`, `fields/`, `codelists/`…, as the official archive unpacks) or a
// folder of such releases named by version (`1.15.1/`, `1.14.0/`). Downloads and the cache live in
// their own module; this one only reads folders. No `vscode` import here.

import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readSdkFile } from './sdk-read';

export interface SdkRelease {
  /** `MAJOR.MINOR.PATCH` (a pre-release suffix such as `-rc.2` is kept). */
  version: string;
  /** The folder that holds `schematrons/`, `fields/`… */
  dir: string;
}

const RELEASE_MARKERS = ['schematrons', 'fields', 'codelists'];
const VERSION_RE = /^(\d+)\.(\d+)\.(\d+)([-+][0-9A-Za-z.-]+)?$/;

/** The release held directly in `dir`, or undefined when `dir` is not one. */
export function readSdkRelease(dir: string): SdkRelease | undefined {
  if (!isDir(dir) || !RELEASE_MARKERS.some((m) => isDir(join(dir, m)))) return undefined;
  let version = '';
  try {
    // A VERSION that is a link out of the release, a FIFO or a huge file is ignored, never waited on.
    version = readSdkFile(dir, 'VERSION', 'sdkVersionFileBytes').trim();
  } catch {
    version = '';
  }
  if (!VERSION_RE.test(version)) version = basename(dir).replace(/^eforms-sdk-/, '');
  if (!VERSION_RE.test(version)) return undefined;
  return { version, dir };
}

/** Every release under one root: the root itself, or its version-named children. Newest first. */
export function listSdkReleases(root: string): SdkRelease[] {
  const self = readSdkRelease(root);
  if (self) return [self];
  if (!isDir(root)) return [];
  const found: SdkRelease[] = [];
  for (const name of safeReaddir(root)) {
    const r = readSdkRelease(join(root, name));
    if (r) found.push(r);
  }
  return found.sort((a, b) => compareSdkVersions(b.version, a.version));
}

/** Orders `1.9.0` before `1.15.1`; a pre-release before its release. */
export function compareSdkVersions(a: string, b: string): number {
  const pa = VERSION_RE.exec(a);
  const pb = VERSION_RE.exec(b);
  if (!pa || !pb) return a < b ? -1 : a > b ? 1 : 0;
  for (let i = 1; i <= 3; i++) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d !== 0) return d;
  }
  if (!pa[4] && pb[4]) return 1;
  if (pa[4] && !pb[4]) return -1;
  return (pa[4] ?? '') < (pb[4] ?? '') ? -1 : (pa[4] ?? '') > (pb[4] ?? '') ? 1 : 0;
}

/** `MAJOR.MINOR` of a version or of a CustomizationID-style `eforms-sdk-1.15`; undefined when neither. */
export function minorOf(version: string): string | undefined {
  const m = /^(?:eforms-sdk-)?(\d+)\.(\d+)(?:\.\d+)?(?:[-+][0-9A-Za-z.-]+)?$/.exec(version.trim());
  return m ? `${Number(m[1])}.${Number(m[2])}` : undefined;
}

export type SdkChoice =
  | {
      ok: true;
      release: SdkRelease;
      /** Why this release: the user pinned it, the notice declares it, or it is the only one named. */
      because: 'pinned' | 'declared' | 'only';
    }
  | { ok: false; kind: 'no-sdk' }
  | { ok: false; kind: 'version-missing'; wanted: string; available: string[] }
  | { ok: false; kind: 'no-version'; available: string[] };

/**
 * Picks the release for a notice: the pinned version if any (`1.15`, `1.15.1` or `eforms-sdk-1.15`),
 * else the version the notice declares (newest patch of its `MAJOR.MINOR`), else the only release
 * there is. Errors carry a kind and fields; each front end words them.
 */
export function chooseSdkRelease(
  releases: readonly SdkRelease[],
  opts: { pinned?: string; declared?: string },
): SdkChoice {
  if (releases.length === 0) return { ok: false, kind: 'no-sdk' };
  const available = releases.map((r) => r.version);
  const pick = (wanted: string, because: 'pinned' | 'declared'): SdkChoice => {
    const exact = releases.find((r) => r.version === wanted.trim());
    if (exact) return { ok: true, release: exact, because };
    const minor = minorOf(wanted);
    const newest = [...releases]
      .filter((r) => minor !== undefined && minorOf(r.version) === minor)
      .sort((a, b) => compareSdkVersions(b.version, a.version))[0];
    return newest
      ? { ok: true, release: newest, because }
      : { ok: false, kind: 'version-missing', wanted, available };
  };
  if (opts.pinned?.trim()) return pick(opts.pinned, 'pinned');
  if (opts.declared?.trim()) return pick(opts.declared, 'declared');
  if (releases.length === 1 && releases[0]) return { ok: true, release: releases[0], because: 'only' };
  return { ok: false, kind: 'no-version', available };
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function safeReaddir(p: string): string[] {
  try {
    return readdirSync(p);
  } catch {
    return [];
  }
}
