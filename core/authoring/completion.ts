// Completion in a notice from the SDK: code-list values (the subtype's tailored list first) in elements
// and attributes bound to a list, attributes with their fixed values, child elements after `<` (only
// those allowed and not yet there unless they repeat, named by their field, the subtype's mandatory
// ones first) as snippets carrying their own mandatory children, and the notice's
// identifiers of the right scheme where a reference is expected. No `vscode` import here.

import type { Range } from '../findings';
import type { XmlElement, XmlIndex } from '../notice';
import { captionOf, entityOf, noticeFacts, placeAt, rangeOf } from './notice-facts';
import { codesAllowedByRules } from './rule-codes';
import type { Entry, FieldDef, SdkKnowledge } from './sdk-knowledge';
import { canonicalName, evaluatePredicate, type Predicate } from './sdk-paths';
import {
  addPath,
  type PlaceholderContext,
  type SkeletonNode,
  skeletonNode,
  sortSkeleton,
  writeSnippet,
} from './skeleton';

export interface AuthoringCompletion {
  label: string;
  kind: 'value' | 'attribute' | 'element' | 'reference';
  detail?: string;
  documentation?: string;
  /** Replaces `range`. A snippet when `snippet` is true. */
  insertText: string;
  snippet: boolean;
  range: Range;
  /** Orders items: the subtype's own values and mandatory elements sort first. */
  sortText: string;
  filterText?: string;
}

const MAX_VALUES = 2000;

export function completeAt(
  index: XmlIndex,
  sdk: SdkKnowledge,
  offset: number,
  language: string,
  ctx: Omit<PlaceholderContext, 'sdk' | 'subtype' | 'language'>,
): AuthoringCompletion[] {
  const text = index.text;
  // After `<` or `<cbc:Pro`: child elements of the element around the `<`.
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const tag = /<([\w.-]*(?::[\w.-]*)?)$/.exec(before);
  const facts = noticeFacts(index, sdk);
  if (tag) {
    const lt = offset - tag[0].length;
    let place = placeAt(index, lt);
    if (place && place.element.start === lt) {
      const parent = index.element(place.element.parent);
      place = parent ? { kind: 'text', element: parent, index: place.element.parent } : undefined;
    }
    if (!place) return [];
    return elementCompletions(
      index,
      sdk,
      place.element,
      rangeOf(index, lt, offset),
      facts.subtype,
      language,
      ctx,
    );
  }
  const place = placeAt(index, offset);
  if (!place) return [];
  const e = place.element;
  if (place.kind === 'attribute-value') {
    const a = place.attribute;
    const entry = sdk.identify(index, e, a.local);
    if (!entry?.field) return [];
    return valueCompletions(
      sdk,
      entry.field,
      facts.subtype,
      language,
      rangeOf(index, a.valueStart, a.valueEnd),
    );
  }
  if (place.kind === 'in-tag' || place.kind === 'attribute-name') {
    const { key } = sdk.keyOf(index, e);
    const attrs = sdk.attributes.get(key);
    if (!attrs) return [];
    const present = new Set(e.attributes.map((a) => a.local));
    const range =
      place.kind === 'attribute-name'
        ? rangeOf(index, place.attribute.start, place.attribute.nameEnd)
        : rangeOf(index, offset, offset);
    const out: AuthoringCompletion[] = [];
    const element = sdk.identify(index, e);
    for (const [name, entries] of attrs) {
      if (present.has(name) && place.kind !== 'attribute-name') continue;
      const f = pickAttributeField(entries, element);
      if (!f) continue;
      const fixed = f.presetValue;
      out.push({
        label: fixed !== undefined ? `${name}="${fixed}"` : name,
        kind: 'attribute',
        detail: `${f.id} · ${sdk.fieldLabel(f.id, language)}`,
        insertText: fixed !== undefined ? `${name}="${fixed}"` : `${name}="$1"`,
        snippet: fixed === undefined,
        range,
        sortText: `0${name}`,
      });
    }
    return out;
  }
  if (place.kind !== 'text' || e.children.length > 0) return [];
  const entry = sdk.identify(index, e);
  const f = entry?.field;
  if (!f) return [];
  const from = e.startTagEnd;
  const close = e.end < 0 ? offset : text.lastIndexOf('<', e.end - 1);
  const raw = text.slice(from, Math.max(from, close));
  const lead = raw.length - raw.trimStart().length;
  const range = rangeOf(index, from + lead, from + lead + raw.trim().length);
  if (f.type === 'id-ref' && f.idSchemes?.length) {
    const out: AuthoringCompletion[] = [];
    for (const [id, occs] of facts.byId) {
      if (!f.idSchemes.includes(id.slice(0, 3))) continue;
      const def = occs.find((o) => o.definition);
      if (!def) continue;
      const { element, node } = entityOf(index, sdk, def);
      const caption = captionOf(index, sdk, element, node?.id);
      out.push({
        label: id,
        kind: 'reference',
        detail: caption ?? canonicalName(element),
        insertText: id,
        snippet: false,
        range,
        sortText: `0${id}`,
      });
    }
    return out;
  }
  return valueCompletions(sdk, f, facts.subtype, language, range, raw.trim());
}

