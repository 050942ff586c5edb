// Every message a buyer reads is a sentence, not XPath. The SDK releases in ../shared lack
// `rule_<lang>.xml` (as many real copies do), so each message of the SDK's rules is composed from the
// assert's shape and the SDK's labels (core/authoring/rule-message.ts). Over every official example
// notice and every real notice of ../shared/real-notices/ (with faulty variants: elements removed or
// emptied, so that rules fail), run with its own release and completed as the editor and the CLI
// complete them, no message may show XPath syntax or the rule's id. The truth for the labels is the
// SDK's translation files, read here with no project code.
//
// "Shows XPath syntax" (xpathSyntaxIn below), outside single-quoted values ('neg-w-cal', a pattern):
//   - a prefixed name (`cbc:ID`, `efac:Company`): a lower-case word, `:`, a letter;
//   - `::` (an axis), `[` or `]` (a predicate), `()` (a call without arguments);
//   - a path's own slashes: `//`, `/*`, `/@`, `./`, `../`, or a `/` that opens a word (`/cn…`); a slash
//     between two words stays allowed, labels use it ("Notice identifier/version");
//   - `@name` (an attribute step) and `$name` (a variable);
//   - a comparison: `=`, `!=`, `<`, `>`;
//   - a call: a lower-case letter directly followed by `(` (`normalize-space(`, `count(`, `not(`).
// Reads ../shared; writes nothing.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { completeFindings } from '../../core/authoring/finding-completion';
import { sdkKnowledge } from '../../core/authoring/sdk-knowledge';
import type { Finding } from '../../core/findings';
import { indexXml } from '../../core/notice';
import { loadRuleSet, phaseFor, ruleLayout } from '../../core/schematron';
import { mapSvrl } from '../../core/svrl/mapping';
import { parseSvrl } from '../../core/svrl/report';
import { noticeSubTypeOf } from '../../core/validation/local-validator';
import { mulberry32, variant } from '../support/notice-variants';
import { REAL_DIR, REFERENCE_NOW, realNotices, releaseFor, SDKS_DIR } from '../support/real-notices';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

