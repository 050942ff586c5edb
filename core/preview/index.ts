// PLACEHOLDER of the `core/preview` room, written by the editor-side branch (h11-preview) only so that
// the preview's server handler, client and tests compile and run before the real renderer (another
// branch, per prompts/render-api.md) is merged. At that merge this whole file is REPLACED by the real
// room's index.ts: nothing here is meant to survive. It satisfies the render contract's types with a
// trivial render (one line per element, its local name as label, its text as value, its range) and
// must never grow template logic: that is the real renderer's job. No `vscode` import, no writes.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { indexXml, textContent, type XmlIndex } from '../notice';

export interface RenderedLine {
  /** Section number as the template numbers it ("1", "1.1", "2.1.1"), absent for plain lines. */
  number?: string;
  /** The label in the chosen language (already resolved from translations/), may be empty. */
  label: string;
  /** The value as displayed (codes as their labels, dates and amounts formatted for the language). */
  value: string;
  /** True when a mandatory value is missing (the line is shown with an empty, flagged value). */
  flagged?: boolean;
  /** Offsets [start, end) in the notice text of the element (or attribute) this line shows, for scroll sync. */
  range?: { start: number; end: number };
  /** The template line (1-based) that produced it, for tests: no template line renders twice for one context. */
  templateLine: number;
  children: RenderedLine[];
}

export interface RenderedNotice {
  subtype: string;
  sdkVersion: string;
  language: string;
  languages: string[];
  lines: RenderedLine[];
  problems: { message: string; templateLine?: number }[];
}

/** Placeholder: only the folder, its version (folder name) and the languages of translations/. */
export interface PreviewSdk {
  dir: string;
  version: string;
  languages: string[];
}

export async function loadPreviewSdk(sdkDir: string): Promise<PreviewSdk> {
  let names: string[] = [];
  try {
    names = readdirSync(join(sdkDir, 'translations'));
  } catch {
    names = [];
  }
  const languages = [
    ...new Set(names.map((n) => /_([a-z]{2})\.xml$/.exec(n)?.[1]).filter((l): l is string => !!l)),
  ].sort();
  return { dir: sdkDir, version: sdkDir.split(/[\\/]/).filter(Boolean).pop() ?? '', languages };
}

export function renderNotice(
  notice: string | XmlIndex,
  sdk: PreviewSdk,
  opts: { language: string },
): RenderedNotice {
  const index = typeof notice === 'string' ? indexXml(notice) : notice;
  const line = (i: number, depth: number): RenderedLine => {
    const el = index.elements[i];
    if (!el) return { label: '', value: '', templateLine: 0, children: [] };
    const leaf = el.children.length === 0;
    const value = leaf ? textContent(index, el).trim() : '';
    return {
      label: el.local,
      value,
      ...(leaf && value === '' ? { flagged: true } : {}),
      // An element never closed runs to the end of the text.
      range: { start: el.start, end: el.end < 0 ? index.text.length : el.end },
      templateLine: depth + 1,
      children: depth < 64 ? el.children.map((c) => line(c, depth + 1)) : [],
    };
  };
  const subtypeEl = index.elements.find((e) => e.local === 'SubTypeCode');
  return {
    subtype: subtypeEl ? textContent(index, subtypeEl).trim() : '',
    sdkVersion: sdk.version,
    language: opts.language,
    languages: sdk.languages,
    lines: index.elements[0] ? [line(0, 0)] : [],
    problems: index.errors.map((e) => ({ message: e.message })),
  };
}

function esc(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

export function renderHtml(doc: RenderedNotice, _opts?: { standalone?: boolean; nonce?: string }): string {
  const li = (l: RenderedLine): string =>
    `<li>${esc(l.label)}: ${esc(l.value)}${l.children.length ? `<ul>${l.children.map(li).join('')}</ul>` : ''}</li>`;
  return `<ul>${doc.lines.map(li).join('')}</ul>`;
}

export function renderText(doc: RenderedNotice): string {
  const out: string[] = [];
  const walk = (l: RenderedLine, d: number) => {
    out.push(`${'  '.repeat(d)}${l.number ? `${l.number} ` : ''}${l.label}: ${l.value}`);
    for (const c of l.children) walk(c, d + 1);
  };
  for (const l of doc.lines) walk(l, 0);
  return `${out.join('\n')}\n`;
}
