// What one eForms SDK release knows about notices: the fields and nodes of fields/fields.json indexed by
// element path, the children each element may have and their schema order, the mandatory and forbidden
// constraints per notice subtype, code lists (.gc), labels in the 24 languages (translations/), and the
// notice subtypes. fields.json is parsed once per release; translations and code lists are read the
// first time they are asked for. Missing or malformed files give empty answers, never exceptions.
// No `vscode` import here; reads only the release folder it is given.

import { join } from 'node:path';
import { decodeXmlText, type XmlElement, type XmlIndex } from '../notice';
import { readSdkFile } from '../sdk';
import {
  canonicalName,
  evaluatePredicate,
  type PathStep,
  parseSdkPath,
  parseSdkRelativePath,
  pathKey,
} from './sdk-paths';

export interface Constraint {
  noticeTypes?: string[];
  condition?: string;
  value: unknown;
  severity?: string;
  message?: string;
}

export interface ConstrainedProperty<T> {
  value: T;
  severity?: string;
  constraints?: Constraint[];
}

export interface FieldDef {
  id: string;
  parentNodeId?: string;
  name?: string;
  btId?: string;
  xpathAbsolute: string;
  xpathRelative?: string;
  xsdSequenceOrder?: Record<string, number>[];
  type: string;
  attributes?: string[];
  attributeName?: string;
  attributeOf?: string;
  presetValue?: string;
  idScheme?: string;
  idSchemes?: string[];
  schemeName?: string;
  maxLength?: number;
  codeList?: ConstrainedProperty<{ id: string; type?: string }>;
  mandatory?: ConstrainedProperty<boolean>;
  forbidden?: ConstrainedProperty<boolean>;
  pattern?: ConstrainedProperty<string>;
  assert?: ConstrainedProperty<string>;
  repeatable?: ConstrainedProperty<boolean>;
}

export interface NodeDef {
  id: string;
  parentId?: string;
  xpathAbsolute: string;
  xpathRelative?: string;
  xsdSequenceOrder?: Record<string, number>[];
  repeatable?: boolean;
  identifierFieldId?: string;
  captionFieldId?: string;
  businessEntityId?: string;
}

/** A field or a node, with its path parsed. */
export interface Entry {
  kind: 'field' | 'node';
  id: string;
  steps: PathStep[];
  /** pathKey(steps): names without predicates, `@attr` last for an attribute field. */
  key: string;
  field?: FieldDef;
  node?: NodeDef;
}

/** One child element name allowed under an element path. */
export interface ChildSlot {
  name: string;
  /** Position in the parent's xsd:sequence (lower first); Infinity when the SDK does not say. */
  order: number;
  /** The fields and nodes whose path passes through (or ends at) this child. */
  entries: Entry[];
}

export interface Presence {
  /** `always` for this subtype, `conditional` under the conditions listed, `no` otherwise. */
  mandatory: 'always' | 'conditional' | 'no';
  forbidden: 'always' | 'conditional' | 'no';
  mandatoryWhen: string[];
  forbiddenWhen: string[];
}

export interface CodeList {
  id: string;
  /** Codes in the order of the file. */
  codes: string[];
  /** Label by code, then by three-letter language (`eng`), with `Name` as the fallback. */
  labels: Map<string, Record<string, string>>;
  /** Read from translations/ (no .gc file): labels in other languages are looked up there. */
  fromTranslations?: boolean;
}

export interface NoticeSubtype {
  subTypeId: string;
  type?: string;
  formType?: string;
  documentType?: string;
  legalBasis?: string;
  description?: string;
}

/** Two-letter languages of the eForms translations and the three-letter codes of the .gc columns. */
export const LANGUAGE_CODES: Readonly<Record<string, string>> = {
  bg: 'bul',
  cs: 'ces',
  da: 'dan',
  de: 'deu',
  el: 'ell',
  en: 'eng',
  es: 'spa',
  et: 'est',
  fi: 'fin',
  fr: 'fra',
  ga: 'gle',
  hr: 'hrv',
  hu: 'hun',
  it: 'ita',
  lt: 'lit',
  lv: 'lav',
  mt: 'mlt',
  nl: 'nld',
  pl: 'pol',
  pt: 'por',
  ro: 'ron',
  sk: 'slk',
  sl: 'slv',
  sv: 'swe',
};

