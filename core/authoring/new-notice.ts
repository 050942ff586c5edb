// A new notice of a chosen subtype, written from the SDK: the root element its document type needs,
// the eForms namespaces, cbc:CustomizationID of the release, fresh UUIDs, today's date, and every field
// the subtype makes mandatory without condition (with the elements and fixed attributes their paths
// require), in schema order, with placeholders to fill. It writes only what someone chose: the few
// choices that decide the rest (subtype, procedure type, buyer country, notice language) are asked
// for (newNoticeChoices lists them with the SDK's labels); every other code is left empty, for the
// rules to flag and completion and quick fixes to fill. No `vscode` import here, and no I/O.

import { randomUUID } from 'node:crypto';
import { type Ast, parseXPath } from '../xpath';
import { elementNames, narrowCodes } from './rule-codes';
import { parseRuleTest, RULE_NAMESPACES, shapeOfTest } from './rule-message';
import type { FieldDef, SdkKnowledge } from './sdk-knowledge';
import { SDK_NAMESPACES } from './sdk-paths';
import {
  addPath,
  noticeLanguageCode,
  type PlaceholderContext,
  placeholder,
  type SkeletonNode,
  skeletonNode,
  sortSkeleton,
  writeSkeleton,
} from './skeleton';

const ROOTS: Record<string, { name: string; ns: string }> = {
  CN: { name: 'ContractNotice', ns: 'urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2' },
  PIN: {
    name: 'PriorInformationNotice',
    ns: 'urn:oasis:names:specification:ubl:schema:xsd:PriorInformationNotice-2',
  },
  CAN: {
    name: 'ContractAwardNotice',
    ns: 'urn:oasis:names:specification:ubl:schema:xsd:ContractAwardNotice-2',
  },
  BRIN: {
    name: 'BusinessRegistrationInformationNotice',
    ns: 'http://data.europa.eu/p27/eforms-business-registration-information-notice/1',
  },
};

export type NewNoticeResult =
  | { ok: true; xml: string; subtype: string; root: string }
  | { ok: false; kind: 'unknown-subtype'; subtype: string; available: string[] }
  | { ok: false; kind: 'sdk-unreadable'; problem: string };

export interface NewNoticeOptions {
  subtype: string;
  /** Language of the notice, `en` or `ENG` (cbc:NoticeLanguageCode, languageID attributes). */
  language?: string;
  /** BT-105-Procedure, a code of the procedure-type list (`open`); absent: left to fill. */
  procedureType?: string;
  /** BT-514 of the buyer, a code of the country list (`FRA`); absent: left to fill. */
  buyerCountry?: string;
  /** Fields or nodes to write besides the unconditionally mandatory ones (what the rules ask for). */
  extraFields?: readonly string[];
  /** Instances the rules want one of per code (a lot result's statistic of each kind), to write. */
  codedInstances?: readonly CodedInstance[];
  /** yyyy-mm-dd; defaults to today (UTC). */
  today?: string;
  uuid?: () => string;
}

