// Issue 21, item 5: the compiled-rule cache is untrusted input. Truth here is a fresh load from the
// SDK folder (no cache): an entry of any shape (fast-check mutates a real entry at a random place with
// a random JSON value), a consistent entry of the wrong shape, a link to /dev/zero or a FIFO in place of
// the entry, must each give the fresh load's report, and the entry must be rewritten whole. A damaged
// expression tree given straight to the compiler is "not evaluated", never passing silently.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { loadRuleSet } from '../../core/schematron';
import {
  clearRuleSetMemory,
  compilePrepared,
  type PreparedPhase,
  patternKeys,
  ruleLayout,
} from '../../core/schematron/engine';
import { readRelease, releaseFile } from '../../core/schematron/rule-cache';
import { fuzzParameters } from '../support/fuzz';
import { smallSchema } from '../support/small-schema';

const temp = mkdtempSync(join(tmpdir(), 'eforms-rule-cache-'));
after(() => rmSync(temp, { recursive: true, force: true }));

/** The header line the digest covers, as the tests read it (untrusted shapes are written back as given). */
interface ReleaseFileHead {
  ranges: [number, number][];
  trees: [number, number][];
  treeRefs: number[][];
  leadNs?: string[];
  leads?: unknown[];
  splits?: unknown;
  diagnostics: unknown;
  phases: unknown;
}

/**
 * A release file (format 12) as its three parts: the line naming its fingerprint, the header's length
 * and digest, the header line, and the body of pattern texts and trees.
 */
function readReleaseFile(file: string): {
  id: { fingerprint: string; head: number; digest: string };
  head: ReleaseFileHead;
  body: Buffer;
} {
  const buf = readFileSync(file);
  const nl = buf.indexOf(10);
  const id = JSON.parse(buf.toString('utf8', 0, nl));
  const nl2 = nl + 1 + id.head;
  assert.equal(buf[nl2], 10, 'the header has the length the first line names');
  return {
    id,
    head: JSON.parse(buf.toString('utf8', nl + 1, nl2)),
    body: buf.subarray(nl2 + 1),
  };
}

/** Writes a release file with `head` and `body` under valid checksums (as releaseFile computes them). */
function writeReleaseFile(file: string, fingerprint: string, head: object, body: Buffer): void {
  writeFileSync(file, releaseFile(fingerprint, head, body));
}

/** A schema of one pattern `p1` of these rules, with the global `$kind`. */
const withKind = (title: string, rules: string): string =>
  smallSchema(title, [['kind', '/*/cbc:Kind/text()']], [['p1', rules]]);

const SCHEMA = withKind(
  'cache rules',
  `<rule context="/*/cbc:Lot">
    <assert id="R-ID" role="ERROR" test="@id = ('a', 'b')">rule|text|R-ID</assert>
    <assert id="R-KIND" role="WARN" test="$kind = 'x' and count(../cbc:Lot) lt 2">rule|text|R-KIND</assert>
    <report id="R-SUM" role="INFO" test="sum(for $i in 1 to 3 return $i) = 6">rule|text|R-SUM</report>
  </rule>`,
);
const NOTICE = '<N xmlns:cbc="urn:cbc"><cbc:Kind>x</cbc:Kind><cbc:Lot id="a"/><cbc:Lot id="c"/></N>';

const sdkDir = join(temp, 'sdk');
mkdirSync(join(sdkDir, 'schematrons', 'static'), { recursive: true });
writeFileSync(join(sdkDir, 'schematrons', 'static', 'complete-validation.sch'), SCHEMA);
const key = { sdkDir, sdkVersion: '0.0.9', phase: 'eforms-1', mode: 'static' as const };

/** What a report says: failures and rules not evaluated, in a comparable form. */
function summary(r: { failures: { id: string; location: string }[]; notEvaluated: { ruleId: string }[] }) {
  return {
    failures: r.failures.map((f) => `${f.id}@${f.location}`).sort(),
    notEvaluated: r.notEvaluated.map((n) => n.ruleId).sort(),
  };
}

clearRuleSetMemory();
const truthPromise = loadRuleSet(key).then((r) => summary(r.evaluate(NOTICE)));

let n = 0;
/**
 * A fresh cache folder holding one valid entry; returns the folder and the entry's path. `shared: false`
 * is the per-phase format (one JSON entry a phase, with parsed trees); `shared: true` the release file
 * (`<mode>.rules`: a header line, then the patterns' texts).
 */
