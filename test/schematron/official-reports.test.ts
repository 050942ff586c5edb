// The engine against the official reports: on every SDK sample notice, the failed asserts of the 1.15.1
// static rules, run locally, equal those of the published SVRL report as a multiset of (rule id, role,
// node), and come in the report's order. The published reports are older than the 1.15.1 rules for a few rules; there the local engine
// finds more, never less, and each such difference is listed below with its reason. Reads ../shared.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadRuleSet } from '../../core/schematron';
import { parseSvrl } from '../../core/svrl/report';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDK_DIR) ?? skipUnless(join(SAMPLES_DIR, 'reports'));

/** Rules whose 1.15.1 form is stricter than the one the published reports were made with. */
const NEWER_THAN_REPORTS: { id: RegExp; reason: string }[] = [
  {
    id: /^BR-BT-13713-0123$/,
    reason: '1.15.1 requires a Result Lot Identifier on every LotResult; the reports predate the rule',
  },
  {
    id: /-Scheme_MA$/,
    reason: '1.15.1 makes the schemeName attribute of identifiers mandatory; the reports predate it',
  },
  // The issue also names BR-BT-00026-0605/0607/0609; on these samples local and official agree on them,
  // so they need no entry here.
];

const key = (id: string, role: string, location: string): string => `${id}\u0000${role}\u0000${location}`;

describe('SDK 1.15.1 static rules vs the official reports', { skip }, () => {
  const reports = skip ? [] : readdirSync(join(SAMPLES_DIR, 'reports')).filter((f) => f.endsWith('.svrl'));

  test('every sample has a report to compare with', () => {
    assert.ok(reports.length >= 10, `only ${reports.length} reports`);
  });

  for (const file of reports) {
    test(file, async () => {
      const noticePath = join(SAMPLES_DIR, 'notices', file.replace(/\.svrl$/, '.xml'));
      if (!existsSync(noticePath)) return;
      const official = parseSvrl(readFileSync(join(SAMPLES_DIR, 'reports', file), 'utf8'));
      assert.ok(official.phase, 'the report names its phase');
      const rules = await loadRuleSet({
        sdkDir: SDK_DIR,
        sdkVersion: '1.15.1',
        phase: official.phase,
        mode: 'static',
      });
      const local = rules.evaluate(readFileSync(noticePath, 'utf8'), { today: '2024-01-01' });
      assert.deepEqual(local.notEvaluated, [], 'every rule of the phase is evaluated');
      assert.ok(local.assertsEvaluated > 0);

      const counts = new Map<string, number>();
      for (const a of official.assertions) {
        if (a.kind !== 'failed-assert') continue;
        const k = key(a.id, a.role, a.location);
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      for (const f of local.failures) {
        const k = key(f.id, f.role, f.location);
        counts.set(k, (counts.get(k) ?? 0) - 1);
      }
      const missing: string[] = [];
      const unexplained: string[] = [];
      for (const [k, n] of counts) {
        if (n === 0) continue;
        const [id, , location] = k.split('\u0000');
        if (n > 0) missing.push(`${id} at ${location}`);
        else if (!NEWER_THAN_REPORTS.some((x) => x.id.test(id))) unexplained.push(`${id} at ${location}`);
      }
      assert.deepEqual(missing, [], 'the local engine finds everything the official report finds');
      assert.deepEqual(unexplained, [], 'every extra finding is a listed rule newer than the reports');
      // And in the same order, once the listed newer rules are left out: pattern by pattern, rule by
      // rule, each rule's nodes in document order (failure-order.test.ts).
      const reported = official.assertions.filter((a) => a.kind === 'failed-assert');
      const inReport = new Set(reported.map((a) => key(a.id, a.role, a.location)));
      assert.deepEqual(
        local.failures
          .filter((f) => inReport.has(key(f.id, f.role, f.location)))
          .map((f) => `${f.id} at ${f.location}`),
        reported.map((a) => `${a.id} at ${a.location}`),
        'the failures come in the order of the official report',
      );
    });
  }

  test('the SVRL the engine writes reads back as the same failures', async () => {
    const notice = join(SAMPLES_DIR, 'notices', 'INVALID_cn_24_empty.xml');
    const rules = await loadRuleSet({
      sdkDir: SDK_DIR,
      sdkVersion: '1.15.1',
      phase: 'eforms-16',
      mode: 'static',
    });
    const report = rules.evaluate(readFileSync(notice, 'utf8'), { today: '2024-01-01' });
    const parsed = parseSvrl(report.svrl);
    assert.equal(parsed.phase, 'eforms-16');
    assert.equal(
      parsed.namespaces.get('cn'),
      'urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2',
    );
    // The text carries everything but the node, which only the engine's own failures have.
    assert.ok(report.failures.every((f) => f.node !== undefined));
    assert.deepEqual(
      parsed.assertions,
      report.failures.map(({ node: _node, ...written }) => written),
    );
    const withDiag = report.failures.find((f) => f.id === 'ND-ProcedureTenderingProcess-16');
    assert.deepEqual(withDiag?.diagnosticReferences, [
      {
        diagnostic: 'ND-ProcedureTenderingProcess',
        see: 'node:ND-ProcedureTenderingProcess',
        path: 'cac:TenderingProcess',
      },
    ]);
  });
});
