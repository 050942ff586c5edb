// V8's code cache of the bundles (cli/code-cache-loader.ts): a cache file is untrusted input. Unit
// tests of the reader on hostile files (a byte flipped, a foreign bundle, a header that is not JSON, a
// FIFO, a link to /dev/zero, a folder, a file over the cap: none is used, none hangs), and end to end
// through the built CLI (dist/cli.js, one notice in the calling thread, two in workers): with the cache
// written, used, damaged in each of those ways, or replaced by bytes V8 cannot read under a valid
// digest, the output is byte for byte that of a run without any cache (EFORMS_CODE_CACHE=0), and a
// cache V8 rejected is written again.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  bundleIdentity,
  CLI_V8_FLAGS,
  CODE_CACHE_MAX_BYTES,
  codeCacheDir,
  codeCacheFile,
  readCodeCache,
  writeCodeCache,
} from '../../cli/code-cache-loader';
import { type CliRun, runCli } from '../support/cli-run';
import { PROJECT_ROOT, SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

describe('code cache reader', () => {
  let dir: string;
  const bundle = '/nowhere/cli-main.js';
  const identity = bundleIdentity(bundle, 'module.exports = 1;\n');
  const data = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
  const file = () => join(dir, readdirSync(dir).find((f) => f.endsWith('.v8cache')) as string);
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'code-cache-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('what is written is read back, for this bundle only', () => {
    writeCodeCache(dir, bundle, identity, data);
    assert.deepEqual(readCodeCache(dir, bundle, identity), data);
    // Another text of the bundle (a rebuild), even of the same length, is another identity.
    assert.equal(readCodeCache(dir, bundle, bundleIdentity(bundle, 'module.exports = 2;\n')), undefined);
  });

  test('a byte changed anywhere, a cut, a header that is not JSON: not used', () => {
    writeCodeCache(dir, bundle, identity, data);
    const good = readFileSync(file());
    const nl = good.indexOf(10);
    for (const at of [nl + 1, nl + 2500, good.length - 1, 10]) {
      const bad = Buffer.from(good);
      bad[at] = (bad[at] as number) ^ 0x20;
      writeFileSync(file(), bad);
      assert.equal(readCodeCache(dir, bundle, identity), undefined, `byte ${at}`);
    }
    writeFileSync(file(), good.subarray(0, good.length - 100));
    assert.equal(readCodeCache(dir, bundle, identity), undefined);
    writeFileSync(file(), Buffer.concat([Buffer.from('not json\n'), data]));
    assert.equal(readCodeCache(dir, bundle, identity), undefined);
    writeFileSync(file(), Buffer.from('null\n'));
    assert.equal(readCodeCache(dir, bundle, identity), undefined);
    writeFileSync(file(), Buffer.alloc(0));
    assert.equal(readCodeCache(dir, bundle, identity), undefined);
  });

  test('a FIFO, a link to /dev/zero, a folder, a file over the cap: not read', () => {
    writeCodeCache(dir, bundle, identity, data);
    const path = file();
    rmSync(path);
    if (spawnSync('mkfifo', [path]).status === 0) {
      assert.equal(readCodeCache(dir, bundle, identity), undefined);
      rmSync(path);
    }
    if (existsSync('/dev/zero')) {
      symlinkSync('/dev/zero', path);
      assert.equal(readCodeCache(dir, bundle, identity), undefined);
      rmSync(path);
    }
    mkdirSync(path);
    assert.equal(readCodeCache(dir, bundle, identity), undefined);
    rmSync(path, { recursive: true });
    writeCodeCache(dir, bundle, identity, data);
    truncateSync(path, CODE_CACHE_MAX_BYTES + 1); // sparse: nothing is read
    assert.equal(readCodeCache(dir, bundle, identity), undefined);
  });

  test("the CLI's V8 flags: a file and an identity of their own, so neither start replaces the other's", () => {
    const flagged = bundleIdentity(bundle, 'module.exports = 1;\n', CLI_V8_FLAGS);
    assert.notEqual(flagged, identity);
    const plainFile = codeCacheFile(dir, bundle);
    const flaggedFile = codeCacheFile(dir, bundle, CLI_V8_FLAGS);
    assert.notEqual(flaggedFile, plainFile);
    const other = Buffer.from(data).reverse();
    writeCodeCache(dir, bundle, identity, data);
    writeCodeCache(dir, bundle, flagged, other, CLI_V8_FLAGS);
    assert.deepEqual(readCodeCache(dir, bundle, identity), data);
    assert.deepEqual(readCodeCache(dir, bundle, flagged, CLI_V8_FLAGS), other);
    // Each file holds its own identity: one read under the other's flags is not used.
    assert.equal(readCodeCache(dir, bundle, identity, CLI_V8_FLAGS), undefined);
    assert.equal(readCodeCache(dir, bundle, flagged), undefined);
    rmSync(flaggedFile);
  });

  test('the folder: beside the SDK cache, or off', () => {
    assert.equal(codeCacheDir({ EFORMS_SDK_CACHE: '/a/b/sdk' }), '/a/b/code');
    assert.equal(codeCacheDir({ XDG_CACHE_HOME: '/x' }), '/x/eforms/code');
    assert.equal(codeCacheDir({ EFORMS_SDK_CACHE: '/a/b/sdk', EFORMS_CODE_CACHE: '0' }), undefined);
  });
});

const NOTICES = join(SAMPLES_DIR, 'notices');
const skip =
  skipUnless(SDK_DIR) ??
  skipUnless(NOTICES) ??
  (existsSync(join(PROJECT_ROOT, 'dist', 'cli-main.js')) ? undefined : 'dist/ is not built (npm run build)');

