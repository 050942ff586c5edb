// Places SVRL assertions on the text of a notice: resolves each `location` XPath (every step form seen
// in SVRL: `cac:X[2]`, `*:X[namespace-uri()='…'][1]`, `Q{uri}X[1]`, no index = first, `@attr`) through
// the report's prefix declarations against an XmlIndex, matching by namespace URI, never by prefix.
// It also builds the one readable message the language server and the command line both show.
// No `vscode` import here, and no I/O: it reads only the index and the parsed report.

import type { Finding, Range, Severity } from '../findings';
import { INPUT_LIMITS, textContent, type XmlIndex } from '../notice';
import { clip } from '../text';
import { isBalanced, splitOutsideBrackets, splitTopLevel } from '../xpath';
import { messageTailsFor } from './message-tails';
import type { SvrlAssertion, SvrlReport } from './report';

export interface ResolvedLocation {
  /** Index into XmlIndex.elements of the selected element (the owner element for an attribute step). */
  element: number;
  /** Index into that element's attributes when the last step is `@attr`. */
  attribute?: number;
}

/** A node of the tiny XPath subset: an element (attr = -1), an attribute, or the document (el = -1). */
interface XNode {
  el: number;
  attr: number;
}

interface Step {
  axis: 'child' | 'attribute' | 'self' | 'parent' | 'descendant';
  /** Namespace URI to match; null = any. */
  ns: string | null;
  /** Local name to match; null = any. */
  local: string | null;
  /** An unprefixed name: no namespace in XPath, but any namespace is accepted when none matches. */
  unprefixed: boolean;
  predicates: string[];
}

/** Raised for XPath this module does not evaluate; the caller treats the answer as unknown. */
class UnsupportedXPath extends Error {}

/** Predicates nested deeper than this are not evaluated: the recursion depth stays bounded. */
const MAX_NESTING = 32;

