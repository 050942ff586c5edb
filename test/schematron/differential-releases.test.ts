// Differential test of the compiled rules of every release in ../shared/eforms-sdk/ against an
// independent XPath engine (fontoxpath over a slimdom DOM of the same text), on faulty variants of the
// real notices (an element removed, a value emptied, a code changed, a lot duplicated, two dates
// swapped; seeded). For each release: a few notices (its own first), one variant of each kind, the
// phase the release's layout names for the notice's subtype, and a seeded sample of its rules (most of
// them among the rules whose context selects something, the rest among all): the context selects the
// same nodes in both engines, and each assert gives the same effective boolean value (or both raise an
// error) on up to a few of those nodes. The sample keeps the run short; the seed keeps it the same.
// Skipped, and counted: rules with rule-level lets (none in these releases' sampled rules so far) and
// asserts that use a function fontoxpath lacks (format-number).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { evaluateXPath } from 'fontoxpath';
import { indexXml } from '../../core/notice/xml-index';
import { phaseFor } from '../../core/schematron';
import { type PreparedPhase, prepare } from '../../core/schematron/engine';
import { compile } from '../../core/xpath/compile';
import { XDocument, type XNode } from '../../core/xpath/document';
import { loadSlimdom, oracleExpression } from '../support/fontoxpath-schematron';
import { mulberry32, VARIANT_KINDS, variant } from '../support/notice-variants';
import { REAL_DIR, REFERENCE_TODAY, realNotices, SDKS_DIR } from '../support/real-notices';
import {
  mapNodes,
  type Outcome,
  ours,
  phaseRuntime,
  type SlimNode,
  same,
  summary,
} from '../support/schematron-differential';
import { skipUnless } from '../support/shared-data';

const skip = skipUnless(join(REAL_DIR, 'index.tsv')) ?? skipUnless(SDKS_DIR);
const NOTICES_PER_RELEASE = 2;
const FIRING_RULES = 50;
const OTHER_RULES = 25;
const NODES_PER_RULE = 3;
/**
 * Functions fontoxpath does not implement: asserts using them are skipped and counted (format-number
 * is checked by the XSLT 2.0 examples in test/xpath/functions.test.ts and by the Saxon-HE reports).
 */
