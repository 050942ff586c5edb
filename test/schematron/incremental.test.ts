// The incremental path of the SDK rules (core/schematron/incremental.ts) against full runs: on seeded
// random edit sequences (change a value, empty an element, delete an element, duplicate a lot with new
// ids, change a code, swap two dates), each step's incremental report equals a full run of the same text
// with a fresh engine state, byte for byte (SVRL, not-evaluated list, failures with their nodes, asserts
// counted), on cn_24_maximal, the 100-lot sample and two real notices of older releases. The reach
// analysis (core/xpath/reach.ts) is checked on expressions whose reach the XPath axes define.
// Reads ../shared; writes nothing.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { indexXml } from '../../core/notice';
import { type CompiledRuleSet, IncrementalRules, loadRuleSet, phaseFor } from '../../core/schematron';
import { parseXPath, ruleReach } from '../../core/xpath';
import { REAL_DIR, REFERENCE_NOW, realNotices, releaseFor, SDKS_DIR } from '../support/real-notices';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const NOTICES = join(SAMPLES_DIR, 'notices');
const NS = new Map([
  ['cbc', 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2'],
  ['cac', 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2'],
]);

/** mulberry32: a small seeded generator, so that a failing sequence can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Edit = (text: string, r: () => number) => { text: string; what: string } | undefined;

const pick = <T>(xs: T[], r: () => number): T | undefined =>
  xs.length === 0 ? undefined : xs[Math.floor(r() * xs.length)];

/** Elements with text only (no child elements), as [start of content, end of content, element]. */
function leaves(text: string) {
  const index = indexXml(text);
  return index.elements
    .filter((e) => e.children.length === 0 && e.end > e.startTagEnd && e.parent >= 0)
    .map((e) => ({ from: e.startTagEnd, to: text.lastIndexOf('</', e.end), e }));
}

const splice = (text: string, from: number, to: number, put: string): string =>
  text.slice(0, from) + put + text.slice(to);

const EDITS: Record<string, Edit> = {
  'change a value': (text, r) => {
    const l = pick(leaves(text), r);
    if (!l) return undefined;
    const value = pick(['X', '0', '-1', '2024-01-01Z', 'LOT-0001', 'ORG-0001', ' ', 'true', '12.5'], r) ?? '';
    return { text: splice(text, l.from, l.to, value), what: `${l.e.local} = ${value}` };
  },
  'empty an element': (text, r) => {
    const l = pick(leaves(text), r);
    return l && { text: splice(text, l.from, l.to, ''), what: `${l.e.local} emptied` };
  },
  'delete an element': (text, r) => {
    const e = pick(
      indexXml(text).elements.filter((x) => x.parent > 0 && x.end > 0),
      r,
    );
    return e && { text: splice(text, e.start, e.end, ''), what: `${e.local} deleted` };
  },
  'duplicate a lot with new ids': (text, r) => {
    const lots = indexXml(text).elements.filter((x) => x.local === 'ProcurementProjectLot' && x.end > 0);
    const lot = pick(lots, r);
    const last = lots.at(-1);
    if (!lot || !last) return undefined;
    const n = 900 + Math.floor(r() * 99);
    const copy = text.slice(lot.start, lot.end).replace(/(LOT|GLO|RES|TEN|CON|TPA)-(\d{4})/g, `$1-0${n}`);
    return { text: splice(text, last.end, last.end, copy), what: `lot duplicated as LOT-0${n}` };
  },
  'change a code': (text, r) => {
    const codes = leaves(text).filter((l) => l.e.attributes.some((a) => a.local === 'listName'));
    const l = pick(codes, r);
    if (!l) return undefined;
    const others = codes.map((c) => text.slice(c.from, c.to));
    const value = r() < 0.3 ? 'not-a-code' : (pick(others, r) ?? '');
    return { text: splice(text, l.from, l.to, value), what: `code ${l.e.local} = ${value}` };
  },
  'swap two dates': (text, r) => {
    const dates = leaves(text).filter((l) => /Date$/.test(l.e.local));
    const a = pick(dates, r);
    const b = pick(dates, r);
    if (!a || !b || a === b) return undefined;
    const [x, y] = a.from < b.from ? [a, b] : [b, a];
    const vx = text.slice(x.from, x.to);
    const vy = text.slice(y.from, y.to);
    const swapped = text.slice(0, x.from) + vy + text.slice(x.to, y.from) + vx + text.slice(y.to);
    return { text: swapped, what: `${x.e.local} <-> ${y.e.local}` };
  },
};

/** Runs `steps` random edits; each step's incremental report must equal a full run's. */
function agreeOn(rules: CompiledRuleSet, start: string, seed: number, steps: number, now?: string): number {
  const r = rng(seed);
  const opts = now ? { now } : { today: '2024-06-01' };
  const inc = new IncrementalRules();
  let text = start;
  let replayed = 0;
  let rematched = 0;
  const names = Object.keys(EDITS);
  for (let step = 0; step <= steps; step++) {
    let what = 'the notice as it is';
    if (step > 0) {
      let edit: ReturnType<Edit>;
      for (let tries = 0; !edit && tries < 20; tries++) edit = EDITS[names[step % names.length]](text, r);
      if (!edit) continue;
      text = edit.text;
      what = edit.what;
    }
    const got = inc.evaluate(rules, indexXml(text), opts);
    replayed += inc.last.replayed;
    rematched += inc.last.rematched;
    const want = rules.evaluate(indexXml(text), opts);
    const at = `seed ${seed}, step ${step} (${what})`;
    assert.equal(got.cancelled, false, at);
    assert.deepEqual(got.notEvaluated, want.notEvaluated, `not evaluated, ${at}`);
    assert.equal(got.assertsEvaluated, want.assertsEvaluated, `asserts evaluated, ${at}`);
    assert.deepEqual(got.failures, want.failures, `failures, ${at}`);
    assert.equal(got.svrl, want.svrl, `SVRL, ${at}`);
  }
  // Not vacuous: rule contexts were matched again from the last run's nodes, not only evaluated.
  assert.ok(steps === 0 || rematched > 0, `rematched ${rematched}`);
  return replayed;
}

const skipSdk = skipUnless(SDK_DIR) ?? skipUnless(NOTICES);

describe('incremental SDK rules agree with full runs on edit sequences', { skip: skipSdk }, () => {
  const key = { sdkDir: SDK_DIR, sdkVersion: '1.15.1', phase: 'eforms-16', mode: 'static' as const };

  test('cn_24_maximal: 4 seeds of 12 edits', async () => {
    const rules = await loadRuleSet(key);
    const text = readFileSync(join(NOTICES, 'cn_24_maximal.xml'), 'utf8');
    let replayed = 0;
    for (const seed of [1, 2, 3, 4]) replayed += agreeOn(rules, text, seed, 12);
    // Not vacuous: most fired rules were answered from the records.
    assert.ok(replayed > 1000, `replayed ${replayed}`);
  });

  test('the 100-lot sample: 6 edits', async () => {
    const rules = await loadRuleSet(key);
    const text = readFileSync(join(NOTICES, 'cn_24_maximal_100_lots.xml'), 'utf8');
    assert.ok(agreeOn(rules, text, 7, 6) > 10000);
  });

  test('a cancelled run leaves the state consistent: the next run equals a full one', async () => {
    const rules = await loadRuleSet(key);
    const text = readFileSync(join(NOTICES, 'cn_24_maximal.xml'), 'utf8');
    const inc = new IncrementalRules();
    const opts = { today: '2024-06-01' };
    inc.evaluate(rules, indexXml(text), opts);
    // Two edits of the last value of the notice, the first one's run stopped half-way.
    const at = text.lastIndexOf('</cbc:');
    const edited = splice(text, at, at, 'A');
    let polls = 0;
    const stopped = inc.evaluate(rules, indexXml(edited), { ...opts, isCancelled: () => ++polls > 3 });
    assert.equal(stopped.cancelled, true);
    const again = splice(text, at, at, 'B');
    const got = inc.evaluate(rules, indexXml(again), opts);
    assert.equal(inc.last.incremental, true);
    assert.equal(got.svrl, rules.evaluate(indexXml(again), opts).svrl);
  });

  test('a batch of other notices runs plainly; a second document being edited is recorded, then replayed', async () => {
    const rules = await loadRuleSet(key);
    const maximal = readFileSync(join(NOTICES, 'cn_24_maximal.xml'), 'utf8');
    const minimal = readFileSync(join(NOTICES, 'cn_24_minimal.xml'), 'utf8');
    const inc = new IncrementalRules();
    const opts = { today: '2024-06-01' };
    const at = minimal.lastIndexOf('</cbc:');
    const steps = [maximal, minimal, splice(minimal, at, at, '1'), splice(minimal, at, at, '2')];
    const seen = steps.map((text) => {
      const got = inc.evaluate(rules, indexXml(text), opts);
      assert.equal(got.svrl, rules.evaluate(indexXml(text), opts).svrl);
      return [inc.last.incremental, inc.last.evaluated > 0];
    });
    // maximal: recorded; minimal: plain (nothing recorded); its first edit: recorded; the second: replayed.
    assert.deepEqual(seen, [
      [false, true],
      [false, false],
      [false, true],
      [true, true],
    ]);
  });

  test('a namespace declaration or a comment marker near the change: everything is evaluated', async () => {
    const rules = await loadRuleSet(key);
    const text = readFileSync(join(NOTICES, 'cn_24_maximal.xml'), 'utf8');
    const inc = new IncrementalRules();
    const opts = { today: '2024-06-01' };
    inc.evaluate(rules, indexXml(text), opts);
    // The root's cbc prefix rebound to another URI: every cbc element changes its name.
    const uri = NS.get('cbc') ?? '';
    const rebound = text.replace(`xmlns:cbc="${uri}"`, `xmlns:cbc="${uri}-other"`);
    assert.notEqual(rebound, text);
    const got = inc.evaluate(rules, indexXml(rebound), opts);
    assert.equal(inc.last.replayed, 0);
    assert.equal(got.svrl, rules.evaluate(indexXml(rebound), opts).svrl);
  });
});

const skipReal = skipUnless(join(REAL_DIR, 'index.tsv')) ?? skipUnless(SDKS_DIR);

describe('incremental SDK rules on real notices of older releases', { skip: skipReal }, () => {
  for (const pubno of ['137599-2024', '47522-2024']) {
    test(`${pubno}: 8 edits`, async () => {
      const n = realNotices().find((x) => x.pubno === pubno);
      assert.ok(n, pubno);
      const release = releaseFor(n.minor);
      assert.ok(release, n.minor);
      const { phase } = phaseFor(release.dir, 'static', n.subtype);
      const key = { sdkDir: release.dir, sdkVersion: release.version, phase, mode: 'static' as const };
      const rules = await loadRuleSet(key);
      const text = readFileSync(n.path, 'utf8');
      assert.ok(agreeOn(rules, text, 5, 8, REFERENCE_NOW) > 0);
    });
  }
});

describe('the reach of an expression: the levels its axes climb', () => {
  const reach = (src: string, globals: string[] = [], lets: [string, string][] = []) =>
    ruleReach(
      lets.map(([name, v]) => ({ name, ast: parseXPath(v, NS) })),
      [parseXPath(src, NS)],
      (g) => globals.includes(g),
    ).up;

  test('downward paths read only the context node', () => {
    assert.equal(reach('cbc:ID'), 0);
    assert.equal(reach('count(cac:Lot/cbc:ID[@schemeName = "Lot"]) = 1'), 0);
    assert.equal(reach('.//cbc:ID and normalize-space()'), 0);
  });

  test('parent steps and siblings climb', () => {
    assert.equal(reach('preceding-sibling::cbc:ID'), 1);
    // A predicate is evaluated at the step's nodes: `..` there climbs from the child.
    assert.equal(reach('cbc:ID[../cbc:Name]'), 0);
    assert.equal(reach('cbc:ID[../../cbc:Name]'), 1);
    assert.equal(reach('for $x in .. return $x/../cbc:ID'), 2);
    // A path that climbs first and reads a rule's variable depends on the node: a plain climb.
    assert.equal(reach('../cbc:ID[. = $v]', [], [['v', 'cbc:ID']]), 1);
    assert.equal(reach('../../cbc:ID[. = $v]/../cac:X', [], [['v', 'cbc:ID']]), 2);
  });

  test('a path from the rule node that climbs first is a parameter of the node it climbs to', () => {
    const r = ruleReach([], [parseXPath('count(../../cbc:ID/../cac:X) = 1', NS)], () => false);
    assert.equal(r.up, 0);
    assert.deepEqual(
      [...r.climbing.values()].map((c) => c.up),
      [2],
    );
    // Climbing above its first steps later: not a parameter.
    assert.equal(reach('../cbc:ID/../../cac:X'), 2);
  });

  test('lets carry the level of their nodes', () => {
    assert.equal(reach('$p/../cbc:ID', [], [['p', '..']]), 2);
    assert.equal(reach('$v = "x"', [], [['v', 'cbc:ID/normalize-space()']]), 0);
  });

  test('what may read anywhere is unbounded', () => {
    // A path from the root that reads a rule's variable depends on the node: not a parameter.
    assert.equal(reach('/*/cbc:ID[. = $v]', [], [['v', 'cbc:ID']]), Number.POSITIVE_INFINITY);
    assert.equal(reach('$g/../cbc:ID', ['g']), Number.POSITIVE_INFINITY);
    assert.equal(reach('(/*/cac:Lot, ..)/../cbc:ID'), Number.POSITIVE_INFINITY);
    assert.equal(reach('ancestor::cac:Lot'), Number.POSITIVE_INFINITY);
    assert.equal(reach('$unknown'), Number.POSITIVE_INFINITY);
    assert.equal(reach('exists(current-dateTime())'), Number.POSITIVE_INFINITY);
  });

  test('a path from the root without local variables is a parameter, read down but never up', () => {
    const r = ruleReach([], [parseXPath('cbc:ID = /*/cac:Lot/cbc:ID', NS)], () => false);
    assert.equal(r.up, 0);
    assert.equal(r.params.size, 1);
    assert.equal(reach('every $l in /*/cac:Lot satisfies $l/cbc:ID = cbc:ID'), 0);
    assert.equal(reach('every $l in /*/cac:Lot satisfies $l/../cbc:ID = cbc:ID'), Number.POSITIVE_INFINITY);
  });

  test('a global is read as a parameter and named', () => {
    assert.equal(reach('$g = "16"', ['g']), 0);
    const r = ruleReach([], [parseXPath('$g = cbc:ID', NS)], (n) => n === 'g');
    assert.deepEqual([...r.globals], ['g']);
  });
});
