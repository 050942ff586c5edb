// Schematron processes each pattern's nodes in document order, whichever rule of the pattern claims
// them, so within one pattern the failures come in the order of their nodes in the text. The engine
// gathers a pattern's nodes rule by rule and merges those lists (engine.ts, documentOrder): this checks
// the merged order on every SDK sample and on generated notices whose lots and organisations repeat,
// where a pattern's nodes come from many rules in many runs. The truth is the nodes' offsets in the
// text (f.node.start, checked against an independent parser by failure-nodes.test.ts).

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

describe('failures of a pattern come in document order', { skip }, () => {
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
  let unsorted = 0;
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
        const starts = list.map((f) => f.node?.start ?? -1);
        for (let i = 1; i < starts.length; i++)
          assert.ok(
            starts[i - 1] <= starts[i],
            `${name}: ${list[i].id} at ${list[i].location} after ${list[i - 1].location}`,
          );
        // Counted: a pattern whose failures come from more than one rule out of rule order.
        if (starts.length > 1 && new Set(list.map((f) => f.id)).size > 1) unsorted++;
      }
    });
  }
  test('some patterns mix the failures of several rules', { skip }, () => {
    assert.ok(unsorted > 0);
  });
});
