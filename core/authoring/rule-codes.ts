// The codes the SDK's static rules allow for a field in one notice subtype, where the rules narrow its
// code list further than fields.json does: the procedure types of subtype 10 are five of the list's
// twelve, said only by an assert `normalize-space(.) = ('comp-dial', …)` in a rule whose context is
// `/*/cac:TenderingProcess/cbc:ProcedureCode[$noticeSubType = '10']`. New Notice's pickers and code
// completion offer these codes only, so that nobody picks a code the rules then refuse.
// The .sch files are read as XML (core/notice) and every context and test through the one XPath
// parser (core/xpath, via rule-message.ts); the rules are read once per release folder, lazily. Never
// throws: a release without rules, or a file that cannot be read, narrows nothing. No `vscode` import.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { attributeValue, indexXml, type XmlIndex } from '../notice';
import { readSdkFile } from '../sdk';
import type { Ast } from '../xpath';
import { parseRuleTest, shapeOfTest } from './rule-message';
import type { SdkKnowledge } from './sdk-knowledge';
import { SDK_PREFIXES } from './sdk-paths';

const SCH = 'http://purl.oclc.org/dsdl/schematron';

/** Allowed codes by field id, then by subtype; per release folder. */
const byDir = new Map<string, Map<string, Map<string, string[]>>>();

/**
 * The codes the static rules allow for `fieldId` in `subtype`, in the rules' order; undefined when no
 * rule narrows them (then the code list, as tailored for the subtype, is the answer).
 */
export function codesAllowedByRules(
  sdk: SdkKnowledge,
  fieldId: string,
  subtype: string,
): string[] | undefined {
  let table = byDir.get(sdk.dir);
  if (!table) {
    table = readSubtypeCodeRules(sdk);
    byDir.set(sdk.dir, table);
  }
  return table.get(fieldId)?.get(subtype);
}

/** A code list's codes narrowed to what the rules allow (the list's order kept); the list when none. */
export function narrowCodes(
  sdk: SdkKnowledge,
  fieldId: string,
  subtype: string | undefined,
  codes: readonly string[],
): string[] {
  const allowed = subtype ? codesAllowedByRules(sdk, fieldId, subtype) : undefined;
  if (!allowed) return [...codes];
  const set = new Set(allowed);
  const kept = codes.filter((c) => set.has(c));
  // A rule naming only codes the list lacks would leave nothing to choose: keep the list then.
  return kept.length > 0 ? kept : [...codes];
}

function readSubtypeCodeRules(sdk: SdkKnowledge): Map<string, Map<string, string[]>> {
  const table = new Map<string, Map<string, string[]>>();
  const dir = join('schematrons', 'static');
  let files: string[];
  try {
    files = readdirSync(join(sdk.dir, dir)).filter((f) => f.endsWith('.sch'));
  } catch {
    return table;
  }
  for (const file of files.sort()) {
    let text: string;
    try {
      text = readSdkFile(sdk.dir, join(dir, file), 'sdkSchematronBytes');
    } catch {
      continue;
    }
    // Only rules naming subtypes narrow a list for them ($noticeSubType in a context, SubTypeCode in a test).
    if (!text.includes('$noticeSubType') && !text.includes('SubTypeCode')) continue;
    let index: XmlIndex;
    try {
      index = indexXml(text);
    } catch {
      continue;
    }
    for (const rule of index.elements) {
      if (rule.ns !== SCH || rule.local !== 'rule') continue;
      const context = rule.attributes.find((a) => a.local === 'context');
      const contextText = context ? attributeValue(index, context) : '';
      const target = context ? subtypeTarget(sdk, contextText) : undefined;
      if (!target) {
        if (context) readSubtypeExemptions(sdk, index, rule.children, contextText, table);
        continue;
      }
      for (const ast of errorAssertTests(index, rule.children)) {
        const { req, conditional } = shapeOfTest(ast);
        // Only `. = ('a', 'b')` on the context itself, without condition, is a list of allowed codes.
        if (conditional || req.k !== 'one-of' || unparen(req.value).t !== 'ctx') continue;
        let bySubtype = table.get(target.fieldId);
        if (!bySubtype) {
          bySubtype = new Map();
          table.set(target.fieldId, bySubtype);
        }
        const had = bySubtype.get(target.subtype);
        // Two rules for the same field and subtype: both must hold, so the codes both allow.
        bySubtype.set(target.subtype, had ? had.filter((c) => req.codes.includes(c)) : [...req.codes]);
      }
    }
  }
  return table;
}

