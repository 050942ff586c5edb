// The engine's location mode: paths that name one node of a notice (SVRL `location`s such as
// `/*:ContractNotice[namespace-uri()='…'][1]/cac:X[2]/@attr`, `Q{uri}X[1]`, `cac:X[2]`, and the relative
// paths of diagnostic references), read by the one parser (parser.ts) and evaluated over the notice's
// index. Path steps walk the index directly (descendants are a contiguous run, the children of a parent
// that match a name test are listed once), positions pick from those lists, and every other predicate
// is compiled by compile.ts and run on the XPath data model (document.ts). Two leniencies, both from the
// SVRL the services write: an unprefixed name matches any namespace when no element in no namespace
// matches, and `text()`/`node()` select the element itself (a finding goes on the element).
// It must never parse XPath text itself, nor hold the caller for long: work is counted, and a location
// past its share is refused with LocationUnsupported, as is any form it does not evaluate. No I/O.

import { childrenOf, INPUT_LIMITS, type XmlIndex } from '../notice';
import { type Compiled, compile, ebv, Runtime, XPathUnsupportedError } from './compile';
import { XDocument, type XNode } from './document';
import { type Ast, type NodeTest, parseXPath, XPathSyntaxError } from './parser';
import { parseDate, XPathDynamicError } from './values';

/** A node of a location: an element (attr = -1), one of its attributes (index in XmlElement.attributes), or the document (el = -1). */
export interface LocNode {
  el: number;
  attr: number;
}

/** Raised for a location this module does not evaluate; the caller treats the answer as unknown. */
export class LocationUnsupported extends Error {
  override name = 'LocationUnsupported';
}

type StepAxis = 'child' | 'attribute' | 'self' | 'parent' | 'descendant';

interface Step {
  axis: StepAxis;
  /** Namespace URI to match; null = any. */
  ns: string | null;
  /** Local name to match; null = any. */
  local: string | null;
  /** An unprefixed name: no namespace in XPath, but any namespace is accepted when none matches. */
  unprefixed: boolean;
  /** Positional predicates are numbers (1-based; 0 for none), `last` for `last()`; others compiled. */
  predicates: (number | 'last' | Compiled)[];
}

interface Plan {
  absolute: boolean;
  steps: Step[];
}

const DOCUMENT_NODE: LocNode = { el: -1, attr: -1 };
/** The plan of a location that can select nothing (see plan()). */
const NOTHING: Plan = { absolute: true, steps: [] };

/**
 * Evaluates locations against one index. Linear by construction, whatever the report and the notice: no
 * recursion whose depth the input sets (descendants are a contiguous run of the index; the parser bounds
 * nesting), node sets are deduplicated between steps, the children of a parent that match a name test
 * are listed once and then indexed (a report with 130,000 findings on 130,000 siblings walks them once,
 * not once per finding). Work is counted: one location may cost at most a few passes over the notice,
 * and all of them together a few passes plus a share per location; past that a location is refused
 * rather than letting one report hold the server or the sandbox for minutes.
 */
export class LocationReader {
  private readonly roots: number[];
  private readonly plans = new Map<string, Plan>();
  /** `parent|ns|local` -> the children of `parent` that match the name test (exactly, or any namespace). */
  private readonly childCache = new Map<string, LocNode[]>();
  private spent = 0;
  private locationStart = 0;
  private readonly perLocation: number;
  private allowance: number;
  /** The data model and runtime for compiled predicates, made on first use (most locations need none). */
  private doc: XDocument | undefined;
  private readonly rt = new Runtime();
  private readonly nodeOf = new Map<number, XNode>();
  private parsed: Map<string, Ast | XPathSyntaxError> | undefined;
  /** Namespace URI -> a small number, for the child cache's keys (URIs are long). */
  private readonly nsIds = new Map<string, number>();

  constructor(
    private readonly index: XmlIndex,
    private readonly namespaces: ReadonlyMap<string, string>,
  ) {
    // Read from the index's table: a location reader makes no object per element.
    this.roots = childrenOf(index.table, -1);
    this.perLocation = 16 * (index.table.count + 1) + (index.text.length >> 2) + 100_000;
    this.allowance = 2 * this.perLocation;
  }

