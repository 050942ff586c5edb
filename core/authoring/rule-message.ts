// A sentence for a buyer in place of a rule's XPath, when the SDK has no `rule_<lang>.xml` text for it
// (the releases at hand and many real copies lack these files). The assert's test is read with the one
// XPath parser (core/xpath) and recognised by the SHAPE of its AST (count(P) > 0, `. = ('a', 'b')`,
// matches(), a comparison of two fields…); its subject is the SDK field or node the tested path leads to
// (fields.json, with the labels of translations/ and the code lists' labels). The rule id and the test
// itself never enter the message: the finding keeps them in `id`, `test` and a related place.
// Pure: no I/O beyond what SdkKnowledge reads lazily from its release folder, no `vscode` import.

import type { Finding } from '../findings';
import { attributeValue, INPUT_LIMITS, type XmlElement, type XmlIndex } from '../notice';
import { clip } from '../text';
import { type Ast, parseXPath, quoted } from '../xpath';
import type { Entry, SdkKnowledge } from './sdk-knowledge';
import { canonicalName, directText, SDK_NAMESPACES, SDK_PREFIXES } from './sdk-paths';

/** The prefixes the SDK's schematron declares (complete-validation.sch, every release 1.7 to 1.15). */
export const RULE_NAMESPACES: ReadonlyMap<string, string> = new Map([
  ...Object.entries(SDK_NAMESPACES),
  ['cn', 'urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2'],
  ['can', 'urn:oasis:names:specification:ubl:schema:xsd:ContractAwardNotice-2'],
  ['pin', 'urn:oasis:names:specification:ubl:schema:xsd:PriorInformationNotice-2'],
  ['fn', 'http://www.w3.org/2005/xpath-functions'],
  ['xs', 'http://www.w3.org/2001/XMLSchema'],
  ['sch', 'http://purl.oclc.org/dsdl/schematron'],
]);

/** Code lists up to this size are spelled out with their labels; longer ones are named. */
const LIST_ALL_CODES = 10;
/** Fields named in "this depends on …". */
const MAX_DEPENDS = 3;

const parsed = new Map<string, Ast | null>();

/** The test's AST, or null when it is outside the parser's grammar; kept per test text. */
export function parseRuleTest(test: string): Ast | null {
  const hit = parsed.get(test);
  if (hit !== undefined) return hit;
  let ast: Ast | null = null;
  try {
    ast = parseXPath(test, RULE_NAMESPACES);
  } catch {
    ast = null;
  }
  // The SDK has some 45,000 distinct tests: keep the cache bounded.
  if (parsed.size > 20000) parsed.clear();
  parsed.set(test, ast);
  return ast;
}

/** What a test requires of its subject, read from the AST's shape. */
export type Requirement =
  | { k: 'mandatory'; path: Ast }
  /** One of several places must be there: `(cbc:A) or (cbc:B)`. */
  | { k: 'mandatory-any'; paths: Ast[] }
  /** No two of these may share a value (`cbc:Name[@languageID = preceding-sibling::cbc:Name/@languageID]`). */
  | { k: 'no-repeat'; path: Ast }
  | { k: 'forbidden'; path: Ast }
  | { k: 'at-most'; path: Ast; n: number }
  | { k: 'exactly'; path: Ast; n: number }
  | { k: 'one-of'; value: Ast; codes: string[] }
  | { k: 'not-equal'; value: Ast; codes: string[] }
  | { k: 'pattern'; value: Ast; regex: string }
  | { k: 'max-length'; value: Ast; n: number }
  | { k: 'bound'; value: Ast; op: Op; n: number }
  | { k: 'compare'; l: Ast; op: Op; r: Ast }
  | { k: 'prefix'; value: Ast; prefixes: string[] }
  | { k: 'trimmed' }
  | { k: 'not-empty' }
  | { k: 'unique' }
  | { k: 'other' };

type Op = '=' | '!=' | '<' | '<=' | '>' | '>=';

const FLIP: Record<Op, Op> = { '=': '=', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };
const NEGATE: Record<Op, Op> = { '=': '!=', '!=': '=', '<': '>=', '<=': '>', '>': '<=', '>=': '<' };

/**
 * The shape of a test: the requirement (the first disjunct: the SDK writes `VALUE or not(CONDITION)`)
 * and whether other disjuncts make it conditional.
 */
export function shapeOfTest(ast: Ast): { req: Requirement; conditional: boolean; exemptions: Ast[] } {
  if (ast.t === 'or') {
    const first = ast.args[0] as Ast;
    const group = alternatives(ast);
    if (group) return { req: group, conditional: false, exemptions: [] };
    return { req: requirementOf(first), conditional: true, exemptions: ast.args.slice(1) };
  }
  return { req: requirementOf(ast), conditional: false, exemptions: [] };
}

/** `starts-with(X, 'a') or starts-with(X, 'b') …`: one requirement with alternatives. */
function alternatives(ast: Ast): Requirement | undefined {
  if (ast.t !== 'or') return undefined;
  const prefixes: string[] = [];
  let value: Ast | undefined;
  for (const a of ast.args) {
    const inner = unparen(a);
    if (inner.t === 'or') {
      const sub = alternatives(inner);
      if (sub?.k !== 'prefix') return undefined;
      prefixes.push(...sub.prefixes);
      value ??= sub.value;
      continue;
    }
    if (inner.t !== 'call' || inner.fn !== 'starts-with' || inner.args[1]?.t !== 'str') return undefined;
    value ??= inner.args[0];
    prefixes.push(inner.args[1].v);
  }
  return value ? { k: 'prefix', value, prefixes } : undefined;
}