const knowledgeByDir = new Map<string, SdkKnowledge>();

/** The knowledge of the release in `dir`, built once per folder and kept for the process. */
export function sdkKnowledge(dir: string, version: string): SdkKnowledge {
  let k = knowledgeByDir.get(dir);
  if (!k) {
    k = new SdkKnowledge(dir, version);
    knowledgeByDir.set(dir, k);
  }
  return k;
}

/**
 * The parsed steps of fields.json's paths. Each absolute path is its parent node's and `/` and the
 * relative one: the parent's steps (read once per node) and the relative path read alone give the
 * same steps as the whole path read (parseSdkPath), for a sixth of the text. Any other path is read
 * whole.
 */
class SdkPathSteps {
  /** The steps of each node's absolute path; null while it is being read (a parent cycle). */
  private readonly ofNode = new Map<string, PathStep[] | null>();
  /** The steps of each relative path (shared by the entries: nothing changes a PathStep). */
  private readonly ofRelative = new Map<string, PathStep[] | undefined>();

  constructor(private readonly nodes: ReadonlyMap<string, NodeDef>) {}

  /** undefined for a definition without an absolute path (it is left out, as before). */
  of(def: FieldDef | NodeDef, parentId: string | undefined): PathStep[] | undefined {
    if (typeof def.xpathAbsolute !== 'string') return undefined;
    const parent = typeof parentId === 'string' ? this.nodes.get(parentId) : undefined;
    const rel = def.xpathRelative;
    if (
      parent &&
      typeof parent.xpathAbsolute === 'string' &&
      typeof rel === 'string' &&
      def.xpathAbsolute.length === parent.xpathAbsolute.length + 1 + rel.length &&
      def.xpathAbsolute.startsWith(parent.xpathAbsolute) &&
      def.xpathAbsolute.endsWith(rel) &&
      def.xpathAbsolute.charCodeAt(parent.xpathAbsolute.length) === 0x2f
    ) {
      const head = this.node(parent);
      // The parent's path must have been read as steps (parseSdkPath gives none for a path it cannot
      // read, and for `/*`: only the root's `/*` continues).
      if (head !== null && (head.length > 0 || /^\/\*$/.test(parent.xpathAbsolute))) {
        const tail = this.relative(rel);
        if (tail) return [...head, ...tail];
      }
    }
    return parseSdkPath(def.xpathAbsolute);
  }

  /** Relative paths repeat (`cbc:ID`, `@listName`: 578 distinct of 1,579 in 1.15.1): each read once. */
  private relative(rel: string): PathStep[] | undefined {
    if (this.ofRelative.has(rel)) return this.ofRelative.get(rel);
    const steps = parseSdkRelativePath(rel);
    this.ofRelative.set(rel, steps);
    return steps;
  }

  private node(n: NodeDef): PathStep[] | null {
    const kept = this.ofNode.get(n.id);
    if (kept !== undefined) return kept;
    this.ofNode.set(n.id, null);
    const steps = this.of(n, n.parentId) ?? null;
    this.ofNode.set(n.id, steps);
    return steps;
  }
}

export class SdkKnowledge {
  readonly fields = new Map<string, FieldDef>();
  readonly nodes = new Map<string, NodeDef>();
  /** Every field and node by id, with its parsed path. */
  readonly entries = new Map<string, Entry>();
  /** Entries by path key; a key shared by several (Lot, Part, LotsGroup) is told apart by predicates. */
  readonly byKey = new Map<string, Entry[]>();
  /** Child elements by parent key ('' for the root). */
  readonly children = new Map<string, Map<string, ChildSlot>>();
  /** Attribute fields by element key. */
  readonly attributes = new Map<string, Map<string, Entry[]>>();
  /** The problem that left the model empty (file missing, JSON malformed), if any. */
  readonly problem: string | undefined;
  private readonly translations = new Map<string, Map<string, string>>();
  private readonly codeLists = new Map<string, CodeList | undefined>();
  private codeListFiles: Map<string, { filename: string; parentId?: string }> | undefined;
  private subtypes: NoticeSubtype[] | undefined;
  private identifiedBy: Map<string, Entry> | undefined;
  private rules: Map<string, { owner: string; efx: string }> | undefined;
  /** ruleFields() per rule id: the SDK's rules (a few thousand), or a report's (bounded). */
  private readonly ruleFieldsKept = new Map<string, { owner: string; involved: string[] } | undefined>();