  /** The nodes `path` selects from `context` (the document node for absolute paths), in document order. */
  select(path: string, context: LocNode = DOCUMENT_NODE): LocNode[] {
    if (path.length > INPUT_LIMITS.svrlLocationChars.max) throw new LocationUnsupported('location too long');
    this.locationStart = this.spent;
    this.allowance += 64 * path.length + 4096;
    const plan = this.plan(path);
    if (plan === NOTHING) return [];
    let nodes: LocNode[] = [plan.absolute ? DOCUMENT_NODE : context];
    for (const step of plan.steps) {
      if (nodes.length === 1) {
        // The usual case, without a copy: the answer may be a cached list, which nothing modifies.
        nodes = this.applyStep(nodes[0], step);
        this.spend(1);
        if (nodes.length === 0) break;
        continue;
      }
      let next: LocNode[] = [];
      // Context nodes inside the subtree of an earlier one add no new descendants: skip them.
      let coveredUntil = -2;
      for (const n of nodes) {
        if (step.axis === 'descendant' && n.attr < 0) {
          if (n.el <= coveredUntil) continue;
          coveredUntil = n.el < 0 ? this.index.table.count : this.subtreeEnd(n.el);
        }
        for (const m of this.applyStep(n, step)) next.push(m);
      }
      if (next.length > 1) next = dedupe(next);
      this.spend(next.length);
      nodes = next;
      if (nodes.length === 0) break;
    }
    return nodes;
  }

  private plan(path: string): Plan {
    let plan = this.plans.get(path);
    if (plan === undefined) {
      this.parsed ??= parsedFor(namespacesKey(this.namespaces));
      const ast = parsedLocation(path, this.namespaces, this.parsed);
      if (ast instanceof XPathSyntaxError) {
        // A control character (C0, DEL, C1) can be in no XML name: the location names nothing this
        // notice has, which is an answer (not found), not a form this reader cannot evaluate.
        const c = path.charCodeAt(ast.at);
        if (!((c < 0x20 && c !== 9 && c !== 10 && c !== 13) || (c >= 0x7f && c <= 0x9f)))
          throw new LocationUnsupported(ast.message);
        plan = NOTHING;
      } else plan = this.planOf(ast);
      this.plans.set(path, plan);
    }
    return plan;
  }

  /** The steps of a path AST, or LocationUnsupported for an expression that is not a location path. */
  private planOf(ast: Ast): Plan {
    const asts = ast.t === 'path' ? ast.steps : [ast];
    const absolute = asts[0]?.t === 'root';
    const steps: Step[] = [];
    for (let i = absolute ? 1 : 0; i < asts.length; i++) {
      const a = asts[i];
      if (a.t === 'ctx') {
        steps.push(selfStep([]));
        continue;
      }
      if (a.t === 'filter' && a.base.t === 'ctx') {
        steps.push(selfStep(this.predicates(a.preds)));
        continue;
      }
      if (a.t !== 'step') throw new LocationUnsupported(`not a location step: ${a.t}`);
      if (
        a.axis === 'descendant-or-self' &&
        a.test.k === 'kind' &&
        a.test.kind === 'node' &&
        a.preds.length === 0
      ) {
        // `//`: the next step, a child step, searches all descendants.
        const next = asts[i + 1];
        if (next?.t !== 'step' || next.axis !== 'child' || next.test.k !== 'name')
          throw new LocationUnsupported('// before a step other than a named child');
        steps.push(this.stepOf('descendant', next.test, next.preds));
        i++;
        continue;
      }
      if ((a.axis === 'self' || a.axis === 'parent') && a.test.k === 'kind' && a.test.kind === 'node') {
        steps.push({ ...selfStep(this.predicates(a.preds)), axis: a.axis });
        continue;
      }
      if (a.axis === 'child' && a.test.k === 'kind' && (a.test.kind === 'text' || a.test.kind === 'node')) {
        // text() and node() select the element's own content: the finding goes on the element itself.
        steps.push(selfStep([]));
        continue;
      }
      if ((a.axis === 'child' || a.axis === 'attribute' || a.axis === 'descendant') && a.test.k === 'name') {
        steps.push(this.stepOf(a.axis, a.test, a.preds));
        continue;
      }
      throw new LocationUnsupported(`step ${a.axis}::${a.test.k} is not a location step`);
    }
    return { absolute, steps };
  }

