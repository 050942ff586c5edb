// `eforms check --format json` on an official SDK sample and the SVRL report published beside it: the
// findings are completed as `eforms validate`'s are (rule links, nodes). The truth is the report itself
// (its failed-assert ids and locations) and the TED documentation's address scheme, not the CLI's code.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { PROJECT_ROOT, SAMPLES_DIR, skipUnless } from '../support/shared-data';

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
});
