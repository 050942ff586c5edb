// The one sanitiser for text that reaches a terminal: every character that could move the cursor,
// change colours, ring the bell, open a hyperlink (OSC 8), clear the screen or reorder what a reader
// sees (bidi overrides, U+202E) is written as a visible `\uXXXX` escape instead. Text output of every
// command passes through it (cli/main.ts wraps the CLI's output streams, core/output-formats.ts and the
// text tables call it per field). Inside a JSON string literal the escape reads back as the same
// character, so JSON output passed through it keeps its meaning.
// It never drops characters silently and never throws. No `vscode` import here, and no I/O.

/**
 * C0 controls except tab and line feed, DEL, C1 controls (0x80-0x9f: CSI, OSC, ST...), the bidi
 * embeddings, overrides, isolates and marks, zero-width characters, line and paragraph separators,
 * the byte-order mark, and lone surrogates (which terminals show as garbage or not at all).
 */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must be escaped.
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function escapeUnit(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Text safe to write to a terminal: line breaks and tabs kept, every other unsafe character escaped. */
export function terminalText(s: string): string {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(s) ? s.replace(UNSAFE, escapeUnit) : s;
}

/** One terminal line: runs of white space (line breaks included) read as one space, then escaped. */
export function terminalLine(s: string): string {
  return terminalText(s.replace(/\s+/g, ' ').trim());
}

/**
 * A name (a file name, an id) inside one line: every unsafe character escaped, and line breaks and
 * tabs too, so that a name never starts a line of its own (`a.xml\nb.xml:1:1: error …` would forge a
 * finding). Nothing is dropped or merged: two names that differ are shown differently.
 */
export function terminalName(s: string): string {
  return terminalText(s).replace(/[\t\n]/g, escapeUnit);
}

/**
 * At most `max` UTF-16 units of `s`, cut with `…` (never inside a surrogate pair): for echoing a
 * caller's value (an element name, a path, a locale) inside a message without echoing megabytes.
 */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  let cut = Math.max(0, max - 1);
  const c = s.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--;
  return `${s.slice(0, cut)}…`;
}
