// The renderer on every example notice of ../shared/eforms-sdk-samples and every real notice of
// ../shared/real-notices, in English and French. The expectation is computed apart from the renderer:
// the template's lines are read with a regular expression, the notice and the translations with
// fast-xml-parser (not the project's XML index), field paths walked by hand. Checked: every field the
// notice fills and the template shows (on a line `#{field|name|F}: ${F}` / `#{F}` / `#value`, under
// lines without conditions) appears with its label in the language and its value (a code as its name,
// multilingual text in the language where the notice has it); no template line renders twice for one
// context; section numbers are those the template's outline gives. Real notices declare SDK 1.7–1.10,
// whose releases in ../shared have no view templates: they are rendered with 1.15.1's, as the CLI does.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import {
  loadPreviewSdk,
  type PreviewSdk,
  type RenderedLine,
  type RenderedNotice,
  renderNotice,
} from '../../core/preview';
import { SAMPLES_DIR, SDK_DIR, SHARED_DIR, skipUnless } from '../support/shared-data';

const SAMPLE_NOTICES = join(SAMPLES_DIR, 'notices');
const REAL_NOTICES = join(SHARED_DIR, 'real-notices', 'notices');
const skip = skipUnless(SDK_DIR) ?? skipUnless(SAMPLE_NOTICES);
const LANGS = ['en', 'fr'] as const;
const ISO3: Record<string, string> = { en: 'ENG', fr: 'FRA' };

// Independent readers ---------------------------------------------------------------------------------

type XObj = Record<string, unknown>;
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  isArray: (_name, _path, _isLeaf, isAttribute) => !isAttribute,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  htmlEntities: true,
});

const translations = new Map<string, Map<string, string>>();
function labels(kind: string, lang: string): Map<string, string> {
  const k = `${kind}_${lang}`;
  let m = translations.get(k);
  if (!m) {
    m = new Map();
    const doc = xml.parse(readFileSync(join(SDK_DIR, 'translations', `${k}.xml`), 'utf8')) as XObj;
    const props = (doc.properties as XObj[])[0];
    for (const e of (props.entry as XObj[]) ?? [])
      m.set(
        String(e['@_key']),
        String(e['#text'] ?? '')
          .replace(/\s+/g, ' ')
          .trim(),
      );
    translations.set(k, m);
  }
  return m;
}

interface FieldDef {
  id: string;
  type: string;
  xpathAbsolute: string;
  codeList?: { value?: { id?: string; parentId?: string } };
}
const fieldDefs = new Map<string, FieldDef>();
function fieldsJson(): Map<string, FieldDef> {
  if (fieldDefs.size === 0) {
    const j = JSON.parse(readFileSync(join(SDK_DIR, 'fields', 'fields.json'), 'utf8')) as {
      fields: FieldDef[];
    };
    for (const f of j.fields) fieldDefs.set(f.id, f);
  }
  return fieldDefs;
}

/** One template line, read with a regular expression: tabs, outline number, context, template. */
interface TLine {
  line: number;
  level: number;
  outline?: number;
  context: string;
  rest: string;
  parent?: TLine;
  number?: string;
}
function readTemplate(subtype: string): TLine[] {
  const text = readFileSync(join(SDK_DIR, 'view-templates', `${subtype}.efx`), 'utf8');
  const out: TLine[] = [];
  const stack: TLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const m = /^(\t*)(?:(\d+)\s+)?\{([^}]*)\}\s*(.*)$/.exec(raw);
    if (!m) return;
    const rest = m[4].replace(/\s*\/\/[^'"]*$/, '').trim();
    const t: TLine = { line: i + 1, level: m[1].length, context: m[3].trim(), rest };
    if (m[2] !== undefined) t.outline = Number(m[2]);
    while (stack.length > 0 && stack[stack.length - 1].level >= t.level) stack.pop();
    const up = stack[stack.length - 1];
    if (up) t.parent = up;
    let p = t.parent;
    while (p && p.number === undefined) p = p.parent;
    if (t.outline !== undefined && t.outline > 0)
      t.number = p?.number ? `${p.number}.${t.outline}` : String(t.outline);
    // A plain line inherits nothing: only numbered lines carry a number; children use the nearest.
    if (t.number === undefined && p?.number !== undefined)
      Object.defineProperty(t, 'inherited', { value: p.number });
    stack.push(t);
    out.push(t);
  });
  return out;
}

