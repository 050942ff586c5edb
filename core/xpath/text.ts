// Reading XPath text without parsing it: splitting at separators that stand outside brackets, braces,
// parentheses and quotes, and telling whether a slice is balanced. The SVRL mapping (locations) and the
// SDK's field paths (authoring) both read paths this way. Linear in the text, no recursion. No I/O.

/**
 * Splits `s` where `separatorAt(i)` matches (it returns the separator's length, 0 for none), never
 * inside brackets, braces, parentheses or quotes: XPath steps and predicates nest all four.
 */
export function splitOutsideBrackets(s: string, separatorAt: (i: number) => number): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '(' || c === '{') depth++;
    else if (c === ']' || c === ')' || c === '}') depth--;
    else if (depth === 0) {
      const n = separatorAt(i);
      if (n > 0) {
        parts.push(s.slice(from, i));
        from = i + n;
        i = from - 1;
      }
    }
  }
  parts.push(s.slice(from));
  return parts;
}

/** Splits at `sep` (one character or more, e.g. `/` or ` and `) outside brackets, parentheses and quotes. */
export function splitTopLevel(s: string, sep: string): string[] {
  return splitOutsideBrackets(s, (i) => (s.startsWith(sep, i) ? sep.length : 0));
}

/** Whether every bracket and parenthesis of `s` closes inside it, and no quote is left open. */
export function isBalanced(s: string): boolean {
  let depth = 0;
  let quote = '';
  for (const c of s) {
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') {
      depth--;
      if (depth < 0) return false;
    }
  }
  return depth === 0 && !quote;
}