  constructor(
    readonly dir: string,
    readonly version: string,
  ) {
    let problem: string | undefined;
    try {
      const json = JSON.parse(readSdkFile(dir, join('fields', 'fields.json'), 'sdkFieldsBytes')) as {
        xmlStructure?: NodeDef[];
        fields?: FieldDef[];
      };
      const structure = (json.xmlStructure ?? []).filter((n) => n && typeof n.id === 'string');
      const steps = new SdkPathSteps(new Map(structure.map((n) => [n.id, n])));
      for (const n of structure) this.add('node', n, steps.of(n, n.parentId));
      for (const f of json.fields ?? [])
        if (f && typeof f.id === 'string') this.add('field', f, steps.of(f, f.parentNodeId));
    } catch (err) {
      problem = `fields/fields.json of ${dir} could not be read: ${(err as Error).message}`;
    }
    this.problem = problem;
  }

  private add(kind: 'field' | 'node', def: FieldDef | NodeDef, steps: PathStep[] | undefined): void {
    if (typeof def.xpathAbsolute !== 'string' || steps === undefined) return;
    const key = def.xpathAbsolute === '/*' ? '' : pathKey(steps);
    const entry: Entry =
      kind === 'field'
        ? { kind, id: def.id, steps, key, field: def as FieldDef }
        : { kind, id: def.id, steps, key, node: def as NodeDef };
    if (kind === 'field') this.fields.set(def.id, def as FieldDef);
    else this.nodes.set(def.id, def as NodeDef);
    this.entries.set(def.id, entry);
    push(this.byKey, key, entry);
    const elementSteps = steps.filter((s) => !s.name.startsWith('@'));
    const attr =
      steps.length > 0 && steps[steps.length - 1]?.name.startsWith('@') ? steps[steps.length - 1] : undefined;
    // xsdSequenceOrder gives the order of the relative path's element steps, which end the absolute path.
    const orders = (def.xsdSequenceOrder ?? [])
      .map((o) => Object.entries(o)[0])
      .filter((x) => x !== undefined);
    const firstRelative = elementSteps.length - orders.length;
    for (let i = 0; i < elementSteps.length; i++) {
      const parentKey = pathKey(elementSteps.slice(0, i));
      const name = (elementSteps[i] as PathStep).name;
      let slots = this.children.get(parentKey);
      if (!slots) {
        slots = new Map();
        this.children.set(parentKey, slots);
      }
      let slot = slots.get(name);
      if (!slot) {
        slot = { name, order: Number.POSITIVE_INFINITY, entries: [] };
        slots.set(name, slot);
      }
      const o = i >= firstRelative ? orders[i - firstRelative] : undefined;
      if (o && o[0] === name && slot.order === Number.POSITIVE_INFINITY) slot.order = o[1];
      slot.entries.push(entry);
    }
    if (attr) {
      const elementKey = pathKey(elementSteps);
      let attrs = this.attributes.get(elementKey);
      if (!attrs) {
        attrs = new Map();
        this.attributes.set(elementKey, attrs);
      }
      push(attrs, attr.name.slice(1), entry);
    }
  }

  /** The node whose identifierFieldId is this field (ND-Organization for OPT-200-Organization-Company). */
  nodeIdentifiedBy(fieldId: string): Entry | undefined {
    if (!this.identifiedBy) {
      this.identifiedBy = new Map();
      for (const n of this.nodes.values()) {
        const e = this.entries.get(n.id);
        if (n.identifierFieldId && e && !this.identifiedBy.has(n.identifierFieldId))
          this.identifiedBy.set(n.identifierFieldId, e);
      }
    }
    return this.identifiedBy.get(fieldId);
  }

  /** The canonical names from the root's child down to `element` ('' for the root). */
  keyOf(index: XmlIndex, element: XmlElement): { key: string; chain: XmlElement[] } {
    const chain: XmlElement[] = [];
    let e: XmlElement | undefined = element;
    while (e && e.parent >= 0) {
      chain.push(e);
      e = index.element(e.parent);
    }
    chain.reverse();
    return { key: chain.map(canonicalName).join('/'), chain };
  }

