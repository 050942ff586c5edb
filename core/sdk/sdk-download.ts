// Downloads an eForms SDK release from a Maven repository (the official one by default): the versions
// from `maven-metadata.xml`, the `eforms-sdk-<v>.jar` checked against its published `.sha1`, unpacked
// with yauzl into a temporary folder beside the cache and renamed into place in one step. Every answer
// goes through core/http (proxies, the capped reader, the stall limit, cancellation) under a limit of
// core/notice's INPUT_LIMITS; the archive's whole directory is checked (names, collisions, sizes, count)
// before one byte is written, and the release must say it is the version asked for. Whatever fails,
// nothing is left in the cache: no half-written release, no `.partial-*` folder. Never downloads on its
// own: callers decide (with the user's consent). Plain http only to loopback. No `vscode` import.

import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import yauzl from 'yauzl';
import { httpRequest, isLoopbackUrl, originOf, ServiceError, TransportError } from '../http';
import { INPUT_LIMITS } from '../notice';
import { SdkError } from './sdk-errors';
import { compareSdkVersions, listSdkReleases, minorOf, readSdkRelease, type SdkRelease } from './sdk-folder';

export const SDK_ARTIFACT_PATH = 'eu/europa/ted/eforms/eforms-sdk';

export interface DownloadProgress {
  /** Bytes of the archive received so far, and its announced size when the server says it. */
  received: number;
  total?: number;
  phase: 'download' | 'unpack';
}

/** What one download accepts; INPUT_LIMITS by default (tests lower them to build small bombs). */
export interface SdkDownloadLimits {
  metadataBytes: number;
  checksumBytes: number;
  archiveBytes: number;
  unpackedBytes: number;
  entryBytes: number;
  entries: number;
  nameBytes: number;
  stallMs: number;
}

export const SDK_DOWNLOAD_LIMITS: Readonly<SdkDownloadLimits> = {
  metadataBytes: INPUT_LIMITS.sdkMetadataBytes.max,
  checksumBytes: INPUT_LIMITS.sdkChecksumBytes.max,
  archiveBytes: INPUT_LIMITS.sdkArchiveBytes.max,
  unpackedBytes: INPUT_LIMITS.sdkUnpackedBytes.max,
  entryBytes: INPUT_LIMITS.sdkEntryBytes.max,
  entries: INPUT_LIMITS.sdkEntries.max,
  nameBytes: INPUT_LIMITS.sdkNameBytes.max,
  stallMs: INPUT_LIMITS.sdkStallMs.max,
};

export interface DownloadOptions {
  /** Base of the Maven repository, e.g. https://repo1.maven.org/maven2 */
  repositoryUrl: string;
  signal?: AbortSignal;
  onProgress?(p: DownloadProgress): void;
  /** Lower limits than INPUT_LIMITS' (never higher: they are clamped to them). */
  limits?: Partial<SdkDownloadLimits>;
  /** The proxy routing (VS Code's http settings in the editor); default: the process's (environment). */
  dispatcher?: Dispatcher;
}

function limitsOf(o: DownloadOptions): SdkDownloadLimits {
  const out = { ...SDK_DOWNLOAD_LIMITS };
  for (const k of Object.keys(out) as (keyof SdkDownloadLimits)[]) {
    const v = o.limits?.[k];
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) out[k] = Math.min(v, out[k]);
  }
  return out;
}

function artifactUrl(repo: string, rest: string): string {
  return `${repo.replace(/\/+$/, '')}/${SDK_ARTIFACT_PATH}/${rest}`;
}

/** A transport failure as an SdkError that carries it, for the front ends to word (service `sdk`). */
function fromTransport(err: TransportError, url: string): SdkError {
  const failure = new ServiceError('sdk', err.kind, err.message, err.fields);
  if (err.kind === 'cancelled') return new SdkError('cancelled', {}, failure);
  if (err.kind === 'too-large') return new SdkError('corrupt', { url, reason: err.message }, failure);
  return new SdkError('offline', { url, reason: err.message }, failure);
}

/**
 * One GET through core/http: the body in memory (under `maxBytes`) or streamed to `sink`. A status
 * other than 200 is `not-found`; plain http to a remote host is refused before anything is sent.
 */