/** The XPath syntax a message shows outside its quoted values, or [] (see the definition above). */
function xpathSyntaxIn(message: string): string[] {
  const bare = message.replace(/'[^']*'/g, "''");
  const found: string[] = [];
  const checks: [string, RegExp][] = [
    ['prefixed name', /\b[a-z][a-z0-9]*:[A-Za-z_]/],
    ['axis', /::/],
    ['predicate', /[[\]]/],
    ['empty call', /\(\)/],
    ['path slash', /\/\/|\/\*|\/@|\.\/|(^|[\s(])\/[A-Za-z*]/],
    ['attribute step', /@[A-Za-z]/],
    ['variable', /\$[A-Za-z]/],
    ['comparison', /!=|[=<>]/],
    ['call', /[a-z]\(/],
  ];
  for (const [what, re] of checks) {
    const m = re.exec(bare);
    if (m) found.push(`${what} at "${bare.slice(Math.max(0, m.index - 20), m.index + 20)}"`);
  }
  return found;
}

/** Findings of the SDK's rules on a notice, completed as the editor and the CLI complete them. */
async function findingsOf(text: string, sdkDir: string, version: string, now: string): Promise<Finding[]> {
  const index = indexXml(text);
  const subtype = noticeSubTypeOf(index);
  // A variant without its subtype selects no phase (from 1.10 on): the validator reports that instead.
  if (subtype === undefined && ruleLayout(sdkDir, 'static').layout !== 'no-phases') return [];
  const { phase } = phaseFor(sdkDir, 'static', subtype ?? '');
  const rules = await loadRuleSet({ sdkDir, sdkVersion: version, phase, mode: 'static' });
  const report = rules.evaluate(index, { now });
  const mapped = mapSvrl(index, parseSvrl(report.svrl)).map(
    (f): Finding => ({ ...f, source: 'sdk', sdkVersion: version }),
  );
  return completeFindings(mapped, { index, sdk: sdkKnowledge(sdkDir, version), language: 'en' });
}

function problemsOf(findings: Finding[], where: string): string[] {
  const out: string[] = [];
  for (const f of findings) {
    const shown = xpathSyntaxIn(f.message);
    if (shown.length > 0) out.push(`${where} ${f.id}: ${f.message} — ${shown.join('; ')}`);
    if (f.message.includes(f.id)) out.push(`${where} ${f.id}: the message names its rule: ${f.message}`);
    // The rule and its test are kept beside the message, for those who want them.
    if (
      f.test &&
      !f.related?.some((r) => r.message.includes(f.id) && r.message.includes(f.test?.slice(0, 40) ?? ''))
    )
      out.push(`${where} ${f.id}: no related place carries the rule and its test`);
  }
  return out;
}

/** `field|name|BT-105-Procedure` → label, read from the SDK's translation file with a plain scan. */
function translations(sdkDir: string, file: string): Map<string, string> {
  const text = readFileSync(join(sdkDir, 'translations', file), 'utf8');
  const out = new Map<string, string>();
  for (const m of text.matchAll(/<entry key="([^"]+)">([^<]*)<\/entry>/g))
    out.set(m[1] as string, m[2] as string);
  return out;
}

describe('the definition of XPath syntax in a message', () => {
  test('flags the messages users met, and each kind of syntax', () => {
    for (const m of [
      "Rule BR-BT-00105-0052 failed: normalize-space(.) = ('comp-dial', 'comp-tend')",
      'Rule element-not-empty failed: false()',
      'Description is mandatory — missing cbc:Description (field BT-24-Lot)',
      'Reported at /cn:ContractNotice/cac:ProcurementProjectLot[2]',
      'count(@schemeName) > 0',
      'the value of $global-org-ids',
      'ancestor::cac:Party',
    ])
      assert.notEqual(xpathSyntaxIn(m).length, 0, m);
  });

  test('lets sentences, labels and quoted values through', () => {
    for (const m of [
      "Type of procedure (BT-105) must be one of: Open ('open'), Restricted ('restricted') — 'neg-w-cal' is not one of them",
      'Notice identifier/version (BT-701) is mandatory',
      "Reference to the contract (OPT-315) must match the pattern '^CON-[0-9]{4}$' — 'CON-1' is not",
      'Notice dispatch date (BT-05) is mandatory here (this depends on: Type of procedure (BT-105))',
      'Competitive tendering (article 5(3) of Regulation 1370/2007)',
    ])
      assert.deepEqual(xpathSyntaxIn(m), [], m);
  });
});

const samplesSkip = skipUnless(SDK_DIR) ?? skipUnless(join(SAMPLES_DIR, 'notices'));

describe('messages on the official example notices (SDK 1.15.1)', { skip: samplesSkip }, () => {
  const files = samplesSkip
    ? []
    : readdirSync(join(SAMPLES_DIR, 'notices')).filter((f) => f.endsWith('.xml') && !f.includes('100_lots'));

  test('no message shows XPath syntax or the rule id, as published and with elements emptied', async () => {
    const problems: string[] = [];
    let count = 0;
    for (const file of files) {
      const text = readFileSync(join(SAMPLES_DIR, 'notices', file), 'utf8');
      const texts = [text];
      const rand = mulberry32(7);
      for (const kind of ['remove', 'empty'] as const) {
        const v = variant(text, kind, rand);
        if (v) texts.push(v.text);
      }
      for (const [i, t] of texts.entries()) {
        const findings = await findingsOf(t, SDK_DIR, '1.15.1', '2024-01-01T12:00:00Z');
        count += findings.length;
        problems.push(...problemsOf(findings, `${file}#${i}`));
      }
    }
    assert.ok(count > 200, `the notices gave ${count} findings: too few to prove anything`);
    assert.deepEqual(problems, []);
  });

  test('a code outside its list is named with the list’s labels and the value given', async () => {
    const text = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_minimal.xml'), 'utf8');
    const changed = text.replace(/(<cbc:ProcedureCode[^>]*>)[^<]*</, '$1neg-w-cal<');
    assert.notEqual(changed, text);
    const findings = await findingsOf(changed, SDK_DIR, '1.15.1', '2024-01-01T12:00:00Z');
    const f = findings.find((x) => x.id === 'BR-BT-00105-0052');
    assert.ok(f, findings.map((x) => x.id).join(', '));
    const fields = translations(SDK_DIR, 'field_en.xml');
    const codes = translations(SDK_DIR, 'code_en.xml');
    assert.ok(f.message.includes(fields.get('field|name|BT-105-Procedure') as string), f.message);
    assert.ok(f.message.includes('BT-105'), f.message);
    assert.ok(f.message.includes("'neg-w-cal'"), f.message);
    assert.ok(
      f.message.includes(codes.get('code|name|procurement-procedure-type.open') as string),
      f.message,
    );
  });

  test('a value of a million characters is quoted cut to 80, in the message and in the rules not evaluated', async () => {
    const text = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_minimal.xml'), 'utf8');
    const long = 'a'.repeat(1_000_000);
    const changed = text
      .replace(/(<cbc:ElectronicMail>)[^<]*</, `$1${long}<`)
      .replace(/(<cbc:IssueDate>)[^<]*</, `$1${long}<`);
    assert.equal(changed.length - text.length > 1_900_000, true, 'both values replaced');
    const index = indexXml(changed);
    const { phase } = phaseFor(SDK_DIR, 'static', noticeSubTypeOf(index) ?? '');
    const rules = await loadRuleSet({ sdkDir: SDK_DIR, sdkVersion: '1.15.1', phase, mode: 'static' });
    const report = rules.evaluate(index, { now: '2024-01-01T12:00:00Z' });
    const reasons = report.notEvaluated.map((n) => n.reason);
    assert.ok(
      reasons.some((r) => r.includes(`'${'a'.repeat(79)}…' is not a valid xs:date`)),
      reasons.join('\n').slice(0, 500),
    );
    assert.ok(reasons.every((r) => r.length < 1000));
    // The entry says why in fields, for each front end to word: the value, cut as in the reason.
    const invalid = report.notEvaluated.filter((n) => n.cause === 'invalid-value');
    assert.ok(invalid.length > 0);
    for (const n of invalid) {
      assert.equal(n.value, `${'a'.repeat(79)}…`);
      assert.equal(n.type, 'xs:date');
      assert.ok(n.location?.startsWith('/'), n.location);
    }
    const findings = await findingsOf(changed, SDK_DIR, '1.15.1', '2024-01-01T12:00:00Z');
    const email = findings.find((f) => f.id === 'BR-BT-00506-0052');
    assert.ok(email, findings.map((x) => x.id).join(', '));
    assert.ok(email.message.includes(` — '${'a'.repeat(79)}…' is not`), email.message.slice(0, 300));
    // The length rule still counts the whole value.
    const length = findings.find((f) => f.message.includes('at most') && f.message.includes('1000000'));
    assert.ok(length, findings.map((x) => x.message.slice(0, 120)).join('\n'));
    assert.ok(findings.every((f) => f.message.length < 1000));
  });

  test('two dates in the wrong order: the sentence names both fields and the order', async () => {
    const text = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_minimal.xml'), 'utf8');
    // The deadline for tenders (BT-131) moved before the dispatch date (BT-05, 2019-11-21).
    const changed = text.replace(
      '<cbc:EndDate>2020-02-04+02:00</cbc:EndDate>',
      '<cbc:EndDate>2019-10-04+02:00</cbc:EndDate>',
    );
    assert.notEqual(changed, text);
    const findings = await findingsOf(changed, SDK_DIR, '1.15.1', '2019-01-01T12:00:00Z');
    const f = findings.find((x) => x.id === 'BR-BT-00131-0151');
    assert.ok(f, findings.map((x) => x.id).join(', '));
    const fields = translations(SDK_DIR, 'field_en.xml');
    const deadline = fields.get('field|name|BT-131(d)-Lot') as string;
    const dispatch = (fields.get('field|name|BT-05(a)-notice') as string).toLowerCase();
    assert.ok(f.message.startsWith(`${deadline} (BT-131) must be after ${dispatch} (BT-05)`), f.message);
    assert.deepEqual(xpathSyntaxIn(f.message), []);
  });

  test('a mandatory field missing is named by its label', async () => {
    const text = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_minimal.xml'), 'utf8');
    // The lot's description (BT-24-Lot) removed.
    const lot = text.indexOf('<cac:ProcurementProject>', text.indexOf('<cac:ProcurementProjectLot'));
    const from = text.indexOf('<cbc:Description', lot);
    const to = text.indexOf('</cbc:Description>', from) + '</cbc:Description>'.length;
    const changed = text.slice(0, from) + text.slice(to);
    const findings = await findingsOf(changed, SDK_DIR, '1.15.1', '2024-01-01T12:00:00Z');
    const f = findings.find((x) => x.field === 'BT-24-Lot');
    assert.ok(f, findings.map((x) => `${x.id} ${x.field}`).join(', '));
    const label = translations(SDK_DIR, 'field_en.xml').get('field|name|BT-24-Lot') as string;
    assert.equal(f.message, `${label} (BT-24) is mandatory`);
  });
});

const realSkip = skipUnless(join(REAL_DIR, 'index.tsv')) ?? skipUnless(SDKS_DIR);

describe('messages on the real notices, each with its own release', { skip: realSkip }, () => {
  test('no message shows XPath syntax or the rule id on faulty variants', async () => {
    const problems: string[] = [];
    let count = 0;
    for (const n of realNotices()) {
      const release = releaseFor(n.minor);
      assert.ok(release, n.minor);
      const text = readFileSync(n.path, 'utf8');
      const rand = mulberry32(Number(n.pubno.replace(/\D/g, '')) || 1);
      for (const kind of ['remove', 'empty', 'code'] as const) {
        const v = variant(text, kind, rand);
        if (!v) continue;
        const findings = await findingsOf(v.text, release.dir, release.version, REFERENCE_NOW);
        count += findings.length;
        problems.push(...problemsOf(findings, `${n.pubno} ${v.name}`));
      }
    }
    assert.ok(count > 20, `the variants gave ${count} findings: too few to prove anything`);
    assert.deepEqual(problems, []);
  });
});