/** Parses one step (`cac:X[2]`, `*:X[namespace-uri()='u'][1]`, `Q{u}X`, `@a`, `..`, `text()`). */
function parseStep(raw: string, namespaces: Map<string, string>): Step {
  let s = raw.trim();
  let axis: Step['axis'] = 'child';
  if (s === '.' || s === 'self::node()')
    return { axis: 'self', ns: null, local: null, unprefixed: false, predicates: [] };
  if (s === '..' || s === 'parent::node()')
    return { axis: 'parent', ns: null, local: null, unprefixed: false, predicates: [] };
  if (s.startsWith('@')) {
    axis = 'attribute';
    s = s.slice(1);
  } else if (s.startsWith('attribute::')) {
    axis = 'attribute';
    s = s.slice(11);
  } else if (s.startsWith('child::')) s = s.slice(7);
  // The name test ends at the first '[' outside Q{...}.
  let nameEnd = 0;
  if (s.startsWith('Q{')) {
    const close = s.indexOf('}');
    if (close < 0) throw new UnsupportedXPath(raw);
    nameEnd = close + 1;
  }
  const bracket = s.indexOf('[', nameEnd);
  const name = (bracket < 0 ? s : s.slice(0, bracket)).trim();
  const predicates: string[] = [];
  if (bracket >= 0) {
    let depth = 0;
    let quote = '';
    let from = -1;
    for (let i = bracket; i < s.length; i++) {
      const c = s[i];
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '[') {
        if (depth === 0) from = i + 1;
        depth++;
      } else if (c === ']') {
        depth--;
        if (depth === 0) predicates.push(s.slice(from, i));
      } else if (depth === 0 && c.trim() !== '') throw new UnsupportedXPath(raw);
    }
    if (depth !== 0) throw new UnsupportedXPath(raw);
  }
  // text() and node() select the element's own content: the finding goes on the element itself.
  if (axis === 'child' && (name === 'text()' || name === 'node()'))
    return { axis: 'self', ns: null, local: null, unprefixed: false, predicates: [] };
  if (name === '*') return { axis, ns: null, local: null, unprefixed: false, predicates };
  if (name.startsWith('Q{')) {
    const close = name.indexOf('}');
    const local = name.slice(close + 1);
    return {
      axis,
      ns: name.slice(2, close),
      local: local === '*' ? null : local,
      unprefixed: false,
      predicates,
    };
  }
  const colon = name.indexOf(':');
  if (colon < 0) {
    if (!/^[^\s()/'"=]+$/.test(name)) throw new UnsupportedXPath(raw);
    return { axis, ns: '', local: name, unprefixed: true, predicates };
  }
  const prefix = name.slice(0, colon);
  const local = name.slice(colon + 1);
  if (prefix === '*') return { axis, ns: null, local, unprefixed: false, predicates };
  const uri = prefix === 'xml' ? 'http://www.w3.org/XML/1998/namespace' : namespaces.get(prefix);
  if (uri === undefined) throw new UnsupportedXPath(`undeclared prefix ${prefix}`);
  return { axis, ns: uri, local: local === '*' ? null : local, unprefixed: false, predicates };
}

function parsePath(path: string, namespaces: Map<string, string>): { absolute: boolean; steps: Step[] } {
  let p = path.trim();
  const absolute = p.startsWith('/');
  if (absolute) p = p.slice(1);
  if (p === '') return { absolute, steps: [] };
  const steps: Step[] = [];
  let descendant = false;
  for (const raw of splitTopLevel(p, '/')) {
    if (raw.trim() === '') {
      // `//`: the next step searches all descendants.
      descendant = true;
      continue;
    }
    const step = parseStep(raw, namespaces);
    if (descendant) {
      if (step.axis !== 'child') throw new UnsupportedXPath(path);
      step.axis = 'descendant';
      descendant = false;
    }
    steps.push(step);
  }
  return { absolute, steps };
}

/**
 * Evaluates the XPath subset seen in SVRL locations and diagnostic paths against an index.
 * Linear by construction, whatever the report and the notice: no recursion whose depth the input sets
 * (descendants are a contiguous run of the index; predicates nest at most MAX_NESTING deep), node sets
 * are deduplicated between steps, the children of a parent that match a name test are listed once and
 * then indexed (a report with 130,000 findings on 130,000 siblings walks them once, not once per
 * finding). Work is counted: one location may cost at most a few passes over the notice, and all of them
 * together a few passes plus a share per location of the report; past that a location is reported as not
 * evaluated rather than letting one report hold the server or the sandbox for minutes.
 */
class Evaluator {
  private readonly roots: number[];
  private readonly stepCache = new Map<string, { absolute: boolean; steps: Step[] }>();
  /** `parent|ns|local` -> the children of `parent` that match the name test (exactly, or any namespace). */
  private readonly childCache = new Map<string, XNode[]>();
  private depth = 0;
  /** Work done (nodes visited, text read / 16) since the evaluator was made, and at the current location's start. */
  private spent = 0;
  private locationStart = 0;
  /** The most one location may cost, and the most all may cost so far (it grows with each location). */
  private readonly perLocation: number;
  private allowance: number;

  constructor(
    private readonly index: XmlIndex,
    private readonly namespaces: Map<string, string>,
  ) {
    this.roots = [];
    for (let k = 0; k < index.elements.length; k++) if (index.elements[k].parent === -1) this.roots.push(k);
    this.perLocation = 16 * (index.elements.length + 1) + (index.text.length >> 2) + 100_000;
    this.allowance = 2 * this.perLocation;
  }

  select(path: string, context: XNode): XNode[] {
    if (path.length > INPUT_LIMITS.svrlLocationChars.max) throw new UnsupportedXPath('location too long');
    if (this.depth === 0) {
      this.locationStart = this.spent;
      this.allowance += 64 * path.length + 4096;
    }
    if (this.depth >= MAX_NESTING) throw new UnsupportedXPath('predicates nested too deep');
    this.depth++;
    try {
      let parsed = this.stepCache.get(path);
      if (parsed === undefined) {
        parsed = parsePath(path, this.namespaces);
        this.stepCache.set(path, parsed);
      }
      let nodes: XNode[] = [parsed.absolute ? { el: -1, attr: -1 } : context];
      for (const step of parsed.steps) {
        if (nodes.length === 1) {
          // The usual case, without a copy: the answer may be a cached list, which nothing modifies.
          nodes = this.applyStep(nodes[0], step);
          this.spend(1);
          if (nodes.length === 0) break;
          continue;
        }
        let next: XNode[] = [];
        // Context nodes inside the subtree of an earlier one add no new descendants: skip them.
        let coveredUntil = -2;
        for (const n of nodes) {
          if (step.axis === 'descendant' && n.attr < 0) {
            if (n.el <= coveredUntil) continue;
            coveredUntil = n.el < 0 ? this.index.elements.length : this.subtreeEnd(n.el);
          }
          for (const m of this.applyStep(n, step)) next.push(m);
        }
        if (nodes.length > 1 && next.length > 1) next = dedupe(next);
        this.spend(next.length);
        nodes = next;
        if (nodes.length === 0) break;
      }
      return nodes;
    } finally {
      this.depth--;
    }
  }

  private spend(units: number): void {
    this.spent += units;
    if (this.spent > this.allowance || this.spent - this.locationStart > this.perLocation)
      throw new UnsupportedXPath('too costly');
  }

  /** Index of the last element of `el`'s subtree: the subtree is the run of elements whose parent is in it. */
  private subtreeEnd(el: number): number {
    const elements = this.index.elements;
    let k = el + 1;
    while (k < elements.length && elements[k].parent >= el) k++;
    this.spend(k - el);
    return k - 1;
  }

  /** The children of `el` that match the step's name test, listed once per parent and name test. */
  private matchingChildren(el: number, step: Step, anyNs: boolean): XNode[] {
    const key = `${el}|${anyNs || step.ns === null ? '*' : step.ns}|${step.local ?? '*'}`;
    let list = this.childCache.get(key);
    if (list !== undefined) return list;
    const elements = this.index.elements;
    const kids = this.childrenOf(el);
    this.spend(kids.length);
    list = [];
    for (let i = 0; i < kids.length; i++) {
      const e = elements[kids[i]];
      if ((step.local === null || e.local === step.local) && (anyNs || step.ns === null || e.ns === step.ns))
        list.push({ el: kids[i], attr: -1 });
    }
    this.childCache.set(key, list);
    return list;
  }

  private childrenOf(el: number): readonly number[] {
    return el === -1 ? this.roots : this.index.elements[el].children;
  }

  private applyStep(node: XNode, step: Step): XNode[] {
    const elements = this.index.elements;
    let candidates: XNode[] = [];
    if (step.axis === 'self') candidates = [node];
    else if (step.axis === 'parent') {
      if (node.attr >= 0) candidates = [{ el: node.el, attr: -1 }];
      else if (node.el >= 0) candidates = [{ el: elements[node.el].parent, attr: -1 }];
    } else if (node.attr >= 0) {
      candidates = [];
    } else if (step.axis === 'attribute') {
      if (node.el < 0) return [];
      const attrs = elements[node.el].attributes;
      const pick = (anyNs: boolean): void => {
        for (let a = 0; a < attrs.length; a++) {
          const at = attrs[a];
          if (at.ns === 'http://www.w3.org/2000/xmlns/') continue;
          if (
            (step.local === null || at.local === step.local) &&
            (anyNs || step.ns === null || at.ns === step.ns)
          )
            candidates.push({ el: node.el, attr: a });
        }
      };
      pick(false);
    } else if (step.axis === 'child') {
      let list = this.matchingChildren(node.el, step, false);
      if (list.length === 0 && step.unprefixed) list = this.matchingChildren(node.el, step, true);
      // A position first (`cac:X[2]`, the usual form) picks from the cached list without copying it.
      let rest = 0;
      if (step.predicates.length > 0) {
        const at = position(step.predicates[0], list.length);
        if (at !== undefined) {
          rest = 1;
          list = at >= 0 ? [list[at]] : [];
        }
      }
      return this.applyPredicates(list, step.predicates, rest);
    } else {
      // Descendants in document order: the contiguous run of elements after this one that lie in its
      // subtree (all of them for the document node), read in place, without recursion or a copy. A
      // position first (`//cac:X[2]`) stops the walk at that match.
      const first = step.predicates.length > 0 ? step.predicates[0].trim() : '';
      const stopAt = /^\d+$/.test(first) ? Number(first) : Number.POSITIVE_INFINITY;
      const pick = (anyNs: boolean): void => {
        const from = node.el + 1;
        let k = from;
        for (; k < elements.length && (node.el < 0 || elements[k].parent >= node.el); k++) {
          const e = elements[k];
          if (
            (step.local === null || e.local === step.local) &&
            (anyNs || step.ns === null || e.ns === step.ns)
          ) {
            candidates.push({ el: k, attr: -1 });
            if (candidates.length >= stopAt) break;
          }
        }
        this.spend(k - from + 1);
      };
      pick(false);
      if (candidates.length === 0 && step.unprefixed) pick(true);
    }
    return this.applyPredicates(candidates, step.predicates, 0);
  }

  private applyPredicates(nodes: XNode[], predicates: string[], from: number): XNode[] {
    let candidates = nodes;
    for (let k = from; k < predicates.length; k++) {
      candidates = this.filter(candidates, predicates[k]);
      if (candidates.length === 0) break;
    }
    return candidates;
  }

  private filter(nodes: XNode[], predicate: string): XNode[] {
    const at = position(predicate, nodes.length);
    if (at !== undefined) return at >= 0 ? [nodes[at]] : [];
    this.spend(nodes.length);
    const p = predicate.trim();
    return nodes.filter((n) => this.test(p, n));
  }

  /** Boolean value of a predicate expression for one node. */
  private test(expr: string, node: XNode): boolean {
    if (this.depth >= MAX_NESTING) throw new UnsupportedXPath('predicates nested too deep');
    this.depth++;
    try {
      return this.testAt(expr, node);
    } finally {
      this.depth--;
    }
  }

  private testAt(expr: string, node: XNode): boolean {
    const e = stripParens(expr.trim());
    const ors = splitKeyword(e, 'or');
    if (ors.length > 1) return ors.some((x) => this.test(x, node));
    const ands = splitKeyword(e, 'and');
    if (ands.length > 1) return ands.every((x) => this.test(x, node));
    const not = /^not\s*\(([\s\S]*)\)$/.exec(e);
    if (not && isBalanced(not[1])) return !this.test(not[1], node);
    const cmp = splitComparison(e);
    if (cmp) {
      const [lhs, op, rhs] = cmp;
      const left = this.values(lhs, node);
      const right = this.values(rhs, node);
      return left.some((l) => right.some((r) => (op === '=' ? l === r : l !== r)));
    }
    if (/^\d+$/.test(e)) throw new UnsupportedXPath(expr);
    return this.select(e, node).length > 0;
  }

  /** String values of an operand: a literal, a function of the context node, or a path. */
  private values(operand: string, node: XNode): string[] {
    const o = operand.trim();
    const literal = /^(?:'([^']*)'|"([^"]*)")$/.exec(o);
    if (literal) return [literal[1] ?? literal[2]];
    const elements = this.index.elements;
    const el = node.el >= 0 ? elements[node.el] : undefined;
    const at = el && node.attr >= 0 ? el.attributes[node.attr] : undefined;
    if (o === 'namespace-uri()') return [at ? at.ns : (el?.ns ?? '')];
    if (o === 'local-name()') return [at ? at.local : (el?.local ?? '')];
    if (o === 'name()') return [at ? at.qname : (el?.qname ?? '')];
    if (o === '.' || o === 'text()' || o === 'normalize-space()' || o === 'normalize-space(.)') {
      const v = this.stringValue(node);
      return [o.startsWith('normalize') ? v.replace(/\s+/g, ' ').trim() : v];
    }
    if (/[()]/.test(o.replace(/\[[\s\S]*?\]/g, ''))) throw new UnsupportedXPath(operand);
    return this.select(o, node).map((n) => this.stringValue(n));
  }

  private stringValue(node: XNode): string {
    if (node.el < 0) return '';
    const el = this.index.elements[node.el];
    if (node.attr >= 0) {
      const a = el.attributes[node.attr];
      this.spend((a.valueEnd - a.valueStart) >> 4);
      return textOf(this.index.text.slice(a.valueStart, a.valueEnd));
    }
    this.spend(((el.end < 0 ? this.index.text.length : el.end) - el.startTagEnd) >> 4);
    return textContent(this.index, el);
  }
}