function unparen(a: Ast): Ast {
  return a.t === 'seq' && a.items.length === 1 ? (a.items[0] as Ast) : a;
}

function numberOf(a: Ast | undefined): number | undefined {
  if (!a) return undefined;
  const x = unparen(a);
  if (x.t === 'num') return x.v;
  if (x.t === 'call' && x.fn === 'number' && x.args[0]?.t === 'str') {
    const n = Number(x.args[0].v);
    return Number.isFinite(n) ? n : undefined;
  }
  if (x.t === 'neg') {
    const n = numberOf(x.arg);
    return n === undefined ? undefined : -n;
  }
  return undefined;
}

function stringsOf(a: Ast): string[] | undefined {
  const x = unparen(a);
  if (x.t === 'str') return [x.v];
  if (x.t === 'strs') return x.v;
  if (x.t === 'seq' && x.items.every((i) => i.t === 'str')) return x.items.map((i) => (i as { v: string }).v);
  return undefined;
}

function isPath(a: Ast): boolean {
  return a.t === 'path' || a.t === 'step' || a.t === 'filter';
}

function isCall(a: Ast, fn: string): a is { t: 'call'; fn: string; args: Ast[] } {
  return a.t === 'call' && a.fn === fn;
}

function requirementOf(a0: Ast): Requirement {
  const a = unparen(a0);
  if (a.t === 'or') {
    const alt = alternatives(a);
    if (alt) return alt;
    const each = a.args.map(requirementOf);
    if (each.every((r) => r.k === 'mandatory'))
      return { k: 'mandatory-any', paths: each.map((r) => (r as { path: Ast }).path) };
    return requirementOf(a.args[0] as Ast);
  }
  if (isCall(a, 'false') && a.args.length === 0) return { k: 'not-empty' };
  if (isPath(a) || isCall(a, 'exists') || isCall(a, 'boolean')) {
    const p = a.t === 'call' ? (a.args[0] as Ast) : a;
    if (isPath(p)) return { k: 'mandatory', path: p };
  }
  if (isCall(a, 'empty') && a.args[0] && isPath(a.args[0])) return { k: 'forbidden', path: a.args[0] };
  if (isCall(a, 'not') && a.args[0]) {
    const inner = unparen(a.args[0]);
    if (isPath(inner)) return { k: 'forbidden', path: inner };
    if (inner.t === 'cmp') {
      const r = requirementOf({ ...inner, op: NEGATE[inner.op] });
      if (r.k !== 'other') return r;
    }
    if (inner.t === 'cmp' && inner.op === '=' && inner.r.t === 'var' && /duplicate/i.test(inner.r.name))
      return { k: 'unique' };
    return { k: 'other' };
  }
  if (isCall(a, 'matches') && a.args[1]?.t === 'str')
    return { k: 'pattern', value: a.args[0] as Ast, regex: a.args[1].v };
  if (a.t === 'cmp') return comparison(a.op, a.l, a.r);
  return { k: 'other' };
}

function comparison(op: Op, l0: Ast, r0: Ast): Requirement {
  let l = unparen(l0);
  let r = unparen(r0);
  // The literal on the right.
  if ((numberOf(l) !== undefined || stringsOf(l)) && !(numberOf(r) !== undefined || stringsOf(r))) {
    [l, r] = [r, l];
    op = FLIP[op];
  }
  if (isCall(l, 'count') && l.args[0]) {
    const n = numberOf(r);
    const p = unparen(l.args[0]);
    if (p.t === 'for' && op === '=' && n === 1) return { k: 'unique' };
    if (n !== undefined && isPath(p)) {
      if ((op === '>' && n === 0) || (op === '>=' && n === 1) || (op === '!=' && n === 0))
        return { k: 'mandatory', path: p };
      if ((op === '=' || op === '<=') && n === 0)
        return comparesWithSiblings(p) ? { k: 'no-repeat', path: p } : { k: 'forbidden', path: p };
      if (op === '<' && n === 1) return { k: 'forbidden', path: p };
      if (op === '<') return { k: 'at-most', path: p, n: n - 1 };
      if (op === '<=') return { k: 'at-most', path: p, n };
      if (op === '=') return { k: 'exactly', path: p, n };
    }
    return { k: 'other' };
  }
  if (isCall(l, 'string-length') && l.args[0]) {
    const n = numberOf(r);
    if (n !== undefined && (op === '<=' || op === '<'))
      return { k: 'max-length', value: l.args[0], n: op === '<' ? n - 1 : n };
    return { k: 'other' };
  }
  // replace(replace(., '\s+$', ''), '^\s+', '') eq .: no space around the value.
  if (op === '=' && isCall(l, 'replace') && r.t === 'ctx') return { k: 'trimmed' };
  const codes = stringsOf(r);
  if (codes && valueOperand(l)) {
    if (op === '=') return { k: 'one-of', value: l, codes };
    if (op === '!=') return { k: 'not-equal', value: l, codes };
  }
  const n = numberOf(r);
  if (n !== undefined && valueOperand(l)) return { k: 'bound', value: l, op, n };
  if (valueOperand(l) && valueOperand(r)) return { k: 'compare', l, op, r };
  return { k: 'other' };
}