async function freshCache(shared = false): Promise<{ dir: string; file: string }> {
  const dir = join(temp, `cache-${n++}`);
  clearRuleSetMemory();
  await loadRuleSet(key, { cacheDir: dir, shared });
  // The one entry written, wherever the cache's layout puts it (release, layout, mode, phase).
  const suffix = shared ? '.rules' : '.json';
  const entries = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(suffix));
  assert.equal(entries.length, 1, entries.join(', '));
  return { dir, file: join(dir, entries[0] as string) };
}

async function loadFrom(dir: string, shared = false) {
  clearRuleSetMemory();
  return loadRuleSet(key, { cacheDir: dir, shared });
}

function rewrittenWhole(file: string): void {
  const entry = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(typeof entry.fingerprint, 'string');
  assert.ok(entry.prepared?.schema && entry.prepared.parsed, 'a whole entry was written back');
}

describe('the compiled-rule cache reads hostile entries (per-phase format)', () => {
  test('a valid entry is served from the cache, with the fresh report', async () => {
    const { dir } = await freshCache();
    const r = await loadFrom(dir);
    assert.equal(r.source, 'cache');
    assert.deepEqual(summary(r.evaluate(NOTICE)), await truthPromise);
    // Worked out by hand from the schema: lot a fails R-KIND (two lots), lot c fails R-ID and R-KIND,
    // and the report R-SUM fires on both.
    assert.deepEqual(await truthPromise, {
      failures: [
        'R-ID@/N/cbc:Lot[2]',
        'R-KIND@/N/cbc:Lot[1]',
        'R-KIND@/N/cbc:Lot[2]',
        'R-SUM@/N/cbc:Lot[1]',
        'R-SUM@/N/cbc:Lot[2]',
      ],
      notEvaluated: [],
    });
  });

  test('an entry with the right fingerprint and digest but the wrong shape is rebuilt', async () => {
    const { dir, file } = await freshCache();
    const entry = JSON.parse(readFileSync(file, 'utf8'));
    entry.prepared.schema.patterns[0].rules[0].asserts = 'not a list';
    const body = JSON.stringify(entry.prepared);
    entry.digest = createHash('sha256').update(body).digest('hex');
    writeFileSync(file, JSON.stringify(entry));
    const r = await loadFrom(dir);
    assert.equal(r.source, 'sdk');
    assert.deepEqual(summary(r.evaluate(NOTICE)), await truthPromise);
    rewrittenWhole(file);
    assert.equal((await loadFrom(dir)).source, 'cache', 'and served from the cache next time');
  });

  test('a link to /dev/zero and a FIFO in place of the entry are not read', { timeout: 60_000 }, async () => {
    const { dir, file } = await freshCache();
    rmSync(file);
    symlinkSync('/dev/zero', file);
    let r = await loadFrom(dir);
    assert.equal(r.source, 'sdk');
    assert.deepEqual(summary(r.evaluate(NOTICE)), await truthPromise);
    rmSync(file, { force: true });
    if (spawnSync('mkfifo', [file]).status === 0) {
      r = await loadFrom(dir);
      assert.equal(r.source, 'sdk');
      assert.deepEqual(summary(r.evaluate(NOTICE)), await truthPromise);
    }
  });

  test('entries of every shape: the fresh report, or a rebuild (fast-check)', async () => {
    const { dir, file } = await freshCache();
    const original = readFileSync(file, 'utf8');
    const truth = await truthPromise;
    /** Every path to a value inside the entry (objects and arrays), the root excluded. */
    const paths: (string | number)[][] = [];
    const walk = (v: unknown, at: (string | number)[]) => {
      if (at.length > 0) paths.push(at);
      if (Array.isArray(v)) for (const [i, x] of v.entries()) walk(x, [...at, i]);
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...at, k]);
    };
    walk(JSON.parse(original), []);
    const value = fc.oneof(
      fc.constantFrom(null, true, 0, -1, 1e308, '', 'x', [], {}, { t: 'bogus' }, { t: 'path', steps: [] }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.nat(paths.length - 1), value, fc.boolean(), async (at, v, redigest) => {
        const entry = JSON.parse(original);
        const path = paths[at] as (string | number)[];
        let o = entry;
        for (const k of path.slice(0, -1)) o = o[k];
        o[path[path.length - 1] as string] = v;
        // Half the time the digest is recomputed: only the shape check can then refuse the entry.
        if (redigest && entry.prepared !== undefined)
          entry.digest = createHash('sha256')
            .update(JSON.stringify(entry.prepared ?? null))
            .digest('hex');
        writeFileSync(file, JSON.stringify(entry));
        const r = await loadFrom(dir);
        const got = summary(r.evaluate(NOTICE));
        if (r.source === 'sdk') {
          assert.deepEqual(got, truth);
          rewrittenWhole(file);
        } else {
          // Served from the cache: a change the shape allows (a literal, a name) may change the
          // findings, but every rule is either evaluated or named, never skipped silently.
          const rr = r.evaluate(NOTICE);
          assert.ok(
            rr.assertsEvaluated > 0 || rr.notEvaluated.length > 0 || r.assertCount === 0,
            'a rule set that evaluates nothing says so',
          );
        }
      }),
      fuzzParameters(60),
    );
  });
});