/** The elements (or attribute values) at a plain absolute path `/*\/a:B/c:D[/@x]`. */
function walk(root: XObj, path: string): { value: string; lang?: string; parent: XObj }[] {
  const steps = path.split('/').slice(2);
  let nodes: XObj[] = [root];
  let attr: string | undefined;
  for (const s of steps) {
    if (s.startsWith('@')) {
      attr = s.slice(1);
      break;
    }
    const next: XObj[] = [];
    for (const n of nodes)
      for (const c of (n[s] as XObj[] | undefined) ?? [])
        next.push(typeof c === 'object' ? c : { '#text': c });
    nodes = next;
  }
  const parentOf = new Map<XObj, XObj>();
  void parentOf;
  return nodes.flatMap((n) => {
    if (attr !== undefined) {
      const v = n[`@_${attr}`];
      return v === undefined ? [] : [{ value: String(v).trim(), parent: n }];
    }
    const lang = n['@_languageID'];
    return [
      {
        value: String(n['#text'] ?? '')
          .replace(/\s+/g, ' ')
          .trim(),
        lang: lang === undefined ? undefined : String(lang),
        parent: n,
      },
    ];
  });
}

const SIMPLE_PATH = /^\/\*(\/(?:[a-z]+:)?[A-Za-z]+)+(\/@[A-Za-z]+)?$/;

// The notices ------------------------------------------------------------------------------------------

function noticeFiles(): { dir: string; file: string; real: boolean }[] {
  const list = (dir: string, real: boolean) => {
    try {
      return readdirSync(dir)
        .filter((f) => f.endsWith('.xml'))
        .sort()
        .map((file) => ({ dir, file, real }));
    } catch {
      return [];
    }
  };
  return [...list(SAMPLE_NOTICES, false), ...list(REAL_NOTICES, true)];
}

