// The SDK sample corpus again, each notice rewritten in memory so that nothing but namespace URIs and
// element order stays the same: other prefixes, the cbc namespace made the default one and the root
// prefixed, CRLF line ends, re-indentation, comments with non-ASCII (astral) text on the lines of the
// start tags, and an element holding CDATA. The report is unchanged; every finding must still land
// where the independent resolver (saxes) finds its location in the rewritten text.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { indexXml } from '../../core/notice/xml-index';
import { mapSvrl } from '../../core/svrl/mapping';
import { parseSvrl } from '../../core/svrl/report';
import { countAssertions, rawAssertions, rawNamespaces, readText, samplePairs } from '../support/corpus-data';
import { independentResolve, independentTree, lineAndCharacter } from '../support/independent-positions';
import { SAMPLES_DIR, skipUnless } from '../support/shared-data';

const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const NEW_PREFIXES: Record<string, string> = {
  cac: 'a',
  ext: 'x0',
  efac: 'x1',
  efext: 'x2',
  efbc: 'x3',
  xsi: 'i',
};
const ASTRAL = '<!-- Évaluation 𝔘 -->';

/** Rewrites a sample notice; the element tree and every namespace URI stay the same. */
function rewriteNotice(text: string): string {
  let uris = new Map<string, string>();
  for (const m of text.matchAll(/xmlns:([\w.-]+)="([^"]*)"/g)) uris.set(m[1], m[2]);
  if (uris.get('cbc') !== CBC) uris = new Map(); // not the usual UBL prefixes: keep cbc as it is
  const cbcIsDefault = uris.has('cbc');
  let seenRoot = false;
  let depth = 0;
  const rename = (prefix: string | undefined, local: string, isRoot: boolean): string => {
    if (isRoot || prefix === undefined) return `n:${local}`;
    if (prefix === 'cbc' && cbcIsDefault) return local;
    return `${NEW_PREFIXES[prefix] ?? `p${prefix}`}:${local}`;
  };
  let out = text.replace(
    /<(\/?)(?:([\w.-]+):)?([\w.-]+)([^>]*?)(\/?)>/g,
    (_m, close: string, prefix: string | undefined, local: string, rest: string, selfClose: string) => {
      const isRoot = close ? depth === 1 : !seenRoot;
      if (!close) seenRoot = true;
      if (close) depth--;
      else if (!selfClose) depth++;
      const attributes = rest.replace(
        /xmlns(?::([\w.-]+))?="([^"]*)"/g,
        (_a, p: string | undefined, uri: string) => {
          if (p === undefined) return `xmlns:n="${uri}"`;
          if (p === 'cbc' && cbcIsDefault) return `xmlns="${uri}"`;
          return `xmlns:${NEW_PREFIXES[p] ?? `p${p}`}="${uri}"`;
        },
      );
      const tag = `<${close}${rename(prefix, local, isRoot)}${attributes}${selfClose}>`;
      // A comment with astral characters on the same line, before some start tags: UTF-16 columns.
      return !close && /Lot|Organization|ID/.test(local) ? `${ASTRAL}${tag}` : tag;
    },
  );
  // After the root start tag: a comment and an element (in its own namespace) holding CDATA.
  out = out.replace(
    /(<n:[\w.-]+[^>]*>)/,
    `$1\n<!-- a comment <not:Element/> -->\n<z:Note xmlns:z="urn:example:note"><![CDATA[<cbc:ID>not an element</cbc:ID> & <]]></z:Note>`,
  );
  // Before the root: a comment with non-ASCII text.
  out = out.replace(/(<n:)/, `${ASTRAL}\n$1`);
  // Re-indented: tabs become three spaces; LF becomes CRLF.
  out = out.replace(/^\t+/gm, (tabs) => '   '.repeat(tabs.length));
  return out.replace(/\r?\n/g, '\r\n');
}

describe('mapping on rewritten SDK samples', { skip: skipUnless(SAMPLES_DIR) }, () => {
  let checked = 0;
  for (const pair of samplePairs()) {
    test(pair.name, () => {
      const svrl = readText(pair.reportPath);
      const text = rewriteNotice(readText(pair.noticePath));
      assert.ok(text.includes('\r\n') && text.includes('𝔘') && text.includes('<![CDATA['));
      const outsideCdata = text.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
      assert.ok(!/<\/?(cbc|cac|efac):/.test(outsideCdata), 'the usual prefixes are gone');

      const index = indexXml(text);
      assert.deepEqual(index.errors, [], 'the rewritten notice is well-formed');
      const findings = mapSvrl(index, parseSvrl(svrl));
      assert.equal(findings.length, countAssertions(svrl));

      const namespaces = rawNamespaces(svrl);
      const root = independentTree(text);
      const raw = rawAssertions(svrl);
      findings.forEach((f, k) => {
        assert.equal(f.location, raw[k].location);
        const node = independentResolve(root, raw[k].location, namespaces);
        assert.ok(node, `the independent resolver finds ${raw[k].location}`);
        const offset = node.attribute ? node.attribute.start : node.element.start;
        assert.equal(f.resolved, true);
        assert.deepEqual(f.range.start, lineAndCharacter(text, offset), `${f.id} at ${f.location}`);
        checked++;
      });
    });
  }

  test('positions were compared', () => {
    assert.ok(checked > 200, `positions compared: ${checked}`);
  });
});

describe('rewriteNotice', () => {
  test('keeps the tree and the namespace URIs, changes everything else', () => {
    const before = `<?xml version="1.0"?>\n<R xmlns="urn:r" xmlns:cbc="${CBC}" xmlns:cac="urn:cac">\n\t<cac:Lot>\n\t\t<cbc:ID a="1">x</cbc:ID>\n\t</cac:Lot>\n</R>\n`;
    const after = rewriteNotice(before);
    const a = independentTree(before);
    const b = independentTree(after);
    const shape = (e: ReturnType<typeof independentTree>): string =>
      `${e.uri}|${e.local}(${e.children
        .filter((c) => c.uri !== 'urn:example:note')
        .map(shape)
        .join(',')})`;
    assert.equal(shape(b), shape(a));
    assert.match(after, /<n:R xmlns:n="urn:r" xmlns="[^"]+" xmlns:a="urn:cac">/);
    assert.match(after, /\r\n {3}<!-- Évaluation 𝔘 --><a:Lot>\r\n {6}<!-- Évaluation 𝔘 --><ID a="1">x<\/ID>/);
  });
});
