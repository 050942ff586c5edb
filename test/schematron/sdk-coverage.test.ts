// Every rule of every release in ../shared/eforms-sdk/ is one the engine evaluates: each release's
// static and dynamic rules, every pattern (`#ALL`), compiled, and no rule named in `notEvaluated`; and
// every literal regular expression of the rules (matches, replace, tokenize) translates. The patterns
// that fail only because the regex translator lacks a construct (XPath 3 `(?:…)` and multi-character
// escapes inside a class, which Saxon-HE accepts) are listed below as pending the linear-time regex
// engine: once it lands, this test fails until the list is emptied. Also: a release whose schematron
// includes a file that is missing gives one RuleSetError naming that file (a generated broken copy in
// a temp dir). Reads ../shared; writes only to a temporary folder.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadRuleSet, RuleSetError, ruleLayout } from '../../core/schematron';
import { clearRuleSetMemory, prepare } from '../../core/schematron/engine';
import type { Ast } from '../../core/xpath/parser';
import { compileXsdRegex } from '../../core/xpath/xsd-regex';
import { SHARED_DIR, skipUnless } from '../support/shared-data';

const SDKS_DIR = join(SHARED_DIR, 'eforms-sdk');
const skip = skipUnless(SDKS_DIR);
const releases = skip ? [] : readdirSync(SDKS_DIR).filter((v) => /^\d+\.\d+\.\d+$/.test(v));

function walk(a: unknown, visit: (n: Ast) => void): void {
  if (!a || typeof a !== 'object') return;
  if (Array.isArray(a)) {
    for (const x of a) walk(x, visit);
    return;
  }
  if ('t' in a) visit(a as Ast);
  for (const v of Object.values(a)) walk(v, visit);
}

const temp = mkdtempSync(join(tmpdir(), 'eforms-sdk-coverage-'));
after(() => rmSync(temp, { recursive: true, force: true }));

describe('every rule of every release is evaluated', { skip }, () => {
  test('the folder holds several releases', () => {
    assert.ok(releases.length >= 2, releases.join(', '));
  });

  for (const v of releases) {
    test(`SDK ${v} (${ruleLayout(join(SDKS_DIR, v), 'static').layout})`, async () => {
      const failing = new Set<string>();
      for (const mode of ['static', 'dynamic'] as const) {
        const key = { sdkDir: join(SDKS_DIR, v), sdkVersion: v, phase: '#ALL', mode };
        const rules = await loadRuleSet(key);
        assert.ok(rules.assertCount > 100, `${mode}: ${rules.assertCount} asserts`);
        const r = rules.evaluate('<Empty/>', { today: '2026-11-24' });
        assert.deepEqual(r.notEvaluated, [], `${mode}: every expression compiles`);
        for (const parsed of Object.values(prepare(key).parsed)) {
          assert.ok('ast' in parsed, `${mode}: every expression parses`);
          walk(parsed.ast, (n) => {
            if (n.t !== 'call' || !['matches', 'replace', 'tokenize'].includes(n.fn)) return;
            const pattern = n.args[1];
            const flags = n.fn === 'replace' ? n.args[3] : n.args[2];
            if (pattern?.t !== 'str' || (flags !== undefined && flags.t !== 'str')) return;
            try {
              // Linear time: every SDK pattern runs on RE2, none on a backtracking fallback.
              if (compileXsdRegex(pattern.v, flags?.t === 'str' ? flags.v : '').engine !== 're2')
                failing.add(`${pattern.v} (not on the linear-time engine)`);
            } catch (e) {
              failing.add(`${pattern.v} (${(e as Error).message})`);
            }
          });
        }
      }
      clearRuleSetMemory();
      assert.deepEqual([...failing].sort(), [], 'every regex compiles to the linear-time engine');
    });
  }
});

describe('a release that includes a missing file', { skip }, () => {
  test('gives one RuleSetError naming the file (a broken copy of 1.9.5 in a temp dir)', async () => {
    const src = join(SDKS_DIR, '1.9.5', 'schematrons', 'static');
    const dir = join(temp, 'broken');
    mkdirSync(join(dir, 'schematrons', 'static'), { recursive: true });
    for (const f of readdirSync(src)) {
      let text = readFileSync(join(src, f), 'utf8');
      // What the release as published did: include validation-stage-2a.sch, which is absent here.
      if (f === 'complete-validation.sch')
        text = text.replace(
          '<include href="validation-stage-2b.sch"/>',
          '<include href="validation-stage-2a.sch"/><include href="validation-stage-2b.sch"/>',
        );
      writeFileSync(join(dir, 'schematrons', 'static', f), text);
    }
    await assert.rejects(
      loadRuleSet({ sdkDir: dir, sdkVersion: '1.9.5', phase: '#ALL', mode: 'static' }),
      (e: unknown) => {
        assert.ok(e instanceof RuleSetError);
        assert.equal(e.kind, 'missing-include');
        assert.equal(e.fields.file, join(dir, 'schematrons', 'static', 'validation-stage-2a.sch'));
        assert.equal(e.fields.path, join(dir, 'schematrons', 'static', 'complete-validation.sch'));
        assert.match(e.message, /validation-stage-2a\.sch/);
        return true;
      },
    );
  });
});