/** Whether a path's predicates look at preceding or following siblings (a uniqueness test). */
function comparesWithSiblings(p: Ast): boolean {
  let found = false;
  walk(p, (x) => {
    if (x.t === 'step' && (x.axis === 'preceding-sibling' || x.axis === 'following-sibling')) found = true;
    return !found;
  });
  return found;
}

/** The path a value expression reads (`cbc:X/normalize-space(text())` → `cbc:X`; `.` → self). */
interface ValueRef {
  /** Steps from the context; empty for the context itself. */
  steps: Ast[];
  /** Whether a date or time conversion reads it. */
  date: boolean;
}

const VALUE_FNS = new Set([
  'normalize-space',
  'string',
  'number',
  'data',
  'xs:date',
  'xs:dateTime',
  'xs:time',
  'xs:decimal',
  'xs:integer',
  'xs:double',
  'lower-case',
  'upper-case',
  'text',
]);

function valueOperand(a0: Ast): ValueRef | undefined {
  const a = unparen(a0);
  if (a.t === 'ctx') return { steps: [], date: false };
  if (a.t === 'call') {
    if (!VALUE_FNS.has(a.fn)) return undefined;
    const date = a.fn.startsWith('xs:date') || a.fn === 'xs:time';
    if (a.args.length === 0) return { steps: [], date };
    const inner = valueOperand(a.args[0] as Ast);
    return inner ? { steps: inner.steps, date: inner.date || date } : undefined;
  }
  if (a.t === 'step') {
    if (a.test.k === 'kind' && a.test.kind === 'text') return { steps: [], date: false };
    return { steps: [a], date: false };
  }
  if (a.t === 'path') {
    const steps: Ast[] = [];
    let date = false;
    for (const s of a.steps) {
      if (s.t === 'call') {
        if (!VALUE_FNS.has(s.fn)) return undefined;
        if (s.fn.startsWith('xs:date') || s.fn === 'xs:time') date = true;
        continue;
      }
      if (s.t === 'step' && s.test.k === 'kind' && s.test.kind === 'text') continue;
      if (s.t === 'ctx') continue;
      steps.push(s);
    }
    return { steps, date };
  }
  return undefined;
}

/** The steps of a path expression (a single step is a path of one). */
function stepsOf(a: Ast): Ast[] {
  const x = unparen(a);
  if (x.t === 'path') return x.steps;
  if (x.t === 'filter') return [x.base];
  return [x];
}

export interface RuleMessageContext {
  index: XmlIndex;
  sdk: SdkKnowledge;
  language: string;
}

/** The most of a notice's value a sentence repeats: a value can be megabytes long. */
const ECHO = INPUT_LIMITS.echoChars.max;

/** A field or node as a buyer reads it: `Type of procedure (BT-105)`. */
export function subjectOf(sdk: SdkKnowledge, e: Entry, language: string): string {
  if (e.kind === 'field') {
    // An attribute field (`…-Scheme`, `…-List`) is labelled like the field it qualifies.
    const f = e.field;
    const label = sdk.fieldLabel(e.id, language);
    return `${label} (${f?.btId ?? e.id})`;
  }
  return sdk.nodeLabel(e.id, language);
}

/**
 * The sentence for a finding of the SDK's rules, or undefined when its message should stay: an official
 * rule text exists, the finding is not about an SDK rule, or its test is missing.
 */
export function composeRuleMessage(
  f: Finding,
  element: XmlElement | undefined,
  c: RuleMessageContext,
): string | undefined {
  if (!f.test || !wantsComposition(f, c)) return undefined;
  const facts = element ? factsOf(c, element) : undefined;
  const plan = planFor(f, element, facts, c);
  if (plan.value === undefined || plan.words === undefined || !element) return plan.whole;
  const actual = valueAt(c.index, element, plan.value);
  return actual === undefined ? plan.whole : plan.head + plan.words(actual) + plan.rest;
}

/**
 * A message without what the notice holds at the element: the sentence up to that value (its first
 * letter raised), the steps from the element to the value and the words that show it, and the rest
 * (what the rule depends on, an unresolved place, the flag). A batch meets a few hundred of these in
 * tens of thousands of findings.
 */
interface MessagePlan {
  head: string;
  /** head and rest, without the value: one string shared by every finding that shows none. */
  whole: string;
  value?: Ast[];
  words?: (actual: string) => string;
  rest: string;
}

/**
 * The plan of a finding's message, kept per SDK for every notice: it reads the finding's rule, test,
 * field, flag and placement, the element's chain of names and the SDK entry identified there, and the
 * language; nothing else of the notice (its value at the element is read per finding, valueAt).
 */
