// The CLI's small slips, as a user meets them: a wrong --sdk-dir is named as the problem (not "SDK
// 1.15 is not on this machine"), a missing file's path is said once, a folder stands for the notices in
// it (not-eforms.xml beside them is left out), and a mistyped command or option gets "did you mean".
// Run in-process through cli/main.ts, with no key and no network.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, test } from 'node:test';
import { expandInputPaths } from '../../cli/input-files';
import { didYouMean } from '../../cli/io';
import { main } from '../../cli/main';
import { PROJECT_ROOT, SDK_DIR, skipUnless } from '../support/shared-data';

const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'notices');
const work = mkdtempSync(join(tmpdir(), 'cli-slips-'));
after(() => rmSync(work, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const env: NodeJS.ProcessEnv = { ...process.env, EFORMS_SDK_CACHE: join(work, 'cache') };
  delete env.EFORMS_API_KEY;
  env.EFORMS_SDK_REPOSITORY = 'http://127.0.0.1:9/maven2';
  const code = await main(args, {
    out: (t) => {
      out += `${t}\n`;
    },
    err: (t) => {
      err += `${t}\n`;
    },
    env,
    cwd: FIXTURES,
  });
  return { code, out, err };
}

test('a wrong --sdk-dir is named as the problem', async () => {
  const missing = join(work, 'no-such-sdk');
  const r = await run(['validate', '--local', '--sdk-dir', missing, 'valid-cn.xml']);
  assert.equal(r.code, 2);
  assert.match(r.err, new RegExp(`--sdk-dir ${missing.replace(/[/\\.-]/g, '\\$&')}: no such folder`));
  const empty = mkdtempSync(join(work, 'empty-'));
  const e = await run(['validate', '--local', '--sdk-dir', empty, 'valid-cn.xml']);
  assert.equal(e.code, 2);
  assert.match(e.err, /--sdk-dir .* holds no eForms SDK release/);
  assert.doesNotMatch(e.err, /not on this machine/);
});

test("a missing file's path is printed once", { skip: skipUnless(SDK_DIR) }, async () => {
  const r = await run(['validate', '--local', '--sdk-dir', SDK_DIR, 'nothere.xml']);
  assert.equal(r.code, 2);
  assert.equal(r.err.split('nothere.xml').length - 1, 1, r.err);
  assert.match(r.err, /no such file/);
});

test('a folder argument stands for the notices in it, and only them', () => {
  const found = expandInputPaths(PROJECT_ROOT, [join('test', 'fixtures', 'notices')]).sort();
  // The fixtures whose root element is an eForms notice (malformed.xml's root is a ContractNotice).
  assert.deepEqual(
    found,
    ['invalid-cn.xml', 'malformed.xml', 'prefixes-cn.xml', 'valid-cn.xml'].map((n) =>
      join('test', 'fixtures', 'notices', n),
    ),
  );
  const none = mkdtempSync(join(work, 'none-'));
  writeFileSync(join(none, 'other.xml'), '<a/>');
  assert.throws(() => expandInputPaths(work, [none]), /holds no eForms notice/);
  // An empty name is not the current folder (an unset variable in a script).
  assert.throws(() => expandInputPaths(FIXTURES, ['']), /an empty file name was given/);
  assert.throws(() => expandInputPaths(FIXTURES, ['valid-cn.xml', ' ']), /an empty file name was given/);
  // A file is kept as named (reading it says what is wrong), a folder expands in place.
  assert.deepEqual(expandInputPaths(FIXTURES, ['x.xml']), ['x.xml']);
});

test('a folder: .xml files that are empty or not XML are named, other XML is not; a walk cut at its limit says so', () => {
  const dir = mkdtempSync(join(work, 'mixed-'));
  const notice = readFileSync(join(FIXTURES, 'valid-cn.xml'));
  writeFileSync(join(dir, 'a.xml'), notice);
  writeFileSync(join(dir, 'empty.xml'), '');
  writeFileSync(join(dir, 'blank.xml'), '  \n\t\n');
  writeFileSync(join(dir, 'cut.xml'), notice.subarray(0, notice.indexOf('<', 5)));
  writeFileSync(join(dir, 'binary.xml'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff, 0xfe]));
  writeFileSync(join(dir, 'codes.xml'), '<gc:CodeList xmlns:gc="urn:gc"/>');
  const notes: string[] = [];
  const found = expandInputPaths(work, [basename(dir)], (n) => notes.push(n));
  assert.deepEqual(found, [join(basename(dir), 'a.xml')]);
  const at = (f: string) => join(basename(dir), f);
  assert.deepEqual(notes, [
    `${at('blank.xml')}, ${at('empty.xml')} are empty: not validated`,
    `${at('binary.xml')}, ${at('cut.xml')} hold no XML element: not validated (a notice cut short, or not XML)`,
  ]);
  // More entries than the walk reads: said, not silently cut.
  const many = mkdtempSync(join(work, 'many-'));
  writeFileSync(join(many, 'a.xml'), notice);
  for (let k = 0; k < 10_000; k++) writeFileSync(join(many, `z${k}.txt`), '');
  const cut: string[] = [];
  assert.deepEqual(
    expandInputPaths(work, [basename(many)], (n) => cut.push(n)),
    [join(basename(many), 'a.xml')],
  );
  assert.equal(cut.length, 1);
  assert.match(cut[0] as string, /has more than 10,000 entries: only the notices among the first 10,000/);
});