  /**
   * The field or node an element (or one of its attributes) is, told apart from others at the same path
   * by the SDK's predicates. Fields win over nodes at the same place.
   */
  identify(index: XmlIndex, element: XmlElement, attribute?: string): Entry | undefined {
    const { key, chain } = this.keyOf(index, element);
    const full = attribute ? (key ? `${key}/@${attribute}` : `@${attribute}`) : key;
    const candidates = this.byKey.get(full);
    if (!candidates || candidates.length === 0) return undefined;
    let best: Entry | undefined;
    let bestScore = -1;
    for (const c of candidates) {
      let score = c.kind === 'field' ? 1000 : 0;
      let rejected = false;
      const elementSteps = c.steps.filter((s) => !s.name.startsWith('@'));
      for (let i = 0; i < elementSteps.length && !rejected; i++) {
        const at = chain[i];
        if (!at) break;
        for (const p of (elementSteps[i] as PathStep).predicates) {
          const v = evaluatePredicate(index, at, p);
          if (v === false) rejected = true;
          else if (v === true) score += 1;
        }
      }
      if (!rejected && score > bestScore) {
        best = c;
        bestScore = score;
      }
    }
    return best;
  }

  /** Whether a field or node is mandatory or forbidden for a subtype, with conditions in EFX. */
  presence(id: string, subtype: string | undefined): Presence {
    const f = this.fields.get(id);
    const out: Presence = { mandatory: 'no', forbidden: 'no', mandatoryWhen: [], forbiddenWhen: [] };
    if (!f) return out;
    const read = (prop: ConstrainedProperty<boolean> | undefined, which: 'mandatory' | 'forbidden') => {
      if (!prop) return;
      if (prop.value === true) out[which] = 'always';
      for (const c of prop.constraints ?? []) {
        if (c.value !== true) continue;
        if (c.noticeTypes && (subtype === undefined || !c.noticeTypes.includes(subtype))) continue;
        if (c.condition) {
          if (out[which] !== 'always') out[which] = 'conditional';
          out[which === 'mandatory' ? 'mandatoryWhen' : 'forbiddenWhen'].push(efxInWords(c.condition));
        } else out[which] = 'always';
      }
    };
    read(f.mandatory, 'mandatory');
    read(f.forbidden, 'forbidden');
    return out;
  }

  /** The code list a field uses in a subtype: the subtype's tailored list when there is one. */
  codeListOf(field: FieldDef, subtype: string | undefined): { id: string; general: string } | undefined {
    const cl = field.codeList;
    if (!cl?.value?.id) return undefined;
    let id = cl.value.id;
    for (const c of cl.constraints ?? [])
      if (subtype !== undefined && c.noticeTypes?.includes(subtype) && !c.condition) {
        const v = c.value as { id?: string } | undefined;
        if (v?.id) id = v.id;
      }
    return { id, general: cl.value.id };
  }

  /** Rule ids (`BR-BT-00137-0201`) of the field's assertions. */
  rulesOf(field: FieldDef): string[] {
    const out: string[] = [];
    for (const c of field.assert?.constraints ?? []) {
      const m = /^rule\|text\|(.+)$/.exec(c.message ?? '');
      if (m?.[1] && !out.includes(m[1])) out.push(m[1]);
    }
    return out;
  }

  /**
   * The field whose assertion a rule is, and the other fields its test and condition involve: the same
   * object for every call (a batch asks once per finding).
   */
  ruleFields(ruleId: string): { readonly owner: string; readonly involved: readonly string[] } | undefined {
    if (this.ruleFieldsKept.has(ruleId)) return this.ruleFieldsKept.get(ruleId);
    const r = this.ruleFieldsOnce(ruleId);
    if (this.ruleFieldsKept.size >= 50_000) this.ruleFieldsKept.clear();
    this.ruleFieldsKept.set(ruleId, r);
    return r;
  }

  private ruleFieldsOnce(ruleId: string): { owner: string; involved: string[] } | undefined {
    if (!this.rules) {
      this.rules = new Map();
      for (const f of this.fields.values())
        for (const c of f.assert?.constraints ?? []) {
          const m = /^rule\|text\|(.+)$/.exec(c.message ?? '');
          if (m?.[1] && !this.rules.has(m[1]))
            this.rules.set(m[1], { owner: f.id, efx: `${c.condition ?? ''} ${String(c.value ?? '')}` });
        }
    }
    const r = this.rules.get(ruleId);
    if (!r) return undefined;
    const involved: string[] = [];
    for (const m of r.efx.matchAll(/\b(?:BT|OPT|OPP)-[\w()]+(?:-[\w()]+)*/g))
      if (m[0] !== r.owner && this.fields.has(m[0]) && !involved.includes(m[0])) involved.push(m[0]);
    return { owner: r.owner, involved };
  }

