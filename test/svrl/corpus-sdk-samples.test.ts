// The whole SDK sample corpus through the real command line: `eforms check notices/X.xml --svrl
// reports/X.svrl --format json` for every pair, each finding compared with the position an independent
// resolver (saxes, test/support/independent-positions.ts) gives for its location.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { countAssertions, rawAssertions, rawNamespaces, readText, samplePairs } from '../support/corpus-data';
import {
  followSteps,
  independentResolve,
  independentTree,
  lineAndCharacter,
} from '../support/independent-positions';
import { PROJECT_ROOT, SAMPLES_DIR, skipUnless } from '../support/shared-data';

const CLI = join(PROJECT_ROOT, 'dist', 'cli.js');

interface JsonItem {
  id: string;
  severity: string;
  message: string;
  location: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  resolved: boolean;
  field?: string;
  missing?: string;
}

/** Checked across the corpus, so that a resolver that silently reads nothing fails the run. */
const checked = { positions: 0, attributes: 0, missing: 0, present: 0 };

describe('eforms check on the SDK samples', { skip: skipUnless(SAMPLES_DIR) }, () => {
  const pairs = samplePairs();

  test('the CLI bundle is built (the test runner runs scripts/build.mjs first)', () => {
    assert.ok(existsSync(CLI), `${CLI} is missing: run node scripts/build.mjs`);
  });

  for (const pair of pairs) {
    test(pair.name, () => {
      const svrl = readText(pair.reportPath);
      const notice = readText(pair.noticePath);
      const r = spawnSync(
        process.execPath,
        [
          CLI,
          'check',
          relative(SAMPLES_DIR, pair.noticePath),
          '--svrl',
          relative(SAMPLES_DIR, pair.reportPath),
          '--format',
          'json',
        ],
        { cwd: SAMPLES_DIR, encoding: 'utf8' },
      );
      const raw = rawAssertions(svrl);
      const hasErrors = raw.some((a) => a.role === 'ERROR');
      assert.equal(r.status, hasErrors ? 1 : 0, `exit status; stderr: ${r.stderr}`);
      const items = JSON.parse(r.stdout) as JsonItem[];
      assert.equal(items.length, countAssertions(svrl), 'one item per assertion');
      assert.equal(raw.length, items.length);

      const namespaces = rawNamespaces(svrl);
      const root = independentTree(notice);
      // Findings come in reading order (line, then column); each assertion of the report is one of them.
      for (let k = 1; k < items.length; k++) {
        const p = items[k - 1]?.range.start;
        const q = items[k]?.range.start;
        assert.ok(
          p && q && (p.line < q.line || (p.line === q.line && p.character <= q.character)),
          'by position',
        );
      }
      const unused = [...items];
      raw.forEach((a) => {
        const at = unused.findIndex((x) => x.id === a.id && x.location === a.location);
        assert.ok(at >= 0, `an item for ${a.id} at ${a.location}`);
        const [item] = unused.splice(at, 1);
        assert.ok(item);
        const node = independentResolve(root, a.location, namespaces);
        assert.notEqual(node, undefined, `the independent resolver reads ${a.location}`);
        if (node === null) {
          assert.equal(item.resolved, false, `${a.location} is not in the notice`);
          assert.deepEqual(item.range.start, lineAndCharacter(notice, root.start));
          return;
        }
        assert.ok(node);
        assert.equal(item.resolved, true);
        const offset = node.attribute ? node.attribute.start : node.element.start;
        assert.deepEqual(item.range.start, lineAndCharacter(notice, offset), `${a.id} at ${a.location}`);
        checked.positions++;
        if (node.attribute) {
          assert.deepEqual(item.range.end, lineAndCharacter(notice, offset + node.attribute.name.length));
          checked.attributes++;
        }
        // A single reference whose path names an absent child: the item names it and its field.
        if (a.references.length === 1) {
          const ref = a.references[0];
          const child = followSteps(node.element, ref.path.split('/'), namespaces);
          const field = ref.see.replace(/^(field|node):/, '');
          assert.equal(item.field, field);
          if (child === null) {
            assert.equal(item.missing, ref.path);
            assert.ok(item.message.includes(field), `the message names the field: ${item.message}`);
            const lastStep = (ref.path.split('/').pop() as string).replace(/\[.*$/, '');
            assert.ok(item.message.includes(lastStep), `the message names ${lastStep}: ${item.message}`);
            checked.missing++;
          } else if (child) {
            assert.equal(item.missing, undefined, `${ref.path} is present`);
            checked.present++;
          }
        }
      });
    });
  }

  test('the corpus exercised positions, attributes and missing children', () => {
    assert.ok(pairs.length >= 10, 'sample pairs found');
    assert.ok(checked.positions > 200, `positions checked: ${checked.positions}`);
    assert.ok(checked.attributes > 0, `attribute positions checked: ${checked.attributes}`);
    assert.ok(checked.missing > 50, `missing children checked: ${checked.missing}`);
  });
});