async function get(
  url: string,
  o: DownloadOptions,
  wanted: string,
  maxBytes: number,
  stream?: { sink: (chunk: Buffer) => Promise<void>; onProgress?: (bytes: number, total?: number) => void },
) {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SdkError('offline', { url, reason: 'not a valid URL' });
  }
  if (!(u.protocol === 'https:' || (u.protocol === 'http:' && isLoopbackUrl(url)))) {
    const reason = 'only https (or http to a loopback address) is allowed';
    throw new SdkError(
      'offline',
      { url, reason },
      new ServiceError('sdk', 'insecure', `Plain http to ${originOf(url)} is refused: ${reason}.`, {
        origin: originOf(url),
      }),
    );
  }
  try {
    const answer = await httpRequest(url, {
      method: 'GET',
      signal: o.signal,
      stallMs: limitsOf(o).stallMs,
      maxBytes,
      dispatcher: o.dispatcher,
      sink: stream?.sink,
      onProgress: stream?.onProgress,
    });
    if (answer.status !== 200) throw new SdkError('not-found', { url, status: answer.status, wanted });
    return answer;
  } catch (err) {
    if (err instanceof TransportError) throw fromTransport(err, url);
    throw err;
  }
}

/** Every version the repository's `maven-metadata.xml` lists, newest first. */
export async function listRemoteSdkVersions(o: DownloadOptions): Promise<string[]> {
  const url = artifactUrl(o.repositoryUrl, 'maven-metadata.xml');
  const xml = (await get(url, o, 'the version list', limitsOf(o).metadataBytes)).body.toString('utf8');
  const versions = [...xml.matchAll(/<version>\s*([^<\s]{1,40})\s*<\/version>/g)].map((m) => m[1] ?? '');
  return [...new Set(versions.filter((v) => /^\d+\.\d+\.\d+$/.test(v)))].sort((a, b) =>
    compareSdkVersions(b, a),
  );
}

/** The exact version to fetch for a wish: `1.15.1` as is; `1.15` or `eforms-sdk-1.15`: its newest patch. */
export async function resolveRemoteVersion(wanted: string, o: DownloadOptions): Promise<string> {
  const exact = /^\d+\.\d+\.\d+$/.test(wanted.trim()) ? wanted.trim() : undefined;
  if (exact) return exact;
  const minor = minorOf(wanted);
  const versions = await listRemoteSdkVersions(o);
  const newest = versions.find((v) => minor !== undefined && minorOf(v) === minor);
  if (!newest)
    throw new SdkError('not-found', {
      wanted,
      url: artifactUrl(o.repositoryUrl, 'maven-metadata.xml'),
      status: 404,
      available: versions.slice(0, 10),
    });
  return newest;
}

/**
 * Downloads release `version` (exact) into `cacheRoot/<version>` and returns it. When that folder
 * already holds the release, nothing is fetched. Throws SdkError: offline, not-found, corrupt, cancelled
 * (with `failure`, a ServiceError of service `sdk`, when the transport failed).
 */
export async function downloadSdkRelease(
  version: string,
  cacheRoot: string,
  o: DownloadOptions,
): Promise<SdkRelease> {
  if (!/^\d+\.\d+\.\d+$/.test(version))
    throw new SdkError('not-found', { wanted: version, reason: 'not an exact SDK version' });
  const limits = limitsOf(o);
  const target = join(cacheRoot, version);
  const present = readSdkRelease(target);
  if (present) return present;
  const jar = artifactUrl(o.repositoryUrl, `${version}/eforms-sdk-${version}.jar`);
  const published = await get(`${jar}.sha1`, o, `eforms-sdk ${version}`, limits.checksumBytes);
  const expected = published.body.toString('latin1').trim().split(/\s+/)[0]?.toLowerCase();
  if (!expected || !/^[0-9a-f]{40}$/.test(expected))
    throw new SdkError('corrupt', { url: `${jar}.sha1`, reason: 'the published checksum cannot be read' });
  const cacheExisted = existsSync(cacheRoot);
  mkdirSync(cacheRoot, { recursive: true });
  const tmp = join(cacheRoot, `.partial-${version}-${process.pid}-${randomBytes(4).toString('hex')}`);
  let kept = false;
  try {
    mkdirSync(tmp);
    const archive = join(tmp, 'sdk.jar');
    const hash = createHash('sha1');
    const out = createWriteStream(archive);
    let writeError: unknown;
    out.on('error', (e) => {
      writeError = e;
    });
    let received = 0;
    let total: number | undefined;
    try {
      const answer = await get(jar, o, `eforms-sdk ${version}`, limits.archiveBytes, {
        sink: async (chunk) => {
          if (writeError) throw writeError;
          hash.update(chunk);
          if (!out.write(chunk)) await once(out, 'drain');
        },
        onProgress: (bytes, announced) => {
          received = bytes;
          total = announced;
          o.onProgress?.({ received, total, phase: 'download' });
        },
      });
      await new Promise<void>((resolve, reject) => {
        if (writeError) return reject(writeError);
        out.once('error', reject);
        out.end(() => resolve());
      });
      const length = Number(answer.headers['content-length']);
      if (Number.isFinite(length) && received !== length)
        throw new SdkError('offline', {
          url: jar,
          reason: `the connection closed after ${received} of ${length} bytes`,
        });
    } finally {
      out.destroy();
    }
    const actual = hash.digest('hex');
    if (actual !== expected)
      throw new SdkError('corrupt', {
        url: jar,
        reason: `SHA-1 ${actual} differs from the published ${expected}`,
      });
    const unpacked = join(tmp, 'unpacked');
    o.onProgress?.({ received, total, phase: 'unpack' });
    await unzipChecked(archive, unpacked, limits, o.signal);
    const release = findRelease(unpacked, version);
    if (!release) throw new SdkError('corrupt', { url: jar, reason: 'the archive holds no SDK release' });
    const said = versionFileOf(release);
    if (said !== undefined && said !== version)
      throw new SdkError('corrupt', {
        url: jar,
        wanted: version,
        reason: `the archive holds SDK ${said.slice(0, 40)}, not ${version}`,
      });
    if (o.signal?.aborted) throw new SdkError('cancelled');
    try {
      renameSync(release, target);
    } catch (err) {
      // Another process finished the same download first: theirs is as good as ours.
      if (!readSdkRelease(target)) throw err;
    }
    const done = readSdkRelease(target);
    if (!done) throw new SdkError('corrupt', { url: jar, reason: 'the unpacked release cannot be read' });
    kept = true;
    return done;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    // A cache folder this call created, and that holds nothing, goes too.
    if (!kept && !cacheExisted) rmSync(cacheRoot, { recursive: true, force: true });
  }
}