/** The zero-based index a positional predicate (`3`, `last()`) picks from `count` nodes (-1: none), or undefined for another predicate. */
function position(predicate: string, count: number): number | undefined {
  const p = predicate.trim();
  if (/^\d+$/.test(p)) {
    const n = Number(p);
    return n >= 1 && n <= count ? n - 1 : -1;
  }
  if (p === 'last()') return count - 1;
  return undefined;
}

/** The node set without repeats, in the order first seen. */
function dedupe(nodes: XNode[]): XNode[] {
  const elements = new Set<number>();
  const attributes = new Set<string>();
  const out: XNode[] = [];
  for (const n of nodes) {
    if (n.attr < 0) {
      if (elements.has(n.el)) continue;
      elements.add(n.el);
    } else {
      const key = `${n.el}@${n.attr}`;
      if (attributes.has(key)) continue;
      attributes.add(key);
    }
    out.push(n);
  }
  return out;
}

function textOf(raw: string): string {
  return raw.replace(/&(lt|gt|amp|quot|apos);/g, (_m, r: string) =>
    r === 'lt' ? '<' : r === 'gt' ? '>' : r === 'amp' ? '&' : r === 'quot' ? '"' : "'",
  );
}

function stripParens(e: string): string {
  let s = e;
  while (s.startsWith('(') && s.endsWith(')') && isBalanced(s.slice(1, -1))) s = s.slice(1, -1).trim();
  return s;
}

