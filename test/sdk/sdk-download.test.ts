// The SDK download against a loopback Maven repository that serves a jar built at test time (with
// Debian's `zip`) from a subset of ../shared's 1.15.1 release: a good archive, a checksum mismatch, a
// 404, a connection cut mid-way, no consent. In every failure the cache holds nothing afterwards.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { downloadSdkRelease, listRemoteSdkVersions, resolveSdk, SdkError } from '../../core/sdk';
import { SDK_DIR, skipUnless } from '../support/shared-data';

const zipMissing = (() => {
  try {
    execFileSync('zip', ['-v'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'Debian `zip` is not installed: skipped';
  }
})();
const skip = skipUnless(SDK_DIR) ?? zipMissing;

/** The release's files the test archive carries (a subset keeps the test fast). */
const SUBSET = ['VERSION', 'schematrons/static/complete-validation.sch', 'fields/fields.json'];

type Mode = 'good' | 'bad-sum' | 'cut' | 'missing';

describe('SDK download from a Maven repository', { skip }, () => {
  let work: string;
  let jar: Buffer;
  let server: Server;
  let repo: string;
  let mode: Mode = 'good';
  const requests: string[] = [];

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'sdk-dl-'));
    const jarPath = join(work, 'eforms-sdk.jar');
    execFileSync('zip', ['-q', '-X', jarPath, ...SUBSET], { cwd: SDK_DIR });
    jar = readFileSync(jarPath);
    const sha1 = createHash('sha1').update(jar).digest('hex');
    const base = '/maven2/eu/europa/ted/eforms/eforms-sdk';
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      if (req.url === `${base}/maven-metadata.xml`) {
        res.setHeader('content-type', 'text/xml');
        res.end(
          '<metadata><versioning><latest>1.15.1</latest><versions><version>1.9.2</version><version>1.14.0</version><version>1.15.0</version><version>1.15.1</version></versions></versioning></metadata>',
        );
        return;
      }
      if (mode === 'missing' || !req.url?.startsWith(`${base}/1.15.1/eforms-sdk-1.15.1.jar`)) {
        res.statusCode = 404;
        res.end('Not Found');
        return;
      }
      if (req.url.endsWith('.sha1')) {
        res.end(mode === 'bad-sum' ? `${'0'.repeat(40)}` : `${sha1}  eforms-sdk-1.15.1.jar\n`);
        return;
      }
      res.setHeader('content-length', String(jar.length));
      if (mode === 'cut') {
        res.write(jar.subarray(0, Math.floor(jar.length / 2)), () => res.socket?.destroy());
        return;
      }
      res.end(jar);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    repo = `http://127.0.0.1:${(server.address() as AddressInfo).port}/maven2`;
  });

  after(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(work, { recursive: true, force: true });
  });

  const freshCache = () => mkdtempSync(join(work, 'cache-'));
  const leftovers = (cache: string) => (existsSync(cache) ? readdirSync(cache) : []);

  test('the versions come from maven-metadata.xml, newest first', async () => {
    assert.deepEqual(await listRemoteSdkVersions({ repositoryUrl: repo }), [
      '1.15.1',
      '1.15.0',
      '1.14.0',
      '1.9.2',
    ]);
  });

  test('a good archive: the declared 1.15 resolves to 1.15.1, unpacked byte for byte, nothing else left', async () => {
    mode = 'good';
    const cache = freshCache();
    const progress: number[] = [];
    const r = await resolveSdk(
      {
        path: '',
        cacheRoot: cache,
        download: { allowed: true, repositoryUrl: repo, onProgress: (p) => progress.push(p.received) },
      },
      { declared: '1.15' },
    );
    assert.equal(r.release.version, '1.15.1');
    assert.equal(r.because, 'declared');
    assert.equal(r.downloaded, true);
    assert.equal(r.release.dir, join(cache, '1.15.1'));
    for (const f of SUBSET)
      assert.ok(
        readFileSync(join(cache, '1.15.1', f)).equals(readFileSync(join(SDK_DIR, f))),
        `${f} unpacked exactly`,
      );
    assert.deepEqual(leftovers(cache), ['1.15.1'], 'no temporary folder remains');
    assert.equal(progress.at(-1), jar.length, 'progress reaches the archive size');
    // A second resolution finds it in the cache: no request.
    const before = requests.length;
    const again = await resolveSdk(
      { path: '', cacheRoot: cache, download: { allowed: true, repositoryUrl: repo } },
      { declared: 'eforms-sdk-1.15' },
    );
    assert.equal(again.downloaded, false);
    assert.equal(requests.length, before);
  });

  const fails = async (m: Mode, kind: SdkError['kind']) => {
    mode = m;
    const cache = freshCache();
    await assert.rejects(
      downloadSdkRelease('1.15.1', cache, { repositoryUrl: repo }),
      (e: unknown) => e instanceof SdkError && e.kind === kind,
    );
    assert.deepEqual(leftovers(cache), [], `${m}: the cache holds nothing afterwards`);
  };

  test('a checksum mismatch is corrupt, and nothing is kept', () => fails('bad-sum', 'corrupt'));
  test('a 404 is not-found, and nothing is kept', () => fails('missing', 'not-found'));
  test('a connection cut mid-way is offline, and nothing is kept', () => fails('cut', 'offline'));

  test('without consent nothing is requested: consent-needed names the version', async () => {
    mode = 'good';
    const before = requests.length;
    await assert.rejects(
      resolveSdk(
        { path: '', cacheRoot: freshCache(), download: { allowed: false, repositoryUrl: repo } },
        { declared: '1.15' },
      ),
      (e: unknown) => e instanceof SdkError && e.kind === 'consent-needed' && e.fields.wanted === '1.15',
    );
    assert.equal(requests.length, before);
  });

  test('a repository that cannot be reached is offline; plain http to a remote host is refused', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await assert.rejects(
      downloadSdkRelease('1.15.1', freshCache(), { repositoryUrl: `http://127.0.0.1:${port}/maven2` }),
      (e: unknown) => e instanceof SdkError && e.kind === 'offline',
    );
    await assert.rejects(
      downloadSdkRelease('1.15.1', freshCache(), { repositoryUrl: 'http://repo.example.org/maven2' }),
      (e: unknown) => e instanceof SdkError && e.kind === 'offline' && /https/.test(e.fields.reason ?? ''),
    );
  });

  test('the named folder comes before the cache and the repository', async () => {
    const before = requests.length;
    const r = await resolveSdk(
      { path: SDK_DIR, cacheRoot: freshCache(), download: { allowed: true, repositoryUrl: repo } },
      { declared: '1.15' },
    );
    assert.equal(r.release.dir, SDK_DIR);
    assert.equal(requests.length, before);
  });
});
