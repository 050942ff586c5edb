// Quick fixes for the diagnostics of a notice, each decided from the notice and the SDK rather than
// from a message's words: insert a missing mandatory element where the schema orders it, replace an
// unknown code with the nearest valid ones, generate a fresh UUID for a notice or procedure id, raise
// cbc:VersionID after eNotices2 reported that the version exists, move cbc:CustomizationID to an SDK
// version TED accepts (the version named in the diagnostic's data), and fix all of one kind in the file.
// No `vscode` import here, and no I/O.

import { randomUUID } from 'node:crypto';
import { type Range, readDiagnosticData } from '../findings';
import {
  attributeValue,
  decodeSimpleEntities,
  findCustomizationId,
  parseCustomizationId,
  type XmlElement,
  type XmlIndex,
} from '../notice';
import { CUSTOMIZATION_ID } from '../validation';
import { noticeFacts, placeAt, rangeOf } from './notice-facts';
import { narrowCodes } from './rule-codes';
import type { FieldDef, SdkKnowledge } from './sdk-knowledge';
import { canonicalName, directText, type PathStep, parseSdkPath } from './sdk-paths';
import {
  child,
  materialize,
  type PlaceholderContext,
  placeholder,
  type SkeletonNode,
  skeletonNode,
  sortSkeleton,
  writeSkeleton,
} from './skeleton';

/** Code of the warning on cbc:CustomizationID when TED no longer (or not yet) accepts its SDK version. */
export const SDK_NOT_ACCEPTED = 'sdk-version-not-accepted';

/** Code of the diagnostic a front end shows when eNotices2 says this notice id and version exist. */
export const VERSION_EXISTS = 'notice-version-exists';

/** The diagnostic as the client sends it back in a code action request. */
export interface DiagnosticLike {
  range: Range;
  code?: string | number;
  message?: unknown;
  data?: unknown;
  /** LSP's severity: 1 error, 2 warning, 3 information, 4 hint. */
  severity?: number;
}

export interface TextEditLike {
  range: Range;
  newText: string;
}

export interface AuthoringAction {
  title: string;
  kind: 'quickfix' | 'refactor.rewrite' | 'source.fixAll';
  diagnostics: DiagnosticLike[];
  edits: TextEditLike[];
  isPreferred?: boolean;
  /**
   * Set on a "fix all" offered without its edits (`deferFixAll`): the group whose edits
   * `fixAllAction` computes when the user picks it.
   */
  fixAll?: FixAllGroup;
}

/** The kinds of fix that "fix all" applies together. */
export type FixAllGroup = 'insert-missing';

const FIX_ALL_TITLES: Record<FixAllGroup, string> = {
  'insert-missing': 'insert the missing mandatory elements',
};

/** Whether a value (such as a code action's data sent back by a client) names a "fix all" group. */
export function isFixAllGroup(x: unknown): x is FixAllGroup {
  return typeof x === 'string' && Object.hasOwn(FIX_ALL_TITLES, x);
}

export interface ActionContext {
  index: XmlIndex;
  sdk: SdkKnowledge | undefined;
  language: string;
  today: string;
  uuid?: () => string;
}

export interface CodeActionOptions {
  /**
   * Offer "fix all" with its title and count only, and leave its edits to `fixAllAction`: on a notice
   * with tens of thousands of findings, building them on every request (each cursor move) took most of
   * a second and a reply of tens of megabytes. For clients that resolve code actions.
   */
  deferFixAll?: boolean;
}

const MAX_SUGGESTIONS = 3;
/** Codes offered for an empty code element: enough for short lists, completion has the rest. */
const MAX_CHOICES = 12;

/**
 * A selection over more findings than this gets the fixes of the first ones, and "fix all": selecting
 * a whole notice of tens of thousands of findings asked for as many fixes (seconds, and a menu nobody
 * reads).
 */
const MAX_REQUESTED_FIXES = 100;