test('a folder with links back to itself, to its parent, and a FIFO: each notice once, and no wait', () => {
  const top = mkdtempSync(join(work, 'links-'));
  const dir = join(top, 'notices');
  mkdirSync(dir);
  const notice = readFileSync(join(FIXTURES, 'valid-cn.xml'));
  writeFileSync(join(dir, 'a.xml'), notice);
  symlinkSync('.', join(dir, 'self'));
  symlinkSync('.', join(dir, 'again'));
  symlinkSync('..', join(dir, 'up'));
  symlinkSync('a.xml', join(dir, 'same.xml'));
  writeFileSync(join(top, 'b.xml'), notice);
  // Opening a FIFO to look inside waits for a writer: the walk must not open it (no writer ever comes).
  execFileSync('mkfifo', [join(dir, 'pipe.xml')]);
  // In a child with a time limit: a walk that opens the FIFO would block this process for good.
  const child = spawnSync(
    process.execPath,
    [
      '-e',
      `process.stdout.write(JSON.stringify(require(${JSON.stringify(join(__dirname, '..', '..', 'cli', 'input-files.js'))}).expandInputPaths(${JSON.stringify(top)}, ['notices'])))`,
    ],
    { encoding: 'utf8', timeout: 20_000 },
  );
  assert.equal(child.status, 0, `the walk did not finish: ${child.signal ?? child.stderr}`);
  const found = (JSON.parse(child.stdout) as string[]).sort();
  // Independent count: the notices are the two regular files; every other entry leads back to them.
  assert.deepEqual(found, [join('notices', 'a.xml'), join('notices', 'up', 'b.xml')]);
});

test('validating a folder validates the notices in it', { skip: skipUnless(SDK_DIR) }, async () => {
  const r = await run(['validate', '--local', '--sdk-dir', SDK_DIR, '--today', '2024-06-01', '.']);
  assert.doesNotMatch(r.err, /directory/);
  for (const n of ['valid-cn.xml', 'invalid-cn.xml', 'prefixes-cn.xml'])
    assert.ok(r.out.includes(n), `${n} validated:\n${r.out.slice(0, 500)}`);
  assert.doesNotMatch(r.out + r.err, /not-eforms\.xml/);
});

test('a mistyped command or option gets "did you mean"', async () => {
  const c = await run(['valdate']);
  assert.equal(c.code, 2);
  assert.match(c.err, /Did you mean 'validate'\?/);
  const o = await run(['validate', '--lcoal', 'x.xml']);
  assert.equal(o.code, 2);
  assert.match(o.err, /Did you mean --local\?/);
  const far = await run(['validate', '--zzzzzz', 'x.xml']);
  assert.doesNotMatch(far.err, /Did you mean/);
  assert.equal(didYouMean('sandbx', ['sandbox', 'search', 'submit']), 'sandbox');
  assert.equal(didYouMean('xyz', ['sandbox', 'search']), undefined);
});

test("a command named after an object's own members is an unknown command, not a crash", async () => {
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    const r = await run([name]);
    assert.equal(r.code, 2, name);
    assert.match(r.err, new RegExp(`^eforms: unknown command '${name}'\\.`), r.err);
    assert.doesNotMatch(r.err, /is not a function/);
  }
});