/** The VERSION file's first line, or undefined when the release has none. */
function versionFileOf(dir: string): string | undefined {
  const f = join(dir, 'VERSION');
  if (!existsSync(f)) return undefined;
  return readFileSync(f, 'utf8').slice(0, 200).trim().split(/\r?\n/)[0]?.trim() ?? '';
}

/** The release inside an unpacked archive: at its top (the Maven jar) or one folder down (GitHub's). */
function findRelease(dir: string, version: string): string | undefined {
  if (hasMarkers(dir)) return dir;
  for (const r of listSdkReleases(dir)) if (r.version === version) return r.dir;
  const sub = join(dir, 'eforms-sdk');
  if (hasMarkers(sub)) return sub;
  return undefined;
}

function hasMarkers(dir: string): boolean {
  return (
    existsSync(join(dir, 'schematrons')) &&
    (existsSync(join(dir, 'fields')) || existsSync(join(dir, 'codelists')))
  );
}

/** One entry of the archive's central directory, as checked before anything is written. */
export interface ArchiveEntry {
  name: string;
  uncompressedSize: number;
}

/**
 * Checks a whole archive directory before extraction and returns the entries' relative paths (parts
 * joined by '/', folders with a trailing '/'). Throws SdkError `corrupt` naming the first problem:
 * too many entries, an absolute or `..` path, a NUL, a part longer than `nameBytes` in UTF-8, a file
 * and a folder (or two files) with the same path (compared without case and in Unicode NFC, as
 * Windows and macOS compare them), a file larger than `entryBytes`, or more than `unpackedBytes` in all.
 */
export function checkArchiveEntries(
  entries: readonly ArchiveEntry[],
  limits: Pick<SdkDownloadLimits, 'entries' | 'entryBytes' | 'unpackedBytes' | 'nameBytes'>,
): string[] {
  const bad = (reason: string) => new SdkError('corrupt', { reason });
  const shown = (name: string) => JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name);
  if (entries.length > limits.entries)
    throw bad(`the archive has ${entries.length} entries, more than ${limits.entries}`);
  const kinds = new Map<string, 'file' | 'dir'>();
  let total = 0;
  const out: string[] = [];
  for (const e of entries) {
    const name = e.name.replace(/\\/g, '/');
    const isDir = name.endsWith('/');
    if (name.includes('\0')) throw bad(`the entry ${shown(name)} holds a NUL character`);
    if (name.startsWith('/') || /^[A-Za-z]:/.test(name))
      throw bad(`the entry ${shown(name)} has an absolute path`);
    const parts = name.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.length === 0) throw bad(`the entry ${shown(name)} has no name`);
    if (parts.includes('..')) throw bad(`the entry ${shown(name)} leads out of the folder (..)`);
    for (const p of parts)
      if (Buffer.byteLength(p, 'utf8') > limits.nameBytes)
        throw bad(`the entry ${shown(name)} has a name longer than ${limits.nameBytes} bytes`);
    const key = (n: number) => parts.slice(0, n).join('/').normalize('NFC').toLowerCase();
    for (let i = 1; i < parts.length; i++) {
      const k = key(i);
      if (kinds.get(k) === 'file')
        throw bad(
          `the entry ${shown(name)} lies inside ${shown(parts.slice(0, i).join('/'))}, which is a file`,
        );
      kinds.set(k, 'dir');
    }
    const k = key(parts.length);
    const before = kinds.get(k);
    if (isDir) {
      if (before === 'file') throw bad(`the folder ${shown(name)} has the path of a file before it`);
      kinds.set(k, 'dir');
    } else {
      if (before)
        throw bad(
          `the file ${shown(name)} has the path of ${before === 'dir' ? 'a folder' : 'another file'} before it`,
        );
      kinds.set(k, 'file');
      if (!Number.isSafeInteger(e.uncompressedSize) || e.uncompressedSize < 0)
        throw bad(`the entry ${shown(name)} declares no readable size`);
      if (e.uncompressedSize > limits.entryBytes)
        throw bad(
          `the file ${shown(name)} unpacks to ${e.uncompressedSize} bytes, more than ${limits.entryBytes}`,
        );
      total += e.uncompressedSize;
      if (total > limits.unpackedBytes)
        throw bad(`the archive unpacks to more than ${limits.unpackedBytes} bytes`);
    }
    out.push(parts.join('/') + (isDir ? '/' : ''));
  }
  return out;
}

