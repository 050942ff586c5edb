// The emulated CVS rules against the official eForms SDK examples and their official SVRL reports
// (read from ../shared at test time, skipped when absent): valid examples have no ERROR, INVALID ones
// fail, and every assertion we implement is reported exactly where the official rules report it.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ruleIds } from '../../sandbox/cvs/rules';
import { runCvsValidation } from '../../sandbox/cvs/validator';
import { parseSvrlStrict } from '../support/sandbox-harness';
import { SAMPLES_DIR, skipUnless } from '../support/shared-data';

const NOTICES = join(SAMPLES_DIR, 'notices');
const REPORTS = join(SAMPLES_DIR, 'reports');
const skip = skipUnless(NOTICES);
const samples = skip ? [] : readdirSync(NOTICES).filter((f) => f.endsWith('.xml'));

/** The official examples all declare 1.15; the INVALID ones may lack cbc:CustomizationID, so say it. */
function validate(file: string, mode = 'static') {
  const r = runCvsValidation(readFileSync(join(NOTICES, file)), {
    eFormsSdkVersion: '1.15',
    validationMode: mode,
  });
  assert.ok(r.ok, `${file}: ${r.ok ? '' : r.message}`);
  return { ...r, report: parseSvrlStrict(r.svrl) };
}

describe('CVS emulation against the official SDK examples', { skip }, () => {
  it('finds the examples', () => {
    assert.ok(samples.some((f) => !f.startsWith('INVALID_')));
    assert.ok(samples.includes('INVALID_cn_24_empty.xml'));
  });

  it('reports no ERROR for the valid examples in static mode, as the official rules', () => {
    for (const f of samples.filter((s) => !s.startsWith('INVALID_'))) {
      const r = validate(f);
      const errors = r.report.asserts.filter((a) => a.role === 'ERROR');
      assert.deepEqual(
        errors.map((a) => `${a.id} ${a.location}`),
        [],
        f,
      );
      assert.equal(r.errors, 0, f);
    }
  });

  it('reports errors for every INVALID_*_empty example', () => {
    const empty = samples.filter((f) => /^INVALID_.*_empty\.xml$/.test(f));
    assert.ok(empty.length > 0);
    for (const f of empty) {
      const r = validate(f);
      assert.ok(r.errors > 0, f);
      assert.equal(r.errors, r.report.asserts.filter((a) => a.role === 'ERROR').length, f);
    }
  });

  it('asks for a version when an example has no cbc:CustomizationID and none is requested', () => {
    const r = runCvsValidation(readFileSync(join(NOTICES, 'INVALID_cn_24_empty.xml')), {});
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, /CustomizationID/);
  });

  it('reports each implemented SDK rule exactly where the official report does', {
    skip: skipUnless(REPORTS),
  }, () => {
    // Ids ending in -09xx are ours: the official rules have no counterpart to compare with.
    const ours = new Set(ruleIds().filter((id) => !/-09\d\d$/.test(id)));
    let compared = 0;
    for (const f of samples) {
      const reportFile = join(REPORTS, f.replace(/\.xml$/, '.svrl'));
      if (!existsSync(reportFile)) continue;
      const official = parseSvrlStrict(readFileSync(reportFile, 'utf8'))
        .asserts.filter((a) => ours.has(a.id))
        .map((a) => `${a.role} ${a.id} ${a.location} ${a.flag ?? ''}`)
        .sort();
      const emulated = validate(f)
        .report.asserts.filter((a) => ours.has(a.id))
        .map((a) => `${a.role} ${a.id} ${a.location} ${a.flag ?? ''}`)
        .sort();
      assert.deepEqual(emulated, official, f);
      compared += official.length;
    }
    // The comparison must not pass vacuously.
    assert.ok(compared >= 50, `only ${compared} official assertions compared`);
  });

  it('names the missing child as the official report does', { skip: skipUnless(REPORTS) }, () => {
    const official = parseSvrlStrict(readFileSync(join(REPORTS, 'INVALID_cn_24_empty.svrl'), 'utf8'));
    const emulated = validate('INVALID_cn_24_empty.xml').report;
    const refs = (asserts: typeof official.asserts) =>
      new Map(
        asserts
          .filter((a) => a.diagnostics.length > 0 && !/-09\d\d$/.test(a.id))
          .map((a) => [a.id, a.diagnostics]),
      );
    const theirs = refs(official.asserts);
    const mine = refs(emulated.asserts);
    assert.ok(mine.size >= 10);
    for (const [id, diagnostics] of mine) assert.deepEqual(diagnostics, theirs.get(id), id);
    assert.equal(emulated.phase, official.phase);
  });

  it('validates the 100-lot example', () => {
    const r = validate('cn_24_maximal_100_lots.xml');
    assert.equal(r.errors, 0);
    assert.ok(r.report.firedRules > 100);
  });
});
