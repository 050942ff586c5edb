// The one error type of the agri-food client, with a kind callers can branch on and a message that
// says what to do. Text from the service is sanitized before it reaches a message: it may hold
// control characters, markup or megabytes.

export type AgrifoodErrorKind =
  /** The query breaks a rule of the spec; nothing was sent. */
  | 'invalid-query'
  /** 404 for a path the service does not have. */
  | 'unknown-path'
  /** 500 from the service. */
  | 'server'
  /** 429 or a gateway error, still failing after the bounded retries. */
  | 'unavailable'
  | 'timeout'
  | 'network'
  /** 200 whose body is not the JSON array the spec promises. */
  | 'bad-answer'
  | 'http'
  | 'cancelled';

export class AgrifoodError extends Error {
  constructor(
    readonly kind: AgrifoodErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AgrifoodError';
  }
}

/**
 * Makes service text safe to show: no control or bidi characters, no markup, collapsed whitespace,
 * at most `max` characters.
 */
export function sanitizeServiceText(text: unknown, max = 300): string {
  const raw = typeof text === 'string' ? text : text === undefined || text === null ? '' : String(text);
  const clean = raw
    .slice(0, max * 4)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, ' ')
    .replace(/<[^>]{0,200}>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
