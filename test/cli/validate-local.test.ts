// `eforms validate --local` end to end: the bundled CLI (dist/cli.js) as a child process, with no key
// and no network, on the SDK's own sample notices read from ../shared. The rule ids it reports are
// checked against the official SVRL reports published with the samples (independent truth); one
// worker and two give the same answer; --format svrl writes one report per notice; every failure says
// what to do, and the exit codes are those of the CVS path.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseSvrl } from '../../core/svrl/report';
import { type CliRun, runCli } from '../support/cli-run';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const NOTICES = join(SAMPLES_DIR, 'notices');
const REPORTS = join(SAMPLES_DIR, 'reports');
const skip = skipUnless(SDK_DIR) ?? skipUnless(NOTICES);

/** Failed-assert ids of an official report, as a sorted multiset. */
function officialIds(name: string): string[] {
  return parseSvrl(readFileSync(join(REPORTS, `${name}.svrl`), 'utf8'))
    .assertions.filter((a) => a.kind === 'failed-assert')
    .map((a) => a.id)
    .sort();
}

describe('eforms validate --local', { skip }, () => {
  let work: string;
  let cache: string;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'cli-local-'));
    cache = join(work, 'cache', 'sdk');
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  function run(args: string[], extra: NodeJS.ProcessEnv = {}): Promise<CliRun> {
    const env: NodeJS.ProcessEnv = { ...process.env, EFORMS_SDK_CACHE: cache, ...extra };
    delete env.EFORMS_API_KEY;
    // A repository nobody listens on: the tests would fail rather than reach the network.
    env.EFORMS_SDK_REPOSITORY = 'http://127.0.0.1:9/maven2';
    return runCli(['validate', ...args], { env, cwd: NOTICES });
  }

  const local = ['--local', '--sdk-dir', SDK_DIR, '--today', '2024-06-01'];

  test('an invalid sample: exit 1, every rule of the official report, no key needed', async () => {
    const r = await run([...local, 'INVALID_cn_24_empty.xml', '--format', 'json']);
    assert.equal(r.code, 1, r.stderr);
    const found = flatJson<{ id: string; source: string }>(r.stdout)
      .filter((f) => f.source === 'sdk')
      .map((f) => f.id)
      .sort();
    assert.deepEqual(found, officialIds('INVALID_cn_24_empty'));
  });

  test('JSON and SARIF carry each business rule documentation link, as the editor diagnostics do', async () => {
    const json = await run([...local, 'INVALID_cn_24_empty.xml', '--format', 'json']);
    const rules = flatJson<{ id: string; help?: string }>(json.stdout).filter((f) =>
      /^BR-[A-Z]+-\d{5}-\d{4}$/.test(f.id),
    );
    assert.ok(rules.length > 0);
    for (const f of rules)
      assert.equal(
        f.help,
        `https://docs.ted.europa.eu/eforms/latest/reference/business-rules/index.html#${f.id}`,
      );
    const sarif = await run([...local, 'INVALID_cn_24_empty.xml', '--format', 'sarif']);
    const driver = (
      JSON.parse(sarif.stdout) as {
        runs: { tool: { driver: { rules: { id: string; helpUri?: string }[] } } }[];
      }
    ).runs[0]?.tool.driver;
    for (const r of driver?.rules ?? [])
      if (/^BR-/.test(r.id)) assert.match(r.helpUri ?? '', new RegExp(`#${r.id}$`));
  });

  test('a valid sample: exit 0, as the official report has no failure', async () => {
    assert.deepEqual(officialIds('cn_24_maximal'), []);
    const r = await run([...local, 'cn_24_maximal.xml']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /cn_24_maximal\.xml: no findings/);
  });

  test('two workers answer exactly as one', async () => {
    const files = [
      'INVALID_cn_24_empty.xml',
      'cn_24_minimal.xml',
      'can_24_minimal.xml',
      'INVALID_cn_24_multiple.xml',
    ];
    const one = await run([...local, '--jobs', '1', '--format', 'json', ...files]);
    // As given: a batch this small would otherwise run in one worker (usefulJobs' estimate).
    const two = await run([...local, '--jobs', '2', '--format', 'json', ...files], {
      EFORMS_JOBS_AS_GIVEN: '1',
    });
    assert.equal(one.code, two.code);
    assert.ok(one.stdout.length > 100);
    assert.deepEqual(JSON.parse(two.stdout), JSON.parse(one.stdout));
  });

  test('the JSON of a batch, written entry by entry as notices are done, is the whole document text', async () => {
    // Given in an order the workers do not follow (they group notices by rule set).
    const files = ['can_24_minimal.xml', 'INVALID_cn_24_empty.xml', 'cn_24_minimal.xml', 'missing.xml'];
    const r = await run([...local, '--format', 'json', ...files]);
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(
      doc.files.map((f: { file: string }) => f.file),
      files,
    );
    assert.equal(doc.files[3].outcome, 'failed');
    assert.ok(doc.files[1].findings.length > 0);
    assert.equal(r.stdout, `${JSON.stringify(doc, null, 2)}\n`);
  });

  test('--format svrl -o DIR: one report per notice, each an SVRL report with the findings', async () => {
    const out = join(work, 'svrl');
    const r = await run([
      ...local,
      '--format',
      'svrl',
      '-o',
      out,
      'INVALID_cn_24_empty.xml',
      'cn_24_maximal.xml',
    ]);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(readdirSync(out).sort(), ['INVALID_cn_24_empty.svrl', 'cn_24_maximal.svrl']);
    const report = parseSvrl(readFileSync(join(out, 'INVALID_cn_24_empty.svrl'), 'utf8'));
    assert.deepEqual(report.assertions.map((a) => a.id).sort(), officialIds('INVALID_cn_24_empty'));
    assert.equal(report.phase, 'eforms-16');
    assert.equal(parseSvrl(readFileSync(join(out, 'cn_24_maximal.svrl'), 'utf8')).assertions.length, 0);
  });

  test('a notice that declares no version gets the only SDK, and the output says so', async () => {
    const text = readFileSync(join(NOTICES, 'cn_24_minimal.xml'), 'utf8').replace(
      /<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/,
      '',
    );
    const file = join(work, 'no-version.xml');
    writeFileSync(file, text);
    const r = await run([...local, file]);
    assert.match(
      r.stderr,
      /declares no SDK version: validated with eForms SDK 1\.15\.1, the only one available/,
    );
  });

  test('no SDK anywhere: exit 2, naming --sdk-dir and --download, and nothing downloaded', async () => {
    const r = await run(['--local', 'cn_24_minimal.xml']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--sdk-dir DIR/);
    assert.match(r.stderr, /--download/);
    assert.doesNotMatch(r.stderr, /cn_24_minimal\.xml.*cn_24_minimal\.xml/s, 'said once');
  });

  test('--download with an unreachable repository: exit 2, saying to name a folder or connect', async () => {
    const r = await run(['--local', '--download', 'cn_24_minimal.xml']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot be downloaded .*--sdk-dir DIR, or connect/);
  });

  test('a notice with more elements than the rules can hold: exit 2, one sentence, no rule run', async () => {
    // 5,000,001 elements in 20 MB: under the 160 MB size limit, over the element limit.
    const file = join(work, 'dense.xml');
    writeFileSync(
      file,
      `<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2">${'<a/>'.repeat(5_000_000)}</ContractNotice>`,
    );
    const r = await run([...local, file, '--format', 'json']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /the SDK rules did not run: the notice validated locally is larger than 5,000,000 elements \(5,000,001 elements\), the most this tool accepts: make it smaller\./,
    );
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  });

  test('a value the rules cannot read: the rules it stopped are named with the value, in words', async () => {
    // A faulty variant of a sample: the notice's issue date is not a date, so every rule that reads it
    // as xs:date cannot run.
    const sample = readFileSync(join(NOTICES, 'cn_24_maximal.xml'), 'utf8');
    const faulty = sample.replace(/(<cbc:IssueDate>)[^<]*</, '$1tomorrow<');
    assert.notEqual(faulty, sample);
    const file = join(work, 'issue-date.xml');
    writeFileSync(file, faulty);
    const r = await run([...local, file]);
    assert.equal(r.code, 1, r.stderr);
    const line = r.stderr.split('\n').find((l) => l.includes('could not be checked'));
    assert.ok(line, r.stderr);
    const m = /(\d+) rules could not be checked here: 'tomorrow' is not a date \(([^)]*)\)\.$/.exec(line);
    assert.ok(m, line);
    // No XPath error code or path: a buyer reads this.
    assert.doesNotMatch(line, /FORG|XPTY|\/cn:/);
    // Each rule named reads cbc:IssueDate as xs:date in the SDK's own Schematron (read here by regex).
    const sch = readdirSync(join(SDK_DIR, 'schematrons', 'static'))
      .filter((f) => f.endsWith('.sch'))
      .map((f) => readFileSync(join(SDK_DIR, 'schematrons', 'static', f), 'utf8'))
      .join('\n');
    const named = (m[2] as string).split(', ');
    assert.ok(named.length >= 1);
    for (const id of named) {
      const test = new RegExp(`<assert id="${id}"[^>]*test="([^"]*)"`).exec(sch)?.[1];
      assert.ok(test?.includes('cbc:IssueDate/xs:date(text())'), `${id}: ${test?.slice(0, 200)}`);
    }
  });

  test('usage errors: exit 2', async () => {
    for (const args of [
      [...local, '--today', '2024-13-01', 'cn_24_minimal.xml'],
      ['--jobs', '2', 'cn_24_minimal.xml'],
      [...local, '--sdk', '1.x', 'cn_24_minimal.xml'],
      [...local, '--format', 'svrl', 'cn_24_minimal.xml', 'cn_24_open.xml'],
    ]) {
      const r = await run(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, /eforms validate/);
    }
  });
});

/** The findings of `validate --format json` ({"files": [{file, findings}]}), each with its file. */
function flatJson<T>(stdout: string): (T & { file: string })[] {
  const log = JSON.parse(stdout) as { files: { file: string; findings: T[] }[] };
  return log.files.flatMap((f) => f.findings.map((x) => ({ ...x, file: f.file })));
}