export function newNotice(sdk: SdkKnowledge, o: NewNoticeOptions): NewNoticeResult {
  if (sdk.problem) return { ok: false, kind: 'sdk-unreadable', problem: sdk.problem };
  const subtypes = sdk.noticeSubtypes();
  const st = subtypes.find((s) => s.subTypeId === o.subtype);
  const root = st?.documentType ? ROOTS[st.documentType] : undefined;
  if (!st || !root)
    return {
      ok: false,
      kind: 'unknown-subtype',
      subtype: o.subtype,
      available: subtypes.map((s) => s.subTypeId),
    };
  const ctx: PlaceholderContext = {
    sdk,
    subtype: st.subTypeId,
    today: o.today ?? new Date().toISOString().slice(0, 10),
    uuid: o.uuid ?? randomUUID,
    language: o.language ?? 'en',
    known: Object.fromEntries(
      Object.entries({
        'OPP-070-notice': st.subTypeId,
        'BT-02-notice': st.type,
        'BT-03-notice': st.formType,
        'BT-01-notice': st.legalBasis,
        'BT-105-Procedure': o.procedureType,
        'BT-514-Organization-Company': o.buyerCountry,
      }).filter((e): e is [string, string] => typeof e[1] === 'string'),
    ),
  };
  const form = sdk.formFields(st.subTypeId);
  const top = skeletonNode(root.name, '');
  // The notice's identity comes first, whatever the form lists: eNotices2 and the CVS need it.
  const always = new Set([
    'OPT-001-notice',
    'OPT-002-notice',
    'BT-701-notice',
    'BT-04-notice',
    'BT-757-notice',
    'OPP-070-notice',
  ]);
  for (const entry of sdk.entries.values()) {
    if (entry.kind !== 'field' || !entry.field) continue;
    const f = entry.field;
    if (f.attributeOf) continue;
    const mandatory = sdk.presence(f.id, st.subTypeId).mandatory === 'always';
    if (!always.has(f.id) && !(mandatory && (!form || form.has(f.id)))) continue;
    if (sdk.presence(f.id, st.subTypeId).forbidden === 'always') continue;
    addPath(top, entry, 0, ctx);
  }
  // Fields the rules found mandatory for these choices (newNoticeChecked), as placeholders to fill.
  for (const id of o.extraFields ?? []) {
    const entry = sdk.entries.get(id);
    if (!entry || sdk.presence(id, st.subTypeId).forbidden === 'always') continue;
    addPath(top, entry, 0, ctx);
  }
  // What the user chose is written even where the form leaves it optional.
  for (const [id, value] of [
    ['BT-105-Procedure', o.procedureType],
    ['BT-514-Organization-Company', o.buyerCountry],
  ] as const) {
    const entry = sdk.entries.get(id);
    if (!value || !entry || sdk.presence(id, st.subTypeId).forbidden === 'always') continue;
    if (form && !form.has(id)) continue;
    addPath(top, entry, 0, ctx);
  }
  // UBL's DocumentReference types require a cbc:ID that fields.json leaves optional: add it.
  // A lot result must name its lot (the schema wants one of its children; the SDK leaves it optional).
  const resultLot = sdk.entries.get('BT-13713-LotResult');
  const withIds = (n: SkeletonNode) => {
    // An element a predicate required (`[cbc:CompanyID/@schemeName = 'national']`) gets its field's value.
    if (n.children.length === 0 && n.text === undefined && n.key) {
      const f = sdk.byKey.get(n.key)?.find((e) => e.kind === 'field')?.field;
      n.text = f ? placeholder(f, ctx) : 'TODO';
    }
    if (n.name === 'efac:LotResult' && resultLot && !n.children.some((c) => c.name === 'efac:TenderLot'))
      addPath(top, resultLot, 0, ctx);
    // An entity (a tender, a lot result) carries its identifier, which references to it need.
    for (const e of sdk.byKey.get(n.key) ?? []) {
      const idField = e.node?.identifierFieldId ? sdk.entries.get(e.node.identifierFieldId) : undefined;
      if (
        idField &&
        e.node?.repeatable &&
        !n.children.some((c) => idField.steps[e.steps.length]?.name === c.name)
      )
        addPath(top, idField, 0, ctx);
    }
    if (n.name.endsWith('DocumentReference') && !n.children.some((c) => c.name === 'cbc:ID')) {
      const id = sdk.byKey.get(`${n.key}/cbc:ID`)?.find((e) => e.kind === 'field');
      if (id) addPath(top, id, 0, ctx);
    }
    for (const c of n.children) withIds(c);
  };
  addReferencedEntities(top, sdk, ctx);
  withIds(top);
  for (const c of o.codedInstances ?? []) addCodedInstance(top, c, ctx);
  separateResultOrganisations(top, sdk);
  pointAtWrittenIds(top, sdk);
  sortSkeleton(top);
  const ns = [
    ` xmlns="${root.ns}"`,
    ...['cac', 'cbc', 'ext', 'efac', 'efbc', 'efext'].map((p) => ` xmlns:${p}="${SDK_NAMESPACES[p]}"`),
  ].join('');
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n${writeSkeleton(top, '', '  ', ns)}\n`;
  return { ok: true, xml, subtype: st.subTypeId, root: root.name };
}

/**
 * A reference to a kind of thing the skeleton does not write (a lot result's contract, CON-0001, with no
 * contract): the thing is written too, by its identifier, so that the reference resolves. Only where
 * one field of the form identifies that kind.
 */
function addReferencedEntities(top: SkeletonNode, sdk: SdkKnowledge, ctx: PlaceholderContext): void {
  const written = new Set<string>();
  const wanted = new Map<string, string>();
  const visit = (n: SkeletonNode) => {
    const f = n.field ? sdk.fields.get(n.field) : undefined;
    if (f?.type === 'id' && n.text) written.add(n.text);
    if (f?.type === 'id-ref' && f.idSchemes?.length === 1 && n.text === `${f.idSchemes[0]}-0001`)
      wanted.set(n.text, f.idSchemes[0] as string);
    for (const c of n.children) visit(c);
  };
  visit(top);
  const form = ctx.subtype ? sdk.formFields(ctx.subtype) : undefined;
  for (const [id, scheme] of wanted) {
    if (written.has(id)) continue;
    const identifiers = [...sdk.fields.values()].filter(
      (f) =>
        f.type === 'id' &&
        f.idScheme === scheme &&
        (!form || form.has(f.id)) &&
        (!ctx.subtype || sdk.presence(f.id, ctx.subtype).forbidden !== 'always'),
    );
    const entry = identifiers.length === 1 ? sdk.entries.get((identifiers[0] as FieldDef).id) : undefined;
    if (entry) addPath(top, entry, 0, ctx);
  }
}

/**
 * The skeleton writes one organisation, ORG-0001, the buyer; a reference from the results (a tenderer,
 * a subcontractor) to it would make the buyer its own supplier, which the rules refuse (BR-OPT-00300-
 * 0255…). Such references get an organisation of their own, ORG-0002: the buyer's mandatory elements
 * with its texts to write again and the country, the buyer's choice, left to choose.
 */
function separateResultOrganisations(top: SkeletonNode, sdk: SdkKnowledge): void {
  const underResults = (f: FieldDef): boolean => {
    let id = f.parentNodeId;
    for (let guard = 0; id && guard < 50; guard++) {
      if (id === 'ND-NoticeResult') return true;
      id = sdk.nodes.get(id)?.parentId;
    }
    return false;
  };
  const refs: SkeletonNode[] = [];
  let org: { node: SkeletonNode; parent: SkeletonNode; idLeaf: SkeletonNode } | undefined;
  const visit = (n: SkeletonNode, path: SkeletonNode[]) => {
    const f = n.field ? sdk.fields.get(n.field) : undefined;
    if (f?.type === 'id-ref' && f.idSchemes?.includes('ORG') && n.text === 'ORG-0001' && underResults(f))
      refs.push(n);
    if (!org && f?.type === 'id' && f.idScheme === 'ORG' && n.text === 'ORG-0001') {
      // The entity the identifier belongs to: the node of fields.json that names it as its identifier.
      for (let i = path.length - 1; i > 0; i--) {
        const p = path[i] as SkeletonNode;
        if ((sdk.byKey.get(p.key) ?? []).some((e) => e.node?.identifierFieldId === f.id)) {
          org = { node: p, parent: path[i - 1] as SkeletonNode, idLeaf: n };
          break;
        }
      }
    }
    for (const c of n.children) visit(c, [...path, n]);
  };
  visit(top, []);
  if (!org || refs.length === 0) return;
  const { node, parent, idLeaf } = org;
  // The NUTS code follows the country (BR-BT-00507-…: only for a European one): not before it is chosen.
  const followsCountry = new Set(['BT-507-Organization-Company']);
  const copy = (n: SkeletonNode): SkeletonNode => {
    const c: SkeletonNode = {
      ...n,
      attributes: new Map(n.attributes),
      children: n.children.filter((x) => !x.field || !followsCountry.has(x.field)).map(copy),
    };
    const f = n.field ? sdk.fields.get(n.field) : undefined;
    if (n === idLeaf) c.text = 'ORG-0002';
    // The buyer's country was chosen for the buyer, not for its supplier.
    else if (f?.type === 'code' && n.field === 'BT-514-Organization-Company') c.text = '';
    return c;
  };
  parent.children.splice(parent.children.indexOf(node) + 1, 0, copy(node));
  for (const r of refs) r.text = 'ORG-0002';
}

/**
 * An element the rules want once per code under an element: `count(efac:ReceivedSubmissionsStatistics/
 * efbc:StatisticsNumeric[../efbc:StatisticsCode = 'tenders']) = 1` under a lot result is one statistic
 * whose code is `tenders`, with its number to fill.
 */
export interface CodedInstance {
  /** SDK names from the root's child to the element that holds the instances (the lot result). */
  parent: readonly string[];
  /** The repeated element (`efac:ReceivedSubmissionsStatistics`). */
  element: string;
  /** Its child holding the code, and the code. */
  codeChild: string;
  code: string;
  /** Its child holding the value to fill. */
  valueChild: string;
}

/** Writes a coded instance under the first element at its parent path, unless one with its code is there. */
function addCodedInstance(top: SkeletonNode, c: CodedInstance, ctx: PlaceholderContext): void {
  let at: SkeletonNode | undefined = top;
  for (const name of c.parent) at = at?.children.find((x) => x.name === name);
  if (!at) return;
  const parent = at;
  const has = parent.children.some(
    (x) => x.name === c.element && x.children.some((y) => y.name === c.codeChild && y.text === c.code),
  );
  if (has) return;
  const key = `${parent.key}/${c.element}`;
  const codeEntry = ctx.sdk.byKey.get(`${key}/${c.codeChild}`)?.find((e) => e.kind === 'field');
  const valueEntry = ctx.sdk.byKey.get(`${key}/${c.valueChild}`)?.find((e) => e.kind === 'field');
  if (!codeEntry || !valueEntry) return;
  const order = ctx.sdk.children.get(parent.key)?.get(c.element)?.order ?? Number.POSITIVE_INFINITY;
  const instance = skeletonNode(c.element, key, order);
  // Its own variant, so that other paths through the element do not join this one.
  instance.variant = `code:${c.code}`;
  const depth = key.split('/').length;
  addPath(instance, codeEntry, depth, ctx);
  addPath(instance, valueEntry, depth, ctx);
  const code = instance.children.find((x) => x.name === c.codeChild);
  if (!code) return;
  code.text = c.code;
  // A count nobody gave yet is 0: the rules add these up (tenders = large + medium + small + micro).
  const value = instance.children.find((x) => x.name === c.valueChild);
  const type = valueEntry.field?.type;
  if (value && (type === 'number' || type === 'integer')) value.text = '0';
  parent.children.push(instance);
}

/** The coded instances a failed assert asks for under the failing element (see CodedInstance). */
function codedInstancesOf(test: string, location: string): CodedInstance[] {
  const ast = parseRuleTest(test);
  const at = parseRuleTest(location);
  const parent = at ? elementNames(at, true) : undefined;
  if (!ast || !parent) return [];
  // The requirement is the first disjunct; the others are its conditions.
  let first = ast;
  while (first.t === 'or') first = first.args[0] as Ast;
  const out: CodedInstance[] = [];
  const visit = (a: Ast) => {
    if (a.t === 'seq') a.items.forEach(visit);
    if (a.t === 'and') a.args.forEach(visit);
    if (a.t !== 'cmp' || a.op !== '=' || a.r.t !== 'num' || a.r.v !== 1) return;
    if (a.l.t !== 'call' || a.l.fn !== 'count' || a.l.args[0]?.t !== 'path') return;
    const steps = a.l.args[0].steps;
    const [inst, value] = steps;
    if (inst?.t !== 'step' || value?.t !== 'step' || inst.preds.length > 0 || value.preds.length !== 1)
      return;
    const element = elementNames(inst, false)?.[0];
    const valueChild = elementNames({ ...value, preds: [] }, false)?.[0];
    const p = value.preds[0] as Ast;
    if (!element || !valueChild || p.t !== 'cmp' || p.op !== '=' || p.r.t !== 'str' || p.l.t !== 'path')
      return;
    // `../efbc:StatisticsCode/normalize-space(text())`: the sibling that holds the code.
    const [up, sibling] = p.l.steps;
    if (up?.t !== 'step' || up.axis !== 'parent' || sibling?.t !== 'step') return;
    const codeChild = elementNames(sibling, false)?.[0];
    if (!codeChild) return;
    out.push({ parent, element, codeChild, code: p.r.v, valueChild });
  };
  visit(first);
  return out;
}

/**
 * A reference may point at several kinds of thing (a tender's lot: a lot or a group of lots); its
 * placeholder names the first kind, which the notice may not have (`GLO-0001` with no group of lots).
 * Point it at an identifier the skeleton wrote, of a kind the reference allows, when there is one.
 */
function pointAtWrittenIds(top: SkeletonNode, sdk: SdkKnowledge): void {
  const written = new Set<string>();
  const refs: { node: SkeletonNode; schemes: readonly string[] }[] = [];
  const visit = (n: SkeletonNode) => {
    const f = n.field ? sdk.fields.get(n.field) : undefined;
    if (f?.type === 'id' && n.text) written.add(n.text);
    if (f?.type === 'id-ref' && f.idSchemes && f.idSchemes.length > 1)
      refs.push({ node: n, schemes: f.idSchemes });
    for (const c of n.children) visit(c);
  };
  visit(top);
  for (const { node, schemes } of refs) {
    if (node.text !== undefined && written.has(node.text)) continue;
    const target = schemes.map((s) => `${s}-0001`).find((id) => written.has(id));
    if (target) node.text = target;
  }
}

/** A failed assert of the SDK rules, as much of it as New Notice needs (core/svrl's shape). */
export interface RuleFailure {
  role: string;
  diagnosticReferences: readonly { see: string }[];
  /** The assert's test and the failing node's path (SVRL), when known. */
  test?: string;
  location?: string;
}

/**
 * The notice, then what the official rules say of it: a field they find missing for the choices made
 * (the buyer's contact once a country is chosen, a deadline for an open procedure) is written too, as
 * a placeholder, until they ask for nothing new (at most `rounds` times). The rules run through
 * `evaluate`, so that this room does not depend on the engine.
 */
export async function newNoticeChecked(
  sdk: SdkKnowledge,
  o: NewNoticeOptions,
  evaluate: (xml: string, subtype: string) => Promise<readonly RuleFailure[]>,
  rounds = 3,
): Promise<NewNoticeResult> {
  const extra = new Set(o.extraFields ?? []);
  const coded = new Map((o.codedInstances ?? []).map((c) => [JSON.stringify(c), c]));
  // The same identifiers each round, so that only the added fields change.
  const ids: string[] = [];
  let next = 0;
  const uuid = o.uuid ?? randomUUID;
  const stable = () => {
    if (next >= ids.length) ids.push(uuid());
    return ids[next++] as string;
  };
  let r = newNotice(sdk, { ...o, uuid: stable });
  for (let i = 0; i < rounds && r.ok; i++) {
    const failures = await evaluate(r.xml, r.subtype);
    const before = extra.size + coded.size;
    for (const f of failures) {
      if (!/^(ERROR|FATAL)$/i.test(f.role)) continue;
      // "One of these must be there" (a lot's duration, or its dates, or a duration code): the first
      // way is written as a placeholder; the user may replace it by another.
      const first = f.test && f.location ? firstAlternative(sdk, r.subtype, f.test, f.location) : undefined;
      if (first) extra.add(first);
      if (f.test && f.location)
        for (const c of codedInstancesOf(f.test, f.location)) coded.set(JSON.stringify(c), c);
      for (const d of f.diagnosticReferences) {
        const m = /^(?:field|node):(.+)$/.exec(d.see.trim());
        const id = m?.[1];
        if (id && sdk.entries.has(id)) extra.add(id);
      }
    }
    if (extra.size + coded.size === before) break;
    next = 0;
    r = newNotice(sdk, { ...o, uuid: stable, extraFields: [...extra], codedInstances: [...coded.values()] });
  }
  return r;
}

/**
 * The field an assert found missing (`A`), or the first way a `(A) or (B) or (C)` assert offers, under the failing element: the one
 * field at that path the subtype's form has and does not forbid; undefined when the test is of another
 * shape or the path is not one field's.
 */
function firstAlternative(
  sdk: SdkKnowledge,
  subtype: string,
  test: string,
  location: string,
): string | undefined {
  // With each predicate's text, to tell apart fields that share a path (legal bases by their cbc:ID).
  let ast: Ast;
  try {
    ast = parseXPath(test, RULE_NAMESPACES, { keepPredicateText: true });
  } catch {
    return undefined;
  }
  const { req, exemptions } = shapeOfTest(ast);
  // `(A) or (B and C) or (D)` reads as A mandatory, the rest as what else would do; `count(X) = 0 or
  // (Y)`, with X there, as Y mandatory.
  const isPathAst = (a: Ast) => a.t === 'path' || a.t === 'step';
  const unwrap = (a: Ast): Ast => (a.t === 'seq' && a.items.length === 1 ? unwrap(a.items[0] as Ast) : a);
  const paths =
    req.k === 'mandatory-any'
      ? req.paths
      : req.k === 'mandatory'
        ? [req.path]
        : (req.k === 'exactly' && req.n === 0) || req.k === 'forbidden'
          ? exemptions.map(unwrap).filter(isPathAst)
          : [];
  const at = paths.length > 0 ? parseRuleTest(location) : undefined;
  const base = at ? elementNames(at, true) : undefined;
  if (!base) return undefined;
  const form = sdk.formFields(subtype);
  // The first way that is one field of the subtype's form (a path several fields share, told apart by
  // predicates, is taken when only one of them is in the form and allowed).
  for (const path of paths) {
    const rel = elementNames(path, false, true);
    if (!rel || rel.length === 0) continue;
    // The predicates the rule writes, as the SDK writes them in the field's path (same generator).
    const squash = (x: string) => x.replace(/\s+/g, '');
    const preds = (path.t === 'path' ? path.steps : [path]).flatMap((st) =>
      st.t === 'step' ? (st.predText ?? []).map((t) => squash(`[${t}]`)) : [],
    );
    const fields = (sdk.byKey.get([...base, ...rel].join('/')) ?? []).filter(
      (e) =>
        e.kind === 'field' &&
        (!form || form.has(e.id)) &&
        sdk.presence(e.id, subtype).forbidden !== 'always' &&
        preds.every((p) => squash(e.field?.xpathAbsolute ?? '').includes(p)),
    );
    if (fields.length === 1) return fields[0]?.id;
  }
  return undefined;
}

