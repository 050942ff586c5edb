// The rooms of core/ keep their front doors: code outside a room (another room, server/, client/, cli/,
// sandbox/) imports only the room's index.ts, a room's own modules never import their entry (that is how
// the old schematron type cycle arose), and the rooms import each other without cycles. Every import is
// read by the TypeScript parser, so a multi-line or `export … from` import counts as well. docs/
// architecture.md draws the map that this test holds the code to.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { entryViolations, importsOf, projectEdges, roomCycles } from './support/import-graph';
import { PROJECT_ROOT } from './support/shared-data';

describe('core rooms', () => {
  const edges = projectEdges();

  test('every import from outside a room goes through its index.ts, and no room imports its own entry', () => {
    assert.deepEqual(entryViolations(edges), []);
  });

  test('the rooms import each other without a cycle', () => {
    assert.deepEqual(roomCycles(edges), []);
  });

  test('core/ has no loose modules: every file lives in a room with an index.ts', () => {
    const loose = readdirSync(join(PROJECT_ROOT, 'core')).filter((n) => n.endsWith('.ts'));
    assert.deepEqual(loose, []);
    for (const room of readdirSync(join(PROJECT_ROOT, 'core'))) {
      const entry = join(PROJECT_ROOT, 'core', room, 'index.ts');
      assert.ok(existsSync(entry), `core/${room} has no index.ts`);
      const opening = readFileSync(entry, 'utf8').split('\n')[0];
      assert.match(
        opening,
        /^\/\/ /,
        `core/${room}/index.ts opens with a comment saying what the room holds`,
      );
    }
  });

  test("docs/architecture.md's map says which rooms each room imports, as the code does", () => {
    const map = readFileSync(join(PROJECT_ROOT, 'docs', 'architecture.md'), 'utf8');
    const said = new Map<string, string>();
    for (const m of map.matchAll(/^\| `core\/([a-z-]+)\/` \|[^|]*\|([^|]*)\|\s*$/gm))
      said.set(m[1] as string, (m[2] as string).trim());
    const actual = new Map<string, Set<string>>();
    for (const { from, to } of edges) {
      const a = /^core\/([^/]+)\/./.exec(from)?.[1];
      const b = /^core\/([^/]+)\/./.exec(to)?.[1];
      if (!a || !b || a === b) continue;
      if (!actual.has(a)) actual.set(a, new Set());
      actual.get(a)?.add(b);
    }
    for (const room of readdirSync(join(PROJECT_ROOT, 'core'))) {
      const expected = [...(actual.get(room) ?? [])].sort().join(', ') || '–';
      assert.equal(said.get(room), expected, `the map's row for core/${room}/`);
    }
  });

  test('docs/architecture.md names every room', () => {
    const map = readFileSync(join(PROJECT_ROOT, 'docs', 'architecture.md'), 'utf8');
    for (const room of readdirSync(join(PROJECT_ROOT, 'core')))
      assert.ok(map.includes(`core/${room}/`), `docs/architecture.md does not describe core/${room}/`);
  });

  // The checks themselves can fail: each probe breaks one rule.
  test('the checks catch a bypassed entry, an import of its own entry, and a cycle', () => {
    assert.equal(
      entryViolations([{ from: 'server/x.ts', to: 'core/xpath/parser.ts' }]).length,
      1,
      'a front end importing a room file directly',
    );
    assert.equal(entryViolations([{ from: 'core/svrl/mapping.ts', to: 'core/xpath/parser.ts' }]).length, 1);
    assert.equal(entryViolations([{ from: 'core/xpath/compile.ts', to: 'core/xpath/index.ts' }]).length, 1);
    assert.equal(entryViolations([{ from: 'core/xpath/compile.ts', to: 'core/xpath/parser.ts' }]).length, 0);
    assert.equal(entryViolations([{ from: 'cli/main.ts', to: 'core/xpath/index.ts' }]).length, 0);
    assert.deepEqual(
      roomCycles([
        { from: 'core/a/x.ts', to: 'core/b/index.ts' },
        { from: 'core/b/y.ts', to: 'core/a/index.ts' },
      ]),
      [['a', 'b', 'a']],
    );
    const multiLine = "import {\n  a,\n  b,\n} from '../core/xpath/parser';\nexport * from './z';\n";
    assert.deepEqual(importsOf('server/x.ts', multiLine), ['../core/xpath/parser', './z']);
  });
});
