// Downloads an eForms SDK release from a Maven repository (the official one by default): the versions
// from `maven-metadata.xml`, the `eforms-sdk-<v>.jar` checked against its published `.sha1`, unpacked
// with yauzl into a temporary folder beside the cache and renamed into place in one step, so that an
// interrupted, cut or corrupt download leaves nothing half-written in the cache. Never downloads on
// its own: callers decide (with the user's consent). Plain http only to loopback. No `vscode` import.

import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { request } from 'undici';
import yauzl from 'yauzl';
import { isLoopbackUrl } from '../http';
import { SdkError } from './sdk-errors';
import { compareSdkVersions, listSdkReleases, minorOf, readSdkRelease, type SdkRelease } from './sdk-folder';

export const SDK_ARTIFACT_PATH = 'eu/europa/ted/eforms/eforms-sdk';

export interface DownloadProgress {
  /** Bytes of the archive received so far, and its announced size when the server says it. */
  received: number;
  total?: number;
  phase: 'download' | 'unpack';
}

export interface DownloadOptions {
  /** Base of the Maven repository, e.g. https://repo1.maven.org/maven2 */
  repositoryUrl: string;
  signal?: AbortSignal;
  onProgress?(p: DownloadProgress): void;
  timeoutMs?: number;
}

/** The archive and what it unpacks to are bounded: the 1.15.1 jar is ~20 MB and unpacks to ~100 MB. */
const MAX_ARCHIVE_BYTES = 512 * 1024 * 1024;
const MAX_UNPACKED_BYTES = 2 * 1024 * 1024 * 1024;
const MAX_ENTRIES = 200_000;

function artifactUrl(repo: string, rest: string): string {
  return `${repo.replace(/\/+$/, '')}/${SDK_ARTIFACT_PATH}/${rest}`;
}

function checkTransport(url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SdkError('offline', { url, reason: 'not a valid URL' });
  }
  if (u.protocol === 'https:' || (u.protocol === 'http:' && isLoopbackUrl(url))) return;
  throw new SdkError('offline', { url, reason: 'only https (or http to a loopback address) is allowed' });
}

async function get(url: string, o: DownloadOptions, wanted: string) {
  checkTransport(url);
  const timeout = AbortSignal.timeout(o.timeoutMs ?? 120_000);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  let res: Awaited<ReturnType<typeof request>>;
  try {
    res = await request(url, { method: 'GET', signal });
  } catch (err) {
    if (o.signal?.aborted) throw new SdkError('cancelled');
    throw new SdkError('offline', { url, reason: reasonOf(err, timeout.aborted) });
  }
  if (res.statusCode !== 200) {
    await res.body.dump().catch(() => {});
    throw new SdkError('not-found', { url, status: res.statusCode, wanted });
  }
  return { res, signal, timeout };
}

async function getText(url: string, o: DownloadOptions, wanted: string): Promise<string> {
  const { res, timeout } = await get(url, o, wanted);
  try {
    return await res.body.text();
  } catch (err) {
    if (o.signal?.aborted) throw new SdkError('cancelled');
    throw new SdkError('offline', { url, reason: reasonOf(err, timeout.aborted) });
  }
}

