// The SDK locator on temporary folders laid out as users lay them out, and on ../shared's release.

import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { chooseSdkRelease, compareSdkVersions, listSdkReleases, minorOf } from '../../core/sdk/sdk-folder';
import { SDK_DIR, SharedDataMissing, skipUnless } from '../support/shared-data';

function fakeRelease(dir: string, version?: string): void {
  mkdirSync(join(dir, 'schematrons'), { recursive: true });
  if (version) writeFileSync(join(dir, 'VERSION'), `${version}\n`);
}

test('a folder of releases is listed newest first, by numeric version', () => {
  const root = mkdtempSync(join(tmpdir(), 'sdk-'));
  try {
    fakeRelease(join(root, '1.9.0'));
    fakeRelease(join(root, '1.15.1'));
    fakeRelease(join(root, '1.15.0'));
    fakeRelease(join(root, 'unpacked'), '1.14.2');
    mkdirSync(join(root, 'notes'));
    assert.deepEqual(
      listSdkReleases(root).map((r) => r.version),
      ['1.15.1', '1.15.0', '1.14.2', '1.9.0'],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the version a notice declares picks the newest patch of its MAJOR.MINOR; a pin wins', () => {
  const releases = ['1.15.1', '1.15.0', '1.14.2', '1.9.0'].map((version) => ({
    version,
    dir: `/x/${version}`,
  }));
  const declared = chooseSdkRelease(releases, { declared: 'eforms-sdk-1.15' });
  assert.ok(declared.ok);
  assert.equal(declared.release.version, '1.15.1');
  assert.equal(declared.because, 'declared');
  const pinned = chooseSdkRelease(releases, { declared: '1.15', pinned: '1.14' });
  assert.ok(pinned.ok);
  assert.equal(pinned.release.version, '1.14.2');
  assert.equal(pinned.because, 'pinned');
  const exact = chooseSdkRelease(releases, { pinned: '1.15.0' });
  assert.ok(exact.ok && exact.release.version === '1.15.0');
  assert.deepEqual(chooseSdkRelease(releases, { declared: '1.13' }), {
    ok: false,
    kind: 'version-missing',
    wanted: '1.13',
    available: ['1.15.1', '1.15.0', '1.14.2', '1.9.0'],
  });
  assert.equal(chooseSdkRelease(releases, {}).ok, false);
  assert.deepEqual(chooseSdkRelease([], { declared: '1.15' }), { ok: false, kind: 'no-sdk' });
  const only = chooseSdkRelease([{ version: '1.15.1', dir: '/x' }], {});
  assert.ok(only.ok && only.because === 'only');
});

test('version helpers', () => {
  assert.equal(minorOf('eforms-sdk-1.15'), '1.15');
  assert.equal(minorOf('1.15.1'), '1.15');
  assert.equal(minorOf('1.x'), undefined);
  assert.ok(compareSdkVersions('1.9.0', '1.15.0') < 0);
  assert.ok(compareSdkVersions('1.15.0-rc.1', '1.15.0') < 0);
});

test('../shared: the release itself, and the folder of releases as its VERSION files say', {
  skip: skipUnless(SDK_DIR),
}, () => {
  assert.deepEqual(listSdkReleases(SDK_DIR), [{ version: '1.15.1', dir: SDK_DIR }]);
  // The truth, read without the locator: every sub-folder's VERSION file, sorted by number.
  const root = dirname(SDK_DIR);
  const byNumber = (a: string, b: string) => {
    const pa = a.split('.').map(Number);
    const pb = b.split('.').map(Number);
    for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pb[i] ?? 0) - (pa[i] ?? 0);
    return 0;
  };
  const truth = readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, d.name, 'VERSION')))
    .map((d) => ({
      version: readFileSync(join(root, d.name, 'VERSION'), 'utf8').trim(),
      dir: join(root, d.name),
    }))
    .sort((a, b) => byNumber(a.version, b.version));
  assert.ok(truth.length >= 1, 'the shared folder holds at least the 1.15.1 release');
  assert.deepEqual(listSdkReleases(root), truth);
});

test('skipUnless: an absent folder skips locally and fails in CI', () => {
  const absent = join(tmpdir(), `no-such-shared-${process.pid}-${Date.now()}`);
  assert.match(skipUnless(absent, {}) ?? '', /is absent: skipped/);
  assert.match(skipUnless(absent, { CI: 'false' }) ?? '', /is absent: skipped/);
  assert.throws(() => skipUnless(absent, { CI: 'true' }), SharedDataMissing);
  assert.throws(() => skipUnless(absent, { CI: '1' }), SharedDataMissing);
  assert.equal(skipUnless(tmpdir(), { CI: 'true' }), undefined);
});

test('../shared holds five releases, each found directly and all as a folder of releases', {
  skip: skipUnless(SDK_DIR),
}, () => {
  // What ../shared/eforms-sdk/README.md says it holds: 1.15.1 and the newest patch of 1.7 to 1.10.
  const expected = ['1.15.1', '1.10.5', '1.9.5', '1.8.5', '1.7.5'];
  const root = dirname(SDK_DIR);
  assert.deepEqual(
    listSdkReleases(root).map((r) => r.version),
    expected,
  );
  for (const v of expected)
    assert.deepEqual(listSdkReleases(join(root, v)), [{ version: v, dir: join(root, v) }]);
  // Each real notice's declared MAJOR.MINOR picks its own release there.
  for (const [declared, version] of [
    ['eforms-sdk-1.7', '1.7.5'],
    ['eforms-sdk-1.8', '1.8.5'],
    ['eforms-sdk-1.9', '1.9.5'],
    ['eforms-sdk-1.10', '1.10.5'],
    ['eforms-sdk-1.15', '1.15.1'],
  ] as const) {
    const c = chooseSdkRelease(listSdkReleases(root), { declared });
    assert.ok(c.ok && c.release.version === version, `${declared} -> ${version}`);
  }
});
