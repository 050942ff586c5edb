// `eforms validate --local` over a mixed folder of notices, with ../shared/eforms-sdk as a folder of
// releases: each notice must be validated with the newest patch of the MAJOR.MINOR its
// cbc:CustomizationID declares. The expected release of each notice comes from
// ../shared/real-notices/index.tsv (its declared SDK) and the releases the shared folder holds, never
// from the code under test. A missing release is named in one message, with what is available.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type CliRun, runCli } from '../support/cli-run';
import { SAMPLES_DIR, SDK_DIR, SHARED_DIR, skipUnless } from '../support/shared-data';

const SDK_ROOT = dirname(SDK_DIR);
const REAL = join(SHARED_DIR, 'real-notices');
const skip = skipUnless(SDK_ROOT) ?? skipUnless(REAL) ?? skipUnless(SAMPLES_DIR);

/** The newest patch of each MAJOR.MINOR in the shared folder, as its README lists them. */
const NEWEST_PATCH: Record<string, string> = {
  '1.7': '1.7.5',
  '1.8': '1.8.5',
  '1.9': '1.9.5',
  '1.10': '1.10.5',
  '1.15': '1.15.1',
};

function declaredByIndex(): Map<string, string> {
  const rows = readFileSync(join(REAL, 'index.tsv'), 'utf8').trim().split('\n').slice(1);
  return new Map(
    rows.map((row) => {
      const [pubno, customization] = row.split('\t');
      return [`${pubno}.xml`, (customization ?? '').replace(/^eforms-sdk-/, '')];
    }),
  );
}

describe('eforms validate --local over notices of several releases', { skip }, () => {
  let work: string;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'cli-releases-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  function run(args: string[]): Promise<CliRun> {
    const env: NodeJS.ProcessEnv = { ...process.env, EFORMS_SDK_CACHE: join(work, 'cache', 'sdk') };
    delete env.EFORMS_API_KEY;
    env.EFORMS_SDK_REPOSITORY = 'http://127.0.0.1:9/maven2';
    return runCli(['validate', ...args], { env, cwd: work });
  }

  test("each notice's report names the release of its own MAJOR.MINOR", async () => {
    const declared = declaredByIndex();
    // One notice per release: the first of each declared version in index.tsv, and an SDK 1.15 sample.
    const picked = new Map<string, string>();
    for (const [file, v] of declared) if (!picked.has(v)) picked.set(v, join(REAL, 'notices', file));
    picked.set('1.15', join(SAMPLES_DIR, 'notices', 'cn_24_maximal.xml'));
    assert.deepEqual([...picked.keys()].sort(), Object.keys(NEWEST_PATCH).sort());
    const files = [...picked.values()];
    const r = await run(['--local', '--sdk-dir', SDK_ROOT, '--today', '2024-06-01', ...files]);
    const lines = `${r.stdout}\n${r.stderr}`.split('\n');
    for (const [v, file] of picked) {
      const about = lines.filter((l) => l.includes(file));
      assert.ok(about.length > 0, `nothing said about ${file}:\n${r.stdout}\n${r.stderr}`);
      // Validated (summary line) or stopped by the engine: either way the release is its own.
      const named = about.filter((l) => /eForms SDK \d+\.\d+\.\d+/.test(l));
      assert.ok(named.length > 0, `${file}: no release named in ${about.join(' | ')}`);
      for (const l of named) {
        const m = /eForms SDK (\d+\.\d+\.\d+)/.exec(l);
        assert.equal(m?.[1], NEWEST_PATCH[v], `${file} declares ${v}: ${l}`);
      }
    }
    // The SDK's own sample is valid for its release (its official report has no failed-assert).
    const sample = picked.get('1.15') as string;
    assert.ok(r.stdout.split('\n').includes(`${sample}: no findings (eForms SDK 1.15.1 rules)`), r.stdout);
  });

  test('a CustomizationID with a patch number, among several releases: its located error, and JSON for every notice', async () => {
    const sample = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_minimal.xml'), 'utf8');
    const patch = join(work, 'patch.xml');
    const written = sample.replace(/eforms-sdk-1\.\d+/, 'eforms-sdk-1.15.1');
    assert.notEqual(written, sample);
    writeFileSync(patch, written);
    const line = written.slice(0, written.indexOf('eforms-sdk-1.15.1')).split('\n').length;
    const r = await run(['--local', '--sdk-dir', SDK_ROOT, patch, '--format', 'json']);
    assert.equal(r.code, 1, r.stderr);
    assert.doesNotMatch(r.stderr, /declares no SDK version/);
    const entry = (
      JSON.parse(r.stdout) as { files: { findings: { id: string; range: { start: { line: number } } }[] }[] }
    ).files[0];
    assert.deepEqual(
      entry?.findings.map((f) => [f.id, f.range.start.line + 1]),
      [['customization-id', line]],
    );
    // A release that is not there, for the only notice: still an entry of the JSON, not an empty output.
    const absent = join(work, 'absent.xml');
    writeFileSync(absent, sample.replace(/eforms-sdk-1\.\d+/, 'eforms-sdk-1.99'));
    const a = await run(['--local', '--sdk-dir', SDK_ROOT, absent, '--format', 'json']);
    assert.equal(a.code, 2, a.stderr);
    const files = (JSON.parse(a.stdout) as { files: { outcome: string; error: string }[] }).files;
    assert.equal(files.length, 1);
    assert.equal(files[0]?.outcome, 'failed');
    assert.match(files[0]?.error ?? '', /1\.99/);
  });

  test('a release the folder lacks is named once, with the notices it stops; the others are validated', async () => {
    // 1.15.1 alone as the folder: the 1.8 notices need a release that is not there.
    const declared = declaredByIndex();
    const of18 = [...declared].filter(([, v]) => v === '1.8').map(([f]) => join(REAL, 'notices', f));
    const two = of18.slice(0, 2);
    assert.equal(two.length, 2);
    const sample = join(SAMPLES_DIR, 'notices', 'cn_24_maximal.xml');
    const r = await run(['--local', '--sdk-dir', SDK_DIR, '--today', '2024-06-01', ...two, sample]);
    assert.equal(r.code, 2, r.stderr);
    const lines = r.stderr.split('\n').filter((l) => /1\.8 is not on this machine/.test(l));
    assert.equal(lines.length, 1, r.stderr);
    assert.ok(lines[0]?.includes(`2 notices (${two.join(', ')})`), lines[0]);
    assert.match(lines[0] ?? '', /--download/);
    assert.ok(r.stdout.split('\n').includes(`${sample}: no findings (eForms SDK 1.15.1 rules)`), r.stdout);

    // With --download and a repository nobody answers: the failed download is one problem too, said
    // once with both notices, never once per notice.
    const d = await run([
      '--local',
      '--download',
      '--sdk-dir',
      SDK_DIR,
      '--today',
      '2024-06-01',
      ...two,
      sample,
    ]);
    assert.equal(d.code, 2, d.stderr);
    const about18 = d.stderr.split('\n').filter((l) => l.includes('cannot be downloaded'));
    assert.equal(about18.length, 1, d.stderr);
    assert.ok(about18[0]?.includes(`2 notices (${two.join(', ')})`), about18[0]);
  });
});