function planFor(
  f: Finding,
  element: XmlElement | undefined,
  facts: ElementFacts | undefined,
  c: RuleMessageContext,
): MessagePlan {
  let memo = plansBySdk.get(c.sdk);
  if (!memo) {
    memo = new Map();
    plansBySdk.set(c.sdk, memo);
  }
  // The rule id matters only through the field it asserts (Subjects.main), and only without a
  // diagnostic field: the SDK repeats one test under a rule id per subtype.
  const owner = f.field === undefined ? (c.sdk.ruleFields(f.id)?.owner ?? '\u0001') : '';
  const key = `${c.language}\u0000${f.field ?? '\u0001'}\u0000${owner}\u0000${f.resolved ? 1 : 0}${f.flag ?? ''}\u0000${
    element && facts ? `${element.local}\u0000${facts.chainId}` : '\u0001'
  }\u0000${testId(f.test as string)}`;
  // The parts are ids and names from XML, which holds no U+0000: no two findings share a key wrongly.
  const hit = memo.get(key);
  if (hit !== undefined && !(hit instanceof Map)) return hit;
  // A plan that asked for the element's SDK entry holds for that entry only: one per entry.
  const entryKey = hit && element && facts ? (identifiedOf(c, element, facts)?.id ?? '\u0001') : '';
  const byEntry = hit?.get(entryKey);
  if (byEntry) return byEntry;
  const { plan, usedIdentified } = planOnce(f, element, facts, c);
  if (memo.size >= MAX_PLANS) memo.clear();
  if (!usedIdentified || !element || !facts) memo.set(key, plan);
  else {
    const map = hit ?? new Map<string, MessagePlan>();
    map.set(identifiedOf(c, element, facts)?.id ?? '\u0001', plan);
    memo.set(key, map);
  }
  return plan;
}

function planOnce(
  f: Finding,
  element: XmlElement | undefined,
  facts: ElementFacts | undefined,
  c: RuleMessageContext,
): { plan: MessagePlan; usedIdentified: boolean } {
  const ast = parseRuleTest(f.test as string);
  const shape = ast
    ? shapeOfParsed(ast)
    : { req: { k: 'other' } as Requirement, conditional: false, exemptions: [] };
  const here = shape.conditional ? ' here' : '';
  const s = new Subjects(c, element, facts, f);
  const req = shape.req;
  let sentence: string;
  /** The value the words after the sentence show, and those words. */
  let shown: { value: Ast; words: (actual: string) => string } | undefined;
  switch (req.k) {
    case 'mandatory': {
      const target = s.forPath(req.path, true);
      sentence = target.attribute
        ? `${target.label} must have the attribute ${target.attribute}`
        : `${target.label} is mandatory${here}`;
      break;
    }
    case 'mandatory-any': {
      const labels = [...new Set(req.paths.map((p) => s.forPath(p, false).label))];
      sentence =
        labels.length === 1
          ? `${labels[0]} is mandatory${here}`
          : `${labels.slice(0, -1).join(', ')} or ${lowerFirst(labels[labels.length - 1] as string)} is mandatory${here}`;
      break;
    }
    case 'no-repeat': {
      const target = s.forPath(req.path, true);
      sentence = `${target.label} must not be given twice with the same value${here}`;
      break;
    }
    case 'forbidden': {
      const target = s.forPath(req.path, true);
      sentence = target.attribute
        ? `${target.label} must not have the attribute ${target.attribute}${here}`
        : `${target.label} must not be present${here}`;
      break;
    }
    case 'at-most': {
      const target = s.forPath(req.path, true);
      sentence =
        req.n === 1
          ? `${target.label} must not be repeated${here}`
          : `${target.label} may occur at most ${req.n} times${here}`;
      break;
    }
    case 'exactly': {
      const target = s.forPath(req.path, true);
      sentence =
        req.n === 1
          ? `${target.label} must occur exactly once${here}`
          : `${target.label} must occur exactly ${req.n} times${here}`;
      break;
    }
    case 'one-of':
    case 'not-equal': {
      const v = s.forValue(req.value);
      const listed = s.codesInWords(v.entry, req.codes);
      if (req.k === 'not-equal') {
        sentence = `${v.label} must not be ${listed.text}${here}`;
      } else if (req.codes.length === 1) {
        sentence = `${v.label} must be ${listed.text}${here}`;
      } else {
        sentence = `${v.label} must be ${listed.named ? 'a code of the list' : 'one of:'} ${listed.text}${here}`;
      }
      if (req.k === 'one-of') {
        const not = listed.named ? 'in it' : 'one of them';
        shown = {
          value: req.value,
          words: (actual) => (actual === '' ? ' — it is empty' : ` — ${quoted(actual)} is not ${not}`),
        };
      }
      break;
    }
    case 'pattern': {
      const v = s.forValue(req.value);
      sentence = `${v.label} ${formatOf(v.entry, req.regex)}${here}`;
      shown = {
        value: req.value,
        words: (actual) => (actual === '' ? ' — it is empty' : ` — ${quoted(actual)} is not`),
      };
      break;
    }
    case 'max-length': {
      const v = s.forValue(req.value);
      sentence = `${v.label} must be at most ${req.n} characters long${here}`;
      shown = { value: req.value, words: (actual) => ` — it has ${[...actual].length}` };
      break;
    }
    case 'bound': {
      const v = s.forValue(req.value);
      sentence = `${v.label} must be ${boundWords(req.op, v.date)} ${req.n}${here}`;
      shown = {
        value: req.value,
        words: (actual) => (actual !== '' ? ` — it is ${clip(actual, ECHO)}` : ''),
      };
      break;
    }
    case 'compare': {
      const l = s.forValue(req.l);
      const r = s.forValue(req.r);
      const reference = req.op === '=' && [l, r].some((x) => /^id/.test(x.entry?.field?.type ?? ''));
      sentence = reference
        ? `${l.label} must match ${lowerFirst(r.label)} of this notice${here}`
        : `${l.label} must be ${boundWords(req.op, l.date || r.date)} ${lowerFirst(r.label)}${here}`;
      break;
    }
    case 'prefix': {
      const v = s.forValue(req.value);
      const list = req.prefixes.map((p) => `'${p}'`).join(', ');
      sentence = `${v.label} must begin with ${req.prefixes.length === 1 ? list : `one of ${list}`}${here}`;
      shown = { value: req.value, words: (actual) => (actual !== '' ? ` — it is ${quoted(actual)}` : '') };
      break;
    }
    case 'trimmed':
      sentence = `${s.context().label} must not begin or end with spaces`;
      break;
    case 'not-empty':
      sentence = `${s.context().label} must not be empty: give it a value or remove it`;
      break;
    case 'unique':
      sentence = `${s.context().label} must be unique: this value is used more than once`;
      break;
    default: {
      const subject = s.main();
      sentence = `${subject.label} does not meet the conditions of this business rule${here ? ' here' : ''}`;
      break;
    }
  }
  let rest = '';
  const depends = s.dependsOn(shape.exemptions, req);
  if (depends.length > 0) rest += ` (this depends on: ${depends.join(', ')})`;
  if (!f.resolved) rest += ' (the place the rule names is not in this notice: shown on the root element)';
  if (f.flag) rest += ` (${f.flag.toLowerCase()} check)`;
  // Only the sentence's first letter is raised, and the sentence never starts with the value's words.
  const head = upperFirst(sentence);
  const plan: MessagePlan = { head, whole: head + rest, rest };
  // The value is shown only when one element holds it: a value expression the steps cannot follow
  // (valueOperand undefined) names the rule's field and shows nothing.
  const steps = shown ? valueOperand(shown.value)?.steps : undefined;
  if (shown && steps) {
    plan.value = steps;
    plan.words = shown.words;
  }
  return { plan, usedIdentified: s.usedIdentified };
}