/** Every version the repository's `maven-metadata.xml` lists, newest first. */
export async function listRemoteSdkVersions(o: DownloadOptions): Promise<string[]> {
  const xml = await getText(artifactUrl(o.repositoryUrl, 'maven-metadata.xml'), o, 'the version list');
  const versions = [...xml.matchAll(/<version>\s*([^<\s]+)\s*<\/version>/g)].map((m) => m[1] ?? '');
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
 * already holds the release, nothing is fetched. Throws SdkError: offline, not-found, corrupt, cancelled.
 */
export async function downloadSdkRelease(
  version: string,
  cacheRoot: string,
  o: DownloadOptions,
): Promise<SdkRelease> {
  const target = join(cacheRoot, version);
  const present = readSdkRelease(target);
  if (present) return present;
  const jar = artifactUrl(o.repositoryUrl, `${version}/eforms-sdk-${version}.jar`);
  const expected = (await getText(`${jar}.sha1`, o, `eforms-sdk ${version}`))
    .trim()
    .split(/\s+/)[0]
    ?.toLowerCase();
  if (!expected || !/^[0-9a-f]{40}$/.test(expected))
    throw new SdkError('corrupt', { url: `${jar}.sha1`, reason: 'the published checksum cannot be read' });
  mkdirSync(cacheRoot, { recursive: true });
  const tmp = join(cacheRoot, `.partial-${version}-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(tmp);
  try {
    const archive = join(tmp, 'sdk.jar');
    const { res, timeout } = await get(jar, o, `eforms-sdk ${version}`);
    const total = Number(res.headers['content-length']) || undefined;
    const hash = createHash('sha1');
    let received = 0;
    try {
      await pipeline(
        res.body,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            received += chunk.length;
            if (received > MAX_ARCHIVE_BYTES)
              throw new SdkError('corrupt', { url: jar, reason: 'the archive is too large' });
            hash.update(chunk);
            o.onProgress?.({ received, total, phase: 'download' });
            yield chunk;
          }
        },
        createWriteStream(archive),
      );
    } catch (err) {
      if (err instanceof SdkError) throw err;
      if (o.signal?.aborted) throw new SdkError('cancelled');
      throw new SdkError('offline', { url: jar, reason: reasonOf(err, timeout.aborted) });
    }
    if (total !== undefined && received !== total)
      throw new SdkError('offline', {
        url: jar,
        reason: `the connection closed after ${received} of ${total} bytes`,
      });
    const actual = hash.digest('hex');
    if (actual !== expected)
      throw new SdkError('corrupt', {
        url: jar,
        reason: `SHA-1 ${actual} differs from the published ${expected}`,
      });
    const unpacked = join(tmp, 'unpacked');
    o.onProgress?.({ received, total, phase: 'unpack' });
    await unzip(archive, unpacked, o.signal);
    const release = findRelease(unpacked, version);
    if (!release) throw new SdkError('corrupt', { url: jar, reason: 'the archive holds no SDK release' });
    if (o.signal?.aborted) throw new SdkError('cancelled');
    try {
      renameSync(release, target);
    } catch (err) {
      // Another process finished the same download first: theirs is as good as ours.
      if (!readSdkRelease(target)) throw err;
    }
    const done = readSdkRelease(target);
    if (!done) throw new SdkError('corrupt', { url: jar, reason: 'the unpacked release cannot be read' });
    return { ...done, version };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The release inside an unpacked archive: at its top (the Maven jar) or one folder down (GitHub's). */
function findRelease(dir: string, version: string): string | undefined {
  if (readSdkRelease(join(dir)) || hasMarkers(dir)) return dir;
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

/** Unpacks every entry under `dest`, refusing names that would land outside it. */
function unzip(archive: string, dest: string, signal?: AbortSignal): Promise<void> {
  mkdirSync(dest, { recursive: true });
  return new Promise((resolve, reject) => {
    yauzl.open(
      archive,
      { lazyEntries: true, strictFileNames: false, validateEntrySizes: true },
      (err, zip) => {
        if (err || !zip)
          return reject(
            new SdkError('corrupt', { reason: `not a zip archive (${String(err?.message ?? err)})` }),
          );
        let entries = 0;
        let bytes = 0;
        const fail = (e: unknown) => {
          zip.close();
          reject(
            e instanceof SdkError
              ? e
              : new SdkError('corrupt', { reason: String((e as Error)?.message ?? e) }),
          );
        };
        zip.on('error', fail);
        zip.on('end', () => resolve());
        zip.on('entry', (entry: yauzl.Entry) => {
          if (signal?.aborted) return fail(new SdkError('cancelled'));
          if (++entries > MAX_ENTRIES) return fail(new SdkError('corrupt', { reason: 'too many entries' }));
          const name = entry.fileName.replace(/\\/g, '/');
          const rel = normalize(name);
          if (isAbsolute(name) || rel.startsWith(`..${sep}`) || rel === '..' || name.includes('\0'))
            return fail(
              new SdkError('corrupt', { reason: `unsafe entry name ${JSON.stringify(name.slice(0, 100))}` }),
            );
          const out = join(dest, rel);
          if (name.endsWith('/')) {
            mkdirSync(out, { recursive: true });
            zip.readEntry();
            return;
          }
          bytes += entry.uncompressedSize;
          if (bytes > MAX_UNPACKED_BYTES)
            return fail(new SdkError('corrupt', { reason: 'the archive unpacks too large' }));
          mkdirSync(dirname(out), { recursive: true });
          zip.openReadStream(entry, (e2, stream) => {
            if (e2 || !stream) return fail(e2);
            pipeline(stream, createWriteStream(out)).then(() => zip.readEntry(), fail);
          });
        });
        zip.readEntry();
      },
    );
  });
}

function reasonOf(err: unknown, timedOut: boolean): string {
  if (timedOut) return 'no answer in time';
  const code = (err as { code?: string })?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was cut';
  return String((err as Error)?.message ?? err).slice(0, 120);
}