/** The parsed tests of a rule's asserts of role ERROR (or none), in order; a test outside the grammar is left out. */
function* errorAssertTests(index: XmlIndex, children: readonly number[]): Generator<Ast> {
  for (const i of children) {
    const a = index.elements[i];
    if (!a || a.ns !== SCH || a.local !== 'assert') continue;
    const role = a.attributes.find((x) => x.local === 'role');
    if (role && attributeValue(index, role).toUpperCase() !== 'ERROR') continue;
    const test = a.attributes.find((x) => x.local === 'test');
    const ast = test ? parseRuleTest(attributeValue(index, test)) : null;
    if (ast) yield ast;
  }
}

/**
 * Asserts of a rule for every subtype that narrow a code for some: `(cbc:TenderResultCode = 'selec-w')
 * or not(../../efac:NoticeSubType/cbc:SubTypeCode = 'T02')` allows only `selec-w` in T02.
 */
function readSubtypeExemptions(
  sdk: SdkKnowledge,
  index: XmlIndex,
  children: readonly number[],
  context: string,
  table: Map<string, Map<string, string[]>>,
): void {
  const ctx = parseRuleTest(context);
  if (ctx?.t !== 'path' || ctx.steps[0]?.t !== 'root') return;
  const star = ctx.steps[1];
  if (star?.t !== 'step' || star.test.k !== 'name' || star.test.local !== undefined) return;
  const base = elementNames({ t: 'path', steps: ctx.steps.slice(2) }, false);
  if (!base) return;
  for (const ast of errorAssertTests(index, children)) {
    if (ast.t !== 'or' || ast.args.length !== 2) continue;
    const { req, exemptions } = shapeOfTest(ast);
    if (req.k !== 'one-of' || exemptions.length !== 1) continue;
    const subtypes = subtypesOfNot(exemptions[0] as Ast);
    const value = req.value.t === 'path' ? req.value.steps.filter((x) => x.t !== 'call') : [req.value];
    const rel = elementNames({ t: 'path', steps: value }, false);
    if (!subtypes || !rel || rel.length === 0) continue;
    const fields = (sdk.byKey.get([...base, ...rel].join('/')) ?? []).filter((e) => e.kind === 'field');
    if (fields.length !== 1) continue;
    const fieldId = (fields[0] as { id: string }).id;
    let bySubtype = table.get(fieldId);
    if (!bySubtype) {
      bySubtype = new Map();
      table.set(fieldId, bySubtype);
    }
    for (const st of subtypes) {
      const had = bySubtype.get(st);
      bySubtype.set(st, had ? had.filter((c) => req.codes.includes(c)) : [...req.codes]);
    }
  }
}

/** The subtypes of `not(…/cbc:SubTypeCode… = 'T02')` (or `= ('T01', 'T02')`), else undefined. */
function subtypesOfNot(a: Ast): string[] | undefined {
  if (a.t !== 'call' || a.fn !== 'not' || a.args.length !== 1) return undefined;
  let c = a.args[0] as Ast;
  while (c.t === 'seq' && c.items.length === 1) c = c.items[0] as Ast;
  if (c.t !== 'cmp' || c.op !== '=' || c.l.t !== 'path') return undefined;
  const last = c.l.steps.filter((x) => x.t === 'step' && x.test.k === 'name').at(-1);
  if (last?.t !== 'step' || last.test.k !== 'name' || last.test.local !== 'SubTypeCode') return undefined;
  if (c.r.t === 'str') return [c.r.v];
  if (c.r.t === 'strs') return c.r.v;
  if (c.r.t === 'seq' && c.r.items.every((x) => x.t === 'str'))
    return c.r.items.map((x) => (x as { v: string }).v);
  return undefined;
}

