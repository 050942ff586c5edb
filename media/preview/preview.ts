// The notice preview's page (bundled by scripts/build-webview.mjs into dist/preview/preview.js): draws
// the render the panel sends, with textContent only (never innerHTML, so a notice's text can never
// become markup), highlights the line the panel names, and reports clicks, Enter, the language picker
// and what it drew. Lines are focusable; arrow keys move between them. It loads nothing remote (the
// page's CSP forbids it) and keeps only { uri, language } as state, for the panel's restoration.

import './preview.css';
import type {
  HostMessage,
  PanelState,
  WebviewMessage,
  WireLine,
  WireNotice,
} from '../../client/preview/preview-messages';

interface VsCodeApi {
  postMessage(m: WebviewMessage): void;
  setState(s: PanelState): void;
  getState(): PanelState | undefined;
}
declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();
const post = (m: WebviewMessage) => vscode.postMessage(m);

const app = document.getElementById('app') as HTMLElement;
const header = el('header', 'bar');
const picker = el('select', 'language') as HTMLSelectElement;
const pickerLabel = el('label', 'language-label');
const meta = el('span', 'meta');
const banner = el('div', 'banner');
const problems = el('details', 'problems');
const tree = el('div', 'tree');
let rows = new Map<string, HTMLElement>();
let active: string | null = null;

pickerLabel.textContent = 'Language ';
pickerLabel.append(picker);
header.append(pickerLabel, meta);
banner.setAttribute('role', 'alert');
banner.hidden = true;
problems.hidden = true;
tree.setAttribute('role', 'tree');
tree.setAttribute('aria-label', 'Notice as published');
app.append(header, banner, problems, tree);

picker.addEventListener('change', () => post({ type: 'language', language: picker.value }));

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  return e;
}

/** Language names as the platform knows them, in their own language ("Deutsch"), else the code. */
function languageName(code: string): string {
  try {
    const n = new Intl.DisplayNames([code], { type: 'language' }).of(code);
    return n && n !== code ? `${n} (${code})` : code;
  } catch {
    return code;
  }
}

function draw(m: Extract<HostMessage, { type: 'render' }>): void {
  const n: WireNotice = m.notice;
  vscode.setState(m.state);
  document.title = m.title;
  banner.hidden = true;
  picker.replaceChildren(
    ...n.languages.map((l) => {
      const o = el('option');
      o.value = l;
      o.textContent = languageName(l);
      o.selected = l === n.language;
      return o;
    }),
  );
  document.documentElement.lang = n.language;
  meta.textContent = `Notice subtype ${n.subtype || '?'} · SDK ${n.sdkVersion}`;
  problems.replaceChildren();
  problems.hidden = n.problems.length === 0;
  if (n.problems.length) {
    const s = el('summary');
    s.textContent = `${n.problems.length} template line(s) could not be rendered`;
    const ul = el('ul');
    for (const p of n.problems) {
      const li = el('li');
      li.textContent = p.templateLine ? `line ${p.templateLine}: ${p.message}` : p.message;
      ul.append(li);
    }
    problems.append(s, ul);
  }
  const focused = (document.activeElement as HTMLElement | null)?.dataset?.id;
  rows = new Map();
  tree.replaceChildren(...n.lines.map((l) => line(l, 1)));
  // Keyboard users keep their place across a re-render.
  if (focused) rows.get(focused)?.focus({ preventScroll: true });
  active = null;
  highlight(m.highlight ?? null, false);
  post({ type: 'rendered', version: m.version, lines: rows.size });
}

function line(l: WireLine, level: number): HTMLElement {
  const item = el('div', 'item');
  const row = el('div', `row${l.number ? ' section' : ''}${l.flagged ? ' flagged' : ''}`);
  row.dataset.id = l.id;
  row.tabIndex = 0;
  row.setAttribute('role', 'treeitem');
  row.setAttribute('aria-level', String(level));
  if (l.number) {
    const num = el('span', 'number');
    num.textContent = l.number;
    row.append(num);
  }
  if (l.label) {
    const label = el('span', 'label');
    label.textContent = l.label;
    row.append(label);
  }
  const value = el('span', 'value');
  value.textContent = l.value;
  row.append(value);
  if (l.flagged) {
    const flag = el('span', 'flag');
    flag.textContent = 'missing';
    flag.title = 'A mandatory value is missing here';
    row.append(flag);
    row.setAttribute('aria-description', 'mandatory value missing');
  }
  if (!l.linked) row.classList.add('unlinked');
  rows.set(l.id, row);
  item.append(row);
  if (l.children.length) {
    const kids = el('div', 'children');
    kids.setAttribute('role', 'group');
    kids.append(...l.children.map((c) => line(c, level + 1)));
    item.append(kids);
  }
  return item;
}

function highlight(id: string | null, scroll: boolean): void {
  if (active) rows.get(active)?.classList.remove('active');
  active = id && rows.has(id) ? id : null;
  const row = active ? rows.get(active) : undefined;
  if (row) {
    row.classList.add('active');
    row.setAttribute('aria-current', 'true');
    if (scroll) row.scrollIntoView({ block: 'nearest' });
  }
  for (const r of rows.values()) if (r !== row) r.removeAttribute('aria-current');
  post({ type: 'highlighted', id: active });
}

function choose(id: string): void {
  highlight(id, false);
  post({ type: 'select', id });
}

tree.addEventListener('click', (e) => {
  const row = (e.target as HTMLElement).closest<HTMLElement>('.row');
  if (row?.dataset.id) choose(row.dataset.id);
});

tree.addEventListener('keydown', (e) => {
  const row = (e.target as HTMLElement).closest<HTMLElement>('.row');
  if (!row?.dataset.id) return;
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    choose(row.dataset.id);
    return;
  }
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp' || e.key === 'Home' || e.key === 'End') {
    e.preventDefault();
    const all = [...rows.values()];
    const at = all.indexOf(row);
    const next =
      e.key === 'Home'
        ? all[0]
        : e.key === 'End'
          ? all[all.length - 1]
          : all[Math.max(0, Math.min(all.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)))];
    next?.focus();
  }
});

window.addEventListener('message', (e: MessageEvent<HostMessage>) => {
  const m = e.data;
  switch (m?.type) {
    case 'render':
      draw(m);
      return;
    case 'error':
      banner.textContent = m.message;
      banner.hidden = false;
      return;
    case 'highlight':
      highlight(m.id, true);
      return;
    case 'testClick':
      rows.get(m.id)?.click();
      return;
  }
});

post({ type: 'ready' });
