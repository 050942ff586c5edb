// The engine's location mode (core/xpath/locate.ts) against an independent resolver: for every element
// and attribute of the SDK sample notices, a location is written in each form SVRL writers use
// (`/p:A[1]/p:B[2]/@c`, `/*:A[namespace-uri()='…'][1]`, `/Q{uri}A[1]`, `[local-name()='…']`), and the
// node the engine selects must start where the saxes-based resolver (test/support/independent-positions.ts,
// which shares no code with the index or the engine) finds the element of the prefixed form. Also: the
// parser's new forms and its nesting bound, and relative paths from a context node.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { indexXml } from '../../core/notice/xml-index';
import { LocationReader, LocationUnsupported } from '../../core/xpath/locate';
import { MAX_NESTING, parseXPath, XPathSyntaxError } from '../../core/xpath/parser';
import { readText, samplePairs } from '../support/corpus-data';
import {
  type IndependentElement,
  independentResolve,
  independentTree,
} from '../support/independent-positions';
import { SAMPLES_DIR, skipUnless } from '../support/shared-data';

describe('locations read by the engine, compared with saxes', { skip: skipUnless(SAMPLES_DIR) }, () => {
  const pairs = samplePairs();
  let compared = 0;

  for (const pair of pairs) {
    test(pair.name, () => {
      const text = readText(pair.noticePath);
      const root = independentTree(text);
      const index = indexXml(text);
      // Prefixes of our own (p0, p1…), not the notice's: locations match by URI, never by prefix.
      const prefixes = new Map<string, string>();
      const prefixOf = (uri: string): string => {
        let p = prefixes.get(uri);
        if (p === undefined) {
          p = `p${prefixes.size}`;
          prefixes.set(uri, p);
        }
        return p;
      };
      const namespaces = (): Map<string, string> => new Map([...prefixes].map(([uri, p]) => [p, uri]));
      const elements: { el: IndependentElement; steps: { uri: string; local: string; at: number }[] }[] = [];
      const walk = (el: IndependentElement, steps: { uri: string; local: string; at: number }[]): void => {
        elements.push({ el, steps });
        const seen = new Map<string, number>();
        for (const c of el.children) {
          const key = `${c.uri} ${c.local}`;
          const at = (seen.get(key) ?? 0) + 1;
          seen.set(key, at);
          walk(c, [...steps, { uri: c.uri, local: c.local, at }]);
        }
      };
      walk(root, [{ uri: root.uri, local: root.local, at: 1 }]);
      for (const { steps } of elements) for (const s of steps) if (s.uri) prefixOf(s.uri);
      const ns = namespaces();
      const reader = new LocationReader(index, ns);
      for (const { el, steps } of elements) {
        const prefixed = `/${steps.map((s) => `${s.uri ? `${prefixOf(s.uri)}:` : ''}${s.local}[${s.at}]`).join('/')}`;
        const truth = independentResolve(root, prefixed, ns);
        assert.ok(truth, `saxes resolves ${prefixed}`);
        assert.equal(truth.element, el);
        const forms = [
          prefixed,
          `/${steps.map((s) => `*:${s.local}[namespace-uri()='${s.uri}'][${s.at}]`).join('/')}`,
          `/${steps.map((s) => `Q{${s.uri}}${s.local}[${s.at}]`).join('/')}`,
          `/${steps.map((s) => `*[local-name()='${s.local}' and namespace-uri()='${s.uri}'][${s.at}]`).join('/')}`,
        ];
        for (const form of forms) {
          const [found] = reader.select(form);
          assert.ok(found, `${form} selects a node`);
          assert.equal(index.elements[found.el].start, el.start, form);
          compared++;
        }
        for (const a of el.attributes) {
          if (a.name.startsWith('xmlns')) continue;
          const name = a.uri ? `${prefixOf(a.uri)}:${a.local}` : a.local;
          const [found] = new LocationReader(index, namespaces()).select(`${prefixed}/@${name}`);
          assert.ok(found && found.attr >= 0, `${prefixed}/@${name}`);
          assert.equal(index.elements[found.el].attributes[found.attr].start, a.start);
          compared++;
        }
      }
    });
  }

  test('the corpus was compared', () => {
    assert.ok(pairs.length === 0 || compared > 1000, `${compared} locations compared`);
  });
});

describe('location forms and bounds', () => {
  const text = `<r xmlns="urn:r" xmlns:b="urn:b"><b:x n="1"/><x/><b:x n="2"><y>t</y></b:x></r>`;
  const index = indexXml(text);
  const ns = new Map([['b', 'urn:b']]);
  const start = (needle: string, n = 1): number => {
    let at = -1;
    for (let k = 0; k < n; k++) at = text.indexOf(needle, at + 1);
    return at;
  };
  const at = (path: string, from?: { el: number; attr: number }): number | undefined => {
    const [n] = new LocationReader(index, ns).select(path, from);
    return n === undefined
      ? undefined
      : n.attr >= 0
        ? index.elements[n.el].attributes[n.attr].start
        : index.elements[n.el].start;
  };

  test('Q{uri}local, *:local and Q{}local for attributes', () => {
    assert.equal(at('/Q{urn:r}r/Q{urn:b}x[2]'), start('<b:x', 2));
    assert.equal(at('/*:r/*:x[2]'), start('<x/>'));
    assert.equal(at('/*:r/b:x[2]/@Q{}n'), start('n="2"'));
  });

  test('an unprefixed name falls back to any namespace when none is in no namespace', () => {
    // XPath would select nothing (r is in urn:r); the SVRL writers mean the elements named r, x.
    assert.equal(at('/r/x'), start('<b:x'));
    assert.equal(at('/r/x[2]'), start('<x/>'));
    assert.equal(at('/r/b:x[2]/y/text()'), start('<y>'));
  });

  test('predicates run by the engine: attribute values, paths, not(), last()', () => {
    assert.equal(at("/*:r/b:x[@n='2']"), start('<b:x', 2));
    assert.equal(at('/*:r/b:x[not(@n = 1)]'), start('<b:x', 2));
    assert.equal(at('/*:r/*[last()]'), start('<b:x', 2));
    assert.equal(at("/*:r/b:x[*:y = 't']"), start('<b:x', 2));
  });

  test('relative paths from a context node', () => {
    const [x2] = new LocationReader(index, ns).select('/*:r/b:x[2]');
    assert.ok(x2);
    assert.equal(at('*:y', x2), start('<y>'));
    assert.equal(at('../b:x[1]', x2), start('<b:x'));
    assert.equal(at('*:z', x2), undefined);
  });

  test('forms that are not locations are refused, not guessed', () => {
    for (const path of ['/*:r/b:x | /*:r', 'following-sibling::x', 'count(/r)', '/r/undeclared:x', '$v']) {
      assert.throws(() => new LocationReader(index, ns).select(path), LocationUnsupported, path);
    }
  });

  test('nesting past the bound is a syntax error, not a stack overflow', () => {
    const ok = `${'('.repeat(MAX_NESTING - 2)}1${')'.repeat(MAX_NESTING - 2)}`;
    assert.doesNotThrow(() => parseXPath(ok, new Map()));
    const deep = `${'not('.repeat(100_000)}true()${')'.repeat(100_000)}`;
    assert.throws(() => parseXPath(deep, new Map()), XPathSyntaxError);
  });
});