/** An SDK rule finding without an official text: `sdk` findings, and service findings from a raw key. */
function wantsComposition(f: Finding, c: RuleMessageContext): boolean {
  if (c.sdk.translation('rule', `rule|text|${f.id}`, c.language) !== undefined) return false;
  if (f.source === 'sdk') return true;
  if (f.source !== 'cvs') return false;
  // The mapping's words for a report that gave only the rule's key (core/svrl's assertionMessage).
  const m = f.message.replace(/^\[[A-Z_-]+\] /, '');
  return m.startsWith(`Rule ${f.id} failed`) || m.startsWith(`Rule ${f.id} reported`);
}

function boundWords(op: Op, date: boolean): string {
  if (date) {
    return {
      '<': 'before',
      '<=': 'on or before',
      '>': 'after',
      '>=': 'on or after',
      '=': 'the same as',
      '!=': 'different from',
    }[op];
  }
  return {
    '<': 'less than',
    '<=': 'at most',
    '>': 'greater than',
    '>=': 'at least',
    '=': 'equal to',
    '!=': 'different from',
  }[op];
}

/** What a pattern asks, in words where the field's type says what it is. */
function formatOf(entry: Entry | undefined, regex: string): string {
  switch (entry?.field?.type) {
    case 'email':
      return 'must be an e-mail address';
    case 'phone':
      return 'must be a telephone number (digits, spaces and hyphens, an optional leading + and an area code in brackets)';
    case 'url':
      return "must be a web address beginning with 'http://', 'https://', 'ftp://' or 'www.'";
    case 'date':
      return 'must be a date written YYYY-MM-DD followed by a time zone (Z or +01:00)';
    case 'time':
      return 'must be a time written hh:mm:ss followed by a time zone (Z or +01:00)';
    default:
      return `must match the pattern '${regex}'`;
  }
}

function upperFirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** `The deadline` inside a sentence; labels that start with an acronym (`CPV code`) stay as written. */
function lowerFirst(s: string): string {
  return /^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s;
}

interface Target {
  label: string;
  entry?: Entry;
  /** An attribute the SDK has no field for (`schemeName` of an identifier). */
  attribute?: string;
}

/** Finds the field or node a path of the test leads to, from the element the rule fired on. */
class Subjects {
  private readonly chain: string[];
  /** The language and the chain as one key, for the memo of resolve(). */
  private readonly chainKey: string;

  constructor(
    private readonly c: RuleMessageContext,
    private readonly element: XmlElement | undefined,
    private readonly facts: ElementFacts | undefined,
    private readonly f: Finding,
  ) {
    this.chain = facts ? facts.chain : [];
    this.chainKey = `${c.language}\u0000${facts ? facts.chainKey : ''}`;
  }

  /** The element the rule fired on, as a field or node, else by its name. */
  context(): Target {
    const e = this.identified();
    if (e) return { label: subjectOf(this.c.sdk, e, this.c.language), entry: e };
    const field = this.f.field ? this.c.sdk.entries.get(this.f.field) : undefined;
    if (field) return { label: subjectOf(this.c.sdk, field, this.c.language), entry: field };
    return { label: this.element ? `The element ${this.element.local}` : 'The notice' };
  }

