// Builds the XML the SDK requires under an element: its mandatory children in schema order, their
// attributes with the SDK's fixed values (`listName`, `schemeName`), and a placeholder value for each
// field by type. New Notice, the element snippets of completion and the "insert missing element" quick
// fix all write through here, so they agree. No `vscode` import here, and no I/O.

import { narrowCodes } from './rule-codes';
import { type Entry, type FieldDef, LANGUAGE_CODES, type SdkKnowledge } from './sdk-knowledge';
import type { PathStep, Predicate } from './sdk-paths';

export interface SkeletonNode {
  name: string;
  /** Path key of this element (canonical names from the root's child; '' for the root). */
  key: string;
  order: number;
  attributes: Map<string, string>;
  text?: string;
  /** The SDK predicates this element was created for (`[cbc:ID/@schemeName='Lot']`): variants stay apart. */
  variant: string;
  /** The field whose value this element holds, when it is a leaf. */
  field?: string;
  children: SkeletonNode[];
}

export interface PlaceholderContext {
  sdk: SdkKnowledge;
  subtype?: string;
  /** yyyy-mm-dd of "today" in UTC, passed in so that output is reproducible in tests. */
  today: string;
  /** Fresh identifiers (UUIDs); one call per identifier. */
  uuid: () => string;
  language: string;
  /** Values known for some fields in this context (BT-02-notice → cn-standard for a new notice). */
  known?: Readonly<Record<string, string>>;
}

/** An empty node for an element name. */
export function skeletonNode(name: string, key: string, order = Number.POSITIVE_INFINITY): SkeletonNode {
  return { name, key, order, variant: '', attributes: new Map(), children: [] };
}

/**
 * Adds a field (or node) path to a skeleton rooted at `root`, whose own path is the first `skip`
 * steps of the entry. Predicates the SDK uses to tell variants apart (`[cbc:ID/@schemeName='Lot']`)
 * are written out as the child or attribute they require.
 */
export function addPath(root: SkeletonNode, entry: Entry, skip: number, ctx: PlaceholderContext): void {
  const steps = entry.steps;
  let at = root;
  for (let i = 0; i < skip && i < steps.length; i++) materialize(at, (steps[i] as PathStep).predicates, ctx);
  for (let i = skip; i < steps.length; i++) {
    const step = steps[i] as PathStep;
    if (step.name.startsWith('@')) {
      const f = entry.field;
      if (f && !at.attributes.has(step.name.slice(1)))
        at.attributes.set(step.name.slice(1), attributeValue(f, ctx));
      return;
    }
    at = child(at, step.name, ctx, variantOf(step));
    materialize(at, step.predicates, ctx);
  }
  const f = entry.field;
  // A leaf whose value a predicate already wrote (`[efbc:TermCode/text()='all-rev-tic']`) still gets
  // its field's attributes (its listName).
  if (f && at.children.length === 0) {
    if (at.text === undefined) {
      at.text = placeholder(f, ctx);
      at.field = f.id;
    } else at.field ??= f.id;
    for (const a of f.attributes ?? []) {
      const af = ctx.sdk.fields.get(a);
      if (af?.attributeName && !at.attributes.has(af.attributeName)) {
        const v = attributeValue(af, ctx);
        if (v !== '') at.attributes.set(af.attributeName, v);
      }
    }
  }
}

export function child(at: SkeletonNode, name: string, ctx: PlaceholderContext, variant = ''): SkeletonNode {
  // A step without predicates joins any variant already there (it is the same element).
  let c = at.children.find(
    (x) => x.name === name && (x.variant === variant || variant === '' || x.variant === ''),
  );
  if (!c) {
    const order = ctx.sdk.children.get(at.key)?.get(name)?.order ?? Number.POSITIVE_INFINITY;
    c = skeletonNode(name, at.key ? `${at.key}/${name}` : name, order);
    c.variant = variant;
    at.children.push(c);
  } else if (c.variant === '' && variant !== '') c.variant = variant;
  return c;
}