/** Splits at a keyword (` and `, ` or `) outside brackets, parentheses and quotes. */
function splitKeyword(e: string, word: string): string[] {
  const at = (i: number) =>
    /\s/.test(e[i] ?? '') && e.startsWith(word, i + 1) && /\s/.test(e[i + 1 + word.length] ?? '')
      ? 1 + word.length
      : 0;
  return splitOutsideBrackets(e, at).map((x) => x.trim());
}

/** `lhs = rhs` or `lhs != rhs` at the top level, or null. */
function splitComparison(e: string): [string, '=' | '!=', string] | null {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < e.length; i++) {
    const c = e[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && c === '=') {
      if (e[i - 1] === '!') return [e.slice(0, i - 1), '!=', e.slice(i + 1)];
      if (e[i - 1] === '<' || e[i - 1] === '>') throw new UnsupportedXPath(e);
      return [e.slice(0, i), '=', e.slice(i + 1)];
    } else if (depth === 0 && (c === '<' || c === '>')) throw new UnsupportedXPath(e);
  }
  return null;
}

function toResolved(node: XNode | undefined): ResolvedLocation | null {
  if (node === undefined || node.el < 0) return null;
  return node.attr >= 0 ? { element: node.el, attribute: node.attr } : { element: node.el };
}

