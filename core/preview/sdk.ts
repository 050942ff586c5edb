// What the renderer needs from one SDK release: its view templates (`view-templates/<subtype>.efx`),
// its fields (`fields/fields.json`), its labels (`translations/<kind>_<lang>.xml`) and its code lists
// (`codelists/*.gc`, for code names the translations lack). Loaded once per release folder and kept;
// templates and the labels of a language are read on first use (a release has 24 languages, 47 MB of
// labels: reading them all up front would cost seconds for one render). Only regular files under the
// caps below are read; anything else is as if absent. Never writes, never evaluates XPath.

import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
// The 24 EU languages' ISO 639-1 to 639-2 codes (the genericode label columns): one table, authoring's.
import { LANGUAGE_CODES } from '../authoring';
import type { EfxSymbols } from '../efx';
import { symbolsFromFieldsJson } from '../efx';
import { decodeXmlText } from '../notice';

const MiB = 1024 * 1024;
/** Far above the files of SDK 1.15 (fields.json 2 MB, code_xx.xml 1.3 MB, the largest .efx 60 KB). */
export const PREVIEW_SDK_LIMITS = {
  fieldsJsonBytes: 64 * MiB,
  translationBytes: 16 * MiB,
  templateBytes: 4 * MiB,
  codelistBytes: 16 * MiB,
} as const;

export class PreviewSdkError extends Error {
  override name = 'PreviewSdkError';
  constructor(
    readonly kind: 'no-fields' | 'no-templates' | 'unreadable',
    message: string,
    readonly dir: string,
  ) {
    super(message);
  }
}

/** A release's fields.json row, the part the renderer uses beyond the translator's symbols. */
export interface PreviewField {
  id: string;
  type: string;
  /** Notice subtypes where the field is mandatory without condition. */
  mandatoryIn: ReadonlySet<string>;
}

export interface PreviewSdk {
  readonly dir: string;
  readonly version: string;
  /** Languages (two-letter codes) the release has labels for, sorted. */
  readonly languages: readonly string[];
  /** Subtypes that have a view template (`16`, `E1`, `X01`…), plus `summary` when present. */
  readonly subtypes: readonly string[];
  readonly symbols: EfxSymbols;
  readonly fields: ReadonlyMap<string, PreviewField>;
  /** The template's text, undefined when the release has none for this subtype. */
  templateText(subtype: string): string | undefined;
  /** A label by its key (`field|name|BT-21-Procedure`) in a language, undefined when absent. */
  label(language: string, key: string): string | undefined;
  /** A code's name from `codelists/<list>.gc` in a language (the eng `Name` column as fallback). */
  codeName(language: string, list: string, code: string): string | undefined;
}

function readCapped(path: string, max: number): string | undefined {
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size > max) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

const ENTRY = /<entry\s+key="([^"]*)"\s*>([^<]*)<\/entry>|<entry\s+key="([^"]*)"\s*\/>/g;

/** Java properties XML (`<entry key="…">text</entry>`) into the map. */
function readProperties(text: string, into: Map<string, string>): void {
  for (const m of text.matchAll(ENTRY)) {
    const key = decodeXmlText(m[1] ?? m[3], 0, (m[1] ?? m[3]).length);
    const value = m[2] === undefined ? '' : decodeXmlText(m[2], 0, m[2].length);
    into.set(key, value);
  }
}

/** A genericode file's rows: code -> column id -> value. */
function readGenericode(text: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const row of text.matchAll(/<Row>([\s\S]*?)<\/Row>/g)) {
    const cols = new Map<string, string>();
    for (const v of row[1].matchAll(
      /<Value\s+ColumnRef="([^"]+)"\s*>\s*<SimpleValue>([^<]*)<\/SimpleValue>/g,
    ))
      cols.set(v[1], decodeXmlText(v[2], 0, v[2].length));
    const code = cols.get('code');
    if (code !== undefined) out.set(code, cols);
  }
  return out;
}

class Release implements PreviewSdk {
  readonly #templates = new Map<string, string | undefined>();
  readonly #labels = new Map<string, Map<string, string>>();
  readonly #codelists = new Map<string, Map<string, Map<string, string>> | undefined>();
  readonly #translationFiles: ReadonlyMap<string, string[]>;
  readonly #codelistFiles: ReadonlyMap<string, string>;

  constructor(
    readonly dir: string,
    readonly version: string,
    readonly symbols: EfxSymbols,
    readonly fields: ReadonlyMap<string, PreviewField>,
    readonly subtypes: readonly string[],
    translationFiles: Map<string, string[]>,
    codelistFiles: Map<string, string>,
  ) {
    this.#translationFiles = translationFiles;
    this.#codelistFiles = codelistFiles;
    this.languages = [...translationFiles.keys()].sort();
  }
  readonly languages: readonly string[];