/** The predicates of a step as text: the identity of a variant. */
export function variantOf(step: PathStep): string {
  return step.predicates.length === 0 ? '' : JSON.stringify(step.predicates);
}

export function materialize(
  at: SkeletonNode,
  predicates: readonly Predicate[],
  ctx: PlaceholderContext,
): void {
  for (const p of predicates) {
    if (p.kind === 'and') {
      materialize(at, p.parts, ctx);
      continue;
    }
    if (p.kind !== 'path' || p.equals === undefined) continue;
    let node = at;
    for (let i = 0; i < p.path.length; i++) {
      const s = p.path[i] as PathStep;
      if (s.name.startsWith('@')) {
        node.attributes.set(s.name.slice(1), p.equals);
        break;
      }
      if (s.name === 'text()') {
        node.text = p.equals;
        break;
      }
      node = child(node, s.name, ctx);
      if (i === p.path.length - 1) node.text = p.equals;
    }
  }
}

function attributeValue(f: FieldDef, ctx: PlaceholderContext): string {
  const known = ctx.known?.[f.id];
  if (known !== undefined) return known;
  if (f.presetValue !== undefined) return f.presetValue;
  if (f.attributeName === 'languageID') return noticeLanguageCode(ctx.language);
  if (f.attributeName === 'currencyID') return 'EUR';
  // A unit nobody chose stays empty, like a code (a list of one is no choice).
  if (f.attributeName === 'unitCode') return onlyCode(f, ctx) ?? '';
  // The scheme of an identifier or reference (`organization`, `Lot`) follows from what it names.
  return firstCode(f, ctx) ?? '';
}

/** The notice language as written in the notice (`ENG`), from `en` or `eng`/`ENG`. */
export function noticeLanguageCode(language: string): string {
  const l = language.trim().toLowerCase();
  return (LANGUAGE_CODES[l] ?? (/^[a-z]{3}$/.test(l) ? l : 'eng')).toUpperCase();
}

function firstCode(f: FieldDef, ctx: PlaceholderContext): string | undefined {
  const cl = ctx.sdk.codeListOf(f, ctx.subtype);
  if (!cl) return undefined;
  return ctx.sdk.codeList(cl.id)?.codes[0] ?? ctx.sdk.codeList(cl.general)?.codes[0];
}

/** The code when the field's list (as tailored for the subtype) allows only one: no choice to make. */
function onlyCode(f: FieldDef, ctx: PlaceholderContext): string | undefined {
  const cl = ctx.sdk.codeListOf(f, ctx.subtype);
  const list = cl ? (ctx.sdk.codeList(cl.id) ?? ctx.sdk.codeList(cl.general))?.codes : undefined;
  // As the subtype's rules narrow it (T02's winner-selection status can only be `selec-w`).
  const codes = list ? narrowCodes(ctx.sdk, f.id, ctx.subtype, list) : undefined;
  return codes?.length === 1 ? codes[0] : undefined;
}