/** A code the user may choose, with its label in the user's language. */
export interface CodeChoice {
  code: string;
  label: string;
}

/** The choices that decide a new notice of a subtype, from the SDK's code lists (as tailored for it). */
export interface NewNoticeChoices {
  /** BT-105-Procedure; empty when the subtype has no procedure type. */
  procedureTypes: CodeChoice[];
  /** BT-514 of the buyer. */
  countries: CodeChoice[];
  /** BT-702(a)-notice: the notice languages. */
  languages: CodeChoice[];
}

export function newNoticeChoices(sdk: SdkKnowledge, subtype: string, lang: string): NewNoticeChoices {
  const codes = (fieldId: string): CodeChoice[] => {
    const f = sdk.fields.get(fieldId);
    if (!f || sdk.presence(fieldId, subtype).forbidden === 'always') return [];
    const form = sdk.formFields(subtype);
    if (form && !form.has(fieldId)) return [];
    const cl = sdk.codeListOf(f, subtype);
    const list = cl ? (sdk.codeList(cl.id) ?? sdk.codeList(cl.general)) : undefined;
    if (!list) return [];
    // The rules of the subtype may allow fewer codes than the list (procedure types): offer those.
    return narrowCodes(sdk, fieldId, subtype, list.codes).map((code) => ({
      code,
      label: sdk.codeLabel(list.id, code, lang) ?? code,
    }));
  };
  return {
    procedureTypes: codes('BT-105-Procedure'),
    countries: codes('BT-514-Organization-Company'),
    languages: codes('BT-702(a)-notice'),
  };
}

/** The name a new notice is offered under: `cn-standard-16.xml` (its notice type and subtype). */
export function newNoticeFileName(sdk: SdkKnowledge, subtype: string): string {
  const st = sdk.noticeSubtypes().find((s) => s.subTypeId === subtype);
  const safe = (s: string) => s.replace(/[^\w.-]+/g, '-');
  return `${st?.type ? `${safe(st.type)}-` : ''}${safe(subtype)}.xml`;
}

export { noticeLanguageCode };