  /** A label from translations/<kind>_<lang>.xml (`field|name|BT-24-Lot`), English as the fallback. */
  translation(kind: string, key: string, lang: string): string | undefined {
    return (
      this.translationTable(kind, lang).get(key) ??
      (lang === 'en' ? undefined : this.translationTable(kind, 'en').get(key))
    );
  }

  private translationTable(kind: string, lang: string): Map<string, string> {
    const k = `${kind}_${lang}`;
    let t = this.translations.get(k);
    if (t) return t;
    t = new Map();
    this.translations.set(k, t);
    if (!/^[a-z-]+$/.test(kind) || !/^[a-z]{2}$/.test(lang)) return t;
    const file = join(this.dir, 'translations', `${k}.xml`);
    let text = '';
    try {
      text = readSdkFile(this.dir, file, 'sdkTranslationBytes');
    } catch {
      return t;
    }
    const re = /<entry key="([^"]*)">([\s\S]*?)<\/entry>/g;
    for (let m = re.exec(text); m; m = re.exec(text)) t.set(decodeText(m[1] ?? ''), decodeText(m[2] ?? ''));
    return t;
  }

  fieldLabel(id: string, lang: string): string {
    return this.translation('field', `field|name|${id}`, lang) ?? this.fields.get(id)?.name ?? id;
  }

  /**
   * A node's label: its business entity's name, else the words of its id (`ND-ProcedureTenderingProcess`
   * → "Procedure tendering process"). The SDK translates fields and form groups, not nodes, and a form
   * group's label names only one use of its node ("Description" for the procedure's whole scope).
   */
  nodeLabel(id: string, lang: string): string {
    if (id === 'ND-Root')
      return this.translation('business-entity', 'business-entity|name|Notice', lang) ?? 'The notice';
    const entity = this.nodes.get(id)?.businessEntityId;
    const fromEntity = entity
      ? this.translation('business-entity', `business-entity|name|${entity}`, lang)
      : undefined;
    if (fromEntity) return fromEntity;
    const words = id
      .replace(/^ND-/, '')
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase();
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  fieldDescription(id: string, lang: string): string | undefined {
    return this.translation('field', `field|description|${id}`, lang);
  }

  /** A code list by id (tailored lists read their parent's file), or undefined when the SDK lacks it. */
  codeList(id: string): CodeList | undefined {
    if (this.codeLists.has(id)) return this.codeLists.get(id);
    const files = this.codeListIndex();
    const entry = files.get(id);
    const candidates = [entry?.filename, `${id}.gc`].filter((x): x is string => typeof x === 'string');
    let list: CodeList | undefined;
    for (const name of candidates) {
      if (!/^[\w.-]+\.gc$/.test(name)) continue;
      const file = join(this.dir, 'codelists', name);
      try {
        list = parseGenericode(id, readSdkFile(this.dir, file, 'sdkCodelistBytes'));
        break;
      } catch {
        list = undefined;
      }
    }
    // No .gc file (CPV is left out of most releases' codelists/, and trimmed copies have none): the
    // codes the translations name (`code|name|cpv.03000000`) are the list, labelled in every language.
    list ??= this.codeListFromTranslations(id);
    this.codeLists.set(id, list);
    return list;
  }

  private codeListFromTranslations(id: string): CodeList | undefined {
    if (!/^[\w.-]+$/.test(id)) return undefined;
    const prefix = `code|name|${id}.`;
    const codes: string[] = [];
    const labels = new Map<string, Record<string, string>>();
    for (const [key, label] of this.translationTable('code', 'en')) {
      if (!key.startsWith(prefix)) continue;
      const code = key.slice(prefix.length);
      if (code === '' || labels.has(code)) continue;
      codes.push(code);
      // Other languages come from their own translation files (codeLabel), read when asked for.
      labels.set(code, { eng: label });
    }
    return codes.length > 0 ? { id, codes, labels, fromTranslations: true } : undefined;
  }

  /** A code's label in a language (three-letter column, then `Name`). */
  codeLabel(listId: string, code: string, lang: string): string | undefined {
    const list = this.codeList(listId);
    const labels = list?.labels.get(code);
    if (labels && !list?.fromTranslations)
      return labels[LANGUAGE_CODES[lang] ?? 'eng'] ?? labels.eng ?? labels.Name;
    return this.translation('code', `code|name|${listId}.${code}`, lang) ?? labels?.eng;
  }

  private codeListIndex(): Map<string, { filename: string; parentId?: string }> {
    if (this.codeListFiles) return this.codeListFiles;
    const out = new Map<string, { filename: string; parentId?: string }>();
    try {
      const json = JSON.parse(
        readSdkFile(this.dir, join('codelists', 'codelists.json'), 'sdkCodelistBytes'),
      ) as {
        codelists?: { id?: string; filename?: string; parentId?: string }[];
      };
      for (const c of json.codelists ?? [])
        if (typeof c.id === 'string' && typeof c.filename === 'string')
          out.set(c.id, { filename: c.filename, parentId: c.parentId });
    } catch {
      // No index: lists are looked up by their id as file name.
    }
    this.codeListFiles = out;
    return out;
  }

  /** The notice subtypes of notice-types/notice-types.json. */
  noticeSubtypes(): NoticeSubtype[] {
    if (this.subtypes) return this.subtypes;
    try {
      const json = JSON.parse(
        readSdkFile(this.dir, join('notice-types', 'notice-types.json'), 'sdkNoticeTypeBytes'),
      ) as {
        noticeSubTypes?: NoticeSubtype[];
      };
      this.subtypes = (json.noticeSubTypes ?? []).filter((s) => typeof s.subTypeId === 'string');
    } catch {
      this.subtypes = [];
    }
    return this.subtypes;
  }

  /** The ids of the fields in a subtype's form (notice-types/<subtype>.json), or undefined. */
  formFields(subtype: string): Set<string> | undefined {
    if (!/^[\w-]+$/.test(subtype)) return undefined;
    try {
      const json = JSON.parse(
        readSdkFile(this.dir, join('notice-types', `${subtype}.json`), 'sdkNoticeTypeBytes'),
      ) as {
        metadata?: unknown[];
        content?: unknown[];
      };
      const out = new Set<string>();
      const walk = (items: unknown[] | undefined) => {
        for (const item of items ?? []) {
          const it = item as { id?: string; contentType?: string; content?: unknown[] };
          if (it.contentType === 'field' && typeof it.id === 'string') out.add(it.id);
          walk(it.content);
        }
      };
      walk(json.metadata);
      walk(json.content);
      return out;
    } catch {
      return undefined;
    }
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}

/** `{ND-Lot} ${BT-23-Lot == 'works'}` → `BT-23-Lot == 'works'`: the condition without its context. */
export function efxInWords(efx: string): string {
  const m = /^\s*\{[^}]*\}\s*\$\{([\s\S]*)\}\s*$/.exec(efx);
  return (m?.[1] ?? efx).replace(/\s+/g, ' ').trim();
}

