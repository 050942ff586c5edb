// A plain fontoxpath run of a prepared Schematron phase, independent of our compiler: each rule context
// and assert test goes to fontoxpath as text over a slimdom DOM. The benchmark compares our engine with
// it; the differential test uses the same rewriting. fontoxpath's quirk: multi-binding quantifiers do
// not see earlier bindings, so expressions get them nested; variables become XPath 3.1 `let` bindings,
// and current-date() a fixed xs:date.

import { evaluateXPath } from 'fontoxpath';
import type { PreparedPhase } from '../../core/schematron/engine';

/** Nests multi-binding quantifiers and for-expressions, which fontoxpath mis-scopes. */
export function nestBindings(src: string): string {
  let out = src;
  for (;;) {
    const next = nestOnce(out);
    if (next === out) return out;
    out = next;
  }
}

function nestOnce(src: string): string {
  const re = /\b(some|every|for)\s+\$/g;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    const keyword = m[1];
    const end = keyword === 'for' ? 'return' : 'satisfies';
    // Scan the bindings at depth 0 until the closing keyword; a top-level ', $' starts another binding.
    let depth = 0;
    let quote = '';
    for (let i = m.index + m[0].length; i < src.length; i++) {
      const c = src[i];
      if (quote) {
        if (c === quote) quote = '';
        continue;
      }
      if (c === "'" || c === '"') quote = c;
      else if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') {
        if (depth === 0) break;
        depth--;
      } else if (depth === 0 && c === ',' && /^,\s*\$/.test(src.slice(i, i + 40))) {
        return `${src.slice(0, i)} ${end} ${keyword} ${src.slice(i + 1).trimStart()}`;
      } else if (
        depth === 0 &&
        src.startsWith(end, i) &&
        /\W/.test(src[i - 1]) &&
        /\W/.test(src[i + end.length])
      ) {
        break;
      }
    }
  }
  return src;
}

/** The oracle's text of an expression: the lets it needs as `let` bindings, bindings nested, the date fixed. */
export function oracleExpression(prepared: PreparedPhase, src: string, today: string): string {
  const lets = [...prepared.schema.lets, ...prepared.schema.patterns.flatMap((p) => p.lets)];
  const fix = (s: string): string => nestBindings(s).replace(/current-date\(\)/g, `xs:date('${today}Z')`);
  const needed = new Set<string>();
  const visit = (s: string): void => {
    for (const m of s.matchAll(/\$([\w-]+)/g)) {
      const l = lets.find((x) => x.name === m[1]);
      if (l && !needed.has(l.name)) {
        needed.add(l.name);
        visit(l.value);
      }
    }
  };
  visit(src);
  const used = lets.filter((l) => needed.has(l.name));
  const prefix = used.length
    ? `let ${used.map((l) => `$${l.name} := (${fix(l.value)})`).join(', ')} return `
    : '';
  return `${prefix}(${fix(src)})`;
}

/** Loads slimdom (an ES module) once. */
export async function loadSlimdom(): Promise<(text: string) => unknown> {
  const { parseXmlDocument } = await import('slimdom');
  return parseXmlDocument as (text: string) => unknown;
}

/**
 * Runs the phase with fontoxpath alone: for each pattern, each node takes the first rule whose context
 * selects it; failed asserts are counted. Expressions are rewritten once per phase and date.
 */
export function fontoxpathRun(
  prepared: PreparedPhase,
  dom: unknown,
  today: string,
  rewritten = new Map<string, string>(),
): number {
  const ns = new Map(prepared.schema.namespaces);
  const options = {
    namespaceResolver: (p: string) => ns.get(p) ?? null,
    language: evaluateXPath.XPATH_3_1_LANGUAGE,
  };
  const text = (src: string): string => {
    let t = rewritten.get(src);
    if (t === undefined) {
      t = oracleExpression(prepared, src, today);
      rewritten.set(src, t);
    }
    return t;
  };
  let failed = 0;
  for (const p of prepared.schema.patterns) {
    const claimed = new Set<unknown>();
    for (const r of p.rules) {
      const ctx = r.context.startsWith('/') ? r.context : `//${r.context}`;
      let nodes: unknown[];
      try {
        nodes = evaluateXPath(
          text(ctx),
          dom as never,
          null,
          {},
          evaluateXPath.NODES_TYPE,
          options,
        ) as unknown[];
      } catch {
        continue;
      }
      for (const n of nodes) {
        if (claimed.has(n)) continue;
        claimed.add(n);
        for (const a of r.asserts) {
          try {
            const ok = evaluateXPath(text(a.test), n as never, null, {}, evaluateXPath.BOOLEAN_TYPE, options);
            if (ok !== (a.kind === 'assert')) failed++;
          } catch {
            failed++;
          }
        }
      }
    }
  }
  return failed;
}