  /** The rule's own field (its diagnostic, else the field whose assertion it is), else the context. */
  main(): Target {
    const id = this.f.field ?? this.c.sdk.ruleFields(this.f.id)?.owner;
    const e = id ? this.c.sdk.entries.get(id) : undefined;
    if (e) return { label: subjectOf(this.c.sdk, e, this.c.language), entry: e };
    return this.context();
  }

  /**
   * The field or node at the end of `path`. With `preferDiagnostic`, the rule's diagnostic field wins
   * when it is there (it names what a count() is about, predicates and all).
   */
  forPath(path: Ast, preferDiagnostic: boolean): Target {
    const resolved = this.resolve(stepsOf(path));
    if (resolved.attribute) {
      // An attribute field (`OPT-315-LotResult-Scheme`) is named after the field it qualifies.
      const ofId = resolved.entry?.field?.attributeOf;
      const of = ofId ? this.c.sdk.entries.get(ofId) : undefined;
      const owner = of
        ? { label: subjectOf(this.c.sdk, of, this.c.language), entry: of }
        : (resolved.owner ?? this.context());
      return {
        label: owner.label,
        ...(owner.entry ? { entry: owner.entry } : {}),
        attribute: resolved.attribute,
      };
    }
    const diagnostic = preferDiagnostic && this.f.field ? this.c.sdk.entries.get(this.f.field) : undefined;
    // The diagnostic names the field exactly (predicates and all) when it is at the path's place; a
    // count() over another place (a statistic, a sibling) is about what the path reaches.
    if (diagnostic && (!resolved.entry || diagnostic.key === resolved.entry.key))
      return { label: subjectOf(this.c.sdk, diagnostic, this.c.language), entry: diagnostic };
    if (resolved.entry)
      return { label: subjectOf(this.c.sdk, resolved.entry, this.c.language), entry: resolved.entry };
    if (resolved.last) return { label: `The element ${resolved.last}` };
    return this.context();
  }

  /** A value the test reads and its subject (the notice's value there is read per finding: valueAt). */
  forValue(a: Ast): Target & { date: boolean } {
    const v = valueOperand(a);
    if (!v) return { ...this.main(), date: false };
    const target = v.steps.length === 0 ? this.context() : this.forPath({ t: 'path', steps: v.steps }, false);
    const date = v.date || target.entry?.field?.type === 'date' || target.entry?.field?.type === 'time';
    return { ...target, date };
  }

  /** Whether identified() was asked: the plan then holds for this element's entry only (planFor). */
  usedIdentified = false;

  /** The SDK entry of the element the rule fired on (kept per notice and element: factsOf). */
  private identified(): Entry | undefined {
    this.usedIdentified = true;
    return this.facts ? identifiedOf(this.c, this.element as XmlElement, this.facts) : undefined;
  }

  private resolve(steps: Ast[]): Resolved {
    // It reads only the chain of names, the steps, the SDK and the language, never the notice: kept
    // per SDK for every notice (a batch's findings repeat the same rules on the same places).
    let memo = resolvedBySdk.get(this.c.sdk);
    if (!memo) {
      memo = new Map();
      resolvedBySdk.set(this.c.sdk, memo);
    }
    const key = `${this.chainKey}\u0000${steps.map(astId).join(',')}`;
    const hit = memo.get(key);
    if (hit) return hit;
    const r = this.resolveOnce(steps);
    if (memo.size >= MAX_RESOLVED) memo.clear();
    memo.set(key, r);
    return r;
  }

  private resolveOnce(steps: Ast[]): Resolved {
    let names = [...this.chain];
    const literals: string[] = [];
    let attribute: string | undefined;
    let last: string | undefined;
    for (const s of steps) {
      if (s.t === 'root') {
        names = [];
        continue;
      }
      if (s.t === 'filter') return {};
      if (s.t === 'ctx') continue;
      if (s.t !== 'step') break;
      if (s.axis === 'parent') names.pop();
      else if (s.axis === 'self') continue;
      else if (s.axis === 'child' && s.test.k === 'name') {
        // `/*` or `/cn:ContractNotice`: the root element, whatever its name.
        if (names.length === 0) {
          names.push('*');
          continue;
        }
        const p = SDK_PREFIXES[s.test.ns ?? ''];
        last = s.test.local ?? '*';
        names.push(p ? `${p}:${last}` : last);
      } else if (s.axis === 'attribute' && s.test.k === 'name') {
        attribute = s.test.local;
        break;
      } else if (s.t === 'step' && s.test.k === 'kind') break;
      else return {};
      for (const pr of s.preds) collectStrings(pr, literals);
    }
    // Keys start below the root element.
    const key = names.slice(1).join('/');
    const fullKey = attribute ? (key ? `${key}/@${attribute}` : `@${attribute}`) : key;
    const candidates = this.c.sdk.byKey.get(fullKey) ?? [];
    const entry = best(candidates, literals);
    if (attribute) {
      const ownerEntry = best(this.c.sdk.byKey.get(key) ?? [], literals);
      const owner = ownerEntry
        ? { label: subjectOf(this.c.sdk, ownerEntry, this.c.language), entry: ownerEntry }
        : undefined;
      return { ...(entry ? { entry } : {}), ...(owner ? { owner } : {}), attribute };
    }
    return { ...(entry ? { entry } : {}), ...(last ? { last } : {}) };
  }

