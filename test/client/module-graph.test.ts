// client/ has no import cycle (type imports included): the extension's state lives in its own module,
// so extension.ts and the command modules never import each other.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from '../support/shared-data';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function importsOf(file: string): string[] {
  const out: string[] = [];
  for (const m of readFileSync(file, 'utf8').matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)) {
    const base = join(dirname(file), m[1] as string);
    const target = [`${base}.ts`, join(base, 'index.ts')].find((p) => existsSync(p));
    if (target) out.push(target);
  }
  return out;
}

test('client/ has no import cycle', () => {
  const root = join(PROJECT_ROOT, 'client');
  const files = sources(root);
  assert.ok(files.length > 10);
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const cycles: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (f: string) => {
    const at = path.indexOf(f);
    if (at >= 0) {
      cycles.push([...path.slice(at), f].map((p) => relative(root, p)).join(' → '));
      return;
    }
    if (done.has(f)) return;
    path.push(f);
    for (const g of graph.get(f) ?? []) visit(g);
    path.pop();
    done.add(f);
  };
  for (const f of files) visit(f);
  assert.deepEqual(cycles, []);
});
