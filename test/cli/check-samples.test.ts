// `eforms check --format json` on an official SDK sample and the SVRL report published beside it: the
// findings are completed as `eforms validate`'s are (rule links, nodes). The truth is the report itself
// (its failed-assert ids and locations) and the TED documentation's address scheme, not the CLI's code.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { PROJECT_ROOT, SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const CLI = join(PROJECT_ROOT, 'dist', 'cli.js');
const SAMPLE = 'INVALID_cn_24_empty';
const DOCS = 'https://docs.ted.europa.eu/eforms/latest/reference/business-rules/index.html#';

interface JsonFinding {
  id: string;
  location?: string;
  resolved?: boolean;
  node?: string;
  help?: string;
}

describe('eforms check on an SDK sample (built CLI)', { skip: skipUnless(SAMPLES_DIR) }, () => {
  test('--format json: every business rule carries its documentation link and its node', () => {
    const notice = join('notices', `${SAMPLE}.xml`);
    const svrl = join('reports', `${SAMPLE}.svrl`);
    const r = spawnSync(process.execPath, [CLI, 'check', notice, '--svrl', svrl, '--format', 'json'], {
      cwd: SAMPLES_DIR,
      encoding: 'utf8',
    });
    assert.equal(r.status, 1, r.stderr);
    const findings = JSON.parse(r.stdout) as JsonFinding[];
    // The report's failed assertions, read here with a regular expression, not with core/svrl.
    const reportIds = [
      ...readFileSync(join(SAMPLES_DIR, svrl), 'utf8').matchAll(/<svrl:failed-assert\b[^>]*\bid="([^"]+)"/g),
    ]
      .map((m) => m[1] as string)
      .sort();
    assert.deepEqual(findings.map((f) => f.id).sort(), reportIds);
    const businessRules = findings.filter((f) => /^BR-[A-Z]+-\d{5}-\d{4}$/.test(f.id));
    assert.ok(businessRules.length >= 10, `only ${businessRules.length} business rules in ${SAMPLE}`);
    for (const f of findings) {
      if (businessRules.includes(f)) assert.equal(f.help, `${DOCS}${f.id}`, f.id);
      else assert.equal(f.help, undefined, f.id);
      if (!f.resolved || !f.location) continue;
      // The node is the element the report's location ends on (or the owner of its attribute).
      const steps = f.location.split('/').filter((s) => s && !s.startsWith('@'));
      const last = (steps.at(-1) ?? '').replace(/\[.*$/, '').replace(/^.*:/, '');
      assert.equal((f.node ?? '').replace(/^.*:/, ''), last, `${f.id} at ${f.location}`);
    }
  });

  test("a report of raw keys (the SDK's own Schematron) reads in the rules' words with --sdk-dir", {
    skip: skipUnless(SDK_DIR),
  }, () => {
    const name = 'INVALID_can_24_stage-2';
    const notice = join('notices', `${name}.xml`);
    const svrl = join('reports', `${name}.svrl`);
    const reportText = readFileSync(join(SAMPLES_DIR, svrl), 'utf8');
    // The report gives keys, not sentences.
    assert.match(reportText, /<svrl:text>rule\|text\|BR-/);
    // No SDK in the cache: the report's own words, and a sentence saying how to get the rules'.
    const env = { ...process.env, EFORMS_SDK_CACHE: join(tmpdir(), `eforms-no-sdk-${process.pid}`) };
    const bare = spawnSync(process.execPath, [CLI, 'check', notice, '--svrl', svrl, '--format', 'json'], {
      cwd: SAMPLES_DIR,
      encoding: 'utf8',
      env,
    });
    assert.match(
      bare.stderr,
      /gives the rules' keys, not their sentences, and no eForms SDK is at hand: name/,
    );
    const sdkDir = dirname(SDK_DIR);
    const r = spawnSync(
      process.execPath,
      [CLI, 'check', notice, '--svrl', svrl, '--format', 'json', '--sdk-dir', sdkDir],
      { cwd: SAMPLES_DIR, encoding: 'utf8', env },
    );
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.stderr, '');
    const findings = JSON.parse(r.stdout) as (JsonFinding & { message: string })[];
    // Each failed assertion that names the field its test reads (`see="field:…"`) reads with the field's English name
    // from the SDK's translations (both read here by regular expressions), never "Rule … failed: <test>".
    const labels = readFileSync(join(SDK_DIR, 'translations', 'field_en.xml'), 'utf8');
    let checked = 0;
    for (const block of reportText.match(/<svrl:failed-assert\b[\s\S]*?<\/svrl:failed-assert>/g) ?? []) {
      const id = /\bid="([^"]+)"/.exec(block)?.[1] as string;
      const location = /\blocation="([^"]+)"/.exec(block)?.[1] as string;
      const field = /see="field:([^"]+)"/.exec(block)?.[1];
      // Only where the test reads the element the diagnostic names (the SDK's reference is sometimes
      // to another field of the rule's context than the one its test reads).
      const path = /<svrl:diagnostic-reference[\s\S]*?<svrl:text>([^<]*)<\/svrl:text>/
        .exec(block)?.[1]
        ?.trim();
      const test = /\btest="([^"]*)"/.exec(block)?.[1] ?? '';
      if (!field || !path || !test.includes(path)) continue;
      const label = new RegExp(`key="field\\|name\\|${field.replace(/[()|]/g, '\\$&')}">([^<]*)<`).exec(
        labels,
      )?.[1];
      if (!label) continue;
      const f = findings.find((x) => x.id === id && x.location === location);
      assert.ok(f, `${id} at ${location}`);
      // A name inside a sentence may start in lower case.
      assert.ok(
        f.message.toLowerCase().includes(label.toLowerCase()),
        `${id} at ${location}: '${label}' not in ${f.message}`,
      );
      checked++;
    }
    assert.ok(checked >= 3, `${checked} assertions checked`);
    assert.deepEqual(
      findings.filter((f) => /^Rule \S+ failed/.test(f.message)).map((f) => f.id),
      [],
    );
  });
});