describe('eforms validate --local with a damaged code cache', { skip }, () => {
  let work: string;
  let sdkCache: string;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'code-cache-cli-'));
    sdkCache = join(work, 'cache', 'sdk');
  });
  after(() => rmSync(work, { recursive: true, force: true }));
  const codeDir = () => join(work, 'cache', 'code');

  function run(files: string[], cache: boolean): Promise<CliRun> {
    const env: NodeJS.ProcessEnv = { ...process.env, EFORMS_SDK_CACHE: sdkCache };
    delete env.EFORMS_API_KEY;
    if (cache) delete env.EFORMS_CODE_CACHE;
    else env.EFORMS_CODE_CACHE = '0';
    const args = ['validate', '--local', '--sdk-dir', SDK_DIR, '--today', '2024-06-01'];
    return runCli([...args, '--jobs', '2', '--format', 'json', ...files], { env, cwd: work });
  }

  /** Damages the cache file of `name` in each way, runs, and compares with the run without a cache. */
  async function damaged(files: string[], name: string, truth: CliRun): Promise<void> {
    const path = codeCacheFile(codeDir(), name, CLI_V8_FLAGS);
    assert.ok(existsSync(path), `${path} was written`);
    const good = readFileSync(path);
    const nl = good.indexOf(10);
    const head = JSON.parse(good.toString('utf8', 0, nl)) as { identity: string };
    const garbage = Buffer.alloc(good.length - nl - 1, 0x5a);
    const ways: [string, () => void][] = [
      ['used as written', () => writeFileSync(path, good)],
      [
        'a byte flipped in V8 data',
        () => {
          const b = Buffer.from(good);
          b[nl + 1 + ((b.length - nl) >> 1)] ^= 0xff;
          writeFileSync(path, b);
        },
      ],
      ['cut in half', () => writeFileSync(path, good.subarray(0, good.length >> 1))],
      [
        'bytes V8 cannot read under a valid header and digest',
        () =>
          writeCodeCache(codeDir(), join(PROJECT_ROOT, 'dist', name), head.identity, garbage, CLI_V8_FLAGS),
      ],
      [
        'a FIFO',
        () => {
          rmSync(path);
          spawnSync('mkfifo', [path]);
        },
      ],
    ];
    for (const [what, damage] of ways) {
      damage();
      const r = await run(files, true);
      assert.equal(r.stderr, truth.stderr, what);
      assert.equal(r.stdout, truth.stdout, what);
      assert.equal(r.code, truth.code, what);
      if (what.startsWith('bytes V8')) {
        // V8 rejected it: the run wrote a cache again, which is no longer the garbage.
        assert.notDeepEqual(readFileSync(path).subarray(-garbage.length), garbage, what);
      }
      rmSync(path, { force: true });
      writeFileSync(path, good);
    }
  }

  test('one notice (the calling thread) and two (workers): the same output whatever the cache holds', async () => {
    const one = [join(NOTICES, 'INVALID_cn_24_empty.xml')];
    const two = [join(NOTICES, 'cn_24_maximal.xml'), join(NOTICES, 'INVALID_can_24_stage-2.xml')];
    const truthOne = await run(one, false);
    const truthTwo = await run(two, false);
    assert.ok(truthOne.stdout.includes('"findings"'), truthOne.stderr);
    assert.ok(!existsSync(codeDir()), 'EFORMS_CODE_CACHE=0 writes no cache');
    // The first runs write the caches (the CLI's at exit, each worker's after its first answer).
    for (const [files, truth] of [
      [one, truthOne],
      [two, truthTwo],
    ] as const) {
      const r = await run(files, true);
      assert.equal(r.stdout, truth.stdout);
      assert.equal(r.stderr, truth.stderr);
    }
    // Each start uses what the previous one wrote: V8 took it, so it was not written again (a cache
    // V8 rejects, say one made under other V8 flags than the next start's, is replaced at every run).
    for (const [files, name] of [
      [one, 'cli-main.js'],
      [two, 'validation-worker-main.js'],
    ] as const) {
      const path = codeCacheFile(codeDir(), name, CLI_V8_FLAGS);
      const before = statSync(path);
      await run(files, true);
      const now = statSync(path);
      assert.deepEqual([now.ino, now.mtimeMs], [before.ino, before.mtimeMs], `${name}: its cache was used`);
    }
    await damaged(one, 'cli-main.js', truthOne);
    await damaged(two, 'validation-worker-main.js', truthTwo);
  });

  test("a batch's cache of the CLI is written again by the first run that runs the rules in its own thread", async () => {
    const one = [join(NOTICES, 'INVALID_cn_24_empty.xml')];
    const two = [join(NOTICES, 'cn_24_maximal.xml'), join(NOTICES, 'INVALID_can_24_stage-2.xml')];
    const path = codeCacheFile(codeDir(), 'cli-main.js', CLI_V8_FLAGS);
    const covers = () => {
      const text = readFileSync(path);
      return (JSON.parse(text.toString('utf8', 0, text.indexOf(10))) as { covers: string[] }).covers;
    };
    rmSync(path, { force: true });
    await run(two, true); // the rules ran in workers: the CLI's cache does not hold them
    assert.deepEqual(covers(), []);
    const batchMade = statSync(path).ino;
    await run(one, true);
    assert.notEqual(statSync(path).ino, batchMade, 'written again');
    assert.deepEqual(covers(), ['rules']);
    const singleMade = statSync(path).ino;
    await run(two, true);
    await run(one, true);
    assert.equal(statSync(path).ino, singleMade, 'a cache that covers the run is kept');
  });
});