/**
 * Fixes for the diagnostics in the request, plus "fix all" over every diagnostic of the document: those
 * published, and those of the request that were not (a client may send back copies).
 */
export function codeActions(
  c: ActionContext,
  requested: readonly DiagnosticLike[],
  published: readonly DiagnosticLike[],
  range: Range,
  options: CodeActionOptions = {},
): AuthoringAction[] {
  const out: AuthoringAction[] = [];
  const known = new Set(published.map(diagnosticKey));
  const all = [...published, ...requested.filter((d) => !known.has(diagnosticKey(d)))];
  const seenGroups = new Set<FixAllGroup>();
  for (let i = 0; i < requested.length; i++) {
    const d = requested[i] as DiagnosticLike;
    let group: FixAllGroup | undefined;
    if (i < MAX_REQUESTED_FIXES) {
      const fixes = fixesFor(c, d);
      out.push(...fixes.map((f) => ({ ...f.action, diagnostics: [d] })));
      group = fixes.find((f) => f.group)?.group;
    } else group = fixAllGroupOf(c, d);
    if (!group || seenGroups.has(group)) continue;
    seenGroups.add(group);
    const key = diagnosticKey(d);
    const others = all.filter((x) => fixAllGroupOf(c, x) === group && diagnosticKey(x) !== key);
    if (others.length === 0) continue;
    if (options.deferFixAll) {
      // Counted from the diagnostics' codes and data alone; `fixAllAction` keeps those it can fix.
      out.push({ ...fixAllHeading(group, others.length + 1), diagnostics: [d], edits: [], fixAll: group });
      continue;
    }
    const every = fixAllAction(c, group, [d, ...others]);
    if (every) out.push(every);
  }
  // Offered without a diagnostic, where the cursor is.
  const at = placeAt(c.index, c.index.offsetAt(range.start.line, range.start.character));
  if (at && (at.kind === 'text' || at.kind === 'element-name')) {
    const name = canonicalName(at.element);
    if (
      name === 'cbc:VersionID' &&
      at.element.parent === 0 &&
      !out.some((a) => a.title.includes('VersionID'))
    ) {
      const bump = bumpVersion(c.index, at.element);
      if (bump) out.push({ ...bump, kind: 'refactor.rewrite', diagnostics: [] });
    }
  }
  return out;
}

/**
 * "Fix all" of one group over the diagnostics given (each once: copies of one diagnostic count once),
 * with the edits of every one that has a fix of that group; undefined when fewer than two have one.
 */
export function fixAllAction(
  c: ActionContext,
  group: FixAllGroup,
  diagnostics: readonly DiagnosticLike[],
): AuthoringAction | undefined {
  const every: DiagnosticLike[] = [];
  const edits: TextEditLike[] = [];
  const seen = new Set<string>();
  for (const x of diagnostics) {
    if (fixAllGroupOf(c, x) !== group) continue;
    const key = diagnosticKey(x);
    if (seen.has(key)) continue;
    seen.add(key);
    const g = fixesFor(c, x).find((y) => y.group === group);
    if (!g) continue;
    every.push(x);
    edits.push(...g.action.edits);
  }
  if (every.length < 2) return undefined;
  return { ...fixAllHeading(group, every.length), diagnostics: every, edits: dropOverlaps(edits) };
}

function fixAllHeading(group: FixAllGroup, count: number): Pick<AuthoringAction, 'title' | 'kind'> {
  return { title: `Fix all in this file: ${FIX_ALL_TITLES[group]} (${count})`, kind: 'quickfix' };
}

/** Whether the diagnostic's fix inserts an element it names as missing (the SDK says how to write it). */
function insertsMissing(c: ActionContext, d: DiagnosticLike): boolean {
  const code = typeof d.code === 'string' ? d.code : String(d.code ?? '');
  if (code === VERSION_EXISTS || code === SDK_NOT_ACCEPTED || code === CUSTOMIZATION_ID) return false;
  return Boolean(readDiagnosticData(d.data).missing) && c.sdk !== undefined;
}

