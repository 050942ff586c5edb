// Property-based tests of the XML index (fast-check, fixed seed; see test/support/fuzz.ts): on any string
// it never throws and its offsets stay inside the text; on generated well-formed documents it agrees,
// element by element and attribute by attribute, with saxes, an independent namespace-aware parser.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { attributeValue, indexXml, type XmlIndex } from '../../core/notice/xml-index';
import { fuzzParameters } from '../support/fuzz';
import { type IndependentElement, independentTree } from '../support/independent-positions';

function assertConsistent(index: XmlIndex): void {
  const n = index.text.length;
  index.elements.forEach((e, k) => {
    assert.ok(e.start >= 0 && e.start < e.nameEnd && e.nameEnd <= e.startTagEnd && e.startTagEnd <= n);
    assert.ok(e.end === -1 || (e.end >= e.startTagEnd && e.end <= n));
    assert.ok(e.parent < k);
    for (const c of e.children) assert.equal(index.elements[c].parent, k);
    for (const a of e.attributes)
      assert.ok(a.start < a.nameEnd && a.valueStart <= a.valueEnd && a.valueEnd <= n);
  });
  assert.ok(index.errors.length <= 100);
  for (const err of index.errors) assert.ok(err.offset >= 0 && err.offset <= n && err.message.length < 500);
}

/** Pieces that exercise every branch of the scanner when strung together at random. */
const PIECES = [
  '<',
  '>',
  '</',
  '/>',
  '<!--',
  '-->',
  '<![CDATA[',
  ']]>',
  '<?',
  '?>',
  '<!DOCTYPE',
  '[',
  ']',
  '&',
  ';',
  '&#x1b;',
  '&#65;',
  '&amp;',
  '"',
  "'",
  '=',
  ' ',
  '\n',
  '\r\n',
  'a',
  'b:c',
  'xmlns',
  'xmlns:b="u"',
  'x="1"',
  '\u0000',
  '\u001b',
  '\ud800',
  '𝔘',
  'é',
];

describe('indexXml properties', () => {
  test('any string: no exception, consistent offsets, at most 100 errors', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 300 }),
          fc.array(fc.constantFrom(...PIECES), { maxLength: 200 }).map((a) => a.join('')),
        ),
        (text) => {
          assertConsistent(indexXml(text));
        },
      ),
      fuzzParameters(2000),
    );
  });

  test('generated well-formed documents: the same elements, namespaces, offsets and attribute values as saxes', () => {
    const NS = ['urn:a', 'urn:b', 'urn:c'];
    const name = fc.constantFrom('A', 'b', 'Item', 'x-y', 'z.1', 'Ünï', '𝔘x');
    const prefix = fc.constantFrom('', 'p', 'q');
    const textPiece = fc.oneof(
      fc.constantFrom(
        'text',
        ' ',
        '\n  ',
        '\r\n',
        '&amp;',
        '&lt;',
        '&#233;',
        '&#x1F600;',
        'é𝔘',
        '<!-- c < > -->',
        '<![CDATA[ <x> & ]]>',
        '<?pi data?>',
      ),
      fc
        .string({ maxLength: 8 })
        // biome-ignore lint/suspicious/noControlCharactersInRegex: well-formed text must not hold them.
        .map((s) => s.replace(/[<&\u0000-\u001f\ud800-\udfff\ufffe\uffff]/g, '').replace(/]]>/g, '')),
    );
    const attrValue = fc.oneof(
      fc.constantFrom('', 'v', 'a&amp;b', '&quot;q&apos;', '&#x41;', 'é𝔘', '1 > 0'),
      // biome-ignore lint/suspicious/noControlCharactersInRegex: well-formed values must not hold them.
      fc.string({ maxLength: 6 }).map((s) => s.replace(/[<&"\u0000-\u001f\ud800-\udfff\ufffe\uffff]/g, '')),
    );
    type Node = {
      p: string;
      name: string;
      attrs: [string, string][];
      decl: [string, string][];
      kids: (Node | string)[];
    };
    const { node } = fc.letrec<{ node: Node }>((tie) => ({
      node: fc.record({
        p: prefix,
        name,
        attrs: fc.uniqueArray(fc.tuple(fc.constantFrom('id', 'n', 'x-1', 'q:lang', 'p:a'), attrValue), {
          maxLength: 3,
          selector: (t) => t[0],
        }),
        decl: fc.uniqueArray(fc.tuple(fc.constantFrom('p', 'q', ''), fc.constantFrom(...NS)), {
          maxLength: 2,
          selector: (t) => t[0],
        }),
        kids: fc.array(fc.oneof({ depthSize: 'small' }, textPiece, tie('node') as fc.Arbitrary<Node>), {
          maxLength: 4,
        }),
      }),
    }));
    const render = (n: Node, ws: string): string => {
      // Prefixes used here are declared on the root, so that every generated document is namespace-well-formed.
      const decl = n.decl.map(([p, u]) => (p ? ` xmlns:${p}="${u}"` : ` xmlns="${u}"`)).join('');
      const attrs = n.attrs
        .map(([a, v]) => `${ws}${a}${ws === ' ' ? '' : ' '}=${ws === ' ' ? '' : ' '}"${v}"`)
        .join('');
      const q = n.p ? `${n.p}:${n.name}` : n.name;
      if (n.kids.length === 0) return `<${q}${decl}${attrs}${ws === ' ' ? '' : ' '}/>`;
      return `<${q}${decl}${attrs}>${n.kids.map((k) => (typeof k === 'string' ? k : render(k, ws))).join('')}</${q}>`;
    };
    const doc = fc
      .tuple(node, fc.constantFrom(' ', '\n\t', '\r\n  '), fc.boolean())
      .map(([root, ws, prolog]) => {
        const body = render(
          {
            ...root,
            p: 'p',
            decl: [
              ['p', 'urn:p'],
              ['q', 'urn:q'],
            ],
          },
          ws,
        );
        return `${prolog ? '<?xml version="1.0" encoding="UTF-8"?>\n<!-- before -->\n' : ''}${body}\n`;
      });
    fc.assert(
      fc.property(doc, (text) => {
        const expected: IndependentElement[] = [];
        const walk = (e: IndependentElement) => {
          expected.push(e);
          for (const c of e.children) walk(c);
        };
        walk(independentTree(text));
        const index = indexXml(text);
        assert.deepEqual(index.errors, []);
        assert.equal(index.elements.length, expected.length);
        index.elements.forEach((e, k) => {
          const x = expected[k];
          assert.equal(e.start, x.start, `element ${k} start`);
          assert.equal(e.local, x.local);
          assert.equal(e.ns, x.uri, `element ${k} namespace`);
          const parentAt = x.parent === undefined ? -1 : expected.indexOf(x.parent);
          assert.equal(e.parent, parentAt);
          const mine = e.attributes.map((a) => [a.qname, a.start, a.ns, attributeValue(index, a)]);
          const theirs = x.attributes.map((a) => [a.name, a.start, a.uri, a.value]);
          assert.deepEqual(mine, theirs, `attributes of element ${k}`);
        });
      }),
      fuzzParameters(400),
    );
  });
});