  /** Codes as labels (`Open ('open')`), or the list's name when it is long. */
  codesInWords(entry: Entry | undefined, codes: string[]): { text: string; named: boolean } {
    const listId = entry?.field?.codeList?.value?.id;
    const label = (code: string): string => {
      const l = listId ? this.c.sdk.codeLabel(listId, code, this.c.language) : undefined;
      return l && l !== code ? `${l.replace(/[.\s]+$/, '')} ('${code}')` : `'${code}'`;
    };
    // The SDK's name of a list is a paragraph describing it: the list's id is shorter and exact.
    if (codes.length > LIST_ALL_CODES && listId) return { text: `'${listId}'`, named: true };
    const shown = codes.slice(0, LIST_ALL_CODES).map(label);
    if (codes.length > LIST_ALL_CODES) shown.push(`… (${codes.length} values)`);
    return { text: shown.join(', '), named: false };
  }

  /** The fields a condition involves, as labels, without the subject itself. */
  dependsOn(exemptions: Ast[], req: Requirement): string[] {
    const out: string[] = [];
    const self = new Set<string>();
    if (this.f.field) self.add(this.f.field);
    // The places the requirement itself names are its subject, not what it depends on.
    const named: Ast[] = [];
    if ('path' in req) named.push(req.path);
    if ('value' in req) named.push(req.value);
    if (req.k === 'compare') named.push(req.l, req.r);
    for (const n of named) {
      const v = valueOperand(n);
      const r = this.resolve(v ? v.steps : stepsOf(n));
      if (r.entry) self.add(r.entry.id);
    }
    const paths: Ast[] = [];
    for (const e of exemptions) collectPaths(e, paths);
    // The element's own entry is one of them too; asked for only when a field is found (identified()
    // reads the notice, and a plan that never asks is kept for every element of its chain: planFor).
    let ctx: Entry | undefined | null = null;
    for (const p of paths) {
      const v = valueOperand(p);
      if (!v?.steps.length) continue;
      const r = this.resolve(v.steps);
      const e = r.entry ?? r.owner?.entry;
      if (e?.kind !== 'field' || self.has(e.id)) continue;
      if (ctx === null) ctx = this.identified();
      if (ctx?.id === e.id) continue;
      self.add(e.id);
      const label = subjectOf(this.c.sdk, e, this.c.language);
      if (!out.includes(label)) out.push(label);
      if (out.length === MAX_DEPENDS) break;
    }
    return out;
  }
}

type Resolved = { entry?: Entry; owner?: Target; attribute?: string; last?: string };

/** What a message reads of the element a rule fired on: its names from the root, and its SDK entry. */
interface ElementFacts {
  /** The root element first (`*`: fields.json writes it `/*`), then the canonical names down to it. */
  chain: string[];
  chainKey: string;
  /** The chain's number (chainIds): the plans' keys stay short. */
  chainId: number;
  /** identify()'s answer, once asked (null before): it reads the notice's values (predicates). */
  identified: Entry | undefined | null;
}

/** The facts of each element per notice index and SDK (the index is never changed). */
const factsByIndex = new WeakMap<XmlIndex, WeakMap<SdkKnowledge, Map<XmlElement, ElementFacts>>>();

function factsOf(c: RuleMessageContext, element: XmlElement): ElementFacts {
  let bySdk = factsByIndex.get(c.index);
  if (!bySdk) {
    bySdk = new WeakMap();
    factsByIndex.set(c.index, bySdk);
  }
  let byElement = bySdk.get(c.sdk);
  if (!byElement) {
    byElement = new Map();
    bySdk.set(c.sdk, byElement);
  }
  let facts = byElement.get(element);
  if (!facts) {
    const chain = ['*', ...c.sdk.keyOf(c.index, element).chain.map(canonicalName)];
    const chainKey = chain.join('\u0001');
    if (chainIds.size >= MAX_PLANS && !chainIds.has(chainKey)) chainIds.clear();
    facts = { chain, chainKey, chainId: numbered(chainIds, chainKey), identified: null };
    byElement.set(element, facts);
  }
  return facts;
}

function identifiedOf(c: RuleMessageContext, element: XmlElement, facts: ElementFacts): Entry | undefined {
  if (facts.identified === null) facts.identified = c.sdk.identify(c.index, element);
  return facts.identified;
}

/** The message plans per SDK, by language, finding and element facts (planFor); bounded. */
let plansBySdk = new WeakMap<SdkKnowledge, Map<string, MessagePlan | Map<string, MessagePlan>>>();

/** Drops every kept message plan: the next messages are composed from nothing (tests compare both). */
export function forgetRuleMessagePlans(): void {
  plansBySdk = new WeakMap();
}
const MAX_PLANS = 50_000;

/** A small number per test text, for the plans' keys (tests run to hundreds of characters). */
const testIds = new Map<string, number>();
/** A small number per chain of element names (numbered, never reused). */
const chainIds = new Map<string, number>();
function testId(test: string): number {
  // Numbers are never reused: a cleared table gives new ones, which only miss in the plans.
  if (testIds.size >= MAX_PLANS && !testIds.has(test)) testIds.clear();
  return numbered(testIds, test);
}