/**
 * The "fix all" group a diagnostic's fix would join, from its code, severity and data alone (no placing,
 * no edit): `fixesFor` takes the same branch, so the two never disagree on which fixes can be grouped.
 * An information or a hint names an element the rules suggest, not one they require (the preferred
 * publication date, BT-738, of BR-BT-00738-0901): its own fix inserts it, "insert the missing mandatory
 * elements" does not.
 */
function fixAllGroupOf(c: ActionContext, d: DiagnosticLike): FixAllGroup | undefined {
  if (typeof d.severity === 'number' && d.severity >= 3) return undefined;
  return insertsMissing(c, d) ? 'insert-missing' : undefined;
}

/**
 * A diagnostic as one string, the same for its copies: a client sends back the diagnostics it was given,
 * as new objects, so the same diagnostic is the same code, start and message.
 */
function diagnosticKey(d: DiagnosticLike): string {
  const m = typeof d.message === 'string' ? d.message : JSON.stringify(d.message ?? null);
  return `${typeof d.code}:${String(d.code)}\0${d.range.start.line}:${d.range.start.character}\0${m}`;
}

function dropOverlaps(edits: TextEditLike[]): TextEditLike[] {
  const seen = new Set<string>();
  return edits.filter((e) => {
    const k = `${e.range.start.line}:${e.range.start.character}:${e.range.end.line}:${e.range.end.character}:${e.newText}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

interface Fix {
  action: Omit<AuthoringAction, 'diagnostics'>;
  /** Fixes of one group can be applied together ("fix all"). */
  group?: FixAllGroup;
}

function fixesFor(c: ActionContext, d: DiagnosticLike): Fix[] {
  const { index } = c;
  const code = typeof d.code === 'string' ? d.code : String(d.code ?? '');
  const data = readDiagnosticData(d.data);
  const out: Fix[] = [];
  const start = index.offsetAt(d.range.start.line, d.range.start.character);
  if (code === VERSION_EXISTS) {
    const v = index
      .element(0)
      ?.children.map((i) => index.element(i) as XmlElement)
      .find((e) => canonicalName(e) === 'cbc:VersionID');
    const bump = v ? bumpVersion(index, v) : undefined;
    if (bump) out.push({ action: { ...bump, kind: 'quickfix', isPreferred: true } });
    return out;
  }
  if (code === SDK_NOT_ACCEPTED) {
    const fix = typeof data.moveTo === 'string' ? moveToVersion(index, data.moveTo) : undefined;
    if (fix) out.push({ action: fix });
    return out;
  }
  if (code === CUSTOMIZATION_ID) {
    const fix = customizationIdFix(c);
    if (fix) out.push({ action: fix });
    return out;
  }
  if (insertsMissing(c, d) && data.missing) {
    const place = placeAt(index, start + 1);
    const parent = place?.element;
    const fieldId = data.field;
    if (parent) {
      const ins = insertMissing(c, parent, data.missing, fieldId);
      if (ins)
        out.push({
          action: {
            title: `Insert ${ins.name}${fieldId ? ` (${fieldId})` : ''}`,
            kind: 'quickfix',
            edits: [ins.edit],
            isPreferred: true,
          },
          group: fixAllGroupOf(c, d),
        });
    }
    return out;
  }
  const place = placeAt(index, start);
  if (!place) return out;
  const e = place.element;
  const name = canonicalName(e);
  if (place.kind !== 'attribute-name' && place.kind !== 'attribute-value') {
    const isNoticeId =
      name === 'cbc:ID' &&
      e.parent === 0 &&
      e.attributes.some((a) => a.local === 'schemeName' && attributeValue(index, a) === 'notice-id');
    const isProcedureId = name === 'cbc:ContractFolderID' && e.parent === 0;
    if ((isNoticeId || isProcedureId) && e.children.length === 0 && e.end > e.startTagEnd) {
      const close = index.text.lastIndexOf('<', e.end - 1);
      const uuid = (c.uuid ?? randomUUID)();
      out.push({
        action: {
          title: `Generate a fresh UUID for ${isNoticeId ? 'the notice id (BT-701)' : 'the procedure id (BT-04)'}`,
          kind: 'quickfix',
          edits: [{ range: rangeOf(index, e.startTagEnd, close), newText: uuid }],
          isPreferred: true,
        },
      });
      return out;
    }
  }
  if (!c.sdk) return out;
  let value: string | undefined;
  let valueRange: Range | undefined;
  let field: FieldDef | undefined;
  if (place.kind === 'attribute-value' || place.kind === 'attribute-name') {
    field = c.sdk.identify(index, e, place.attribute.local)?.field;
    value = attributeValue(index, place.attribute);
    valueRange = rangeOf(index, place.attribute.valueStart, place.attribute.valueEnd);
  } else if (e.children.length === 0 && e.end > e.startTagEnd) {
    field = c.sdk.identify(index, e)?.field;
    value = directText(index, e);
    const at = index.text.indexOf(value, e.startTagEnd);
    valueRange =
      value && at >= 0 ? rangeOf(index, at, at + value.length) : rangeOf(index, e.startTagEnd, e.startTagEnd);
  }
  if (field && value !== undefined && valueRange) {
    const subtype = noticeFacts(index, c.sdk).subtype;
    const cl = c.sdk.codeListOf(field, subtype);
    const list = cl ? (c.sdk.codeList(cl.id) ?? c.sdk.codeList(cl.general)) : undefined;
    const inText = place.kind !== 'attribute-value' && place.kind !== 'attribute-name';
    if (cl && !list && value.trim() === '' && inText) {
      // No list in this SDK folder (no .gc file, no translations): say what to write, and where to look.
      const line = index.text.lastIndexOf('\n', e.start - 1) + 1;
      const indent = /^[ \t]*/.exec(index.text.slice(line, e.start))?.[0] ?? '';
      out.push({
        action: {
          title: `How to write a code of '${cl.general}' (this SDK folder has no list of them)`,
          kind: 'quickfix',
          edits: [
            {
              range: rangeOf(index, e.start, e.start),
              newText: `<!-- ${codeHint(cl.general)} -->\n${indent}`,
            },
          ],
        },
      });
    }
    if (cl && list && !list.labels.has(value)) {
      // An empty code is a choice still to make (New Notice leaves them so): offer the list's first
      // values with their labels (completion offers all of them); a wrong one, the nearest.
      const empty = value.trim() === '';
      // Only the codes the subtype's rules allow, where they narrow the list (procedure types).
      const codes = narrowCodes(c.sdk, field.id, subtype, list.codes);
      const nearest = empty ? codes.slice(0, MAX_CHOICES) : nearestCodes(value, codes, MAX_SUGGESTIONS);
      nearest.forEach((code, i) => {
        const label = c.sdk?.codeLabel(list.id, code, c.language);
        out.push({
          action: {
            title: empty
              ? `Choose '${code}'${label ? ` (${label})` : ''}`
              : `Did you mean '${code}'${label ? ` (${label})` : ''}?`,
            kind: 'quickfix',
            edits: [{ range: valueRange as Range, newText: code }],
            isPreferred: !empty && i === 0,
          },
        });
      });
    }
  }
  return out;
}

/** The official CPV page of the European Commission: the codes, their labels and the regulation. */
export const CPV_URL =
  'https://single-market-economy.ec.europa.eu/single-market/public-procurement/digital-procurement/common-procurement-vocabulary_en';

/** What to write for a code whose list the SDK folder lacks: CPV's format and where to find its codes. */
export function codeHint(listId: string): string {
  if (listId === 'cpv')
    return `CPV code: 8 digits without the check digit (45000000 for construction work, 55524000 for school catering); the codes: ${CPV_URL}`;
  return `a code of the eForms code list '${listId}': the full SDK has it in codelists/ (command "eForms: Get the eForms SDK…")`;
}

/** Up to `n` codes closest to `value` (edit distance, case-insensitive; prefixes count as close). */
export function nearestCodes(value: string, codes: readonly string[], n: number): string[] {
  const v = value.trim().toLowerCase();
  const scored = codes.map((code) => {
    const c = code.toLowerCase();
    let d = distance(v, c);
    if (v.length > 0 && (c.startsWith(v) || v.startsWith(c)))
      d = Math.min(d, Math.abs(c.length - v.length) / 2);
    return { code, d };
  });
  scored.sort((a, b) => a.d - b.d || a.code.localeCompare(b.code));
  const limit = Math.max(2, Math.ceil(v.length / 2));
  const close = scored.filter((s) => s.d <= limit).slice(0, n);
  return (close.length > 0 ? close : scored.slice(0, n)).map((s) => s.code);
}

function distance(a: string, b: string): number {
  if (a === b) return 0;
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] as number;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j] as number;
      prev[j] = Math.min(
        (prev[j] as number) + 1,
        (prev[j - 1] as number) + 1,
        diag + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      diag = tmp;
    }
  }
  return prev[b.length] as number;
}

function bumpVersion(
  index: XmlIndex,
  v: XmlElement,
): Omit<AuthoringAction, 'kind' | 'diagnostics'> | undefined {
  if (v.end <= v.startTagEnd || v.children.length > 0) return undefined;
  const current = directText(index, v);
  const n = /^\d+$/.test(current) ? Number(current) + 1 : 1;
  const next = String(n).padStart(Math.max(2, current.length), '0');
  const at = index.text.indexOf(current, v.startTagEnd);
  const range =
    current && at >= 0
      ? rangeOf(index, at, at + current.length)
      : rangeOf(index, v.startTagEnd, v.startTagEnd);
  return { title: `Increase cbc:VersionID to ${next}`, edits: [{ range, newText: next }], isPreferred: true };
}

/**
 * Rewrites cbc:CustomizationID to `eforms-sdk-<moveTo>`, keeping a national suffix (`#…`). The rules,
 * fields and code lists then follow the new version: the notice is revalidated with its release.
 */
function moveToVersion(index: XmlIndex, moveTo: string): Omit<AuthoringAction, 'diagnostics'> | undefined {
  const m = /^(?:eforms-sdk-)?(\d{1,4})\.(\d{1,4})$/.exec(moveTo.trim());
  if (!m) return undefined;
  const found = findCustomizationId(index);
  if (!found) return undefined;
  const parsed = parseCustomizationId(decodeSimpleEntities(found.text));
  const target = `eforms-sdk-${Number(m[1])}.${Number(m[2])}`;
  if (parsed.ok && parsed.value.sdkVersion === target.slice('eforms-sdk-'.length)) return undefined;
  // The national suffix as written (entities and all), so the edit changes the version only.
  const hash = found.text.indexOf('#');
  const suffix = hash < 0 ? '' : found.text.slice(hash).trimEnd();
  return {
    title: `Move the notice to ${target}, accepted by TED`,
    kind: 'quickfix',
    isPreferred: true,
    edits: [{ range: rangeOf(index, found.contentStart, found.contentEnd), newText: `${target}${suffix}` }],
  };
}

function customizationIdFix(c: ActionContext): Omit<AuthoringAction, 'diagnostics'> | undefined {
  const { index, sdk } = c;
  const root = index.element(0);
  if (!root || !sdk) return undefined;
  const wanted = `eforms-sdk-${/^(\d+\.\d+)/.exec(sdk.version)?.[1] ?? sdk.version}`;
  const existing = root.children
    .map((i) => index.element(i) as XmlElement)
    .find((e) => canonicalName(e) === 'cbc:CustomizationID');
  if (existing) {
    if (existing.end <= existing.startTagEnd) return undefined;
    const close = index.text.lastIndexOf('<', existing.end - 1);
    return {
      title: `Set cbc:CustomizationID to ${wanted}`,
      kind: 'quickfix',
      edits: [{ range: rangeOf(index, existing.startTagEnd, close), newText: wanted }],
      isPreferred: true,
    };
  }
  const ins = insertMissing(c, root, 'cbc:CustomizationID', 'OPT-002-notice');
  return ins
    ? {
        title: `Insert cbc:CustomizationID ${wanted}`,
        kind: 'quickfix',
        edits: [ins.edit],
        isPreferred: true,
      }
    : undefined;
}

/**
 * The edit inserting `missing` (a relative path, as SVRL diagnostics name it) under `parent`: down the
 * part of the path that exists, then the rest as new elements placed after the last sibling that the
 * schema orders before it.
 */
function insertMissing(
  c: ActionContext,
  parent: XmlElement,
  missing: string,
  fieldId: string | undefined,
): { name: string; edit: TextEditLike } | undefined {
  const { index, sdk } = c;
  if (!sdk || parent.end < 0 || parent.end === parent.startTagEnd) return undefined;
  const steps = parseSdkPath(missing).filter((s) => !s.name.startsWith('@') && s.name !== 'text()');
  if (steps.length === 0) return undefined;
  let at = parent;
  let i = 0;
  for (; i < steps.length - 1; i++) {
    const step = steps[i] as PathStep;
    const next = at.children
      .map((k) => index.element(k) as XmlElement)
      .find((e) => canonicalName(e) === step.name);
    if (!next || next.end < 0 || next.end === next.startTagEnd) break;
    at = next;
  }
  const { key } = at.parent < 0 ? { key: '' } : sdk.keyOf(index, at);
  const facts = noticeFacts(index, sdk);
  const ctx: PlaceholderContext = {
    sdk,
    subtype: facts.subtype,
    today: c.today,
    uuid: c.uuid ?? randomUUID,
    language: facts.language ?? c.language,
  };
  const field = fieldId ? sdk.fields.get(fieldId) : undefined;
  const holder: SkeletonNode = skeletonNode('', key);
  let node = holder;
  for (let j = i; j < steps.length; j++) {
    const step = steps[j] as PathStep;
    node = child(node, step.name, ctx);
    materialize(node, step.predicates, ctx);
  }
  if (node.children.length === 0 && node.text === undefined) {
    node.text = field ? placeholder(field, ctx) : 'TODO';
    for (const a of field?.attributes ?? []) {
      const af = sdk.fields.get(a);
      if (af?.attributeName && af.presetValue !== undefined && !node.attributes.has(af.attributeName))
        node.attributes.set(af.attributeName, af.presetValue);
    }
  }
  sortSkeleton(holder);
  const first = holder.children[0];
  if (!first) return undefined;
  // After the last child the schema orders before the new one; else first in the element.
  let after = -1;
  for (const k of at.children) {
    const ch = index.element(k) as XmlElement;
    const o = sdk.children.get(key)?.get(canonicalName(ch))?.order ?? Number.POSITIVE_INFINITY;
    if (o <= first.order) after = ch.end;
  }
  const indent = childIndent(index, at);
  const xml = writeSkeleton(first, indent);
  const offset = after >= 0 ? after : at.startTagEnd;
  return { name: first.name, edit: { range: rangeOf(index, offset, offset), newText: `\n${xml}` } };
}

function childIndent(index: XmlIndex, e: XmlElement): string {
  const first = e.children[0] !== undefined ? index.element(e.children[0]) : undefined;
  const of = (x: XmlElement) => {
    const lineStart = index.text.lastIndexOf('\n', x.start - 1) + 1;
    return /^[ \t]*/.exec(index.text.slice(lineStart, x.start))?.[0] ?? '';
  };
  return first ? of(first) : `${of(e)}  `;
}