  private stepOf(axis: StepAxis, test: Extract<NodeTest, { k: 'name' }>, preds: Ast[]): Step {
    return {
      axis,
      ns: test.ns ?? null,
      local: test.local ?? null,
      unprefixed: test.unprefixed === true,
      predicates: this.predicates(preds),
    };
  }

  private predicates(preds: Ast[]): Step['predicates'] {
    return preds.map((p) => {
      if (p.t === 'num') return p.int && p.v >= 1 ? p.v : 0;
      if (p.t === 'call' && p.fn === 'last' && p.args.length === 0) return 'last';
      try {
        return compile(p, this.rt, { globals: new Map(), locals: new Map(), nextSlot: { n: 0 } });
      } catch (e) {
        if (e instanceof XPathUnsupportedError) throw new LocationUnsupported(e.message);
        throw e;
      }
    });
  }

  private spend(units: number): void {
    this.spent += units;
    if (this.spent > this.allowance || this.spent - this.locationStart > this.perLocation)
      throw new LocationUnsupported('too costly');
  }

  /** Index of the last element of `el`'s subtree, charged as the walk over it that it replaces. */
  private subtreeEnd(el: number): number {
    const last = this.index.table.last[el];
    this.spend(last - el + 1);
    return last;
  }

  /** The children of `el` that match the step's name test, listed once per parent and name test. */
  private matchingChildren(el: number, step: Step, anyNs: boolean): LocNode[] {
    const key = `${el}|${anyNs || step.ns === null ? '*' : this.nsId(step.ns)}|${step.local ?? '*'}`;
    let list = this.childCache.get(key);
    if (list !== undefined) return list;
    const t = this.index.table;
    const kids = el === -1 ? this.roots : childrenOf(t, el);
    this.spend(kids.length);
    list = [];
    for (let i = 0; i < kids.length; i++) {
      const e = t.names[t.name[kids[i]]];
      if ((step.local === null || e.local === step.local) && (anyNs || step.ns === null || e.ns === step.ns))
        list.push({ el: kids[i], attr: -1 });
    }
    this.childCache.set(key, list);
    return list;
  }

  private nsId(ns: string): number {
    let id = this.nsIds.get(ns);
    if (id === undefined) {
      id = this.nsIds.size;
      this.nsIds.set(ns, id);
    }
    return id;
  }