/** The key's number in `table`, a new one (never given before, in any table) when it has none. */
function numbered<K>(
  table: { get(k: K): number | undefined; set(k: K, n: number): unknown },
  key: K,
): number {
  let n = table.get(key);
  if (n === undefined) {
    n = ++lastNumber;
    table.set(key, n);
  }
  return n;
}
let lastNumber = 0;

/** The text of the one element `steps` (child and parent steps) select from the context, if one does. */
function valueAt(index: XmlIndex, element: XmlElement, steps: Ast[]): string | undefined {
  let at: XmlElement[] = [element];
  for (const s of steps) {
    // A predicate would filter what this walk selects: no value rather than a wrong one.
    if (s.t !== 'step' || s.preds.length > 0) return undefined;
    const next: XmlElement[] = [];
    for (const e of at) {
      if (s.axis === 'parent') {
        const p = index.element(e.parent);
        if (p) next.push(p);
      } else if (s.axis === 'self') next.push(e);
      else if (s.axis === 'child' && s.test.k === 'name') {
        for (const k of e.children) {
          const ch = index.element(k);
          if (
            ch &&
            (s.test.local === undefined || ch.local === s.test.local) &&
            (s.test.ns === undefined || ch.ns === s.test.ns)
          )
            next.push(ch);
        }
      } else if (s.axis === 'attribute' && s.test.k === 'name') {
        if (at.length !== 1) return undefined;
        const local = s.test.local;
        const attr = e.attributes.find((x) => x.local === local);
        return attr ? attributeValue(index, attr) : undefined;
      } else return undefined;
    }
    at = next;
  }
  if (at.length !== 1) return undefined;
  const e = at[0] as XmlElement;
  if (e.children.length > 0) return undefined;
  return directText(index, e).replace(/\s+/g, ' ').trim();
}

/** resolve()'s answers per SDK, by language, chain of names and steps; bounded. */
const resolvedBySdk = new WeakMap<SdkKnowledge, Map<string, Resolved>>();
const MAX_RESOLVED = 50_000;

/** A number per AST node: the parsed tests are kept per text (parseRuleTest), so their nodes recur. */
const astIds = new WeakMap<Ast, number>();
function astId(a: Ast): number {
  return numbered(astIds, a);
}

/** shapeOfTest per parsed test: pure, and a batch meets the same tests in every notice. */
const shapes = new WeakMap<Ast, ReturnType<typeof shapeOfTest>>();
function shapeOfParsed(ast: Ast): ReturnType<typeof shapeOfTest> {
  let s = shapes.get(ast);
  if (!s) {
    s = shapeOfTest(ast);
    shapes.set(ast, s);
  }
  return s;
}

function best(candidates: Entry[], literals: string[]): Entry | undefined {
  let top: Entry | undefined;
  let topScore = -1;
  for (const e of candidates) {
    const values: string[] = [];
    for (const s of e.steps) for (const p of s.predicates) collectEquals(p, values);
    let score = e.kind === 'field' ? 1 : 0;
    for (const v of values) if (literals.includes(v)) score += 10;
    if (score > topScore) {
      top = e;
      topScore = score;
    }
  }
  return top;
}

function collectEquals(p: import('./sdk-paths').Predicate, out: string[]): void {
  if (p.kind === 'path' && p.equals !== undefined) out.push(p.equals);
  else if (p.kind === 'and' || p.kind === 'or') for (const x of p.parts) collectEquals(x, out);
  else if (p.kind === 'not') collectEquals(p.inner, out);
}

function collectStrings(a: Ast, out: string[]): void {
  walk(a, (x) => {
    if (x.t === 'str') out.push(x.v);
    return true;
  });
}

/** The outermost path expressions of an AST (not those inside another path's predicates). */
function collectPaths(a: Ast, out: Ast[]): void {
  walk(a, (x) => {
    if (x.t === 'path' || x.t === 'step') {
      out.push(x);
      return false;
    }
    return true;
  });
}

function walk(a: Ast, visit: (x: Ast) => boolean): void {
  if (!visit(a)) return;
  switch (a.t) {
    case 'seq':
      for (const i of a.items) walk(i, visit);
      break;
    case 'call':
      for (const i of a.args) walk(i, visit);
      break;
    case 'path':
      for (const i of a.steps) walk(i, visit);
      break;
    case 'step':
      for (const i of a.preds) walk(i, visit);
      break;
    case 'filter':
      walk(a.base, visit);
      for (const i of a.preds) walk(i, visit);
      break;
    case 'for':
      for (const b of a.bindings) walk(b.in, visit);
      walk(a.body, visit);
      break;
    case 'if':
      walk(a.cond, visit);
      walk(a.yes, visit);
      walk(a.no, visit);
      break;
    case 'or':
    case 'and':
      for (const i of a.args) walk(i, visit);
      break;
    case 'cmp':
    case 'node-cmp':
    case 'arith':
    case 'range':
    case 'set':
      walk(a.l, visit);
      walk(a.r, visit);
      break;
    case 'neg':
      walk(a.arg, visit);
      break;
    default:
      break;
  }
}
