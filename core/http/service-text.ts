// The one sanitizer of text that comes from a service (messages, ids, headers, HTML error pages)
// before it reaches a message, a tree, a log or a terminal. It must never let through control,
// bidi-override, zero-width characters or terminal escapes, and never return more than `max` characters.

export interface SanitizeOptions {
  /** Drop `<...>` tags too (HTML error pages, hostile JSON fields). Default: keep, since CVS messages name elements as `<cbc:ID>`. */
  stripMarkup?: boolean;
  /**
   * The API key the request carried: shown as `***` wherever the text holds it. Replaced after the
   * invisible characters are removed, which could otherwise join a key a service spelt apart.
   */
  secret?: string;
}

/**
 * Text from a service, made safe to show: terminal escapes, control, bidi-override and zero-width
 * characters removed, whitespace collapsed, length capped without cutting a surrogate pair.
 * Anything that is not a string or a number gives ''.
 */
export function sanitizeServiceText(text: unknown, max = 300, o: SanitizeOptions = {}): string {
  if (typeof text !== 'string' && typeof text !== 'number') return '';
  let clean = String(text)
    // Bounded work whatever the input size: nothing past this can survive the cap anyway.
    .slice(0, Math.max(max, 1) * 4 + 1000)
    // Whole escape sequences, not only their first character: a control sequence (ESC [ or its C1
    // form), and an operating-system command up to its terminator, whose `]0;title` was left behind.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing terminal escapes is the point.
    .replace(/(?:\u001b\[|\u009b)[0-9;?]*[A-Za-z]/g, '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing terminal escapes is the point.
    .replace(/(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]{0,4096}(?:\u0007|\u001b\\|\u009c)/g, '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '');
  if (o.secret) clean = clean.replace(spelt(o.secret), '***');
  if (o.stripMarkup) clean = clean.replace(/<[^>]{0,200}>/g, ' ');
  clean = clean.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  let cut = max - 1;
  if (/[\ud800-\udbff]/.test(clean[cut - 1] ?? '')) cut--;
  return `${clean.slice(0, cut)}…`;
}

/**
 * The secret, also spelt apart by white space (what control characters become above): a service that
 * echoed the key with a character between each letter would otherwise show it. Linear: each letter is
 * a literal, and only white space may come between two.
 */
function spelt(secret: string): RegExp {
  const letters = [...secret].map((c) => c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'));
  return new RegExp(letters.join('\\s*'), 'g');
}

/** `https://host:port` of a URL without credentials, path or query: what messages may name. */
export function originOf(url: string | URL): string {
  try {
    const u = typeof url === 'string' ? new URL(url) : url;
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'the configured URL';
  }
}

/**
 * The text of an XML answer's body, in the encoding its first bytes show (XML 1.0, appendix F): a
 * byte-order mark, or `<` written in UTF-16 of either order; else UTF-8. An XML report may come in
 * UTF-16, which XML parsers must read; decoded as UTF-8 it was "not a validation report". The content
 * type's charset is not read: servers often name one that their body is not in.
 */
export function xmlAnswerText(body: Buffer): string {
  const [a, b, c] = [body[0], body[1], body[2]];
  if (a === 0xef && b === 0xbb && c === 0xbf) return body.toString('utf8', 3);
  if (a === 0xff && b === 0xfe) return asUtf8(body.toString('utf16le', 2));
  if (a === 0xfe && b === 0xff) return asUtf8(bigEndian(body.subarray(2)));
  if (a === 0x3c && b === 0x00) return asUtf8(body.toString('utf16le'));
  if (a === 0x00 && b === 0x3c) return asUtf8(bigEndian(body));
  return body.toString('utf8');
}

/**
 * A document decoded from UTF-16, its XML declaration made to say what it is written in from now on
 * (`eforms validate --format svrl` prints it in UTF-8): `encoding="UTF-16"` would then be untrue.
 */
function asUtf8(text: string): string {
  return text.replace(/^(<\?xml\b[^>]*?\bencoding\s*=\s*)(["'])[^"']*\2/, '$1$2UTF-8$2');
}

function bigEndian(bytes: Buffer): string {
  return Buffer.from(bytes.subarray(0, bytes.length & ~1))
    .swap16()
    .toString('utf16le');
}
