// Writes what the engine found as the CVS does: SVRL failed-asserts with id, role, flag, location in
// the official form (`/cn:ContractNotice/cac:ProcurementProjectLot[2]/cbc:ID`: schema prefixes, `[n]`
// only where siblings share a name), test, diagnostic references and text. Also the messages: the SDK's
// `translations/rule_<lang>.xml` when it has one, else a sentence composed from the field labels of
// `field_<lang>.xml` and the shape of the test. No `vscode` import here; reads only the SDK folder.

import { join } from 'node:path';
import { attributeValue, findAttribute, indexXml, textContent } from '../notice';
import { readSdkFile } from '../sdk';
import type { SvrlAssertion } from '../svrl';
import { ATTRIBUTE, DOCUMENT, ELEMENT, TEXT, type XNode } from '../xpath';
import type { NotEvaluated } from './rule-set';
import type { SchAssert, SchDiagnostic } from './schema';

/** The official location path of a node. `prefixes` maps namespace URIs to the schema's prefixes. */
export function locationOf(node: XNode, prefixes: ReadonlyMap<string, string>): string {
  const parts: string[] = [];
  let n: XNode | null = node;
  while (n && n.kind !== DOCUMENT) {
    const parent: XNode | null = n.parent;
    if (n.kind === ATTRIBUTE) {
      parts.push(`@${qualified(n, prefixes)}`);
    } else if (n.kind === TEXT) {
      const texts = parent ? parent.texts : [];
      parts.push(texts.length > 1 ? `text()[${texts.indexOf(n) + 1}]` : 'text()');
    } else if (n.kind === ELEMENT) {
      let same = 0;
      let at = 0;
      if (parent && parent.kind !== DOCUMENT) {
        // The parent's name table: a failure on each of N lots costs N lookups, not N scans of N lots.
        const named = parent.childrenWithName(n.name);
        same = named.length;
        at = same > 1 ? named.indexOf(n) + 1 : 1;
      }
      parts.push(same > 1 ? `${qualified(n, prefixes)}[${at}]` : qualified(n, prefixes));
    }
    n = parent;
  }
  return `/${parts.reverse().join('/')}`;
}

function qualified(n: XNode, prefixes: ReadonlyMap<string, string>): string {
  if (n.ns === '') return n.local;
  const p = prefixes.get(n.ns);
  return p !== undefined ? `${p}:${n.local}` : `*:${n.local}[namespace-uri()='${n.ns}']`;
}

/** Labels and messages of one language, read once per SDK folder and language. */
export interface Messages {
  rule: Map<string, string>;
  field: Map<string, string>;
  /** Whether the SDK had `rule_<lang>.xml`. */
  hasRuleFile: boolean;
}

const messageCache = new Map<string, Messages>();

function readEntries(sdkDir: string, path: string): Map<string, string> | undefined {
  let text: string;
  try {
    // Untrusted: a regular file inside the release, under the cap (a link to /dev/zero is refused).
    text = readSdkFile(sdkDir, path, 'sdkTranslationBytes');
  } catch {
    return undefined;
  }
  const index = indexXml(text);
  const out = new Map<string, string>();
  for (const el of index.elements) {
    if (el.local !== 'entry') continue;
    const key = findAttribute(el, 'key');
    if (key) out.set(attributeValue(index, key), textContent(index, el).trim());
  }
  return out;
}

export function loadMessages(sdkDir: string, language: string): Messages {
  const key = `${sdkDir}\u0000${language}`;
  const hit = messageCache.get(key);
  if (hit) return hit;
  const dir = join(sdkDir, 'translations');
  let rule = readEntries(sdkDir, join(dir, `rule_${language}.xml`));
  let field = readEntries(sdkDir, join(dir, `field_${language}.xml`));
  if (!rule && language !== 'en') rule = readEntries(sdkDir, join(dir, 'rule_en.xml'));
  if (!field && language !== 'en') field = readEntries(sdkDir, join(dir, 'field_en.xml'));
  const m: Messages = { rule: rule ?? new Map(), field: field ?? new Map(), hasRuleFile: rule !== undefined };
  messageCache.set(key, m);
  return m;
}

/** Forget read messages (tests that write a translation file after a first read). */
export function clearMessageCache(): void {
  messageCache.clear();
}

/**
 * The message of a failed assert: the SDK's translation of its key, else a sentence from the
 * first diagnostic's field label and the test's shape: "Description (BT-24-Lot) is mandatory".
 */
