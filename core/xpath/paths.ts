// Location paths as EFX combines them (core/efx's translator is the caller): a field's absolute XPath
// made relative to the context it is read from, two relative paths joined, an axis put in front. It
// lives in the XPath room because it reads XPath text (steps and predicates), which no module outside
// core/xpath does. The rules are those the
// Publications Office's toolkit documents for EFX 1 (eforms-core-java XPathProcessor: contextualize,
// join, addAxis), written anew here: steps are compared with their predicates, a step with more
// predicates than the context's is "narrower" and becomes `.[…]` or `..[…]`. Text in, text out:
// no I/O.

import { splitTopLevel } from './text';

export interface Step {
  /** The step without its predicates: `cac:ProcurementProjectLot`, `*`, `@listName`, `..`, `$x`. */
  text: string;
  /** Each predicate with its brackets: `[cbc:ID/@schemeName='Lot']`. */
  predicates: string[];
}

/** The steps of a location path; a leading `/` is dropped (absolute paths start `/*`). */
export function steps(path: string): Step[] {
  const out: Step[] = [];
  for (const raw of splitTopLevel(path.trim(), '/')) {
    const s = raw.trim();
    if (s === '') continue;
    out.push(splitStep(s));
  }
  return out;
}

function splitStep(s: string): Step {
  const predicates: string[] = [];
  let depth = 0;
  let quote = '';
  let textEnd = -1;
  let from = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '{') depth++;
    else if (c === ')' || c === '}') depth--;
    else if (c === '[') {
      if (depth === 0) {
        if (textEnd < 0) textEnd = i;
        from = i;
      }
      depth++;
    } else if (c === ']') {
      depth--;
      if (depth === 0 && from >= 0) {
        predicates.push(s.slice(from, i + 1));
        from = -1;
      }
    }
  }
  return { text: (textEnd < 0 ? s : s.slice(0, textEnd)).trim(), predicates };
}

const stepText = (s: Step): string => s.text + s.predicates.join('');

function containsAll(a: string[], b: string[]): boolean {
  return b.every((x) => a.includes(x));
}

/** Same step: same name and, predicates aside, the path's are all in the context's. */
function sameStep(path: Step, ctx: Step): boolean {
  if (path.text !== ctx.text) return false;
  if (path.predicates.length !== ctx.predicates.length)
    return path.predicates.length === 0 || containsAll(ctx.predicates, path.predicates);
  return [...path.predicates].sort().join('\u0000') === [...ctx.predicates].sort().join('\u0000');
}

/** The path's step selects a subset of the context's: same name, and all the context's predicates. */
function narrowerStep(path: Step, ctx: Step): boolean {
  if (path.text !== ctx.text || path.predicates.length === ctx.predicates.length) return false;
  return ctx.predicates.length === 0 || containsAll(path.predicates, ctx.predicates);
}

/** `path` (absolute) made relative to `context` (absolute); `.` when they are the same. */
export function contextualize(context: string | undefined, path: string): string {
  if (!context) return path;
  const c = steps(context);
  const p = steps(path);
  while (c.length > 0 && p.length > 0 && sameStep(p[0], c[0])) {
    c.shift();
    p.shift();
  }
  let rel = '';
  if (c.length > 0 && p.length > 0 && narrowerStep(p[0], c[0])) {
    const ctxPreds = (c.shift() as Step).predicates;
    const extra = (p.shift() as Step).predicates.filter((x) => !ctxPreds.includes(x)).join('');
    if (c.length === 0) rel = `.${extra}`;
    else {
      // `..[…]` from the context's next step instead of `../.[…]`.
      c.shift();
      rel = `..${extra}`;
    }
  }
  for (const s of p) rel += `/${stepText(s)}`;
  rel = rel.replace(/^\/+/, '');
  for (let i = 0; i < c.length; i++) rel = `../${rel}`;
  rel = rel.replace(/\/+$/, '');
  return rel === '' ? '.' : rel;
}

/** `second` read from where `first` leads: leading `..` of `second` cancel `first`'s last steps. */
export function joinPaths(first: string, second: string): string {
  if (!first.trim()) return second;
  if (!second.trim()) return first;
  const a = steps(first);
  const b = steps(second);
  while (
    b.length > 0 &&
    a.length > 0 &&
    b[0].text === '..' &&
    b[0].predicates.length === 0 &&
    a[a.length - 1].text !== '..' &&
    a[a.length - 1].text !== '.' &&
    !a[a.length - 1].text.startsWith('$')
  ) {
    b.shift();
    a.pop();
  }
  const left = (first.trim().startsWith('/') ? '/' : '') + a.map(stepText).join('/');
  if (a.length === 0) return b.length === 0 ? '.' : b.map(stepText).join('/');
  if (b.length === 0) return left;
  return `${left}/${b.map(stepText).join('/')}`;
}

/**
 * `axis::` put before a relative path (its leading `..` dropped, as the toolkit does). The XPath
 * subset of core/schematron lacks the `preceding` and `following` axes, so with `expandAxes` they are
 * written with their XPath 2.0 definition (§3.2.1.1): `preceding::x` is
 * `ancestor-or-self::node()/preceding-sibling::node()/descendant-or-self::x`.
 */
export function addAxis(axis: string, path: string, expandAxes: boolean): string {
  const s = steps(path);
  while (s.length > 0 && s[0].text === '..') s.shift();
  if (s.length === 0) return `${axis}::node()`;
  const rest = s.map(stepText);
  if (expandAxes && (axis === 'preceding' || axis === 'following')) {
    return `ancestor-or-self::node()/${axis}-sibling::node()/descendant-or-self::${rest.join('/')}`;
  }
  return `${axis}::${rest.join('/')}`;
}
