// A rendered notice as HTML (a standalone document, or a fragment for a webview) and as an indented
// text outline. Every label and value is escaped; the document loads nothing remote (its only style is
// inline, allowed by a nonce when one is given) and follows VS Code's theme variables when embedded,
// with plain colours otherwise. Pure functions: no I/O.

import type { RenderedLine, RenderedNotice } from './render';

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESC[c]);
}

const STYLE = `
:root { color-scheme: light dark; }
body { font-family: var(--vscode-font-family, system-ui, sans-serif); font-size: var(--vscode-font-size, 14px);
  color: var(--vscode-editor-foreground, CanvasText); background: var(--vscode-editor-background, Canvas);
  line-height: 1.45; margin: 1em 2em; }
header.eforms-meta { color: var(--vscode-descriptionForeground, GrayText); font-size: 0.9em; margin-bottom: 1em; }
ol.eforms-lines { list-style: none; padding-left: 1.2em; margin: 0; }
body > main > ol.eforms-lines { padding-left: 0; }
li.eforms-line { margin: 0.15em 0; }
li.eforms-section > .eforms-row { font-weight: 600; margin-top: 0.6em; }
.eforms-number { margin-right: 0.5em; }
.eforms-label { color: var(--vscode-textPreformat-foreground, inherit); }
.eforms-flagged .eforms-value { outline: 1px dashed var(--vscode-editorError-foreground, #c00); padding: 0 1.5em; }
.eforms-flag { color: var(--vscode-editorError-foreground, #c00); font-size: 0.85em; margin-left: 0.5em; }
.eforms-problems { color: var(--vscode-editorWarning-foreground, #a60); font-size: 0.85em; }
[data-start]:focus { outline: 1px solid var(--vscode-focusBorder, Highlight); }
`;

function lineHtml(l: RenderedLine): string {
  const cls = ['eforms-line'];
  if (l.number) cls.push('eforms-section');
  if (l.flagged) cls.push('eforms-flagged');
  const range = l.range ? ` data-start="${l.range.start}" data-end="${l.range.end}" tabindex="0"` : '';
  let row = '';
  if (l.number) row += `<span class="eforms-number">${escapeHtml(l.number)}</span>`;
  if (l.label) row += `<span class="eforms-label">${escapeHtml(l.label)}</span>`;
  if (l.label && (l.value || l.flagged)) row += ': ';
  if (l.value || l.flagged) row += `<span class="eforms-value">${escapeHtml(l.value)}</span>`;
  if (l.flagged) row += '<span class="eforms-flag">(missing)</span>';
  const kids = l.children.length ? `<ol class="eforms-lines">${l.children.map(lineHtml).join('')}</ol>` : '';
  return `<li class="${cls.join(' ')}" data-line="${l.templateLine}"${range}><div class="eforms-row">${row}</div>${kids}</li>`;
}

/** Safe HTML of a rendered notice: a whole document when `standalone` (default), else a fragment. */
export function renderHtml(doc: RenderedNotice, opts: { standalone?: boolean; nonce?: string } = {}): string {
  const problems = doc.problems.length
    ? `<details class="eforms-problems"><summary>${doc.problems.length} template line(s) not rendered</summary><ul>${doc.problems
        .map((p) => `<li>${escapeHtml(p.message)}</li>`)
        .join('')}</ul></details>`
    : '';
  const body =
    `<header class="eforms-meta">Notice subtype ${escapeHtml(doc.subtype)} · eForms SDK ${escapeHtml(doc.sdkVersion)} · ${escapeHtml(doc.language)}</header>` +
    `<main><ol class="eforms-lines">${doc.lines.map(lineHtml).join('')}</ol></main>${problems}`;
  if (opts.standalone === false) return body;
  const nonce = opts.nonce ? ` nonce="${escapeHtml(opts.nonce)}"` : '';
  const csp = opts.nonce
    ? `default-src 'none'; style-src 'nonce-${escapeHtml(opts.nonce)}'`
    : "default-src 'none'; style-src 'unsafe-inline'";
  return `<!DOCTYPE html>
<html lang="${escapeHtml(doc.language)}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>eForms notice ${escapeHtml(doc.subtype)}</title>
<style${nonce}>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** An indented outline: `1.1 Buyer`, `  Official name: …`, two spaces per level. */
export function renderText(doc: RenderedNotice): string {
  const out: string[] = [];
  const walk = (lines: RenderedLine[], depth: number): void => {
    for (const l of lines) {
      let s = '  '.repeat(depth);
      if (l.number) s += `${l.number} `;
      const parts = [l.label && (l.value || l.flagged) ? `${l.label}:` : l.label, l.value];
      if (l.flagged) parts.push('[missing]');
      s += parts.filter((p) => p !== '').join(' ');
      out.push(s.trimEnd());
      walk(l.children, depth + 1);
    }
  };
  walk(doc.lines, 0);
  for (const p of doc.problems) out.push(`! ${p.message}`);
  return `${out.join('\n')}\n`;
}
