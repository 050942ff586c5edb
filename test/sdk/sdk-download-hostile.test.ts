// The SDK download against a loopback Maven repository that serves hostile archives, built in memory
// (test/support/zip-builder.ts) with a correct published SHA-1, so that only the archive's contents can
// stop them: `..` and absolute names, names longer than file systems take, a file and a folder with one
// path, bombs (honest and lying sizes), too many entries, a truncated archive, a release whose VERSION
// is another version; and answers too large or too slow. Each must fail as `corrupt` (or `offline` for
// the transport), and the cache must hold nothing afterwards. fast-check (fixed seed) plants one hostile
// entry at a random place in random good archives; the good archive itself always unpacks byte for byte.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { sdkProblemForCli } from '../../cli/commands/validate';
import { describeFailure } from '../../cli/failure-wording';
import { wordFailure } from '../../client/failure-wording';
import { INPUT_LIMITS } from '../../core/notice';
import {
  checkArchiveEntries,
  type DownloadOptions,
  downloadSdkRelease,
  listRemoteSdkVersions,
  resolveSdk,
  SdkError,
} from '../../core/sdk';
import { fuzzParameters } from '../support/fuzz';
import { buildZip, fakeReleaseEntries, type ZipEntrySpec } from '../support/zip-builder';

const V = '9.9.9';
const BASE = '/maven2/eu/europa/ted/eforms/eforms-sdk';

/** What the repository answers; each test sets it before downloading. */
interface Served {
  jar: Buffer;
  /** The published checksum; by default the jar's own. */
  sha1?: string;
  metadata?: Buffer;
  /** Send this many bytes of the jar, then nothing (the socket stays open). */
  stallAfter?: number;
}

