// Differential test of the compiled rules against an independent XPath engine (fontoxpath, over a
// slimdom DOM of the same text). On every SDK sample notice and on mutations of them (an element
// removed, a value emptied, a code changed, a date moved, a lot duplicated; sampled with a fixed seed),
// every rule context of the phase selects the same nodes, and every assert test gives the same
// effective boolean value (or both engines raise an error) on every node the context selects.
// fontoxpath's quirk: multi-binding quantifiers do not see earlier bindings, so the oracle's copy of an
// expression has them nested (`some $a in X, $b in Y` -> `some $a in X satisfies some $b in Y`).
// Variables reach the oracle as XPath 3.1 `let` bindings, current-date() as a fixed xs:date.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { evaluateXPath } from 'fontoxpath';
import { indexXml } from '../../core/notice/xml-index';
import { prepare } from '../../core/schematron/engine';
import { compile } from '../../core/xpath/compile';
import { XDocument, type XNode } from '../../core/xpath/document';
import { nestBindings, oracleExpression } from '../support/fontoxpath-schematron';
import { mulberry32 } from '../support/notice-variants';
import {
  mapNodes,
  type Outcome,
  ours,
  phaseRuntime,
  type SlimNode,
  same,
  summary,
} from '../support/schematron-differential';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDK_DIR) ?? skipUnless(join(SAMPLES_DIR, 'notices'));
const TODAY = '2024-01-01';

type Mutation = { name: string; text: string };

/** Mutations of a notice, each a small edit of the text at an element the index located. */
function mutations(text: string, rand: () => number, perKind: number): Mutation[] {
  const index = indexXml(text);
  const els = index.elements;
  const pick = <T>(xs: T[]): T | undefined => (xs.length ? xs[Math.floor(rand() * xs.length)] : undefined);
  const leaves = els.filter((e) => e.children.length === 0 && e.end > e.startTagEnd);
  const out: Mutation[] = [];
  const splice = (a: number, b: number, s: string): string => text.slice(0, a) + s + text.slice(b);
  const contentEndOf = (e: (typeof els)[number]): number => text.lastIndexOf('<', e.end - 1);
  for (let k = 0; k < perKind; k++) {
    const removed = pick(els.slice(1));
    if (removed) out.push({ name: `remove ${removed.qname}`, text: splice(removed.start, removed.end, '') });
    const emptied = pick(leaves);
    if (emptied)
      out.push({
        name: `empty ${emptied.qname}`,
        text: splice(emptied.startTagEnd, contentEndOf(emptied), ''),
      });
    const coded = pick(leaves.filter((e) => e.attributes.some((a) => a.local === 'listName')));
    if (coded) {
      const code = pick(['zzz', 'open', 'other', 'CZE', 'services', 'true', '']) ?? 'zzz';
      out.push({
        name: `code ${coded.qname}=${code}`,
        text: splice(coded.startTagEnd, contentEndOf(coded), code),
      });
    }
    const dated = pick(leaves.filter((e) => /Date$/.test(e.local)));
    if (dated) {
      const old = text.slice(dated.startTagEnd, contentEndOf(dated));
      const m = /^(\d{4})-(\d{2})-(\d{2})(.*)$/.exec(old.trim());
      if (m) {
        const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
        d.setUTCDate(d.getUTCDate() + Math.round((rand() - 0.5) * 2000));
        const moved = `${d.toISOString().slice(0, 10)}${m[4]}`;
        out.push({
          name: `date ${dated.qname}=${moved}`,
          text: splice(dated.startTagEnd, contentEndOf(dated), moved),
        });
      }
    }
    const lot = pick(els.filter((e) => e.local === 'ProcurementProjectLot'));
    if (lot)
      out.push({ name: 'duplicate a lot', text: splice(lot.end, lot.end, text.slice(lot.start, lot.end)) });
  }
  return out;
}

interface Oracle {
  dom: SlimNode;
  toDom: (n: XNode) => SlimNode | undefined;
  fromDom: Map<SlimNode, XNode>;
}

/** slimdom is an ES module: loaded once, before the tests. */
let parseXmlDocument: (text: string) => unknown;

function buildOracle(doc: XDocument, text: string): Oracle {
  const dom = parseXmlDocument(text) as SlimNode;
  const { fromDom, toDom } = mapNodes(doc, dom);
  return { dom, toDom: (n) => toDom.get(n), fromDom };
}