describe('a damaged expression tree given to the compiler', () => {
  test('is "not evaluated", never silently passing', async () => {
    const { file } = await freshCache();
    const prepared = JSON.parse(readFileSync(file, 'utf8')).prepared as PreparedPhase;
    const test = prepared.schema.patterns[0]?.rules[0]?.asserts[0]?.test as string;
    const test2 = prepared.schema.patterns[0]?.rules[0]?.asserts[1]?.test as string;
    // A node type the compiler does not know, and a path without its steps.
    (prepared.parsed as Record<string, unknown>)[test] = { ast: { t: 'bogus' } };
    (prepared.parsed as Record<string, unknown>)[test2] = { ast: { t: 'path' } };
    const r = compilePrepared(key, prepared).evaluate(NOTICE);
    const named = r.notEvaluated.map((x) => x.ruleId).sort();
    assert.deepEqual(named, ['R-ID', 'R-KIND']);
    assert.ok(!r.failures.some((f) => f.id === 'R-ID' || f.id === 'R-KIND'));
  });
});

describe('the release file of the rule cache reads hostile entries', () => {
  test('a valid file is served from the cache, with the fresh report', async () => {
    const { dir } = await freshCache(true);
    const r = await loadFrom(dir, true);
    assert.equal(r.source, 'cache');
    assert.deepEqual(summary(r.evaluate(NOTICE)), await truthPromise);
  });

  test('a pattern text that is not a pattern is rebuilt from the SDK, and rewritten', async () => {
    const { dir, file } = await freshCache(true);
    const { id, head, body: bytes } = readReleaseFile(file);
    assert.equal(head.ranges.length, 1);
    // The same pattern, but its rules are not a list, under a valid digest: the shape check, not JSON
    // and not the digest, must catch it.
    const [from, to] = head.ranges[0] as [number, number];
    const pattern = bytes
      .toString('utf8', from, to)
      .replace('"rules":[', '"rules":{"x":[')
      .replace(/\]\}$/, ']}}');
    const edited = Buffer.from(pattern, 'utf8');
    const trees = bytes.subarray(to);
    head.ranges = [[0, edited.length]];
    head.trees = (head.trees as [number, number][]).map(([a, b]) => [
      a - to + edited.length,
      b - to + edited.length,
    ]);
    writeReleaseFile(file, id.fingerprint, head, Buffer.concat([edited, trees]));
    const r = await loadFrom(dir, true);
    assert.equal(r.source, 'sdk');
    assert.deepEqual(summary(r.evaluate(NOTICE)), await truthPromise);
  });

  /**
   * Rewrites the one pattern's parsed trees (format 9: one JSON text per distinct expression, listed
   * by the pattern in patternKeys order) under a valid digest: only the shape check can refuse them.
   */
  function withTrees(file: string, edit: (trees: Record<string, string>) => Record<string, string>): void {
    const { id, head, body } = readReleaseFile(file);
    assert.equal(head.ranges.length, 1);
    const pattern = body.subarray(head.ranges[0][0], head.ranges[0][1]);
    const keys = patternKeys(JSON.parse(pattern.toString('utf8')));
    const refs = head.treeRefs[0] as number[];
    assert.equal(refs.length, keys.length);
    const text = (j: number) => body.toString('utf8', ...(head.trees[refs[j] as number] as [number, number]));
    const edited = edit(Object.fromEntries(keys.map((k, j) => [k, text(j)])));
    // Each expression its own tree (no sharing), so that an edit touches one expression only.
    const parts = [pattern, ...keys.map((k) => Buffer.from(edited[k] ?? '', 'utf8'))];
    let at = 0;
    const ranges = parts.map((b) => {
      at += b.length;
      return [at - b.length, at] as [number, number];
    });
    head.ranges = [ranges[0]];
    head.trees = ranges.slice(1);
    head.treeRefs = [keys.map((_, j) => j)];
    // The rewritten trees come without their required names (the optional `leads`): the engine then
    // finds them in the trees themselves.
    delete head.leads;
    delete head.leadNs;
    // Nor does any context keep its parts (the optional `splits`): each is compiled from its tree.
    delete head.splits;
    writeReleaseFile(file, id.fingerprint, head, Buffer.concat(parts));
  }

  test('the parsed trees kept beside a pattern are what runs, and a damaged one is parsed again', async () => {
    const rId = "@id = ('a', 'b')";
    const rSum = 'sum(for $i in 1 to 3 return $i) = 6';
    // Proof that the kept trees are used, not parsed again: R-ID given the tree of R-SUM's test (true)
    // no longer fails on lot c.
    let { dir, file } = await freshCache(true);
    withTrees(file, (t) => {
      assert.ok(t[rId] && t[rSum], Object.keys(t).join(' | '));
      return { ...t, [rId]: t[rSum] as string };
    });
    let r = await loadFrom(dir, true);
    assert.equal(r.source, 'cache');
    const truth = await truthPromise;
    assert.deepEqual(summary(r.evaluate(NOTICE)), {
      ...truth,
      failures: truth.failures.filter((f) => !f.startsWith('R-ID@')),
    });
    // A tree of a node kind the parser never gives, a path without steps, a tree that is not an object,
    // text that is not JSON: each expression is parsed from its text, and the report is the fresh one.
    type Trees = Record<string, string>;
    const all = (t: Trees, text: string) => Object.fromEntries(Object.keys(t).map((k) => [k, text]));
    for (const damage of [
      (t: Trees) => ({ ...t, [rId]: JSON.stringify({ ast: { t: 'bogus' } }) }),
      (t: Trees) => ({ ...t, [rSum]: JSON.stringify({ ast: { t: 'path', steps: [] } }) }),
      (t: Trees) => ({ ...t, [rId]: '7', [rSum]: JSON.stringify({ error: 1 }) }),
      (t: Trees) => all(t, '[]'),
      (t: Trees) => all(t, '{"'),
      (t: Trees) => all(t, ''),
      (t: Trees) => all(t, JSON.stringify({ ast: { t: 'ctx' }, error: 'both' })),
    ]) {
      ({ dir, file } = await freshCache(true));
      withTrees(file, damage);
      r = await loadFrom(dir, true);
      assert.equal(r.source, 'cache');
      assert.deepEqual(summary(r.evaluate(NOTICE)), truth);
    }
  });

  test('required names (`leads`, `leadNs`) of a foreign shape, under a valid digest: rebuilt from the SDK', async () => {
    const { dir, file } = await freshCache(true);
    const { id, head, body } = readReleaseFile(file);
    assert.ok(Array.isArray(head.leads) && head.leads.length === head.trees.length, 'the writer keeps them');
    assert.ok(Array.isArray(head.leadNs) && head.leadNs.includes('urn:cbc'), 'namespaces by index');
    const n = head.trees.length;
    const ns = head.leadNs.length;
    for (const [leads, leadNs] of [
      ['x', head.leadNs],
      [[1], head.leadNs],
      [Array.from({ length: n }, () => ['urn:cbc']), head.leadNs],
      [Array.from({ length: n }, () => ['urn:cbc', 'Kind']), head.leadNs],
      [Array.from({ length: n }, () => [ns, 'Kind']), head.leadNs],
      [Array.from({ length: n }, () => [-1, 'Kind']), head.leadNs],
      [Array.from({ length: n }, () => [0.5, 'Kind']), head.leadNs],
      [Array.from({ length: n }, () => [0, 2]), head.leadNs],
      [Array.from({ length: n + 1 }, () => []), head.leadNs],
      [head.leads, 'urn:cbc'],
      [head.leads, [1]],
      [head.leads, undefined],
    ]) {
      writeReleaseFile(file, id.fingerprint, { ...head, leads, leadNs }, body);
      const r = await loadFrom(dir, true);
      assert.equal(r.source, 'sdk', JSON.stringify([leads, leadNs]).slice(0, 60));
      assert.deepEqual(summary(r.evaluate(NOTICE)), await truthPromise);
    }
  });

  test('a link to /dev/zero and a FIFO in place of the file are not read', { timeout: 60_000 }, async () => {
    const { dir, file } = await freshCache(true);
    rmSync(file);
    symlinkSync('/dev/zero', file);
    let r = await loadFrom(dir, true);
    assert.equal(r.source, 'sdk');
    assert.deepEqual(summary(r.evaluate(NOTICE)), await truthPromise);
    rmSync(file, { force: true });
    if (spawnSync('mkfifo', [file]).status === 0) {
      r = await loadFrom(dir, true);
      assert.equal(r.source, 'sdk');
      assert.deepEqual(summary(r.evaluate(NOTICE)), await truthPromise);
    }
  });

  test('any byte changed: the fresh report, from the cache or rebuilt (fast-check)', async () => {
    const { dir, file } = await freshCache(true);
    const original = readFileSync(file);
    const truth = await truthPromise;
    await fc.assert(
      fc.asyncProperty(fc.nat(original.length - 1), fc.integer({ min: 0, max: 255 }), async (at, byte) => {
        const copy = Buffer.from(original);
        copy[at] = byte;
        writeFileSync(file, copy);
        const r = await loadFrom(dir, true);
        const got = summary(r.evaluate(NOTICE));
        // A change the checks cannot see (inside a message text) may be served; what runs is still right
        // for every rule, or the rule is named as not evaluated: never a silent pass.
        if (got.notEvaluated.length === 0) assert.deepEqual(got.failures, truth.failures);
      }),
      fuzzParameters(60),
    );
  });
});