function openZip(archive: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(
      archive,
      // Names are checked by checkArchiveEntries once the whole directory is read; yauzl checks too.
      {
        lazyEntries: true,
        autoClose: false,
        strictFileNames: false,
        validateEntrySizes: true,
        decodeStrings: true,
      },
      (err, zip) =>
        err || !zip
          ? reject(new SdkError('corrupt', { reason: `not a zip archive (${String(err?.message ?? err)})` }))
          : resolve(zip),
    ),
  );
}

/** The whole central directory, without reading any entry's data. */
function readDirectory(zip: yauzl.ZipFile, max: number): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    // yauzl refuses absolute and `..` names itself while reading the directory: still nothing written.
    zip.on('error', (e: Error) =>
      reject(
        new SdkError('corrupt', {
          reason: /relative path|absolute path/.test(e.message)
            ? `an entry leads out of the folder or has an absolute path (${e.message.slice(0, 160)})`
            : String(e.message).slice(0, 200),
        }),
      ),
    );
    zip.on('end', () => resolve(entries));
    zip.on('entry', (e: yauzl.Entry) => {
      entries.push(e);
      if (entries.length > max)
        return reject(new SdkError('corrupt', { reason: `the archive has more than ${max} entries` }));
      zip.readEntry();
    });
    zip.readEntry();
  });
}

/** Unpacks under `dest` once every entry has passed checkArchiveEntries; counts the bytes written too. */
async function unzipChecked(
  archive: string,
  dest: string,
  limits: SdkDownloadLimits,
  signal?: AbortSignal,
): Promise<void> {
  const zip = await openZip(archive);
  try {
    const entries = await readDirectory(zip, limits.entries);
    const paths = checkArchiveEntries(
      entries.map((e) => ({ name: e.fileName, uncompressedSize: e.uncompressedSize })),
      limits,
    );
    mkdirSync(dest, { recursive: true });
    let written = 0;
    for (let i = 0; i < entries.length; i++) {
      if (signal?.aborted) throw new SdkError('cancelled');
      const entry = entries[i] as yauzl.Entry;
      const rel = paths[i] as string;
      const out = join(dest, ...rel.split('/').filter(Boolean));
      if (rel.endsWith('/')) {
        mkdirSync(out, { recursive: true });
        continue;
      }
      mkdirSync(dirname(out), { recursive: true });
      const stream = await new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (e, s) =>
          e || !s ? reject(new SdkError('corrupt', { reason: String(e?.message ?? e) })) : resolve(s),
        ),
      );
      let inEntry = 0;
      const file = createWriteStream(out, { flags: 'wx' });
      try {
        await pipeline(
          stream,
          async function* (source: AsyncIterable<Buffer>) {
            for await (const chunk of source) {
              // yauzl checks the declared sizes too (validateEntrySizes); this holds even if it did not.
              inEntry += chunk.length;
              written += chunk.length;
              if (inEntry > limits.entryBytes || written > limits.unpackedBytes)
                throw new SdkError('corrupt', { reason: 'the archive unpacks larger than it declares' });
              if (signal?.aborted) throw new SdkError('cancelled');
              yield chunk;
            }
          },
          file,
        );
      } catch (e) {
        if (e instanceof SdkError) throw e;
        throw new SdkError('corrupt', { reason: String((e as Error)?.message ?? e) });
      }
    }
  } finally {
    zip.close();
  }
}
