// The project's import graph as the TypeScript parser reads it: every module specifier of a file
// (imports, `export … from`, dynamic `import()`, `require()`, `import('…')` types), resolved to project
// files, and what test/architecture.test.ts checks on it: the rooms of core/ and their entries.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import ts from 'typescript';
import { PROJECT_ROOT } from './shared-data';

const SOURCE_ROOTS = ['core', 'server', 'client', 'cli', 'sandbox'];

export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(PROJECT_ROOT, dir), { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The project file a relative specifier names, or undefined for a package. */
export function resolveImport(from: string, spec: string): string | undefined {
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

export function projectEdges(): ImportEdge[] {
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