export function messageFor(a: SchAssert, diags: SchDiagnostic[], m: Messages): string {
  const translated = m.rule.get(a.text) ?? m.rule.get(`rule|text|${a.id}`);
  if (translated) return translated;
  const d = diags[0];
  let subject = `Rule ${a.id}`;
  if (d) {
    const [kind, id] = splitSee(d.see);
    const label = kind === 'field' ? m.field.get(`field|name|${id}`) : undefined;
    subject = label ? `${label} (${id})` : id;
  }
  const shape = shapeOf(a.test);
  if (!d) return `${subject} failed: ${a.test.length > 200 ? `${a.test.slice(0, 200)}…` : a.test}`;
  switch (shape) {
    case 'mandatory':
      return `${subject} is mandatory`;
    case 'forbidden':
      return `${subject} is not allowed`;
    case 'mandatory-if':
      return `${subject} is mandatory in this situation`;
    case 'forbidden-if':
      return `${subject} is not allowed in this situation`;
    case 'pattern':
      return `${subject} does not have the expected format`;
    case 'codelist':
      return `${subject} has a value that is not allowed here`;
    default:
      return `${subject} does not satisfy rule ${a.id}`;
  }
}

function splitSee(see: string): [string, string] {
  const colon = see.indexOf(':');
  return colon < 0 ? ['', see] : [see.slice(0, colon), see.slice(colon + 1)];
}

type Shape = 'mandatory' | 'forbidden' | 'mandatory-if' | 'forbidden-if' | 'pattern' | 'codelist' | 'other';

/** The shape of a generated SDK test, read from its text (the generator writes a few fixed forms). */
export function shapeOf(test: string): Shape {
  const t = test.trim();
  if (/^count\([^()]*(?:\([^()]*\)[^()]*)*\)\s*>\s*0$/.test(t)) return 'mandatory';
  if (/^count\([^()]*(?:\([^()]*\)[^()]*)*\)\s*=\s*0$/.test(t)) return 'forbidden';
  if (/^count\(.*\)\s*>\s*0\s+or\s+/.test(t)) return 'mandatory-if';
  if (/^count\(.*\)\s*=\s*0\s+or\s+/.test(t)) return 'forbidden-if';
  if (/^(?:not\()?matches\(/.test(t) || /^\(?matches\(/.test(t)) return 'pattern';
  if (
    /^[\w:/.@[\]'=()-]*normalize-space\(\.?\)?\s*=\s*\(/.test(t) ||
    /= \('[^']*'(?:, ?'[^']*')+\)$/.test(t)
  ) {
    return 'codelist';
  }
  return 'other';
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export interface ReportHead {
  title: string;
  phase: string;
  namespaces: [string, string][];
  sdkVersion: string;
  mode: string;
}

/** The engine's account of a rule not evaluated, with the place it failed at when it has one. */
export function accountOf(ne: NotEvaluated): string {
  return ne.location === undefined ? ne.reason : `${ne.reason} at ${ne.location}`;
}

/** Pattern-ordered output: each active pattern, then its failures. */
export function writeSvrl(
  head: ReportHead,
  patterns: { id: string; failures: SvrlAssertion[] }[],
  notEvaluated: NotEvaluated[],
): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl" phase="${esc(head.phase)}" title="${esc(head.title)}">`,
    `   <!-- eForms SDK ${esc(head.sdkVersion)} ${esc(head.mode)} rules, evaluated by eForms Notice Tools -->`,
  ];
  for (const [prefix, uri] of head.namespaces) {
    out.push(`   <svrl:ns-prefix-in-attribute-values prefix="${esc(prefix)}" uri="${esc(uri)}"/>`);
  }
  for (const ne of notEvaluated) {
    out.push(
      `   <!-- not evaluated: ${esc(ne.ruleId).replace(/--/g, '- -')}: ${esc(accountOf(ne)).replace(/--/g, '- -')} -->`,
    );
  }
  for (const p of patterns) {
    out.push(`   <svrl:active-pattern id="${esc(p.id)}"/>`);
    for (const f of p.failures) {
      const tag = f.kind === 'failed-assert' ? 'svrl:failed-assert' : 'svrl:successful-report';
      const flag = f.flag !== undefined ? ` flag="${esc(f.flag)}"` : '';
      out.push(
        `   <${tag} id="${esc(f.id)}" location="${esc(f.location)}" role="${esc(f.role)}"${flag} test="${esc(f.test)}">`,
      );
      out.push(`      <svrl:text>${esc(f.text)}</svrl:text>`);
      for (const d of f.diagnosticReferences) {
        out.push(`      <svrl:diagnostic-reference diagnostic="${esc(d.diagnostic)}" see="${esc(d.see)}">`);
        out.push(`         <svrl:text>${esc(d.path)}</svrl:text>`);
        out.push('      </svrl:diagnostic-reference>');
      }
      out.push(`   </${tag}>`);
    }
  }
  out.push('</svrl:schematron-output>', '');
  return out.join('\n');
}