const ORACLE_LACKS = /\bformat-number\(/;

let parseXmlDocument: (text: string) => unknown;

describe('compiled rules of every release agree with fontoxpath on faulty real notices', { skip }, () => {
  const releases = skip ? [] : readdirSync(SDKS_DIR).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  const notices = skip ? [] : realNotices();
  before(async () => {
    parseXmlDocument = await loadSlimdom();
  });

  test('every kind of variant is generated on the real notices', () => {
    const rand = mulberry32(7);
    for (const kind of VARIANT_KINDS) {
      const made = notices.filter((n) => variant(readFileSync(n.path, 'utf8'), kind, rand) !== undefined);
      assert.ok(made.length >= notices.length / 2, `${kind}: ${made.length} of ${notices.length}`);
    }
  });

  for (const version of releases) {
    test(`SDK ${version}`, (t) => {
      const rand = mulberry32(Number(version.replace(/\D/g, '')) + 17);
      const minor = version.split('.').slice(0, 2).join('.');
      const own = notices.filter((n) => n.minor === minor);
      const others = notices.filter((n) => n.minor !== minor);
      const shuffle = <T>(xs: T[]): T[] =>
        xs
          .map((x) => ({ x, k: rand() }))
          .sort((a, b) => a.k - b.k)
          .map((p) => p.x);
      const chosen = [...shuffle(own), ...shuffle(others)].slice(0, NOTICES_PER_RELEASE);
      const sdkDir = join(SDKS_DIR, version);
      const byPhase = new Map<string, PreparedPhase>();
      let compared = 0;
      let bothFailed = 0;
      let skippedRules = 0;
      let skippedAsserts = 0;
      const disagreements: string[] = [];
      const kindsSeen = new Set<string>();
      for (const n of chosen) {
        const base = readFileSync(n.path, 'utf8');
        const { phase } = phaseFor(sdkDir, 'static', n.subtype);
        let prepared = byPhase.get(phase);
        if (!prepared) {
          prepared = prepare({ sdkDir, sdkVersion: version, phase, mode: 'static' });
          byPhase.set(phase, prepared);
        }
        const { schema, parsed } = prepared;
        const nsMap = new Map(schema.namespaces);
        const options = {
          namespaceResolver: (p: string) => nsMap.get(p) ?? null,
          language: evaluateXPath.XPATH_3_1_LANGUAGE,
        };
        const rewritten = new Map<string, string>();
        const oracleText = (src: string): string => {
          let t = rewritten.get(src);
          if (t === undefined) {
            t = oracleExpression(prepared as PreparedPhase, src, REFERENCE_TODAY);
            rewritten.set(src, t);
          }
          return t;
        };
        for (const kind of VARIANT_KINDS) {
          const v = variant(base, kind, rand);
          if (!v) continue;
          kindsSeen.add(kind);
          const doc = new XDocument(indexXml(v.text));
          if (doc.index.errors.length > 0) continue;
          const dom = parseXmlDocument(v.text) as SlimNode;
          const { fromDom, toDom } = mapNodes(doc, dom);
          const { rt, scopeOf } = phaseRuntime(prepared, doc, REFERENCE_TODAY);
          const theirs = (src: string, node: SlimNode, asNodes: boolean): Outcome => {
            try {
              const r = evaluateXPath(
                oracleText(src),
                node,
                null,
                {},
                asNodes ? evaluateXPath.NODES_TYPE : evaluateXPath.BOOLEAN_TYPE,
                options,
              ) as unknown;
              return asNodes
                ? { nodes: (r as SlimNode[]).map((x) => fromDom.get(x)) }
                : { value: r as boolean };
            } catch {
              return { error: true };
            }
          };
          // Our contexts first (cheap), to sample mostly among rules that fire on this variant.
          const rules = schema.patterns.flatMap((p) => p.rules);
          const withCtx = rules.map((r) => {
            const cp = parsed[`context:${r.context}`];
            assert.ok(cp && 'ast' in cp, `context ${r.context} parses`);
            const fn = compile(cp.ast, rt, scopeOf());
            return { r, fn, mine: ours(fn, doc.node, true) };
          });
          const firing = withCtx.filter((c) => 'nodes' in c.mine && c.mine.nodes.length > 0);
          const sample = [
            ...shuffle(firing).slice(0, FIRING_RULES),
            ...shuffle(withCtx).slice(0, OTHER_RULES),
          ];
          for (const { r, mine } of sample) {
            if (r.lets.length > 0) {
              skippedRules++;
              continue;
            }
            const ctxSrc = r.context.startsWith('/') ? r.context : `//${r.context}`;
            const other = theirs(ctxSrc, dom, true);
            compared++;
            if (!same(mine, other)) {
              disagreements.push(
                `${v.name}: context ${r.context}: ${JSON.stringify(summary(mine))} vs ${JSON.stringify(summary(other))}`,
              );
              continue;
            }
            if (!('nodes' in mine)) continue;
            for (const node of (mine.nodes as XNode[]).slice(0, NODES_PER_RULE)) {
              const dn = toDom.get(node);
              if (!dn) continue;
              for (const a of r.asserts) {
                if (ORACLE_LACKS.test(a.test)) {
                  skippedAsserts++;
                  continue;
                }
                const ap = parsed[a.test];
                assert.ok(ap && 'ast' in ap, `${a.id} parses`);
                const x = ours(compile(ap.ast, rt, scopeOf()), node, false);
                const y = theirs(a.test, dn, false);
                compared++;
                if ('error' in x && 'error' in y) bothFailed++;
                if (!same(x, y))
                  disagreements.push(
                    `${v.name}: ${a.id} at ${node.order}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`,
                  );
              }
            }
          }
        }
      }
      t.diagnostic(
        `${chosen.map((n) => n.pubno).join(', ')}: ${compared} comparisons, ${bothFailed} errors in both, ${skippedRules} rules and ${skippedAsserts} asserts skipped`,
      );
      assert.ok(kindsSeen.size >= 4, `variant kinds: ${[...kindsSeen].join(', ')}`);
      assert.ok(compared > 200, `only ${compared} comparisons`);
      assert.ok(
        bothFailed < compared / 20,
        `${bothFailed} of ${compared} comparisons failed in both engines`,
      );
      assert.ok(
        skippedRules + skippedAsserts < compared / 10,
        `${skippedRules} rules, ${skippedAsserts} asserts skipped`,
      );
      assert.deepEqual(disagreements.slice(0, 10), [], `${disagreements.length} disagreements`);
    });
  }
});