  templateText(subtype: string): string | undefined {
    if (!this.subtypes.includes(subtype)) return undefined;
    if (!this.#templates.has(subtype))
      this.#templates.set(
        subtype,
        readCapped(join(this.dir, 'view-templates', `${subtype}.efx`), PREVIEW_SDK_LIMITS.templateBytes),
      );
    return this.#templates.get(subtype);
  }

  label(language: string, key: string): string | undefined {
    let map = this.#labels.get(language);
    if (!map) {
      map = new Map();
      for (const f of this.#translationFiles.get(language) ?? []) {
        const text = readCapped(join(this.dir, 'translations', f), PREVIEW_SDK_LIMITS.translationBytes);
        if (text) readProperties(text, map);
      }
      this.#labels.set(language, map);
    }
    return map.get(key);
  }

  codeName(language: string, list: string, code: string): string | undefined {
    if (!this.#codelists.has(list)) {
      const file = this.#codelistFiles.get(list);
      const text = file
        ? readCapped(join(this.dir, 'codelists', file), PREVIEW_SDK_LIMITS.codelistBytes)
        : undefined;
      this.#codelists.set(list, text ? readGenericode(text) : undefined);
    }
    const cols = this.#codelists.get(list)?.get(code);
    if (!cols) return undefined;
    const three = LANGUAGE_CODES[language];
    return (three && cols.get(`${three}_label`)) || cols.get('Name') || undefined;
  }
}

function mandatorySubtypes(raw: unknown): Set<string> {
  const out = new Set<string>();
  const m = raw as { constraints?: { noticeTypes?: string[]; value?: unknown; condition?: unknown }[] };
  for (const c of m?.constraints ?? [])
    if (c.value === true && c.condition === undefined) for (const t of c.noticeTypes ?? []) out.add(t);
  return out;
}

async function load(dir: string): Promise<PreviewSdk> {
  const fieldsPath = join(dir, 'fields', 'fields.json');
  let json: unknown;
  try {
    const st = statSync(fieldsPath);
    if (!st.isFile() || st.size > PREVIEW_SDK_LIMITS.fieldsJsonBytes) throw new Error('not a regular file');
    json = JSON.parse(await readFile(fieldsPath, 'utf8'));
  } catch (e) {
    throw new PreviewSdkError(
      'no-fields',
      `the SDK folder ${dir} has no readable fields/fields.json (${(e as Error).message})`,
      dir,
    );
  }
  const list = (sub: string): string[] => {
    try {
      return readdirSync(join(dir, sub), { withFileTypes: true })
        .filter((d) => d.isFile())
        .map((d) => d.name);
    } catch {
      return [];
    }
  };
  const subtypes = list('view-templates')
    .filter((f) => f.endsWith('.efx'))
    .map((f) => f.slice(0, -4))
    .sort();
  if (subtypes.length === 0)
    throw new PreviewSdkError(
      'no-templates',
      `the SDK folder ${dir} has no view templates (view-templates/*.efx): SDK releases before 1.x trimmed copies lack them`,
      dir,
    );
  const translations = new Map<string, string[]>();
  for (const f of list('translations')) {
    const m = /^[a-z-]+_([a-z]{2})\.xml$/.exec(f);
    if (!m) continue;
    const l = translations.get(m[1]);
    if (l) l.push(f);
    else translations.set(m[1], [f]);
  }
  const codelists = new Map<string, string>();
  for (const f of list('codelists')) if (f.endsWith('.gc')) codelists.set(f.slice(0, -3), f);
  const root = json as { sdkVersion?: unknown; fields?: unknown };
  let version = typeof root.sdkVersion === 'string' ? root.sdkVersion : '';
  const versionFile = readCapped(join(dir, 'VERSION'), 1024)?.trim();
  if (versionFile && /^\d+\.\d+\.\d+/.test(versionFile)) version = versionFile;
  const fields = new Map<string, PreviewField>();
  for (const raw of Array.isArray(root.fields) ? root.fields : []) {
    const f = raw as { id?: unknown; type?: unknown; mandatory?: unknown };
    if (typeof f.id !== 'string') continue;
    fields.set(f.id, {
      id: f.id,
      type: typeof f.type === 'string' ? f.type : 'text',
      mandatoryIn: mandatorySubtypes(f.mandatory),
    });
  }
  return new Release(dir, version, symbolsFromFieldsJson(json), fields, subtypes, translations, codelists);
}

const cache = new Map<string, Promise<PreviewSdk>>();

/** The release in `sdkDir` (its root: the folder holding fields/, view-templates/…), cached per folder. */
export function loadPreviewSdk(sdkDir: string): Promise<PreviewSdk> {
  let key = sdkDir;
  try {
    key = realpathSync(sdkDir);
  } catch {
    // load() says what is missing.
  }
  let p = cache.get(key);
  if (!p) {
    p = load(key);
    cache.set(key, p);
    // A failed load is not kept: the folder may be completed later.
    p.catch(() => cache.delete(key));
  }
  return p;
}