  private applyStep(node: LocNode, step: Step): LocNode[] {
    const t = this.index.table;
    const candidates: LocNode[] = [];
    if (step.axis === 'self') candidates.push(node);
    else if (step.axis === 'parent') {
      if (node.attr >= 0) candidates.push({ el: node.el, attr: -1 });
      else if (node.el >= 0) candidates.push({ el: t.parent[node.el], attr: -1 });
    } else if (node.attr >= 0) {
      // Attributes have no children, attributes or descendants.
    } else if (step.axis === 'attribute') {
      if (node.el < 0) return [];
      const first = t.firstAttribute[node.el];
      for (let a = first; a < t.firstAttribute[node.el + 1]; a++) {
        const at = t.names[t.attributeName[a]];
        if (at.ns === 'http://www.w3.org/2000/xmlns/') continue;
        if ((step.local === null || at.local === step.local) && (step.ns === null || at.ns === step.ns))
          candidates.push({ el: node.el, attr: a - first });
      }
    } else if (step.axis === 'child') {
      let list = this.matchingChildren(node.el, step, false);
      if (list.length === 0 && step.unprefixed) list = this.matchingChildren(node.el, step, true);
      // A position first (`cac:X[2]`, the usual form) picks from the cached list without copying it.
      const first = step.predicates[0];
      if (typeof first === 'number' || first === 'last') {
        const at = first === 'last' ? list.length - 1 : first - 1;
        return this.applyPredicates(at >= 0 && at < list.length ? [list[at]] : [], step.predicates, 1);
      }
      return this.applyPredicates(list, step.predicates, 0);
    } else {
      // Descendants in document order: the contiguous run of elements after this one that lie in its
      // subtree (all of them for the document node), read in place, without recursion or a copy. A
      // position first (`//cac:X[2]`) picks from the run in document order and stops the walk there.
      const first = step.predicates[0];
      const stopAt = typeof first === 'number' ? first : Number.POSITIVE_INFINITY;
      const pick = (anyNs: boolean): void => {
        const from = node.el + 1;
        let k = from;
        const to = node.el < 0 ? t.count - 1 : t.last[node.el];
        for (; k <= to; k++) {
          const e = t.names[t.name[k]];
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

  private applyPredicates(nodes: LocNode[], predicates: Step['predicates'], from: number): LocNode[] {
    let candidates = nodes;
    for (let k = from; k < predicates.length && candidates.length > 0; k++) {
      const p = predicates[k];
      if (typeof p === 'number' || p === 'last') {
        const at = p === 'last' ? candidates.length - 1 : p - 1;
        candidates = at >= 0 && at < candidates.length ? [candidates[at]] : [];
        continue;
      }
      candidates = this.filter(candidates, p);
    }
    return candidates;
  }

  /** The nodes for which a compiled predicate holds (a number: equals their position). */
  private filter(nodes: LocNode[], predicate: Compiled): LocNode[] {
    this.spend(nodes.length);
    const out: LocNode[] = [];
    const size = nodes.length;
    try {
      for (let i = 0; i < size; i++) {
        const item = this.xnode(nodes[i]);
        const r = predicate({ item, pos: i + 1, size });
        this.spend(1);
        if (r.length === 1 && typeof r[0] === 'number' ? r[0] === i + 1 : ebv(r)) out.push(nodes[i]);
      }
    } catch (e) {
      if (e instanceof XPathDynamicError || e instanceof RangeError) throw new LocationUnsupported(e.message);
      throw e;
    }
    return out;
  }

  /** The data-model node of a location node; the document and runtime are made on first use. */
  private xnode(n: LocNode): XNode {
    let doc = this.doc;
    if (doc === undefined) {
      doc = new XDocument(this.index);
      this.doc = doc;
      this.rt.reset(doc, parseDate(new Date().toISOString().slice(0, 10)));
    }
    if (n.el < 0) return doc.node;
    const element = doc.elements[n.el];
    if (n.attr < 0) return element;
    const key = n.el * 65_536 + n.attr;
    let found = this.nodeOf.get(key);
    if (found === undefined) {
      // The data model leaves namespace declarations out: find the attribute by its offset.
      const t = this.index.table;
      const start = t.attributeStart[t.firstAttribute[n.el] + n.attr];
      found = element.attrs.find((a) => a.order === start) ?? element;
      this.nodeOf.set(key, found);
    }
    return found;
  }
}

/**
 * Parsed locations, shared by every reader: a report's findings are placed again on each edit of the
 * notice (a new index each time), and its locations read the same every time. Keyed by the report's
 * prefix declarations and the text; bounded (emptied when full), so a hostile stream of reports cannot
 * grow it.
 */
const PARSED = new Map<string, Map<string, Ast | XPathSyntaxError>>();
const PARSED_MAX = 20_000;
let parsedCount = 0;

/** The parsed locations of reports with these prefix declarations (one lookup per reader). */
function parsedFor(nsKey: string): Map<string, Ast | XPathSyntaxError> {
  let byPath = PARSED.get(nsKey);
  if (byPath === undefined) {
    byPath = new Map();
    if (PARSED.size >= 64) PARSED.clear();
    PARSED.set(nsKey, byPath);
  }
  return byPath;
}

function parsedLocation(
  path: string,
  namespaces: ReadonlyMap<string, string>,
  byPath: Map<string, Ast | XPathSyntaxError>,
): Ast | XPathSyntaxError {
  let ast = byPath.get(path);
  if (ast === undefined) {
    try {
      ast = parseXPath(path, namespaces, { markUnprefixed: true });
    } catch (e) {
      if (!(e instanceof XPathSyntaxError)) throw e;
      ast = e;
    }
    if (parsedCount >= PARSED_MAX) {
      // A reader still holding its map keeps using it; it is simply no longer shared.
      PARSED.clear();
      parsedCount = 0;
    }
    byPath.set(path, ast);
    parsedCount++;
  }
  return ast;
}

function namespacesKey(namespaces: ReadonlyMap<string, string>): string {
  let key = '';
  for (const [prefix, uri] of namespaces) key += `${prefix}=${uri}\u0001`;
  return key;
}

function selfStep(predicates: Step['predicates']): Step {
  return { axis: 'self', ns: null, local: null, unprefixed: false, predicates };
}

/** The node set without repeats, in the order first seen. */
function dedupe(nodes: LocNode[]): LocNode[] {
  const elements = new Set<number>();
  const attributes = new Set<string>();
  const out: LocNode[] = [];
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