/** The SDK's XML text with its references decoded, as the notice index decodes a notice's. */
function decodeText(s: string): string {
  return decodeXmlText(s, 0, s.length);
}

/** Codes and labels of a Genericode file: each Row's `code` column and its label columns. */
export function parseGenericode(id: string, text: string): CodeList {
  const codes: string[] = [];
  const labels = new Map<string, Record<string, string>>();
  const rowRe = /<Row>([\s\S]*?)<\/Row>/g;
  const valueRe = /<Value ColumnRef="([^"]+)">\s*<SimpleValue>([^<]*)<\/SimpleValue>/g;
  for (let row = rowRe.exec(text); row; row = rowRe.exec(text)) {
    const body = row[1] ?? '';
    let code: string | undefined;
    const l: Record<string, string> = {};
    valueRe.lastIndex = 0;
    for (let v = valueRe.exec(body); v; v = valueRe.exec(body)) {
      const col = v[1] ?? '';
      const val = decodeText((v[2] ?? '').trim());
      if (col === 'code') code = val;
      else if (col === 'Name') l.Name = val;
      else if (col.endsWith('_label')) l[col.slice(0, -6)] = val;
    }
    if (code !== undefined && !labels.has(code)) {
      codes.push(code);
      labels.set(code, l);
    }
  }
  return { id, codes, labels };
}
