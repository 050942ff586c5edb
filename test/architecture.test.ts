// The rooms of core/ keep their front doors: code outside a room (another room, server/, client/, cli/,
// sandbox/) imports only the room's index.ts, a room's own modules never import their entry (that is how
// the old schematron type cycle arose), and the rooms import each other without cycles. Every import is
// read by the TypeScript parser, so a multi-line or `export … from` import counts as well. docs/
// architecture.md draws the map that this test holds the code to.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';
import { PROJECT_ROOT } from './support/shared-data';

const SOURCE_ROOTS = ['core', 'server', 'client', 'cli', 'sandbox'];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(PROJECT_ROOT, dir), { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The project file a relative specifier names, or undefined for a package. */
function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = normalize(join(dirname(from), spec))
    .split(sep)
    .join('/');
  for (const c of [`${base}.ts`, `${base}/index.ts`, base]) {
    const abs = join(PROJECT_ROOT, c);
    if (existsSync(abs) && statSync(abs).isFile()) return c;
  }
  return `${base}.ts`;
}

/** Every module specifier of a file: imports, `export … from`, dynamic `import()`, `require()`. */
export function importsOf(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const specs: string[] = [];
  const visit = (n: ts.Node): void => {
    if (
      (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) &&
      n.moduleSpecifier &&
      ts.isStringLiteral(n.moduleSpecifier)
    )
      specs.push(n.moduleSpecifier.text);
    else if (
      ts.isCallExpression(n) &&
      n.arguments.length === 1 &&
      ts.isStringLiteral(n.arguments[0]) &&
      (n.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(n.expression) && n.expression.text === 'require'))
    )
      specs.push(n.arguments[0].text);
    else if (
      ts.isImportTypeNode(n) &&
      ts.isLiteralTypeNode(n.argument) &&
      ts.isStringLiteral(n.argument.literal)
    )
      specs.push(n.argument.literal.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return specs;
}

/** The core room a file belongs to (`core/xpath/parser.ts` → `xpath`); undefined outside a room. */
export function roomOf(file: string): string | undefined {
  return /^core\/([^/]+)\/./.exec(file)?.[1];
}

export interface ImportEdge {
  from: string;
  to: string;
}

export function entryViolations(edges: ImportEdge[]): string[] {
  const bad: string[] = [];
  for (const { from, to } of edges) {
    const target = roomOf(to);
    if (!target) continue;
    const isEntry = to === `core/${target}/index.ts`;
    if (roomOf(from) === target) {
      if (isEntry) bad.push(`${from} imports its own room's entry ${to}: import the sibling module instead`);
    } else if (!isEntry) {
      bad.push(
        `${from} bypasses the entry of core/${target}: import '${to}' through core/${target}/index.ts`,
      );
    }
  }
  return bad;
}

/** Cycles in the graph of rooms (room A imports room B …imports room A), each as a path. */
export function roomCycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const a = roomOf(from);
    const b = roomOf(to);
    if (!a || !b || a === b) continue;
    if (!next.has(a)) next.set(a, new Set());
    next.get(a)?.add(b);
  }
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const walk = (r: string): void => {
    state.set(r, 'open');
    path.push(r);
    for (const n of next.get(r) ?? []) {
      if (state.get(n) === 'open') cycles.push([...path.slice(path.indexOf(n)), n]);
      else if (!state.has(n)) walk(n);
    }
    path.pop();
    state.set(r, 'done');
  };
  for (const r of [...next.keys()].sort()) if (!state.has(r)) walk(r);
  return cycles;
}

function projectEdges(): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const root of SOURCE_ROOTS)
    for (const file of sourceFiles(root)) {
      const text = readFileSync(join(PROJECT_ROOT, file), 'utf8');
      for (const spec of importsOf(file, text)) {
        const to = resolveImport(file, spec);
        if (to) edges.push({ from: file, to });
      }
    }
  return edges;
}

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