/** A value of the right shape, marked as one to fill where the field is free text. */
export function placeholder(f: FieldDef, ctx: PlaceholderContext): string {
  const known = ctx.known?.[f.id];
  if (known !== undefined) return known;
  // `{NOW}` is the SDK's way of saying "the moment of sending".
  if (f.presetValue !== undefined && f.presetValue !== '{NOW}') return f.presetValue;
  switch (f.type) {
    case 'id':
      if (f.id === 'BT-701-notice' || f.id === 'BT-04-notice') return ctx.uuid();
      if (f.id === 'BT-757-notice') return '01';
      if (f.id === 'OPT-001-notice') return '2.3';
      if (f.id === 'OPT-002-notice') return `eforms-sdk-${minor(ctx.sdk.version)}`;
      return f.idScheme ? `${f.idScheme}-0001` : 'TODO-ID';
    case 'id-ref':
      return f.idSchemes?.[0] ? `${f.idSchemes[0]}-0001` : 'TODO-ID';
    case 'code': {
      if (f.id === 'OPP-070-notice' && ctx.subtype) return ctx.subtype;
      if (f.id === 'BT-702(a)-notice') return noticeLanguageCode(ctx.language);
      // Nobody chose this code: it stays empty, and the rules, completion and quick fixes offer the
      // list's values with their labels. A list of one code is no choice.
      return onlyCode(f, ctx) ?? '';
    }
    case 'date':
      // A date the SDK requires after the dispatch date (a deadline, a planned date) is put a month
      // later: today's date would break that rule before anyone chose a date.
      return `${followsDispatch(f) ? addDays(ctx.today, 30) : ctx.today}Z`;
    case 'time':
      return '12:00:00Z';
    case 'indicator':
      return 'false';
    case 'amount':
    case 'number':
    case 'integer':
      return '1';
    case 'url':
      return 'https://example.org/TODO';
    case 'email':
      return 'TODO@example.org';
    case 'phone':
      return '+000 000 0000';
    default:
      return `TODO: ${ctx.sdk.fieldLabel(f.id, ctx.language)}`;
  }
}

/**
 * Whether fields.json asserts, without condition on the field, that it comes after the notice's
 * dispatch date: `{…} ${BT-131(d)-Lot > BT-05(a)-notice}` (the EFX the SDK writes for these dates).
 */
function followsDispatch(f: FieldDef): boolean {
  if (f.id === 'BT-05(a)-notice') return false;
  const values = [f.assert?.value, ...(f.assert?.constraints ?? []).map((c) => c.value)];
  const after = [`${f.id} > BT-05(a)-notice`, `BT-05(a)-notice < ${f.id}`];
  return values.some((v) => typeof v === 'string' && after.some((a) => v.includes(a)));
}

/** yyyy-mm-dd plus `n` days (UTC); the date itself when it is not one. */
function addDays(date: string, n: number): string {
  const t = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(t) ? date : new Date(t + n * 86_400_000).toISOString().slice(0, 10);
}

function minor(version: string): string {
  const m = /^(\d+)\.(\d+)/.exec(version);
  return m ? `${m[1]}.${m[2]}` : version;
}

/** Sorts children by schema order, recursively (stable: unknown orders keep their insertion order). */
export function sortSkeleton(n: SkeletonNode): void {
  n.children.sort((a, b) => a.order - b.order);
  for (const c of n.children) sortSkeleton(c);
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;');
}

/** The skeleton as indented XML; `extraAttributes` go on the top element (namespace declarations). */
export function writeSkeleton(n: SkeletonNode, indent: string, step = '  ', extraAttributes = ''): string {
  const attrs = [...n.attributes].map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join('');
  const open = `${indent}<${n.name}${extraAttributes}${attrs}>`;
  if (n.children.length === 0) return `${open}${escapeText(n.text ?? '')}</${n.name}>`;
  const inner = n.children.map((c) => writeSkeleton(c, indent + step, step)).join('\n');
  return `${open}\n${inner}\n${indent}</${n.name}>`;
}

/** The skeleton as a snippet: each leaf value is a tab stop holding its placeholder. */
export function writeSnippet(n: SkeletonNode, indent: string, step = '  '): string {
  let stop = 0;
  const esc = (s: string) => s.replace(/[$}\\]/g, (c) => `\\${c}`);
  const write = (x: SkeletonNode, ind: string): string => {
    const attrs = [...x.attributes].map(([k, v]) => ` ${k}="${esc(escapeAttr(v))}"`).join('');
    const open = `${ind}<${x.name}${attrs}>`;
    if (x.children.length === 0) {
      stop++;
      return `${open}\${${stop}:${esc(escapeText(x.text ?? ''))}}</${x.name}>`;
    }
    const inner = x.children.map((c) => write(c, ind + step)).join('\n');
    return `${open}\n${inner}\n${ind}</${x.name}>`;
  };
  return write(n, indent);
}