/**
 * Format 12: the body is read in 64 KB blocks when first needed, each checked against its own CRC-32.
 * The test file is padded with bytes no range names between its pattern and its trees, so that they lie
 * in different blocks: damage where no text lies is never read, damage in the trees' block costs only
 * those trees (parsed again from their expressions), and an entry keeps reading the file it opened.
 */
describe('the body of the release file, read in blocks', () => {
  const BLOCK = 64 * 1024;

  /** The file with `gap` bytes between the pattern and the trees; the offset where the trees start. */
  function padded(file: string, gap: number): { treesAt: number; bodyAt: number } {
    const { id, head, body } = readReleaseFile(file);
    const end = head.ranges[0][1];
    assert.ok(
      head.trees.every(([from]) => from >= end),
      'the trees follow the pattern',
    );
    head.trees = head.trees.map(([a, b]) => [a + gap, b + gap]);
    const out = Buffer.concat([body.subarray(0, end), Buffer.alloc(gap, 0x20), body.subarray(end)]);
    writeReleaseFile(file, id.fingerprint, head, out);
    const size = readFileSync(file).length;
    return { treesAt: end + gap, bodyAt: size - out.length };
  }

  const layout = () => ruleLayout(sdkDir, 'static').layout;

  test('damage where no text lies is never read: the phase is served from the cache', async () => {
    const { dir, file } = await freshCache(true);
    const { treesAt, bodyAt } = padded(file, 3 * BLOCK);
    const bytes = readFileSync(file);
    // A byte of the padding's middle block, its checksum left as it was.
    bytes[bodyAt + BLOCK + 100] = 0x41;
    writeFileSync(file, bytes);
    const r = await loadFrom(dir, true);
    assert.equal(r.source, 'cache');
    assert.deepEqual(summary(r.evaluate(NOTICE)), await truthPromise);
    const entry = readRelease(dir, key, layout());
    assert.ok(entry);
    for (let i = 0; i < entry.patterns.length; i++) assert.notEqual(entry.patterns.at(i), '');
    for (let j = 0; j < (entry.treeCounts[0] ?? 0); j++) assert.notEqual(entry.tree(0, j), '');
    assert.equal(entry.intact(), true, 'no block read was damaged');
    assert.ok(treesAt > BLOCK);
  });

  test('a damaged block of trees: they are parsed again, the phase still comes from the cache', async () => {
    const { dir, file } = await freshCache(true);
    const { treesAt, bodyAt } = padded(file, 3 * BLOCK);
    const bytes = readFileSync(file);
    // The first tree's first byte (a `{`) changed: JSON no longer, and its block's checksum fails.
    assert.equal(bytes[bodyAt + treesAt], 0x7b);
    bytes[bodyAt + treesAt] = 0x5b;
    writeFileSync(file, bytes);
    const entry = readRelease(dir, key, layout());
    assert.ok(entry);
    assert.notEqual(entry.patterns.at(0), '', 'the pattern lies in a sound block');
    assert.equal(entry.intact(), true);
    assert.equal(entry.treeText(0), '', 'a damaged block gives no text');
    assert.equal(entry.intact(), false);
    const r = await loadFrom(dir, true);
    assert.equal(r.source, 'cache');
    assert.deepEqual(summary(r.evaluate(NOTICE)), await truthPromise);
  });

  test('an entry reads the file it opened, even once another writer has replaced it', async () => {
    const { dir, file } = await freshCache(true);
    const entry = readRelease(dir, key, layout());
    assert.ok(entry);
    const before = readReleaseFile(file);
    const first = before.body.toString('utf8', ...(before.head.trees[0] as [number, number]));
    // Another process writes a new file and renames it into place (the trees move); the old file's
    // bytes are never written to.
    const replaced = `${file}.new`;
    writeFileSync(replaced, readFileSync(file));
    padded(replaced, 2 * BLOCK);
    renameSync(replaced, file);
    assert.notEqual(
      readReleaseFile(file).body.toString('utf8', ...(before.head.trees[0] as [number, number])),
      first,
    );
    assert.equal(entry.treeText(0), first);
    assert.equal(entry.intact(), true);
  });

  test('a file cut short after it was opened: the lost texts read as empty, never as garbage', async () => {
    const { dir, file } = await freshCache(true);
    const { treesAt, bodyAt } = padded(file, 2 * BLOCK);
    const entry = readRelease(dir, key, layout());
    assert.ok(entry);
    truncateSync(file, bodyAt + treesAt - 10);
    assert.equal(entry.treeText(0), '');
    assert.equal(entry.intact(), false);
  });
});

