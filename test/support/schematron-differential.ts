// What the two differential tests of the compiled rules against fontoxpath share: the outcome of one
// evaluation and how two are compared, the match between our nodes and slimdom's, and a runtime with
// the phase's lets compiled. Test support only: it never decides what is right, it only lines up the
// two engines' answers so that the tests can compare them.

import assert from 'node:assert/strict';
import type { PreparedPhase } from '../../core/schematron/engine';
import { type Compiled, compile, ebv, Runtime, type Scope } from '../../core/xpath/compile';
import type { XDocument, XNode } from '../../core/xpath/document';
import { parseDate } from '../../core/xpath/values';

/** What the tests read of a slimdom node (slimdom is an ES module; its types cannot be imported here). */
export interface SlimNode {
  nodeType: number;
  firstChild: SlimNode | null;
  nextSibling: SlimNode | null;
  getAttributeNodeNS(ns: string | null, local: string): SlimNode | null;
}

/** One evaluation in either engine: an error, the nodes selected, or an effective boolean value. */
export type Outcome = { error: true } | { nodes: (XNode | undefined)[] } | { value: boolean };

export function same(a: Outcome, b: Outcome): boolean {
  if ('error' in a || 'error' in b) return 'error' in a && 'error' in b;
  if ('value' in a && 'value' in b) return a.value === b.value;
  if ('nodes' in a && 'nodes' in b)
    return a.nodes.length === b.nodes.length && a.nodes.every((n, i) => n === b.nodes[i]);
  return false;
}

/** An outcome as a disagreement message shows it: nodes by document order. */
export function summary(o: Outcome): unknown {
  return 'nodes' in o ? { nodes: o.nodes.map((n) => n?.order ?? 'unmapped') } : o;
}

/** Our nodes and the DOM's, matched by document order of elements and by name of attributes. */
export function mapNodes(
  doc: XDocument,
  dom: SlimNode,
): { fromDom: Map<SlimNode, XNode>; toDom: Map<XNode, SlimNode> } {
  const domEls: SlimNode[] = [];
  const walk = (n: SlimNode): void => {
    for (let c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1) {
        domEls.push(c);
        walk(c);
      }
    }
  };
  walk(dom);
  const fromDom = new Map<SlimNode, XNode>([[dom, doc.node]]);
  doc.elements.forEach((e, i) => {
    const d = domEls[i];
    fromDom.set(d, e);
    for (const a of e.attrs) {
      const da = d.getAttributeNodeNS(a.ns || null, a.local);
      if (da) fromDom.set(da, a);
    }
  });
  const toDom = new Map<XNode, SlimNode>();
  for (const [d, x] of fromDom) toDom.set(x, d);
  return { fromDom, toDom };
}

/** A runtime over `doc` with every let of the phase compiled, `today` fixed; scopeOf for more compiling. */
export function phaseRuntime(
  prepared: PreparedPhase,
  doc: XDocument,
  today: string,
): { rt: Runtime; scopeOf: () => Scope } {
  const { schema, parsed } = prepared;
  const rt = new Runtime();
  const globals = new Map<string, number>();
  const lets = [...schema.lets, ...schema.patterns.flatMap((p) => p.lets)];
  const scopeOf = (): Scope => ({ globals, locals: new Map(), nextSlot: { n: 0 } });
  for (const l of lets) {
    globals.set(l.name, rt.globalFns.length);
    rt.globalFns.push(() => []);
  }
  for (const l of lets) {
    const p = parsed[l.value];
    assert.ok(p && 'ast' in p, `let ${l.name} parses`);
    rt.globalFns[globals.get(l.name) as number] = compile(p.ast, rt, scopeOf());
  }
  rt.reset(doc, parseDate(`${today}Z`));
  return { rt, scopeOf };
}

/** Our engine's outcome of a compiled expression at `node`: its nodes, or its effective boolean value. */
export function ours(fn: Compiled, node: XNode, asNodes: boolean): Outcome {
  try {
    const r = fn({ item: node, pos: 1, size: 1 });
    return asNodes ? { nodes: r as XNode[] } : { value: ebv(r) };
  } catch {
    return { error: true };
  }
}