function unparen(a: Ast): Ast {
  if (a.t === 'seq' && a.items.length === 1) return unparen(a.items[0] as Ast);
  // `normalize-space(.)`: the same value, trimmed.
  if (a.t === 'call' && a.fn === 'normalize-space' && a.args.length === 1) return unparen(a.args[0] as Ast);
  if (a.t === 'path' && a.steps.length === 1) return unparen(a.steps[0] as Ast);
  return a;
}

/**
 * The code field and subtype a rule context selects: `/*` then element steps without predicates, the
 * last one with the single predicate `$noticeSubType = 'X'`; undefined for any other context.
 */
function subtypeTarget(sdk: SdkKnowledge, context: string): { fieldId: string; subtype: string } | undefined {
  const ast = parseRuleTest(context);
  if (ast?.t !== 'path') return undefined;
  const steps = ast.steps;
  if (steps[0]?.t !== 'root') return undefined;
  const names: string[] = [];
  let subtype: string | undefined;
  for (let i = 1; i < steps.length; i++) {
    const s = steps[i] as Ast;
    if (s.t !== 'step' || s.axis !== 'child' || s.test.k !== 'name') return undefined;
    const last = i === steps.length - 1;
    if (i === 1) {
      // The root element, whichever notice type: `/*`.
      if (s.test.local !== undefined || s.preds.length > 0) return undefined;
      continue;
    }
    const prefix = s.test.ns !== undefined ? SDK_PREFIXES[s.test.ns] : undefined;
    if (!prefix || s.test.local === undefined) return undefined;
    names.push(`${prefix}:${s.test.local}`);
    if (!last) {
      if (s.preds.length > 0) return undefined;
      continue;
    }
    if (s.preds.length !== 1) return undefined;
    const p = s.preds[0] as Ast;
    if (p.t !== 'cmp' || p.op !== '=') return undefined;
    const [v, lit] = p.l.t === 'var' ? [p.l, p.r] : [p.r, p.l];
    if (v.t !== 'var' || v.name !== 'noticeSubType' || lit.t !== 'str') return undefined;
    subtype = lit.v;
  }
  if (subtype === undefined || names.length === 0) return undefined;
  const fields = (sdk.byKey.get(names.join('/')) ?? []).filter((e) => e.kind === 'field');
  // A path several fields share (Lot, Part) is no single field's: left alone.
  if (fields.length !== 1) return undefined;
  return { fieldId: (fields[0] as { id: string }).id, subtype };
}

/**
 * The SDK names (`cac:ProcurementProjectLot`) of a path's element steps: an SVRL location from the root
 * (`absolute`: its root step and the root element are left out, positions `[2]` ignored), or a relative
 * path of child steps. Undefined for a path with other steps, or with predicates unless told to ignore them.
 */
export function elementNames(ast: Ast, absolute: boolean, ignorePredicates = false): string[] | undefined {
  const steps = ast.t === 'path' ? ast.steps : [ast];
  const names: string[] = [];
  let i = 0;
  if (absolute) {
    if (steps[0]?.t !== 'root') return undefined;
    i = 2; // the root, then the root element (`cn:ContractNotice`)
    if (steps.length < 2) return undefined;
  }
  for (; i < steps.length; i++) {
    const s = steps[i] as Ast;
    if (s.t !== 'step' || s.axis !== 'child' || s.test.k !== 'name') return undefined;
    if (!ignorePredicates && s.preds.some((p) => !(absolute && p.t === 'num'))) return undefined;
    const prefix = s.test.ns !== undefined ? SDK_PREFIXES[s.test.ns] : undefined;
    if (!prefix || s.test.local === undefined) return undefined;
    names.push(`${prefix}:${s.test.local}`);
  }
  return names;
}
