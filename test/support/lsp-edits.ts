// LSP positions and text edits applied to plain text, for tests that check what the server's quick
// fixes and renames do: lines split on \n, characters counted in UTF-16 units (as LSP counts them).
// Plain string arithmetic, independent of the server's own code; it never talks to a server.

export interface Pos {
  line: number;
  character: number;
}

export interface TextEdit {
  range: { start: Pos; end: Pos };
  newText: string;
}

/** The offset in `text` of an LSP position. */
export function offsetOf(text: string, p: Pos): number {
  const lines = text.split('\n');
  let o = 0;
  for (let i = 0; i < p.line; i++) o += (lines[i] ?? '').length + 1;
  return o + p.character;
}

/** Applies LSP edits (non-overlapping) from the last to the first. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => offsetOf(text, b.range.start) - offsetOf(text, a.range.start));
  let out = text;
  for (const e of sorted)
    out = out.slice(0, offsetOf(out, e.range.start)) + e.newText + out.slice(offsetOf(out, e.range.end));
  return out;
}
