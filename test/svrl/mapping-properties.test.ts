// Property-based tests of SVRL parsing and mapping (fast-check, fixed seed; see test/support/fuzz.ts):
// arbitrary locations and diagnostic paths, and arbitrary report texts, never throw, never lose a
// finding, and always give a range inside the notice. Locations built from the notice's own elements
// resolve to exactly those elements.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { indexXml } from '../../core/notice/xml-index';
import { mapSvrl } from '../../core/svrl/mapping';
import { parseSvrl, type SvrlAssertion, SvrlFormatError } from '../../core/svrl/report';
import { fuzzParameters } from '../support/fuzz';

const NOTICE = `<cn:R xmlns:cn="urn:cn" xmlns:cbc="urn:cbc" a="1"><cbc:X n="1"/><cbc:X n="2"><cbc:Y>t</cbc:Y></cbc:X><Z>z</Z><cbc:X/></cn:R>`;
const index = indexXml(NOTICE);
const NAMESPACES = new Map([
  ['cn', 'urn:cn'],
  ['cbc', 'urn:cbc'],
]);
const lines = NOTICE.split('\n');

const STEP_PIECES = [
  '/',
  '//',
  'cn:R',
  'cbc:X',
  'cbc:Y',
  'Z',
  '*',
  '@a',
  '@n',
  '..',
  '.',
  'text()',
  '[1]',
  '[2]',
  '[last()]',
  "[@n='2']",
  '[cbc:Y]',
  "[. = 't']",
  '[not(@n)]',
  ' and ',
  ' or ',
  '(',
  ')',
  '[',
  ']',
  "'",
  '"',
  'Q{urn:cbc}X',
  '*:X',
  "[namespace-uri()='urn:cbc']",
  'nope:X',
  '::',
  'child::',
  'attribute::',
  '=',
  '!=',
  '<',
  '0',
  '[0]',
  '[99999999999999999999]',
];

const location = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.array(fc.constantFrom(...STEP_PIECES), { maxLength: 25 }).map((a) => a.join('')),
);

function assertion(loc: string, paths: string[]): SvrlAssertion {
  return {
    kind: 'failed-assert',
    id: 'R',
    location: loc,
    role: 'ERROR',
    test: 't',
    text: 'm',
    diagnosticReferences: paths.map((path) => ({ diagnostic: 'd', see: 'field:BT-1', path })),
  };
}

describe('SVRL mapping properties', () => {
  test('arbitrary locations and diagnostic paths: no exception, one finding each, ranges in the notice', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(location, fc.array(location, { maxLength: 3 })), { minLength: 1, maxLength: 8 }),
        (items) => {
          const findings = mapSvrl(index, {
            namespaces: NAMESPACES,
            assertions: items.map(([l, p]) => assertion(l, p)),
          });
          assert.equal(findings.length, items.length);
          for (const f of findings) {
            for (const p of [f.range.start, f.range.end]) {
              assert.ok(p.line >= 0 && p.line < lines.length);
              assert.ok(p.character >= 0 && p.character <= lines[p.line].length);
            }
            assert.ok(f.message.startsWith('m'));
          }
        },
      ),
      fuzzParameters(1500),
    );
  });

  test('a location built from an element of the notice resolves to that element', () => {
    const elements = index.elements;
    /** The absolute path with positions among same-named siblings, as the official reports write it. */
    const pathOf = (k: number): string => {
      const steps: string[] = [];
      for (let e = k; e >= 0; e = elements[e].parent) {
        const el = elements[e];
        const prefix = el.ns === 'urn:cn' ? 'cn:' : el.ns === 'urn:cbc' ? 'cbc:' : '';
        const siblings =
          el.parent < 0 ? [e] : elements[el.parent].children.filter((c) => elements[c].qname === el.qname);
        steps.unshift(`${prefix}${el.local}[${siblings.indexOf(e) + 1}]`);
      }
      return `/${steps.join('/')}`;
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: elements.length - 1 }), (k) => {
        const [f] = mapSvrl(index, { namespaces: NAMESPACES, assertions: [assertion(pathOf(k), [])] });
        assert.equal(f.resolved, true);
        assert.equal(f.range.start.character, elements[k].start);
      }),
      fuzzParameters(50),
    );
  });

  test('arbitrary report texts: parsed or refused with SvrlFormatError, never another exception', () => {
    const pieces = [
      '<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl">',
      '</svrl:schematron-output>',
      '<svrl:failed-assert location="',
      '" id="x" role="ERROR">',
      '</svrl:failed-assert>',
      '<svrl:text>',
      '</svrl:text>',
      '<svrl:diagnostic-reference see="field:X">',
      '</svrl:diagnostic-reference>',
      '<svrl:ns-prefix-in-attribute-values prefix="cbc" uri="urn:cbc"/>',
      '/cn:R/cbc:X[2]',
      '//cbc:Y',
      '&amp;',
      '&#x1b;',
      '<',
      '>',
      '"',
      '\u0000',
      'text',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((a) => a.join('')),
        (text) => {
          let report: ReturnType<typeof parseSvrl>;
          try {
            report = parseSvrl(text);
          } catch (e) {
            assert.ok(e instanceof SvrlFormatError, String(e));
            return;
          }
          assert.equal(mapSvrl(index, report).length, report.assertions.length);
        },
      ),
      fuzzParameters(1500),
    );
  });
});