describe('compiled rules agree with fontoxpath', { skip }, () => {
  const notices = skip
    ? []
    : readdirSync(join(SAMPLES_DIR, 'notices')).filter((f) => f.endsWith('.xml') && !f.includes('100_lots'));
  const rand = mulberry32(20240101);
  const cases: { name: string; text: string }[] = [];
  for (const f of notices) {
    const text = readFileSync(join(SAMPLES_DIR, 'notices', f), 'utf8');
    cases.push({ name: f, text });
    for (const m of mutations(text, rand, 1))
      if (rand() < 0.6) cases.push({ name: `${f}: ${m.name}`, text: m.text });
  }
  const byPhase = new Map<string, ReturnType<typeof prepare>>();
  before(async () => {
    ({ parseXmlDocument } = await import('slimdom'));
  });

  test('the oracle rewrite nests multi-binding quantifiers', () => {
    assert.equal(
      nestBindings("every $a in x, $b in y[. = $a] satisfies $a = ($b, 'p, $q')"),
      "every $a in x satisfies every $b in y[. = $a] satisfies $a = ($b, 'p, $q')",
    );
    assert.equal(
      nestBindings('count(for $x in ., $y in z return $y)'),
      'count(for $x in . return for $y in z return $y)',
    );
  });

  test('mutations are generated for every kind', () => {
    const names = cases.map((c) => c.name).join('\n');
    for (const kind of ['remove ', 'empty ', 'code ', 'date ', 'duplicate a lot'])
      assert.ok(names.includes(kind), kind);
  });

  for (const c of cases) {
    test(c.name, () => {
      const sub = /<cbc:SubTypeCode\b[^>]*>\s*([^<\s]+)\s*</.exec(c.text)?.[1] ?? '16';
      const phase = `eforms-${sub}`;
      let prepared = byPhase.get(phase);
      if (!prepared) {
        prepared = prepare({ sdkDir: SDK_DIR, sdkVersion: '1.15.1', phase, mode: 'static' });
        byPhase.set(phase, prepared);
      }
      const { schema, parsed } = prepared;
      const nsMap = new Map(schema.namespaces);
      const doc = new XDocument(indexXml(c.text));
      if (doc.index.errors.length > 0) return; // a mutation never breaks well-formedness, but be safe
      const oracle = buildOracle(doc, c.text);
      const { rt, scopeOf } = phaseRuntime(prepared, doc, TODAY);

      const oracle3 = (src: string, node: SlimNode, asNodes: boolean): Outcome => {
        try {
          const expr = oracleExpression(prepared, src, TODAY);
          const r = evaluateXPath(
            expr,
            node,
            null,
            {},
            asNodes ? evaluateXPath.NODES_TYPE : evaluateXPath.BOOLEAN_TYPE,
            {
              namespaceResolver: (p: string) => nsMap.get(p) ?? null,
              language: evaluateXPath.XPATH_3_1_LANGUAGE,
            },
          ) as unknown;
          return asNodes
            ? { nodes: (r as SlimNode[]).map((n) => oracle.fromDom.get(n)) }
            : { value: r as boolean };
        } catch {
          return { error: true };
        }
      };

      const disagreements: string[] = [];
      let compared = 0;
      let bothFailed = 0;
      for (const p of schema.patterns) {
        for (const r of p.rules) {
          const ctxParsed = parsed[`context:${r.context}`];
          assert.ok(ctxParsed && 'ast' in ctxParsed, `context ${r.context} parses`);
          const ctxFn = compile(ctxParsed.ast, rt, scopeOf());
          const ctxSrc = r.context.startsWith('/') ? r.context : `//${r.context}`;
          const mine = ours(ctxFn, doc.node, true);
          const theirs = oracle3(ctxSrc, oracle.dom, true);
          compared++;
          if (!same(mine, theirs)) {
            disagreements.push(
              `context ${r.context}: ${JSON.stringify(summary(mine))} vs ${JSON.stringify(summary(theirs))}`,
            );
            continue;
          }
          if (!('nodes' in mine)) continue;
          for (const node of mine.nodes as XNode[]) {
            const dn = oracle.toDom(node);
            if (!dn) continue;
            for (const a of r.asserts) {
              const ap = parsed[a.test];
              assert.ok(ap && 'ast' in ap, `${a.id} parses`);
              const fn = compile(ap.ast, rt, scopeOf());
              const x = ours(fn, node, false);
              const y = oracle3(a.test, dn, false);
              compared++;
              if ('error' in x && 'error' in y) bothFailed++;
              if (!same(x, y))
                disagreements.push(`${a.id} at ${node.order}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
            }
          }
        }
      }
      assert.ok(compared > 50, `only ${compared} comparisons`);
      // Agreeing on errors proves little: most comparisons must be real values.
      assert.ok(
        bothFailed < compared / 20,
        `${bothFailed} of ${compared} comparisons failed in both engines`,
      );
      assert.deepEqual(disagreements.slice(0, 10), [], `${disagreements.length} disagreements`);
    });
  }
});
