// The output for CI, end to end through the built CLI (dist/cli.js) on the SDK's sample notices:
// - SARIF validates against the SARIF 2.1.0 JSON schema as published with Microsoft's SARIF matchers
//   (@microsoft/jest-sarif, MIT: lib/schemas/sarif-2.1.0-rtm.5.json, the schema SchemaStore serves for
//   2.1.0), checked with Ajv (draft-04, with formats);
// - it carries what GitHub code scanning reads (docs.github.com, "SARIF support for code scanning":
//   `$schema`, `version`, `runs[].tool.driver.name`, `…driver.version`, `…driver.rules[].id`, `name`,
//   `shortDescription.text`, `fullDescription.text`, `help.text`, `helpUri`, `results[].ruleId`,
//   `results[].message.text`, `results[].locations[].physicalLocation.artifactLocation.uri`,
//   `region.startLine`, and the recommended `partialFingerprints`), the tool's and the SDK's versions;
// - a notice that cannot be read is not missing: SARIF names it in a tool execution notification and
//   JSON lists it with outcome `failed` and the reason, beside the notices that were validated.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ValidateFunction } from 'ajv';
import { type CliRun, runCli } from '../support/cli-run';
import { PROJECT_ROOT, SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const NOTICES = join(SAMPLES_DIR, 'notices');
const skip = skipUnless(SDK_DIR) ?? skipUnless(NOTICES);

function sarifValidator(): ValidateFunction {
  // CommonJS packages without types for their default export: loaded as the Ajv docs show.
  const Ajv = require('ajv-draft-04') as new (
    o: object,
  ) => {
    compile(schema: object): ValidateFunction;
  };
  const addFormats = require('ajv-formats') as (ajv: unknown) => void;
  const schemaPath = join(
    PROJECT_ROOT,
    'node_modules',
    '@microsoft',
    'jest-sarif',
    'lib',
    'schemas',
    'sarif-2.1.0-rtm.5.json',
  );
  // The schema's language pattern is not valid in Unicode mode (`]?` after a group): plain regexes.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')) as object);
}

interface SarifLog {
  $schema?: string;
  version: string;
  runs: {
    tool: {
      driver: {
        name: string;
        version?: string;
        rules: {
          id: string;
          name?: string;
          shortDescription?: { text: string };
          fullDescription?: { text: string };
          help?: { text: string };
          helpUri?: string;
        }[];
      };
      extensions?: { name: string; version?: string }[];
    };
    invocations?: {
      executionSuccessful: boolean;
      toolExecutionNotifications?: {
        level?: string;
        message: { text: string };
        locations?: { physicalLocation: { artifactLocation: { uri: string } } }[];
      }[];
    }[];
    results: {
      ruleId: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[];
      partialFingerprints?: Record<string, string>;
    }[];
  }[];
}

describe('CI output of eforms validate --local', { skip }, () => {
  let work: string;
  let validate: ValidateFunction;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'cli-ci-'));
    validate = sarifValidator();
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  function run(args: string[]): Promise<CliRun> {
    const env: NodeJS.ProcessEnv = { ...process.env, EFORMS_SDK_CACHE: join(work, 'cache') };
    delete env.EFORMS_API_KEY;
    env.EFORMS_SDK_REPOSITORY = 'http://127.0.0.1:9/maven2';
    return runCli(['validate', '--local', '--sdk-dir', SDK_DIR, '--today', '2024-06-01', ...args], {
      env,
      cwd: NOTICES,
    });
  }

  const files = ['INVALID_cn_24_empty.xml', 'no-such-notice.xml', 'cn_24_minimal.xml'];

  test('the schema check can fail: a log without runs, a result without a message', () => {
    assert.equal(validate({ version: '2.1.0' }), false);
    const bad = {
      version: '2.1.0',
      runs: [{ tool: { driver: { name: 'x' } }, results: [{ ruleId: 'r', locations: [] }] }],
    };
    assert.equal(validate(bad), false);
  });

  test('SARIF: valid 2.1.0, with what code scanning reads, and the unreadable notice as a notification', async () => {
    const r = await run(['--format', 'sarif', ...files]);
    assert.equal(r.code, 2, r.stderr);
    const log = JSON.parse(r.stdout) as SarifLog;
    assert.ok(validate(log), JSON.stringify(validate.errors, null, 1));
    assert.equal(log.version, '2.1.0');
    assert.ok(log.$schema);
    assert.equal(log.runs.length, 1);
    const run0 = log.runs[0] as SarifLog['runs'][number];
    const driver = run0.tool.driver;
    assert.equal(driver.name, 'eforms');
    assert.ok(driver.version, 'the tool version');
    assert.deepEqual(
      run0.tool.extensions?.map((x) => [x.name, x.version]),
      [['eForms SDK', '1.15.1']],
    );
    assert.ok(run0.results.length > 10);
    const ids = new Set(driver.rules.map((x) => x.id));
    for (const res of run0.results) {
      assert.ok(ids.has(res.ruleId), res.ruleId);
      assert.ok(res.message.text.length > 0);
      const loc = res.locations[0]?.physicalLocation;
      assert.ok(
        loc?.artifactLocation.uri === 'INVALID_cn_24_empty.xml' ||
          loc?.artifactLocation.uri === 'cn_24_minimal.xml',
      );
      assert.ok((loc?.region.startLine ?? 0) >= 1);
      assert.ok(Object.values(res.partialFingerprints ?? {}).every((v) => v.length > 0));
      assert.ok(Object.keys(res.partialFingerprints ?? {}).length > 0);
    }
    for (const rule of driver.rules) {
      assert.ok(rule.name, rule.id);
      assert.ok(rule.shortDescription?.text, rule.id);
      assert.ok(rule.fullDescription?.text, rule.id);
      assert.ok(rule.help?.text, rule.id);
      // One full stop between sentences, never two (a message's own and the description's); the
      // Schematron test a full description ends with may well hold `..`.
      const prose = (rule.fullDescription?.text ?? '').split(' Schematron test: ')[0];
      for (const text of [rule.shortDescription?.text, prose, rule.help?.text])
        assert.doesNotMatch(text ?? '', /(?<!\.)\.\.(?!\.)/, rule.id);
      // The short description is a sentence, never the XPath test (a local check may name an element).
      assert.doesNotMatch(rule.shortDescription?.text ?? '', /count\(|normalize-space\(|\) [=>] /, rule.id);
      if (/^BR-[A-Z]+-\d{5}-\d{4}$/.test(rule.id))
        assert.equal(
          rule.helpUri,
          `https://docs.ted.europa.eu/eforms/latest/reference/business-rules/index.html#${rule.id}`,
        );
    }
    const inv = run0.invocations?.[0];
    assert.equal(inv?.executionSuccessful, false);
    const notes = inv?.toolExecutionNotifications ?? [];
    assert.equal(notes.length, 1);
    assert.equal(notes[0]?.locations?.[0]?.physicalLocation.artifactLocation.uri, 'no-such-notice.xml');
    assert.match(notes[0]?.message.text ?? '', /no-such-notice\.xml/);
  });

  test('JSON: every file given, in order, with its outcome', async () => {
    const r = await run(['--format', 'json', ...files]);
    assert.equal(r.code, 2, r.stderr);
    const log = JSON.parse(r.stdout) as {
      tool: { name: string; version: string };
      files: {
        file: string;
        outcome: string;
        error?: string;
        sdkVersion?: string;
        errors: number;
        findings: unknown[];
      }[];
    };
    assert.equal(log.tool.name, 'eforms');
    assert.deepEqual(
      log.files.map((f) => [f.file, f.outcome]),
      [
        ['INVALID_cn_24_empty.xml', 'validated'],
        ['no-such-notice.xml', 'failed'],
        ['cn_24_minimal.xml', 'validated'],
      ],
    );
    const missing = log.files[1];
    assert.ok(missing?.error && missing.error.length > 0);
    assert.deepEqual(missing?.findings, []);
    const invalid = log.files[0];
    assert.equal(invalid?.sdkVersion, '1.15.1');
    assert.ok((invalid?.errors ?? 0) > 0 && invalid?.findings.length === (invalid?.findings.length ?? -1));
  });

  test('a single unreadable notice: SARIF still comes, valid, with the notification', async () => {
    const r = await run(['--format', 'sarif', 'no-such-notice.xml']);
    assert.equal(r.code, 2, r.stderr);
    const log = JSON.parse(r.stdout) as SarifLog;
    assert.ok(validate(log), JSON.stringify(validate.errors, null, 1));
    assert.equal(log.runs[0]?.results.length, 0);
    assert.equal(log.runs[0]?.invocations?.[0]?.toolExecutionNotifications?.length, 1);
  });
});
