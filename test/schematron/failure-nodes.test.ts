// The local engine hands its failures over with their node (`SvrlAssertion.node`, plain offsets into the
// index), and the mapping places them there without reading the location back. On every SDK sample
// notice, run with the 1.15.1 static rules: each failure's node starts where the saxes-based resolver
// (test/support/independent-positions.ts) finds the failure's written location; the findings are placed
// on those nodes even when the location text is taken away; and a node that an edited text no longer
// has at that offset is not used (the location is read instead).

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { indexXml } from '../../core/notice/xml-index';
import { loadRuleSet } from '../../core/schematron';
import { mapSvrl } from '../../core/svrl/mapping';
import { parseSvrl } from '../../core/svrl/report';
import { independentResolve, independentTree } from '../support/independent-positions';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDK_DIR) ?? skipUnless(join(SAMPLES_DIR, 'reports'));

describe('local failures carry their node', { skip }, () => {
  const reports = skip ? [] : readdirSync(join(SAMPLES_DIR, 'reports')).filter((f) => f.endsWith('.svrl'));
  let compared = 0;

  for (const file of reports) {
    test(file, async () => {
      const noticePath = join(SAMPLES_DIR, 'notices', file.replace(/\.svrl$/, '.xml'));
      if (!existsSync(noticePath)) return;
      const phase = parseSvrl(readFileSync(join(SAMPLES_DIR, 'reports', file), 'utf8')).phase;
      assert.ok(phase);
      const rules = await loadRuleSet({ sdkDir: SDK_DIR, sdkVersion: '1.15.1', phase, mode: 'static' });
      const text = readFileSync(noticePath, 'utf8');
      const index = indexXml(text);
      const r = rules.evaluate(index, { today: '2024-01-01' });
      const namespaces = new Map(r.namespaces);
      const tree = independentTree(text);
      for (const f of r.failures) {
        assert.ok(f.node, `${f.id} at ${f.location} has its node`);
        const truth = independentResolve(tree, f.location, namespaces);
        if (truth === undefined) continue; // a form the independent resolver does not read (text())
        assert.ok(truth, `saxes finds ${f.location}`);
        assert.equal(f.node.start, truth.attribute ? truth.attribute.start : truth.element.start, f.location);
        compared++;
      }
      // Placed from the node: the same ranges with the location text gone.
      const report = { namespaces, assertions: r.failures };
      const withText = mapSvrl(index, report);
      const blind = mapSvrl(index, {
        namespaces,
        assertions: r.failures.map((f) => ({ ...f, location: '' })),
      });
      assert.deepEqual(
        blind.map((f) => [f.range, f.resolved]),
        withText.map((f) => [f.range, f.resolved]),
      );
      // The structured clone a worker answers with keeps the nodes (plain numbers).
      assert.deepEqual(structuredClone(r.failures), r.failures);
    });
  }

  test('the failures were compared', () => {
    assert.ok(reports.length === 0 || compared > 20, `${compared} failures compared`);
  });
});

describe('a node the text no longer has there is not used', () => {
  test('an edit before the node: the location is read instead', () => {
    const before = indexXml('<r><x/><y a="1"/></r>');
    const after = indexXml('<r><!-- moved --><x/><y a="1"/></r>');
    const y = before.elements[2];
    const a = {
      kind: 'failed-assert' as const,
      id: 'R',
      location: '/r/y/@a',
      role: 'ERROR',
      test: 't',
      text: 'm',
      diagnosticReferences: [],
      node: { element: 2, attribute: 0, start: y.attributes[0].start },
    };
    const [onBefore] = mapSvrl(before, { namespaces: new Map(), assertions: [a] });
    assert.equal(onBefore.range.start.character, '<r><x/><y '.length);
    const [onAfter] = mapSvrl(after, { namespaces: new Map(), assertions: [a] });
    assert.equal(onAfter.range.start.character, '<r><!-- moved --><x/><y '.length);
    // With no location to fall back on, a stale node is not guessed at: the finding goes on the root.
    const [stale] = mapSvrl(after, { namespaces: new Map(), assertions: [{ ...a, location: '' }] });
    assert.equal(stale.resolved, false);
  });
});
