// The notice preview's pure parts, shared by the panel (client/preview/preview-panel.ts) and the
// webview's script (media/preview/preview.ts): the messages between them and their validation, the
// line ids and ranges (scroll sync both ways), the offsets → selection clamp, the language choice and
// the page's Content-Security-Policy. No `vscode` import and no DOM, so node:test covers them.
// The webview never receives offsets: it names lines by id, and the panel alone maps ids to ranges.

import type { RenderedLine, RenderedNotice } from '../../core/preview';
import type { WebviewMessage, WireLine, WireNotice } from './preview-messages';

export type { HostMessage, PanelState, WebviewMessage, WireLine, WireNotice } from './preview-messages';

const ID = /^\d{1,6}(\.\d{1,6}){0,200}$/;
const LANGUAGE = /^[a-z]{2,3}$/;

/** The message if it is one the page may send, else undefined: the page's input is never trusted blindly. */
export function parseWebviewMessage(m: unknown): WebviewMessage | undefined {
  if (!m || typeof m !== 'object') return undefined;
  const o = m as Record<string, unknown>;
  switch (o.type) {
    case 'ready':
      return { type: 'ready' };
    case 'select':
      return typeof o.id === 'string' && ID.test(o.id) ? { type: 'select', id: o.id } : undefined;
    case 'language':
      return typeof o.language === 'string' && LANGUAGE.test(o.language)
        ? { type: 'language', language: o.language }
        : undefined;
    case 'rendered':
      return Number.isSafeInteger(o.version) && Number.isSafeInteger(o.lines) && (o.lines as number) >= 0
        ? { type: 'rendered', version: o.version as number, lines: o.lines as number }
        : undefined;
    case 'highlighted':
      return o.id === null || (typeof o.id === 'string' && ID.test(o.id))
        ? { type: 'highlighted', id: o.id as string | null }
        : undefined;
    default:
      return undefined;
  }
}

export type Range = { start: number; end: number };

/**
 * The render as the page gets it, with ids by position in the tree (`0`, `0.2`, `0.2.1`: stable while
 * the structure stays, so a highlight survives a re-render), and the ranges the panel keeps by id.
 */
export function toWire(doc: RenderedNotice): { notice: WireNotice; ranges: Map<string, Range> } {
  const ranges = new Map<string, Range>();
  const walk = (l: RenderedLine, id: string): WireLine => {
    const r = validRange(l.range);
    if (r) ranges.set(id, r);
    return {
      id,
      ...(l.number ? { number: l.number } : {}),
      label: l.label,
      value: l.value,
      ...(l.flagged ? { flagged: true } : {}),
      linked: r !== undefined,
      children: l.children.map((c, i) => walk(c, `${id}.${i}`)),
    };
  };
  return {
    notice: {
      subtype: doc.subtype,
      sdkVersion: doc.sdkVersion,
      language: doc.language,
      languages: [...doc.languages],
      lines: doc.lines.map((l, i) => walk(l, String(i))),
      problems: doc.problems.map((p) => ({ ...p })),
    },
    ranges,
  };
}

function validRange(r: Range | undefined): Range | undefined {
  if (!r) return undefined;
  const { start, end } = r;
  return Number.isSafeInteger(start) && Number.isSafeInteger(end) && start >= 0 && end >= start
    ? { start, end }
    : undefined;
}

/**
 * The line to highlight for a cursor at `offset`: the one with the narrowest range holding it (the
 * innermost element shown), the deeper one on a tie (an attribute's line over its element's).
 * A range holds its end too, so a cursor just after `</cbc:ID>` still belongs to it.
 */
export function lineAt(ranges: ReadonlyMap<string, Range>, offset: number): string | undefined {
  let best: { id: string; width: number; depth: number } | undefined;
  for (const [id, r] of ranges) {
    if (offset < r.start || offset > r.end) continue;
    const width = r.end - r.start;
    const depth = id.split('.').length;
    if (!best || width < best.width || (width === best.width && depth > best.depth))
      best = { id, width, depth };
  }
  return best?.id;
}

/**
 * What to select in a document of `length` characters for a line's range: the range clamped to the
 * text; undefined when it lies wholly outside (a render of an older, longer text).
 */
export function selectionFor(range: Range | undefined, length: number): Range | undefined {
  const r = validRange(range);
  if (!r || r.start > length) return undefined;
  return { start: r.start, end: Math.min(r.end, length) };
}

/**
 * The language to ask for: the picker's choice, else the setting, else none (the server takes the
 * notice's own); a choice the release does not translate is dropped once the languages are known.
 */
export function requestedLanguage(
  choice: string | undefined,
  setting: string,
  languages: readonly string[] | undefined,
): string | undefined {
  for (const l of [choice, setting]) {
    if (!l) continue;
    if (!languages || languages.length === 0 || languages.includes(l)) return l;
  }
  return undefined;
}

/**
 * The page's Content-Security-Policy: nothing by default; scripts only with the nonce (no inline
 * handler, no eval), styles and fonts only from the extension's own files, no images, frames,
 * connections or forms at all, so no remote content can load.
 */
export function previewCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function attr(s: string): string {
  // Double-quoted attributes: the CSP's single quotes stay as they are.
  return s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page shell; the script draws everything else from messages, with textContent only. */
export function previewHtml(o: {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  title: string;
}): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(previewCsp(o.cspSource, o.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(o.styleUri)}">
<title>${attr(o.title)}</title>
</head>
<body>
<main id="app" aria-live="polite"></main>
<script nonce="${attr(o.nonce)}" src="${attr(o.scriptUri)}"></script>
</body>
</html>`;
}