/**
 * Resolves an absolute SVRL location against the index; null when any step selects nothing.
 * `namespaces` maps prefixes to URIs (from the report).
 */
export function resolveLocation(
  index: XmlIndex,
  location: string,
  namespaces: Map<string, string>,
): ResolvedLocation | null {
  if (location.trim() === '') return null;
  try {
    return toResolved(new Evaluator(index, namespaces).select(location, { el: -1, attr: -1 })[0]);
  } catch (e) {
    if (e instanceof UnsupportedXPath) return null;
    throw e;
  }
}

/** Whether a diagnostic reference's relative path selects something from the located node. */
export type ChildPresence = 'present' | 'missing' | 'unknown';

const MAX_TEST_IN_MESSAGE = 160;
/** Official locations are under 1,000 characters; a hostile one is cut, `Finding.location` keeps it whole. */
const MAX_LOCATION_IN_MESSAGE = 1000;
const RAW_KEY = /^[a-z][\w-]*\|[\w-]+\|\S+$/i;

/** Field or node id from `see` (`field:BT-24-Lot` gives BT-24-Lot). */
export function fieldOf(see: string): string | undefined {
  const s = see.trim();
  if (s === '') return undefined;
  const m = /^(?:field|node):(.+)$/.exec(s);
  return m ? m[1] : s;
}

export function severityOf(role: string): Severity {
  const r = role.trim().toUpperCase();
  if (r === 'ERROR' || r === 'FATAL') return 'error';
  if (r === 'INFO' || r === 'INFORMATION') return 'info';
  return 'warning';
}

export interface MessageDetails {
  /** Field or node the assertion concerns. */
  field?: string;
  /** Relative paths of expected children the notice lacks. */
  missing?: string[];
  /** The location could not be found in the notice (the finding sits on the root start tag). */
  unresolved?: boolean;
  /**
   * With `unresolved`: the location was not evaluated (an XPath form this tool does not read, or one
   * over the limits of core/input-limits.ts), so it may well be in the notice.
   */
  unevaluated?: boolean;
  /** Language of the report's messages: the appended words follow it (core/message-tails.ts). */
  language?: string;
}

/**
 * The readable message of an assertion: its text, or for a raw key (`rule|text|BR-…`) a sentence that
 * names the rule and its test; then the flag, the missing children and field, and an unresolved location.
 */
