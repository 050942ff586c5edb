// Places SVRL assertions on the text of a notice: resolves each `location` XPath (every step form seen
// in SVRL: `cac:X[2]`, `*:X[namespace-uri()='…'][1]`, `Q{uri}X[1]`, no index = first, `@attr`) through
// the report's prefix declarations against an XmlIndex, matching by namespace URI, never by prefix.
// The locations are read and evaluated by the XPath engine's location mode (core/xpath LocationReader);
// this module never parses XPath itself.
// It also builds the one readable message the language server and the command line both show.
// No `vscode` import here, and no I/O: it reads only the index and the parsed report.

import type { Finding, Range, Severity } from '../findings';
import { INPUT_LIMITS, type XmlIndex } from '../notice';
import { clip } from '../text';
import { LocationReader, LocationUnsupported, type LocNode, type NodeRef } from '../xpath';
import { messageTailsFor } from './message-tails';
import type { SvrlAssertion, SvrlReport } from './report';

export interface ResolvedLocation {
  /** Index into XmlIndex.elements of the selected element (the owner element for an attribute step). */
  element: number;
  /** Index into that element's attributes when the last step is `@attr`. */
  attribute?: number;
}

function toResolved(node: LocNode | undefined): ResolvedLocation | null {
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
    return toResolved(new LocationReader(index, namespaces).select(location)[0]);
  } catch (e) {
    if (e instanceof LocationUnsupported) return null;
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
  const text = oneLine(a.text);
  let message: string;
  if (text === '' || RAW_KEY.test(text)) {
    const test = oneLine(a.test);
    const rule = a.id || (text ? text.split('|').pop() : '');
    const subject = rule ? `Rule ${rule}` : 'A rule without a name';
    const verb = a.kind === 'successful-report' ? 'reported' : 'failed';
    // The full test stays in Finding.test; a one-line message shows its start.
    const shown = test.length > MAX_TEST_IN_MESSAGE ? `${test.slice(0, MAX_TEST_IN_MESSAGE - 1)}…` : test;
    message = shown ? `${subject} ${verb}: ${shown}` : `${subject} ${verb}.`;
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

/**
 * The text on one line: runs of white space as one space, none at the ends. A text that is so already
 * (nearly every one) is returned as it is, without a copy: a batch maps tens of thousands.
 */
function oneLine(s: string): string {
  return /[^\S ]| {2}|^ | $/.test(s) ? s.replace(/\s+/g, ' ').trim() : s;
}

/**
 * One string per distinct test: a report read from a worker brings a copy of the test with every
 * assertion, which the finding would keep until the batch is printed (a few hundred tests in tens of
 * thousands of findings). Bounded.
 */
const tests = new Map<string, string>();

function kept(test: string): string {
  const hit = tests.get(test);
  if (hit !== undefined) return hit;
  if (tests.size >= 20_000) tests.clear();
  tests.set(test, test);
  return test;
}

/** The id of the finding that stands for the assertions past the findings limit. */
export const FINDINGS_OMITTED = 'findings-omitted';

/**
 * Every assertion of the report as a Finding on the notice, up to the findings limit
 * (INPUT_LIMITS.findings); past it, one more finding on the root element says how many were left out.
 */
export function mapSvrl(index: XmlIndex, report: SvrlReport, options: { language?: string } = {}): Finding[] {
  const evaluator = new LocationReader(index, report.namespaces);
  /** location -> the node, null when it selects nothing, undefined-in-map when it was not evaluated. */
  const resolvedCache = new Map<string, LocNode | null | 'unevaluated'>();
  const rootRange = rangeOfRoot(index);
  const findings: Finding[] = [];
  const assertions = report.assertions;
  const shown = Math.min(assertions.length, INPUT_LIMITS.findings.max);
  for (let i = 0; i < shown; i++) {
    const a = assertions[i];
    // The engine's own failures carry their node: placed there, the location is not read back.
    let cached: LocNode | null | 'unevaluated' | undefined =
      a.node !== undefined ? nodeIn(index, a.node) : undefined;
    if (cached === undefined) cached = resolvedCache.get(a.location);
    if (cached === undefined) {
      cached = null;
      if (a.location !== '') {
        try {
          const found = evaluator.select(a.location)[0];
          if (found !== undefined && found.el >= 0) cached = found;
        } catch (e) {
          if (!(e instanceof LocationUnsupported)) throw e;
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
      test: kept(a.test),
      resolved: node !== null,
    };
    if (a.flag) finding.flag = a.flag;
    if (field !== undefined) finding.field = field;
    if (missing.length > 0) finding.missing = missing[0];
    findings.push(finding);
  }
  const left = assertions.length - shown + (report.omitted ?? 0);
  if (left > 0)
    findings.push({
      id: FINDINGS_OMITTED,
      severity: 'warning',
      message: messageTailsFor(options.language).omitted(left, shown),
      location: '',
      range: rootRange,
      source: 'cvs',
      resolved: true,
    });
  return findings;
}

/** The node a NodeRef names, if this index still has it there (the same text, or one edited elsewhere). */
function nodeIn(index: XmlIndex, ref: NodeRef): LocNode | undefined {
  const el = index.element(ref.element);
  if (el === undefined) return undefined;
  if (ref.attribute === undefined) return el.start === ref.start ? { el: ref.element, attr: -1 } : undefined;
  const at = el.attributes[ref.attribute];
  return at !== undefined && at.start === ref.start ? { el: ref.element, attr: ref.attribute } : undefined;
}

function presence(evaluator: LocationReader, path: string, node: LocNode): ChildPresence {
  try {
    return evaluator.select(path, node).length > 0 ? 'present' : 'missing';
  } catch (e) {
    if (e instanceof LocationUnsupported) return 'unknown';
    throw e;
  }
}

function rangeOfNode(index: XmlIndex, node: LocNode): Range {
  const el = index.element(node.el);
  if (el === undefined) return rangeOfRoot(index);
  if (node.attr >= 0) {
    const a = el.attributes[node.attr];
    return { start: index.positionAt(a.start), end: index.positionAt(a.nameEnd) };
  }
  return { start: index.positionAt(el.start), end: index.positionAt(el.nameEnd) };
}

/** The root start tag's name, or the start of the text when the notice has no element at all. */
export function rangeOfRoot(index: XmlIndex): Range {
  const root = index.element(0);
  if (root === undefined) {
    const p = index.positionAt(0);
    return { start: p, end: p };
  }
  return { start: index.positionAt(root.start), end: index.positionAt(root.nameEnd) };
}