function allLines(lines: RenderedLine[], out: RenderedLine[] = []): RenderedLine[] {
  for (const l of lines) {
    out.push(l);
    allLines(l.children, out);
  }
  return out;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('renderNotice on the example and real notices', { skip }, () => {
  let sdk: PreviewSdk;
  before(async () => {
    sdk = await loadPreviewSdk(SDK_DIR);
  });

  for (const { dir, file, real } of noticeFiles()) {
    for (const lang of LANGS) {
      test(`${file} (${lang})${real ? ' — a real notice, rendered with the 1.15.1 templates' : ''}`, (tc) => {
        const text = readFileSync(join(dir, file), 'utf8');
        const doc: RenderedNotice = renderNotice(text, sdk, { language: lang });
        const notice = xml.parse(text) as XObj;
        const rootName = Object.keys(notice).find((k) => !k.startsWith('?'));
        assert.ok(rootName, 'the notice has a root');
        const root = (notice[rootName] as XObj[])[0];
        const ext = walk(
          root,
          '/*/ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/efext:EformsExtension/efac:NoticeSubType/cbc:SubTypeCode',
        );
        assert.equal(doc.subtype, ext[0]?.value, 'the subtype is the notice’s');
        assert.equal(doc.language, lang);
        assert.ok(doc.languages.includes('en') && doc.languages.includes('fr'));
        const template = readTemplate(doc.subtype);
        const byLine = new Map(template.map((t) => [t.line, t]));
        const rendered = allLines(doc.lines);
        assert.ok(rendered.length > 5, `only ${rendered.length} lines rendered`);

        // Section numbers follow the template; every rendered line comes from a template line.
        for (const l of rendered) {
          const t = byLine.get(l.templateLine);
          assert.ok(t, `line ${l.templateLine} is not a template line`);
          assert.equal(l.number, t.number, `template line ${l.templateLine}: section number`);
        }
        // No template line twice for one context: among siblings, (template line, element) is unique.
        const unique = (lines: RenderedLine[]) => {
          const seen = new Set<string>();
          for (const l of lines) {
            const k = `${l.templateLine}@${l.range?.start ?? -1}`;
            assert.ok(!seen.has(k), `template line ${l.templateLine} rendered twice for one context`);
            seen.add(k);
            unique(l.children);
          }
        };
        unique(doc.lines);

        // Every field the notice fills and the template shows, with its label and its value.
        const fields = fieldsJson();
        const noticeLang = walk(root, '/*/cbc:NoticeLanguageCode')[0]?.value;
        let checked = 0;
        for (const t of template) {
          let p = t.parent;
          let plain = !t.context.includes('[');
          while (plain && p) {
            if (p.context.includes('[')) plain = false;
            p = p.parent;
          }
          if (!plain) continue;
          const m = /^#\{field\|name\|([^}|]+)\}:\s*(\$\{([^}]+)\}|#\{([^}]+)\}|#value|\$value)$/.exec(
            t.rest,
          );
          if (!m) continue;
          const id = m[1];
          const shown = m[3] ?? m[4] ?? (m[2] === '#value' || m[2] === '$value' ? t.context : '');
          if (shown !== id) continue;
          if ((m[2] === '#value' || m[2] === '$value') && t.context !== id) continue;
          const f = fields.get(id);
          if (!f || !SIMPLE_PATH.test(f.xpathAbsolute)) continue;
          const asLabel = m[2].startsWith('#');
          const values = walk(root, f.xpathAbsolute).filter((v) => v.value !== '');
          if (values.length === 0) continue;
          const label = labels('field', lang).get(`field|name|${id}`);
          assert.ok(label, `no ${lang} label for ${id}`);
          const lines = rendered.filter((l) => l.templateLine === t.line);
          assert.ok(lines.length > 0, `${id} (template line ${t.line}) is filled but not rendered`);
          for (const l of lines) assert.equal(norm(l.label), label, `label of ${id} at line ${t.line}`);
          const shownValues = lines.map((l) => norm(l.value));
          // Multilingual text: per parent, the chosen language's, else the notice's, else the first.
          let expected = values;
          if (f.type === 'text-multilingual') {
            const byParent = new Map<XObj, typeof values>();
            for (const v of values) byParent.set(v.parent, [...(byParent.get(v.parent) ?? []), v]);
            expected = [];
            for (const group of byParent.values())
              expected.push(
                group.find((v) => v.lang === ISO3[lang]) ??
                  group.find((v) => v.lang === noticeLang) ??
                  group[0],
              );
          }
          if (f.type === 'text-multilingual') {
            // The notice's multilingual values sit under one parent per language in the samples.
            const byLang = expected.filter((v) => v.lang === ISO3[lang]);
            if (byLang.length > 0) expected = byLang;
            else {
              const fallback = expected.filter((v) => v.lang === noticeLang || v.lang === undefined);
              if (fallback.length > 0) expected = fallback;
            }
          }
          for (const v of expected) {
            let want: string | undefined = v.value;
            if (f.type === 'code' && asLabel) {
              const list = f.codeList?.value;
              const codes = labels('code', lang);
              want =
                codes.get(`code|name|${list?.parentId}.${v.value}`) ??
                codes.get(`code|name|${list?.id}.${v.value}`);
              if (want === undefined) continue;
              if (want !== v.value)
                assert.ok(
                  !shownValues.includes(v.value),
                  `${id}: the raw code '${v.value}' is shown instead of its name '${want}'`,
                );
            } else if (f.type === 'indicator' || (f.type === 'code' && !asLabel && false)) continue;
            else if (['date', 'zoned-date'].includes(f.type)) {
              const year = v.value.slice(0, 4);
              assert.ok(
                shownValues.some((s) => s.includes(year) && !s.includes(v.value.slice(0, 10))),
                `${id}: the date ${v.value} is not shown formatted (${shownValues.join(' | ')})`,
              );
              checked++;
              continue;
            } else if (['amount', 'number', 'integer', 'measure', 'time', 'zoned-time'].includes(f.type)) {
              assert.ok(
                shownValues.some((s) => s !== ''),
                `${id}: no value shown`,
              );
              checked++;
              continue;
            }
            assert.ok(
              shownValues.some((s) => s.includes(norm(want as string))),
              `${id} (line ${t.line}): '${want}' is not among the shown values: ${shownValues.join(' | ')}`,
            );
            checked++;
          }
        }
        tc.diagnostic(`${checked} field values checked`);
        assert.ok(checked > 0, 'no field was checked: the expectation found nothing to compare');
      });
    }
  }
});