export function assertionMessage(a: SvrlAssertion, details: MessageDetails = {}): string {
  const text = a.text.replace(/\s+/g, ' ').trim();
  const test = a.test.replace(/\s+/g, ' ').trim();
  let message: string;
  if (text === '' || RAW_KEY.test(text)) {
    const rule = a.id || (text ? text.split('|').pop() : '') || 'unnamed rule';
    const verb = a.kind === 'successful-report' ? 'reported' : 'failed';
    // The full test stays in Finding.test; a one-line message shows its start.
    const shown = test.length > MAX_TEST_IN_MESSAGE ? `${test.slice(0, MAX_TEST_IN_MESSAGE - 1)}…` : test;
    message = shown ? `Rule ${rule} ${verb}: ${shown}` : `Rule ${rule} ${verb}.`;
  } else message = text;
  if (a.flag) message = `[${a.flag}] ${message}`;
  const missing = details.missing ?? [];
  const tails = messageTailsFor(details.language);
  if (missing.length > 0) {
    // Predicates make long paths unreadable in a one-line message; `Finding.missing` keeps the full path.
    const what = missing
      .map((m) => m.replace(/\[[^[\]]*(?:\[[^[\]]*\][^[\]]*)*\]/g, (p) => (p.length > 40 ? '' : p)))
      .join(', ');
    message += tails.missing(what, details.field);
  } else if (details.field && !message.includes(details.field)) message += tails.field(details.field);
  if (details.unresolved) {
    const at = clip(a.location, MAX_LOCATION_IN_MESSAGE);
    message += !a.location
      ? tails.noLocation
      : details.unevaluated
        ? tails.notEvaluated(at)
        : tails.notInNotice(at);
  }
  return message;
}

/** Every assertion of the report as a Finding on the notice; none is dropped. */
export function mapSvrl(index: XmlIndex, report: SvrlReport, options: { language?: string } = {}): Finding[] {
  const evaluator = new Evaluator(index, report.namespaces);
  /** location -> the node, null when it selects nothing, undefined-in-map when it was not evaluated. */
  const resolvedCache = new Map<string, XNode | null | 'unevaluated'>();
  const rootRange = rangeOfRoot(index);
  const findings: Finding[] = [];
  for (const a of report.assertions) {
    let cached = resolvedCache.get(a.location);
    if (cached === undefined) {
      cached = null;
      if (a.location !== '') {
        try {
          const found = evaluator.select(a.location, { el: -1, attr: -1 })[0];
          if (found !== undefined && found.el >= 0) cached = found;
        } catch (e) {
          if (!(e instanceof UnsupportedXPath)) throw e;
          cached = 'unevaluated';
        }
      }
      resolvedCache.set(a.location, cached);
    }
    const node = cached === 'unevaluated' ? null : cached;
    let field: string | undefined;
    const missing: string[] = [];
    for (const ref of a.diagnosticReferences) {
      field ??= fieldOf(ref.see);
      if (node !== null && ref.path !== '' && presence(evaluator, ref.path, node) === 'missing') {
        missing.push(ref.path);
      }
    }
    const range: Range = node === null ? rootRange : rangeOfNode(index, node);
    const finding: Finding = {
      id: a.id,
      severity: severityOf(a.role),
      message: assertionMessage(a, {
        field,
        missing,
        unresolved: node === null,
        unevaluated: cached === 'unevaluated',
        language: options.language,
      }),
      location: a.location,
      range,
      source: 'cvs',
      test: a.test,
      resolved: node !== null,
    };
    if (a.flag) finding.flag = a.flag;
    if (field !== undefined) finding.field = field;
    if (missing.length > 0) finding.missing = missing[0];
    findings.push(finding);
  }
  return findings;
}

function presence(evaluator: Evaluator, path: string, node: XNode): ChildPresence {
  try {
    return evaluator.select(path, node).length > 0 ? 'present' : 'missing';
  } catch (e) {
    if (e instanceof UnsupportedXPath) return 'unknown';
    throw e;
  }
}

function rangeOfNode(index: XmlIndex, node: XNode): Range {
  const el = index.elements[node.el];
  if (node.attr >= 0) {
    const a = el.attributes[node.attr];
    return { start: index.positionAt(a.start), end: index.positionAt(a.nameEnd) };
  }
  return { start: index.positionAt(el.start), end: index.positionAt(el.nameEnd) };
}

/** The root start tag's name, or the start of the text when the notice has no element at all. */
export function rangeOfRoot(index: XmlIndex): Range {
  const root = index.elements[0];
  if (root === undefined) {
    const p = index.positionAt(0);
    return { start: p, end: p };
  }
  return { start: index.positionAt(root.start), end: index.positionAt(root.nameEnd) };
}