describe('hostile SDK archives from a loopback repository', () => {
  let work: string;
  let server: Server;
  let repo: string;
  let served: Served = { jar: buildZip(fakeReleaseEntries(V)) };
  const jarRequests: string[] = [];

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'sdk-hostile-'));
    server = createServer((req, res) => {
      if (req.url === `${BASE}/maven-metadata.xml`) {
        res.end(served.metadata ?? `<metadata><versions><version>${V}</version></versions></metadata>`);
        return;
      }
      if (req.url === `${BASE}/${V}/eforms-sdk-${V}.jar.sha1`) {
        res.end(served.sha1 ?? createHash('sha1').update(served.jar).digest('hex'));
        return;
      }
      if (req.url === `${BASE}/${V}/eforms-sdk-${V}.jar`) {
        jarRequests.push(req.url);
        res.setHeader('content-length', String(served.jar.length));
        if (served.stallAfter !== undefined) {
          res.write(served.jar.subarray(0, served.stallAfter));
          return; // and nothing more: the client's stall limit must end it
        }
        res.end(served.jar);
        return;
      }
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    repo = `http://127.0.0.1:${(server.address() as AddressInfo).port}/maven2`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(work, { recursive: true, force: true });
  });

  const freshCache = () => mkdtempSync(join(work, 'cache-'));
  const small: DownloadOptions['limits'] = {
    entryBytes: 64 * 1024,
    unpackedBytes: 256 * 1024,
    entries: 200,
  };

  /** Downloads `entries` as release V: must fail with `kind`, leaving an empty cache; returns the error. */
  const refused = async (entries: ZipEntrySpec[] | Buffer, kind: SdkError['kind'] = 'corrupt') => {
    served = { jar: Buffer.isBuffer(entries) ? entries : buildZip(entries) };
    const cache = freshCache();
    let caught: unknown;
    await assert.rejects(
      downloadSdkRelease(V, cache, { repositoryUrl: repo, limits: small }).catch((e) => {
        caught = e;
        throw e;
      }),
      (e: unknown) => e instanceof SdkError && e.kind === kind,
    );
    assert.deepEqual(existsSync(cache) ? readdirSync(cache) : [], [], 'the cache holds nothing afterwards');
    return caught as SdkError;
  };

  test('the good archive unpacks byte for byte and is found again without a request', async () => {
    const entries = fakeReleaseEntries(V);
    served = { jar: buildZip(entries) };
    const cache = freshCache();
    const r = await downloadSdkRelease(V, cache, { repositoryUrl: repo, limits: small });
    assert.equal(r.version, V);
    assert.deepEqual(readdirSync(cache), [V]);
    for (const e of entries)
      if (e.data !== undefined) assert.equal(readFileSync(join(cache, V, e.name), 'utf8'), e.data);
    const n = jarRequests.length;
    await downloadSdkRelease(V, cache, { repositoryUrl: repo });
    assert.equal(jarRequests.length, n);
  });

  test('names that leave the folder are refused: .., absolute, drive letter, backslashes', async () => {
    for (const name of [
      '../evil.txt',
      'fields/../../evil.txt',
      '/tmp/evil.txt',
      'C:/evil.txt',
      '..\\evil.txt',
    ]) {
      const e = await refused([...fakeReleaseEntries(V), { name, data: 'x' }]);
      assert.match(e.fields.reason ?? '', /leads out|absolute/, name);
    }
    assert.ok(!existsSync(join(work, 'evil.txt')));
  });

  test('a name part longer than 255 bytes is refused, counted in UTF-8 bytes', async () => {
    await refused([...fakeReleaseEntries(V), { name: `fields/${'n'.repeat(256)}`, data: 'x' }]);
    // 86 euro signs: 86 characters, 258 bytes.
    await refused([...fakeReleaseEntries(V), { name: `${'€'.repeat(86)}/a.txt`, data: 'x' }]);
    // 255 bytes exactly is fine.
    served = { jar: buildZip([...fakeReleaseEntries(V), { name: `fields/${'n'.repeat(255)}`, data: 'x' }]) };
    await downloadSdkRelease(V, freshCache(), { repositoryUrl: repo, limits: small });
  });

  test('a file and a folder with one path are refused, in either order and in any case', async () => {
    const base = fakeReleaseEntries(V);
    for (const extra of [
      [
        { name: 'x', data: '1' },
        { name: 'x/y', data: '2' },
      ],
      [{ name: 'x', data: '1' }, { name: 'x/' }],
      [{ name: 'x/' }, { name: 'x', data: '1' }],
      [
        { name: 'x/y', data: '2' },
        { name: 'x', data: '1' },
      ],
      [
        { name: 'x.txt', data: '1' },
        { name: 'x.txt', data: '2' },
      ],
      [
        { name: 'Read.me', data: '1' },
        { name: 'READ.ME', data: '2' },
      ],
      [{ name: 'VERSION/', data: '' }],
    ])
      await refused([...base, ...extra]);
  });

  test('bombs: a file or a whole larger than the limits, and sizes that lie', async () => {
    const zeros = Buffer.alloc(200 * 1024);
    await refused([...fakeReleaseEntries(V), { name: 'big.bin', data: zeros }]);
    const many = Array.from({ length: 8 }, (_, i) => ({
      name: `part${i}.bin`,
      data: Buffer.alloc(40 * 1024),
    }));
    const whole = await refused([...fakeReleaseEntries(V), ...many]);
    assert.match(whole.fields.reason ?? '', /more than 262144 bytes/);
    // The headers say 10 bytes; the data inflates to 200 KB: stopped while unpacking.
    await refused([...fakeReleaseEntries(V), { name: 'liar.bin', data: zeros, declaredSize: 10 }]);
  });

  test('too many entries are refused before any is unpacked', async () => {
    const many = Array.from({ length: 250 }, (_, i) => ({ name: `f/${i}.txt`, data: '' }));
    const e = await refused([...fakeReleaseEntries(V), ...many]);
    assert.match(e.fields.reason ?? '', /more than 200 entries/);
  });

  test('a truncated archive (its checksum published as is) is corrupt', async () => {
    const jar = buildZip([...fakeReleaseEntries(V), { name: 'pad.txt', data: 'p'.repeat(5000) }]);
    await refused(jar.subarray(0, Math.floor(jar.length * 0.6)));
    await refused(Buffer.from('not a zip at all'));
  });

  test('an archive whose VERSION is another version is refused, nothing cached, nothing "Downloaded"', async () => {
    const e = await refused(fakeReleaseEntries('1.14.0'));
    assert.match(e.fields.reason ?? '', /holds SDK 1\.14\.0, not 9\.9\.9/);
    assert.doesNotMatch(sdkProblemForCli(e), /^Downloaded/);
    // Through the store, as the CLI and the editor call it.
    const cache = freshCache();
    await assert.rejects(
      resolveSdk(
        { path: '', cacheRoot: cache, download: { allowed: true, repositoryUrl: repo } },
        { pinned: V },
      ),
      (x: unknown) => x instanceof SdkError && x.kind === 'corrupt',
    );
    assert.deepEqual(readdirSync(cache), []);
  });

  test('answers over their caps: the version list, the checksum, the archive', async () => {
    served = {
      jar: buildZip(fakeReleaseEntries(V)),
      metadata: Buffer.alloc(INPUT_LIMITS.sdkMetadataBytes.max + 1, 0x20),
    };
    await assert.rejects(
      listRemoteSdkVersions({ repositoryUrl: repo }),
      (e: unknown) => e instanceof SdkError && e.failure?.kind === 'too-large' && e.failure.service === 'sdk',
    );
    served = {
      jar: buildZip(fakeReleaseEntries(V)),
      sha1: 'a'.repeat(INPUT_LIMITS.sdkChecksumBytes.max + 1),
    };
    const cache = freshCache();
    await assert.rejects(
      downloadSdkRelease(V, cache, { repositoryUrl: repo }),
      (e: unknown) => e instanceof SdkError && e.failure?.kind === 'too-large',
    );
    served = {
      jar: buildZip([
        ...fakeReleaseEntries(V),
        {
          name: 'pad.bin',
          data: Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251)),
          method: 'store',
        },
      ]),
    };
    const c2 = freshCache();
    await assert.rejects(
      downloadSdkRelease(V, c2, { repositoryUrl: repo, limits: { archiveBytes: 2000 } }),
      (e: unknown) => e instanceof SdkError && e.failure?.kind === 'too-large',
    );
    assert.deepEqual(readdirSync(c2), []);
  });

  test('a repository that stops sending fails on the stall limit, worded by each front end', async () => {
    const jar = buildZip([
      ...fakeReleaseEntries(V),
      { name: 'pad.txt', data: 'p'.repeat(5000), method: 'store' },
    ]);
    served = { jar, stallAfter: 1000 };
    const cache = freshCache();
    let caught: SdkError | undefined;
    await assert.rejects(
      downloadSdkRelease(V, cache, { repositoryUrl: repo, limits: { stallMs: 300 } }).catch((e) => {
        caught = e;
        throw e;
      }),
      (e: unknown) => e instanceof SdkError && e.kind === 'offline',
    );
    assert.deepEqual(readdirSync(cache), []);
    const failure = caught?.failure;
    assert.ok(failure);
    assert.equal(failure.service, 'sdk');
    assert.equal(failure.kind, 'timeout');
    assert.equal(failure.fields.stalled, true);
    assert.match(describeFailure(failure), /sent nothing for/);
    assert.match(sdkProblemForCli(caught as SdkError), /--sdk-dir/);
    assert.match(wordFailure(failure, 'Downloading the eForms SDK').message, /sent nothing for/);
  });

  test('a cancelled download is cancelled and leaves nothing', async () => {
    served = { jar: buildZip(fakeReleaseEntries(V)), stallAfter: 10 };
    const cache = freshCache();
    const ac = new AbortController();
    const p = downloadSdkRelease(V, cache, {
      repositoryUrl: repo,
      signal: ac.signal,
      onProgress: () => ac.abort(),
    });
    await assert.rejects(p, (e: unknown) => e instanceof SdkError && e.kind === 'cancelled');
    assert.deepEqual(readdirSync(cache), []);
  });

  test('property: one hostile entry anywhere in a good archive is refused; the good archive unpacks', async () => {
    const file = fc
      .tuple(fc.constantFrom('a', 'b', 'Bc', 'd-e'), fc.constantFrom('x', 'y', 'Zz', 'w.1'))
      .map(([d, f]) => `${d}/${f}.txt`);
    const mutation = fc.constantFrom(
      'file-as-folder',
      'file-then-slash',
      'folder-as-file',
      'case',
      'dotdot',
      'absolute',
      'long',
      'bomb',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(file, { minLength: 1, maxLength: 6, selector: (s) => s.toLowerCase() }),
        mutation,
        fc.nat(),
        fc.string({ maxLength: 30 }),
        async (files, m, at, content) => {
          const good: ZipEntrySpec[] = [
            ...fakeReleaseEntries(V),
            ...files.map((name) => ({ name, data: content })),
          ];
          served = { jar: buildZip(good) };
          const okCache = freshCache();
          await downloadSdkRelease(V, okCache, { repositoryUrl: repo, limits: small });
          for (const f of files) assert.equal(readFileSync(join(okCache, V, f), 'utf8'), content);
          const victim = files[at % files.length] as string;
          const folder = victim.split('/')[0] as string;
          const hostile: ZipEntrySpec =
            m === 'file-as-folder'
              ? { name: `${victim}/inner`, data: 'x' }
              : m === 'file-then-slash'
                ? { name: `${victim}/` }
                : m === 'folder-as-file'
                  ? { name: folder, data: 'x' }
                  : m === 'case'
                    ? {
                        name: victim.toUpperCase() === victim ? victim.toLowerCase() : victim.toUpperCase(),
                        data: 'x',
                      }
                    : m === 'dotdot'
                      ? { name: `${folder}/../../${victim}`, data: 'x' }
                      : m === 'absolute'
                        ? { name: `/${victim}`, data: 'x' }
                        : m === 'long'
                          ? { name: `${folder}/${'L'.repeat(256)}`, data: 'x' }
                          : { name: `${folder}/bomb.bin`, data: Buffer.alloc(100 * 1024) };
          const entries = [...good];
          entries.splice(at % (entries.length + 1), 0, hostile);
          await refused(entries);
        },
      ),
      fuzzParameters(25),
    );
  });
});

test('checkArchiveEntries on names alone: the real 1.15.1 layout passes, its collisions do not', () => {
  const limits = { entries: 10, entryBytes: 100, unpackedBytes: 1000, nameBytes: 255 };
  assert.deepEqual(
    checkArchiveEntries(
      [
        { name: 'schematrons/', uncompressedSize: 0 },
        { name: 'schematrons/static/a.sch', uncompressedSize: 10 },
        { name: './VERSION', uncompressedSize: 7 },
      ],
      limits,
    ),
    ['schematrons/', 'schematrons/static/a.sch', 'VERSION'],
  );
  assert.throws(
    () =>
      checkArchiveEntries(
        [
          { name: 'a', uncompressedSize: 1 },
          { name: 'A/b', uncompressedSize: 1 },
        ],
        limits,
      ),
    SdkError,
  );
  assert.throws(() => checkArchiveEntries([{ name: 'a\0b', uncompressedSize: 1 }], limits), SdkError);
});
