// Completes findings with what the SDK and the notice know, once, for every front end: the element
// each finding is placed on, the documentation link of a business rule, and the other fields the rule
// involves located in the notice (with their labels). The server maps the result to diagnostics and
// the CLI to JSON and SARIF; neither adds anything afterwards. Pure: no I/O, no `vscode` import.

import type { Finding, RelatedPlace } from '../findings';
import { elementStartingAt, firstElementFrom, type XmlElement, type XmlIndex } from '../notice';
import { ruleDocUrl } from './hover';
import { locateField } from './notice-facts';
import { composeRuleMessage } from './rule-message';
import type { SdkKnowledge } from './sdk-knowledge';

/** Related places per finding: more would bury the one the rule is about. */
export const MAX_RELATED = 3;

/** The ids of the SDK's business rules, the ones the TED documentation lists. */
const BUSINESS_RULE = /^BR-[A-Z]+-\d{5}-\d{4}$/;

export interface CompletionContext {
  index: XmlIndex;
  /** The SDK the notice is served with; without it, no related places (links and nodes still). */
  sdk?: SdkKnowledge;
  /** Language of the field labels. */
  language?: string;
}

/** The same findings, each completed (new objects; the input is left as it is). */
export function completeFindings(findings: readonly Finding[], c: CompletionContext): Finding[] {
  if (findings.length === 0) return [];
  // Each involved field is looked for once in this notice, however many findings name it.
  const places = new Map<string, Place | null>();
  return findings.map((f) => completeOne(f, c, places));
}

export function completeFinding(f: Finding, c: CompletionContext): Finding {
  return completeFindings([f], c)[0] as Finding;
}

/** Where an involved field is in the notice, and how a related place names it. */
interface Place {
  start: number;
  end: number;
  message: string;
}

/** The optional keys of a Finding. */
type OptionalKey = { [K in keyof Finding]-?: undefined extends Finding[K] ? K : never }[keyof Finding];

/** Every optional key: a key added to Finding must be added here (the compiler asks for it). */
const OPTIONAL: { [K in OptionalKey]: true } = {
  sdkVersion: true,
  flag: true,
  test: true,
  field: true,
  missing: true,
  moveTo: true,
  node: true,
  help: true,
  related: true,
};
const OPTIONAL_KEYS = Object.keys(OPTIONAL) as OptionalKey[];

/**
 * A copy of the finding with the fields it holds. `{ ...f }` did the same, but findings come in many
 * shapes (flag, field, missing…), and a spread over many shapes took V8's slow path: 3 µs a finding.
 */
function copyOf(f: Finding): Finding {
  const out: Finding = {
    id: f.id,
    severity: f.severity,
    message: f.message,
    location: f.location,
    range: f.range,
    source: f.source,
    resolved: f.resolved,
  };
  const to = out as unknown as Record<OptionalKey, unknown>;
  const from = f as unknown as Record<OptionalKey, unknown>;
  for (const k of OPTIONAL_KEYS) if (from[k] !== undefined) to[k] = from[k];
  return out;
}

function completeOne(f: Finding, c: CompletionContext, places: Map<string, Place | null>): Finding {
  const out = copyOf(f);
  const element = elementAt(c.index, f);
  if (element && out.node === undefined) out.node = element.qname;
  const related: RelatedPlace[] = [];
  if (c.sdk) {
    // Without the SDK's own text for the rule, a sentence from the test's shape and the SDK's labels;
    // the rule id and its XPath go to a related place on the finding itself, never into the message.
    const composed = composeRuleMessage(f, element ?? ownerOf(c.index, f), {
      index: c.index,
      sdk: c.sdk,
      language: c.language ?? 'en',
    });
    if (composed !== undefined && f.test) {
      out.message = composed;
      related.push({ range: f.range, message: ruleLine(f.id, f.test) });
    }
  }
  if (!BUSINESS_RULE.test(f.id)) return withRelated(out, related);
  out.help = docUrl(f.id);
  const rule = c.sdk?.ruleFields(f.id);
  if (!c.sdk || !rule || rule.involved.length === 0) return withRelated(out, related);
  for (const id of rule.involved.slice(0, MAX_RELATED)) {
    let place = places.get(id);
    if (place === undefined) {
      const e = locateField(c.index, c.sdk, id);
      place = e
        ? { start: e.start, end: e.nameEnd, message: fieldLine(c.sdk, id, c.language ?? 'en') }
        : null;
      places.set(id, place);
    }
    if (!place) continue;
    related.push({
      range: { start: c.index.positionAt(place.start), end: c.index.positionAt(place.end) },
      message: place.message,
    });
  }
  return withRelated(out, related);
}

