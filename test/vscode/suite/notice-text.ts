// Where things are in a notice's raw text, found with plain string searches that share nothing with the
// extension's XML index: the expected positions the in-editor tests compare diagnostics against.
// Runs inside the extension host; no `vscode` import needed here.

/** Offset of the `<` of the first end tag that does not close the innermost open element; -1 if none. */
export function firstMismatchedEndTag(text: string): number {
  const stack: string[] = [];
  let i = text.indexOf('<');
  while (i !== -1) {
    const skip = (close: string) => {
      const e = text.indexOf(close, i);
      return e === -1 ? -1 : e + close.length;
    };
    let next: number;
    if (text.startsWith('<!--', i)) next = skip('-->');
    else if (text.startsWith('<![CDATA[', i)) next = skip(']]>');
    else if (text.startsWith('<?', i)) next = skip('?>');
    else if (text.startsWith('<!', i)) next = skip('>');
    else if (text.startsWith('</', i)) {
      const name = /^<\/([^\s>]+)/.exec(text.slice(i, i + 300))?.[1] ?? '';
      if (stack.pop() !== name) return i;
      next = skip('>');
    } else {
      const name = /^<([^\s/>]+)/.exec(text.slice(i, i + 300))?.[1] ?? '';
      let j = i + 1 + name.length;
      let quote = '';
      for (; j < text.length; j++) {
        const c = text[j];
        if (quote) {
          if (c === quote) quote = '';
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '>') break;
      }
      if (text[j - 1] !== '/') stack.push(name);
      next = j + 1;
    }
    if (next === -1 || next > text.length) return -1;
    i = text.indexOf('<', next);
  }
  return -1;
}

/** Offset of the `<` of the document element's start tag. */
export function rootStart(text: string): number {
  const re = /<(?![?!])/g;
  let m = re.exec(text);
  // Skip any `<` inside comments or processing instructions before the root.
  while (m) {
    const before = text.slice(0, m.index);
    const openComment = before.lastIndexOf('<!--') > before.lastIndexOf('-->');
    const openPi = before.lastIndexOf('<?') > before.lastIndexOf('?>');
    if (!openComment && !openPi) return m.index;
    m = re.exec(text);
  }
  return -1;
}

/** Offsets of every start tag `<qname` (followed by whitespace, `>` or `/`), outside comments. */
export function startTagOffsets(text: string, qname: string): number[] {
  const out: number[] = [];
  const needle = `<${qname}`;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) {
    const after = text[i + needle.length] ?? '';
    if (!/[\s>/]/.test(after)) continue;
    const before = text.slice(0, i);
    if (before.lastIndexOf('<!--') > before.lastIndexOf('-->')) continue;
    out.push(i);
  }
  return out;
}

/** The text of the first XML comment, where the test notices list what they trigger. */
export function headerComment(text: string): string {
  const s = text.indexOf('<!--');
  const e = s === -1 ? -1 : text.indexOf('-->', s);
  return s === -1 || e === -1 ? '' : text.slice(s + 4, e);
}

export interface TextElement {
  qname: string;
  local: string;
  /** Offset of the `<` of the start tag. */
  start: number;
  /** Offset just after the `>` of the start tag. */
  startTagEnd: number;
  /** Offset just after the end tag (or `/>`). */
  end: number;
  children: TextElement[];
}

/** The element tree of a well-formed document, from a scan of its tags; undefined when not well-formed. */
export function elementTree(text: string): TextElement | undefined {
  const stack: TextElement[] = [];
  let root: TextElement | undefined;
  const tag =
    /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<![^>]*>|<\/([^\s>]+)\s*>|<([^\s/>!?]+)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    if (m[1] !== undefined) {
      const open = stack.pop();
      if (!open || open.qname !== m[1]) return undefined;
      open.end = m.index + m[0].length;
    } else if (m[2] !== undefined) {
      const qname = m[2];
      const el: TextElement = {
        qname,
        local: qname.slice(qname.indexOf(':') + 1),
        start: m.index,
        startTagEnd: m.index + m[0].length,
        end: m[4] ? m.index + m[0].length : -1,
        children: [],
      };
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(el);
      else if (!root) root = el;
      if (!m[4]) stack.push(el);
    }
  }
  return stack.length === 0 ? root : undefined;
}

/**
 * Offset an SVRL location selects in `text`: the `<` of the element, or the first character of the
 * attribute name for a trailing `/@attr`. Steps are matched by local name (documents may use other
 * prefixes than the report) with XPath's 1-based `[n]` among same-named siblings.
 */
export function locationOffset(text: string, location: string): number | undefined {
  const target = locationElement(text, location);
  if (!target) return undefined;
  const attr = /\/@([^/]+)$/.exec(location)?.[1];
  if (!attr) return target.start;
  const local = attr.slice(attr.indexOf(':') + 1);
  const tagText = text.slice(target.start, target.startTagEnd);
  const m = new RegExp(`\\s((?:[\\w.-]+:)?${local})\\s*=`).exec(tagText);
  return m ? target.start + m.index + 1 : undefined;
}

/** The element an SVRL location selects (its parent element for a trailing `/@attr`). */
export function locationElement(text: string, location: string): TextElement | undefined {
  const root = elementTree(text);
  if (!root) return undefined;
  const steps = location
    .replace(/\/@[^/]+$/, '')
    .split('/')
    .filter(Boolean)
    .map((s) => {
      const m = /^(?:[^:[]+:)?([^[]+)(?:\[(\d+)\])?$/.exec(s);
      return { local: m?.[1] ?? s, n: Number(m?.[2] ?? 1) };
    });
  const first = steps.shift();
  if (!first || first.local !== root.local) return undefined;
  let el: TextElement | undefined = root;
  for (const step of steps) {
    el = el?.children.filter((c) => c.local === step.local)[step.n - 1];
    if (!el) return undefined;
  }
  return el;
}

export interface ExpectedAssertion {
  role: 'ERROR' | 'WARN' | 'INFO';
  id: string;
  location: string;
}

/** The `expect: ROLE RULE-ID LOCATION` lines of a test notice's header comment. */
export function expectedAssertions(text: string): ExpectedAssertion[] {
  const out: ExpectedAssertion[] = [];
  for (const m of headerComment(text).matchAll(/^\s*expect:\s+(ERROR|WARN|INFO)\s+(\S+)\s+(\S+)\s*$/gm)) {
    out.push({ role: m[1] as ExpectedAssertion['role'], id: m[2], location: m[3] });
  }
  return out;
}
