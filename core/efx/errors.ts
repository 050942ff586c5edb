// The errors of the EFX room: a syntax error (the text does not follow Efx.g4 / EfxLexer.g4) and a
// translation error (the text parses but names an unknown field, or uses a construct the translator
// cannot express in XPath). Both carry a code, the file, and a 1-based line and column so that an editor
// can underline the place. No I/O.

/** Why a template or expression was rejected by the parser. */
export type EfxSyntaxCode =
  | 'unexpected-character'
  | 'unexpected-token'
  | 'unterminated'
  | 'indentation'
  | 'unknown-function'
  | 'too-deep';

export class EfxSyntaxError extends Error {
  override name = 'EfxSyntaxError';
  readonly kind = 'efx-syntax';
  constructor(
    readonly code: EfxSyntaxCode,
    /** A sentence a person can read, without the position (see `toString`). */
    readonly reason: string,
    readonly file: string | undefined,
    readonly line: number,
    readonly column: number,
    /** Offset of the error in the text, 0-based. */
    readonly offset: number,
  ) {
    super(`${file ?? '<efx>'}:${line}:${column}: ${reason}`);
  }
}

/** Why a parsed expression could not be turned into XPath. */
export type EfxTranslationCode =
  | 'unknown-field'
  | 'unknown-node'
  | 'unknown-variable'
  | 'unknown-codelist'
  | 'not-a-context'
  | 'type-mismatch'
  | 'unsupported';

export class EfxTranslationError extends Error {
  override name = 'EfxTranslationError';
  readonly kind = 'efx-translation';
  constructor(
    readonly code: EfxTranslationCode,
    readonly reason: string,
    /** Offset in the source text of the construct at fault, when known. */
    readonly offset?: number,
  ) {
    super(reason);
  }
}

/** 1-based line and column of `offset` in `text` (lines end at \r\n, \n, \r or \f, as in EfxLexer). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 13) {
      if (text.charCodeAt(i + 1) === 10 && i + 1 < end) i++;
      line++;
      start = i + 1;
    } else if (c === 10 || c === 12) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: end - start + 1 };
}