/** The test as shown in a related place: one line, clipped. */
const MAX_TEST_SHOWN = 500;

function oneLine(s: string, max: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/*
 * The strings a batch repeats in tens of thousands of findings, kept: one string per rule (and test)
 * instead of one per finding, which the findings hold until the batch is printed.
 */
const ruleLines = new Map<string, Map<string, string>>();
const docUrls = new Map<string, string>();
const MAX_KEPT = 20_000;

/** The related place's words for the rule itself: its id and its test on one line. */
function ruleLine(id: string, test: string): string {
  let byTest = ruleLines.get(id);
  let line = byTest?.get(test);
  if (line === undefined) {
    line = `Rule ${id}: ${shownTest(test)}`;
    if (!byTest) {
      if (ruleLines.size >= MAX_KEPT) ruleLines.clear();
      byTest = new Map();
      ruleLines.set(id, byTest);
    }
    if (byTest.size >= MAX_KEPT) byTest.clear();
    byTest.set(test, line);
  }
  return line;
}

/** A related place's words for an involved field: its id and label, per SDK and language. */
const fieldLines = new WeakMap<SdkKnowledge, Map<string, string>>();

function fieldLine(sdk: SdkKnowledge, id: string, language: string): string {
  let lines = fieldLines.get(sdk);
  if (!lines) {
    lines = new Map();
    fieldLines.set(sdk, lines);
  }
  const key = `${language}\u0000${id}`;
  let line = lines.get(key);
  if (line === undefined) {
    line = `${id} · ${sdk.fieldLabel(id, language)}`;
    if (lines.size >= MAX_KEPT) lines.clear();
    lines.set(key, line);
  }
  return line;
}

/** oneLine of each test: the SDK repeats a test under a rule id per subtype. */
const shownTests = new Map<string, string>();

function shownTest(test: string): string {
  let shown = shownTests.get(test);
  if (shown === undefined) {
    shown = oneLine(test, MAX_TEST_SHOWN);
    if (shownTests.size >= MAX_KEPT) shownTests.clear();
    shownTests.set(test, shown);
  }
  return shown;
}

function docUrl(id: string): string {
  let url = docUrls.get(id);
  if (url === undefined) {
    url = ruleDocUrl(id);
    if (docUrls.size >= MAX_KEPT) docUrls.clear();
    docUrls.set(id, url);
  }
  return url;
}

function withRelated(out: Finding, related: RelatedPlace[]): Finding {
  if (related.length > 0) out.related = related;
  return out;
}

/** The element whose start tag holds the finding's start (an attribute's place), if it is resolved. */
function ownerOf(index: XmlIndex, f: Finding): XmlElement | undefined {
  const offset = startOffset(index, f);
  if (offset === undefined) return undefined;
  // Elements are in document order of their start: the last one starting before the offset, or an
  // ancestor of it, is the one whose start tag holds it.
  // Read from the table: a batch places every finding, and objects for all elements cost more.
  const t = index.table;
  for (let k = firstElementFrom(t, offset + 1) - 1; k >= 0; k = t.parent[k])
    if (t.start[k] <= offset && offset < t.startTagEnd[k]) return index.element(k);
  return undefined;
}

/** The element whose start tag the finding starts on (placements start at `<`), if any. */
function elementAt(index: XmlIndex, f: Finding): XmlElement | undefined {
  const offset = startOffset(index, f);
  if (offset === undefined) return undefined;
  // The first element starting at the offset, found by halving (a map of every element's start, built
  // per notice, cost more than all the lookups).
  const k = elementStartingAt(index.table, offset);
  return k < 0 ? undefined : index.element(k);
}

/** The offset of a resolved finding's start; undefined when it is not placed or not in this text. */
function startOffset(index: XmlIndex, f: Finding): number | undefined {
  if (!f.resolved) return undefined;
  try {
    return index.offsetAt(f.range.start.line, f.range.start.character);
  } catch {
    return undefined;
  }
}