function pickAttributeField(entries: Entry[], element: Entry | undefined): FieldDef | undefined {
  const own = element?.field ? entries.find((x) => x.field?.attributeOf === element.id) : undefined;
  return (own ?? entries[0])?.field;
}

function valueCompletions(
  sdk: SdkKnowledge,
  f: FieldDef,
  subtype: string | undefined,
  language: string,
  range: Range,
  typed = '',
): AuthoringCompletion[] {
  if (f.presetValue !== undefined)
    return [
      {
        label: f.presetValue,
        kind: 'value',
        detail: f.id,
        insertText: f.presetValue,
        snippet: false,
        range,
        sortText: '0',
      },
    ];
  const cl = sdk.codeListOf(f, subtype);
  if (!cl) {
    if (f.type === 'indicator')
      return ['true', 'false'].map((v) => ({
        label: v,
        kind: 'value',
        insertText: v,
        snippet: false,
        range,
        sortText: v,
      }));
    return [];
  }
  const preferred = sdk.codeList(cl.id);
  const general = cl.general === cl.id ? preferred : sdk.codeList(cl.general);
  const out: AuthoringCompletion[] = [];
  const seen = new Set<string>();
  const add = (code: string, rank: string, listId: string) => {
    if (seen.has(code) || out.length >= MAX_VALUES) return;
    seen.add(code);
    const label = sdk.codeLabel(listId, code, language);
    out.push({
      label: code,
      kind: 'value',
      detail: label,
      documentation: `${listId}${rank === '0' && cl.id !== cl.general ? ` (allowed in subtype ${subtype})` : ''}`,
      insertText: code,
      snippet: false,
      range,
      sortText: `${rank}${String(out.length).padStart(5, '0')}`,
      filterText: label ? `${code} ${label}` : code,
    });
  };
  // Where the subtype's rules allow fewer codes than the list (procedure types), only those.
  const allowed = subtype ? codesAllowedByRules(sdk, f.id, subtype) : undefined;
  // A list longer than what is offered (CPV: 9,454 codes) is narrowed by what is typed already, by
  // code prefix or by words of the label (`5552`, `catering`), so that every code can be reached.
  const long = (preferred?.codes.length ?? 0) + (general?.codes.length ?? 0) > MAX_VALUES;
  const needle = typed.toLowerCase();
  const matches = (c: string, listId: string) =>
    !long ||
    needle === '' ||
    c.toLowerCase().startsWith(needle) ||
    (sdk.codeLabel(listId, c, language) ?? '').toLowerCase().includes(needle);
  const ok = (c: string, listId: string) => (!allowed || allowed.includes(c)) && matches(c, listId);
  for (const c of preferred?.codes ?? []) if (ok(c, cl.id)) add(c, '0', cl.id);
  for (const c of general?.codes ?? []) if (ok(c, cl.general)) add(c, '1', cl.general);
  return out;
}

interface Variant {
  label: string;
  entries: Entry[];
  mandatory: boolean;
  order: number;
}