/**
 * Format 11: a context `P[$kind = 'x']` is kept with its two parts, P and the predicate, as trees of their
 * own (`splits`), and a phase read back compiles it from them. Truth worked out by hand: $kind is 'x', so
 * the first rule selects both lots and lot c fails S-ID; the second selects nothing.
 */
const SPLIT_SCHEMA = withKind(
  'split contexts',
  `<rule context="/*/cbc:Lot[$kind = 'x']"><assert id="S-ID" role="ERROR" test="@id = 'a'">S-ID</assert></rule>
  <rule context="/*/cbc:Kind[$kind = 'y']"><assert id="S-NO" role="ERROR" test="false()">S-NO</assert></rule>`,
);
const SPLIT_TRUTH = { failures: ['S-ID@/N/cbc:Lot[2]'], notEvaluated: [] };

describe('the parts of rule contexts kept by the release file', () => {
  const splitSdk = join(temp, 'sdk-split');
  mkdirSync(join(splitSdk, 'schematrons', 'static'), { recursive: true });
  writeFileSync(join(splitSdk, 'schematrons', 'static', 'complete-validation.sch'), SPLIT_SCHEMA);
  const splitKey = { sdkDir: splitSdk, sdkVersion: '0.0.8', phase: 'eforms-1', mode: 'static' as const };
  const load = async (dir?: string) => {
    clearRuleSetMemory();
    return loadRuleSet(splitKey, dir === undefined ? {} : { cacheDir: dir, shared: true });
  };
  /** The parts of tree `ref` in the flat `splits` ([tree, base, predicate, …]), or undefined. */
  const partsOf = (flat: number[], ref: number): number[] | undefined => {
    for (let k = 0; k < flat.length; k += 3) if (flat[k] === ref) return flat.slice(k + 1, k + 3);
    return undefined;
  };
  /** `flat` with tree `ref`'s parts set, trees ascending. */
  const withParts = (flat: number[], ref: number, parts: number[]): number[] => {
    const rows: number[][] = [];
    for (let k = 0; k < flat.length; k += 3) if (flat[k] !== ref) rows.push(flat.slice(k, k + 3));
    rows.push([ref, ...parts]);
    return rows.sort((a, b) => (a[0] as number) - (b[0] as number)).flat();
  };
  /** A cache folder with the release file of SPLIT_SCHEMA, its parts and the two contexts' splits. */
  async function splitCache() {
    const dir = join(temp, `cache-${n++}`);
    await load(dir);
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.rules'));
    assert.equal(files.length, 1);
    const file = join(dir, files[0] as string);
    const { id, head, body } = readReleaseFile(file);
    // patternKeys order: the Lot rule's context and test, then the Kind rule's.
    const at = (j: number) => head.treeRefs[0]?.[j] as number;
    const [lot, kind] = [0, 2].map((j) => partsOf(head.splits as number[], at(j)) as number[]);
    return { dir, file, id, head, body, at, lot: lot as number[], kind: kind as number[] };
  }
  const tree = (head: ReleaseFileHead, body: Buffer, ref: number) =>
    JSON.parse(body.toString('utf8', ...(head.trees[ref] as [number, number])));

  test('each part is a tree of its own, and the report is the fresh one', async () => {
    assert.deepEqual(summary((await load()).evaluate(NOTICE)), SPLIT_TRUTH);
    const { dir, head, body, lot, kind } = await splitCache();
    assert.equal(lot.length, 2);
    assert.equal(kind.length, 2);
    // The two contexts share the kind of base, not its tree; each predicate names its own value.
    assert.equal(tree(head, body, lot[0] as number).ast.t, 'path');
    assert.deepEqual(tree(head, body, lot[1] as number).ast.r, { t: 'str', v: 'x' });
    assert.deepEqual(tree(head, body, kind[1] as number).ast.r, { t: 'str', v: 'y' });
    const r = await load(dir);
    assert.equal(r.source, 'cache');
    assert.deepEqual(summary(r.evaluate(NOTICE)), SPLIT_TRUTH);
  });

  test('the kept parts are what runs; a part that is not a tree leaves the whole tree to run', async () => {
    // The two predicates swapped under a valid digest: the Lot rule now selects nothing, the Kind rule
    // its one node. Compiled from the whole trees, the report would be the fresh one.
    let c = await splitCache();
    const swapped = withParts(c.head.splits as number[], c.at(0), [c.lot[0] as number, c.kind[1] as number]);
    c.head.splits = withParts(swapped, c.at(2), [c.kind[0] as number, c.lot[1] as number]);
    writeReleaseFile(c.file, c.id.fingerprint, c.head, c.body);
    let r = await load(c.dir);
    assert.equal(r.source, 'cache');
    assert.deepEqual(summary(r.evaluate(NOTICE)), { failures: ['S-NO@/N/cbc:Kind'], notEvaluated: [] });
    // A base that is not JSON, and a predicate of a node kind the parser never gives.
    for (const bad of ['{"', JSON.stringify({ ast: { t: 'bogus' } })]) {
      c = await splitCache();
      const extra = Buffer.from(bad, 'utf8');
      const ref = c.head.trees.length;
      c.head.trees.push([c.body.length, c.body.length + extra.length]);
      (c.head.leads as unknown[]).push([]);
      const badBase = withParts(c.head.splits as number[], c.at(0), [ref, c.lot[1] as number]);
      c.head.splits = withParts(badBase, c.at(2), [c.kind[0] as number, ref]);
      writeReleaseFile(c.file, c.id.fingerprint, c.head, Buffer.concat([c.body, extra]));
      r = await load(c.dir);
      assert.equal(r.source, 'cache');
      assert.deepEqual(summary(r.evaluate(NOTICE)), SPLIT_TRUTH, bad);
    }
  });

  test('splits of a foreign shape, under a valid digest: rebuilt from the SDK', async () => {
    const { dir, file, id, head, body } = await splitCache();
    const n = head.trees.length;
    for (const splits of [
      'x',
      { 0: [1, 2] },
      [1],
      [0, 1],
      [0, 1, 2, 3],
      [0, 0, n],
      [n, 0, 0],
      [-1, 0, 0],
      [0.5, 0, 0],
      ['0', '1', '2'],
      [null, 0, 0],
      [1, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 0],
    ]) {
      writeReleaseFile(file, id.fingerprint, { ...head, splits }, body);
      const r = await load(dir);
      assert.equal(r.source, 'sdk', JSON.stringify(splits).slice(0, 60));
      assert.deepEqual(summary(r.evaluate(NOTICE)), SPLIT_TRUTH);
    }
  });
});
