// The order of the failures within a pattern: rule by rule, in the order the pattern lists its rules, and
// each rule's nodes in document order (a node belongs to the first rule that selects it). That is the
// order of the official reports of the SDK samples: their `svrl:fired-rule` entries follow the rules, not
// the document (official-reports.test.ts compares the whole sequence with them). Checked here on every
// sample notice and on generated notices whose lots repeat, where a pattern's failures come from many
// rules and rule order and document order differ. The truth is read independently of the engine: each
// assert's rule is counted from the raw text of its `.sch` file (one pattern a file, assert ids unique
// in the release), and each node's place is its offset in the text (f.node.start, checked against an
// independent parser by failure-nodes.test.ts).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadRuleSet } from '../../core/schematron';
import { contractNotice } from '../bench/rules-scaling-bench';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDK_DIR) ?? skipUnless(join(SAMPLES_DIR, 'notices'));
const NOTICES = join(SAMPLES_DIR, 'notices');

/** The failures of each pattern, read from the SVRL text's active-pattern markers (same order). */
function perPattern<T>(svrl: string, failures: T[]): T[][] {
  const out: T[][] = [];
  let next = 0;
  for (const part of svrl.split('<svrl:active-pattern').slice(1)) {
    const n = part.match(/<svrl:(failed-assert|successful-report)\b/g)?.length ?? 0;
    out.push(failures.slice(next, next + n));
    next += n;
  }
  assert.equal(next, failures.length, 'every failure belongs to a pattern');
  return out;
}

/** Assert id → the place of its rule in its file, counted from the `.sch` text. */
function rulePlaces(): Map<string, number> {
  const dir = join(SDK_DIR, 'schematrons', 'static');
  const places = new Map<string, number>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.sch'))) {
    let rule = -1;
    for (const m of readFileSync(join(dir, file), 'utf8').matchAll(
      /<rule\b|<(?:assert|report)\b[^>]*\bid="([^"]+)"/g,
    )) {
      if (m[1] === undefined) rule++;
      else {
        assert.ok(!places.has(m[1]), `assert id ${m[1]} is unique in the release`);
        places.set(m[1], rule);
      }
    }
  }
  return places;
}

describe('failures of a pattern come rule by rule, each rule in document order', { skip }, () => {
  const subType = (text: string) => /<cbc:SubTypeCode\b[^>]*>\s*([^<\s]+)/.exec(text)?.[1] ?? '16';
  const notices: [string, string][] = skip
    ? []
    : readdirSync(NOTICES)
        .filter((f) => f.endsWith('.xml'))
        .map((f) => [f, readFileSync(join(NOTICES, f), 'utf8')]);
  if (!skip) {
    // Faulty lots repeated: every copy breaks the same rules, in rules of one pattern that alternate.
    const maximal = readFileSync(join(NOTICES, 'cn_24_maximal.xml'), 'utf8');
    const broken = maximal
      .replace(/<cbc:EndDate>/g, '<cbc:EndDate>x')
      .replace(/listName="cpv"/g, 'listName="cpvx"');
    notices.push(['cn_24_maximal, 30 broken lots', contractNotice(broken, 30)]);
  }
  const places = skip ? new Map<string, number>() : rulePlaces();
  // Patterns whose failures would come in another order if sorted by node: the cases that tell the
  // two orders apart.
  let notInDocumentOrder = 0;
  for (const [name, text] of notices) {
    test(name, async () => {
      const rules = await loadRuleSet({
        sdkDir: SDK_DIR,
        sdkVersion: '1.15.1',
        phase: `eforms-${subType(text)}`,
        mode: 'static',
      });
      const r = rules.evaluate(text, { today: '2024-01-01' });
      for (const list of perPattern(r.svrl, r.failures)) {
        const at = list.map((f) => {
          const rule = places.get(f.id);
          assert.ok(rule !== undefined, `${f.id} is an assert of the release`);
          return { rule, start: f.node?.start ?? -1, f };
        });
        for (let i = 1; i < at.length; i++) {
          const [a, b] = [at[i - 1], at[i]];
          assert.ok(
            a.rule < b.rule || (a.rule === b.rule && a.start <= b.start),
            `${name}: ${b.f.id} at ${b.f.location} (rule ${b.rule}) after ${a.f.id} at ${a.f.location} (rule ${a.rule})`,
          );
        }
        if (at.some((x, i) => i > 0 && x.start < at[i - 1].start)) notInDocumentOrder++;
      }
    });
  }
  test('some patterns put a later node first: rule order and document order differ there', { skip }, () => {
    assert.ok(notInDocumentOrder > 0);
  });
});