/** Child elements allowed in `parent`, one item per SDK variant (Lot, Part, LotsGroup…). */
function elementCompletions(
  index: XmlIndex,
  sdk: SdkKnowledge,
  parent: XmlElement,
  range: Range,
  subtype: string | undefined,
  language: string,
  base: Omit<PlaceholderContext, 'sdk' | 'subtype' | 'language'>,
): AuthoringCompletion[] {
  const { key } = parent.parent < 0 ? { key: '' } : sdk.keyOf(index, parent);
  const slots = sdk.children.get(key);
  if (!slots) return [];
  const depth = key === '' ? 0 : key.split('/').length;
  const ctx: PlaceholderContext = { ...base, sdk, subtype, language };
  const indent = indentOf(index, parent);
  const out: AuthoringCompletion[] = [];
  for (const slot of slots.values()) {
    // Variants: entries grouped by the predicates of this step.
    const byPredicate = new Map<string, Entry[]>();
    for (const en of slot.entries) {
      const step = en.steps[depth];
      const k = step ? step.predicates.map(predicateText).join('') : '';
      const list = byPredicate.get(k);
      if (list) list.push(en);
      else byPredicate.set(k, [en]);
    }
    const variants: Variant[] = [];
    const present = parent.children
      .map((c) => index.element(c) as XmlElement)
      .filter((c) => canonicalName(c) === slot.name);
    for (const [pred, entries] of byPredicate) {
      // Only what may still be added: an element already there is offered again only if it repeats.
      const step = entries[0]?.steps[depth];
      const there = present.some((c) =>
        (step?.predicates ?? []).every((p) => evaluatePredicate(index, c, p) !== false),
      );
      const repeats = entries.some(
        (en) =>
          en.steps.length === depth + 1 &&
          (en.kind === 'node' ? en.node?.repeatable === true : en.field?.repeatable?.value === true),
      );
      if (there && !repeats) continue;
      const mandatory = entries.some(
        (en) => en.kind === 'field' && sdk.presence(en.id, subtype).mandatory === 'always',
      );
      const forbidden = entries.every(
        (en) => en.kind !== 'field' || sdk.presence(en.id, subtype).forbidden === 'always',
      );
      if (forbidden && entries.some((en) => en.kind === 'field') && !mandatory) continue;
      // Variants told apart by the field they hold, in words, not by the SDK's XPath predicates.
      const named = entries.find((en) => en.kind === 'field' && en.steps.length >= depth + 1);
      variants.push({
        label: pred && named ? `${slot.name} · ${sdk.fieldLabel(named.id, language)}` : slot.name,
        entries,
        mandatory,
        order: slot.order,
      });
    }
    for (const v of variants) {
      const root = skeletonNode(slot.name, key ? `${key}/${slot.name}` : slot.name, slot.order);
      for (const en of v.entries) {
        if (en.kind !== 'field') {
          if (en.steps.length === depth + 1) addPath(wrap(root, key), en, depth, ctx);
          continue;
        }
        const exact =
          en.steps.length === depth + 1 ||
          (en.steps.length === depth + 2 && en.steps[depth + 1]?.name.startsWith('@'));
        if (exact || sdk.presence(en.id, subtype).mandatory === 'always')
          addPath(wrap(root, key), en, depth, ctx);
      }
      sortSkeleton(root);
      const leaf = v.entries.find((en) => en.kind === 'field' && en.steps.length === depth + 1);
      const detail = leaf
        ? `${sdk.fieldLabel(leaf.id, language)} (${leaf.id})`
        : v.entries.find((en) => en.kind === 'node' && en.steps.length === depth + 1)?.id;
      const snippet = writeSnippet(root, '', '  ').replace(/\n/g, `\n${indent}`);
      out.push({
        label: v.label,
        kind: 'element',
        detail: `${v.mandatory ? 'mandatory · ' : ''}${detail ?? ''}`,
        insertText: snippet,
        snippet: true,
        range,
        sortText: `${v.mandatory ? '0' : '1'}${String(Number.isFinite(v.order) ? v.order : 999).padStart(4, '0')}${v.label}`,
        filterText: `<${slot.name}`,
      });
    }
  }
  return out;
}

/** A throwaway parent, so that addPath can start at the child's own step and write into `root`. */
function wrap(root: SkeletonNode, parentKey: string): SkeletonNode {
  const holder = skeletonNode('', parentKey);
  holder.children.push(root);
  return holder;
}

function predicateText(p: Predicate): string {
  if (p.kind === 'path') {
    const path = p.path.map((s) => s.name).join('/');
    return p.equals === undefined ? `[${path}]` : `[${path}='${p.equals}']`;
  }
  if (p.kind === 'unknown') return `[${p.text}]`;
  return `[${p.kind}]`;
}

function indentOf(index: XmlIndex, e: XmlElement): string {
  const text = index.text;
  const lineStart = text.lastIndexOf('\n', e.start - 1) + 1;
  const m = /^[ \t]*/.exec(text.slice(lineStart, e.start));
  return `${m?.[0] ?? ''}  `;
}
