// The EXPRESSION mode of EfxLexer.g4, by hand: turns the text of an expression block (`${…}`, a context
// declaration `{…}`, or a whole standalone expression) into tokens. Like ANTLR, at each position the
// longest match wins and, between matches of equal length, the rule declared first in the grammar.
// It never throws anything but EfxSyntaxError and always ends (each step consumes at least one char).

import { EfxSyntaxError, lineColumn } from './errors';

export type TokKind =
  | '('
  | ')'
  | '['
  | ']'
  | '::'
  | '}'
  | 'keyword'
  | 'boolean'
  | 'cast'
  | 'axis'
  | 'function'
  | 'bt-id'
  | 'field-id'
  | 'node-id'
  | 'variable'
  | 'day-time-duration'
  | 'year-month-duration'
  | 'identifier'
  | 'integer'
  | 'decimal'
  | 'string'
  | 'uuid'
  | 'date'
  | 'time'
  | 'comparison'
  | '*'
  | '/'
  | '%'
  | '+'
  | '-'
  | ','
  | '/@'
  | ':'
  | 'eof';

export interface Tok {
  k: TokKind;
  /** The token's text (for `::`, without the spaces around it). */
  v: string;
  at: number;
  end: number;
}

// EfxLexer.g4 "Keywords" (And … Codelist).
const KEYWORDS = new Set([
  'and',
  'or',
  'is',
  'in',
  'like',
  'present',
  'empty',
  'unique',
  'every',
  'some',
  'satisfies',
  'if',
  'then',
  'else',
  'for',
  'return',
  'notice',
  'codelist',
]);
const BOOLEANS = new Set(['ALWAYS', 'NEVER', 'TRUE', 'FALSE']);
// EfxLexer.g4 "Data types" (BooleanTypeCast … ContextTypeCast), without the colon.
const CASTS = new Set(['indicator', 'number', 'text', 'code', 'date', 'time', 'measure', 'context']);
// EfxLexer.g4 Axis.
const AXES = new Set([
  'preceding',
  'following',
  'preceding-sibling',
  'following-sibling',
  'child',
  'descendant',
  'descendant-or-self',
  'ancestor',
  'ancestor-or-self',
]);
// EfxLexer.g4 "Functions" (Not … SequenceEqualFunction).
export const FUNCTIONS = new Set([
  'not',
  'count',
  'substring',
  'string',
  'number',
  'contains',
  'starts-with',
  'ends-with',
  'string-length',
  'sum',
  'format-number',
  'concat',
  'date',
  'time',
  'day-time-duration',
  'year-month-duration',
  'add-measure',
  'subtract-measure',
  'distinct-values',
  'value-union',
  'value-intersect',
  'value-except',
  'sequence-equal',
]);

// BtId, FieldId, NodeId.
const BT_ID = /(?:BT|OPP|OPT|OPA)-[0-9]+/y;
const FIELD_ID = /(?:BT|OPP|OPT|OPA)-[0-9]+(?:\((?:BT-[0-9]+|[a-z])\))?(?:-[a-zA-Z_][a-zA-Z_0-9]*)+/y;
const NODE_ID = /ND-[a-zA-Z0-9]+/y;
const VARIABLE = /\$[a-zA-Z_][a-zA-Z_0-9]*/y;
const DAY_TIME = /-?P-?[0-9]+[WD]/y;
const YEAR_MONTH = /-?P-?[0-9]+[YM]/y;
// Identifier: IdentifierPart ('-' IdentifierPart)*.
const IDENTIFIER = /[a-zA-Z_][a-zA-Z_0-9]*(?:-[a-zA-Z_][a-zA-Z_0-9]*)*/y;
const INTEGER = /-?[0-9]+/y;
// DECIMAL is '-'? DIGIT? '.' DIGIT+ in the grammar; any number of leading digits is read here, since
// the grammar's form would split `12.5` into two tokens that no rule accepts.
const DECIMAL = /-?[0-9]*\.[0-9]+/y;
const STRING = /"(?:[^"'\\\r\n]|\\[dDwWnsStrvfbcxu0"'\\])*"|'(?:[^"'\\\r\n]|\\[dDwWnsStrvfbcxu0"'\\])*'/y;
const UUID = /\{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\}/y;
const DATE = /[0-9]{4}-[0-9]{2}-[0-9]{2}(?:Z|[+-][0-9]{2}:[0-9]{2})/y;
const TIME = /[0-9]{2}:[0-9]{2}:[0-9]{2}(?:Z|[+-][0-9]{2}:[0-9]{2})/y;
const COMPARISON = /==|!=|>=|<=|>|</y;

function match(re: RegExp, s: string, at: number, limit: number): number {
  re.lastIndex = at;
  const m = re.exec(s);
  if (!m) return 0;
  return Math.min(m[0].length, limit - at);
}

/**
 * Tokens of the expression starting at `from`, up to and including the `}` that closes it (when
 * `closing`), or up to `limit`. `file` and `text` serve the error positions.
 */
export function lexExpression(
  text: string,
  from: number,
  limit: number,
  closing: boolean,
  file?: string,
): Tok[] {
  const toks: Tok[] = [];
  const fail = (at: number, reason: string, code: 'unexpected-character' | 'unterminated'): never => {
    const { line, column } = lineColumn(text, at);
    throw new EfxSyntaxError(code, reason, file, line, column, at);
  };
  let i = from;
  while (true) {
    // WS -> channel(WHITESPACE); a standalone expression may also span lines.
    while (i < limit && (text[i] === ' ' || text[i] === '\t' || (!closing && /[\r\n\f]/.test(text[i])))) i++;
    if (i >= limit) {
      if (closing)
        fail(
          i,
          "the expression block is not closed: '}' expected before the end of the line",
          'unterminated',
        );
      toks.push({ k: 'eof', v: '', at: i, end: i });
      return toks;
    }
    const c = text[i];
    const push = (k: TokKind, len: number, v = text.slice(i, i + len)): void => {
      toks.push({ k, v, at: i, end: i + len });
      i += len;
    };
    if (c === '(' || c === ')' || c === '[' || c === ']') {
      push(c, 1);
      continue;
    }
    if (c === ':' && text[i + 1] === ':') {
      push('::', 2);
      continue;
    }
    if (c === '}') {
      push('}', 1);
      if (closing) return toks;
      continue;
    }
    // Candidates, in the grammar's order; the first longest one wins.
    let bestKind: TokKind | undefined;
    let bestLen = 0;
    const offer = (k: TokKind, len: number): void => {
      if (len > bestLen) {
        bestKind = k;
        bestLen = len;
      }
    };
    const word = match(IDENTIFIER, text, i, limit);
    if (word > 0) {
      const w = text.slice(i, i + word);
      if (CASTS.has(w) && text[i + word] === ':' && text[i + word + 1] !== ':') offer('cast', word + 1);
      if (KEYWORDS.has(w)) offer('keyword', word);
      else if (BOOLEANS.has(w)) offer('boolean', word);
      else if (AXES.has(w)) offer('axis', word);
      else if (FUNCTIONS.has(w)) offer('function', word);
    }
    offer('bt-id', match(BT_ID, text, i, limit));
    offer('field-id', match(FIELD_ID, text, i, limit));
    offer('node-id', match(NODE_ID, text, i, limit));
    offer('variable', match(VARIABLE, text, i, limit));
    offer('day-time-duration', match(DAY_TIME, text, i, limit));
    offer('year-month-duration', match(YEAR_MONTH, text, i, limit));
    offer('identifier', word);
    offer('integer', match(INTEGER, text, i, limit));
    offer('decimal', match(DECIMAL, text, i, limit));
    offer('string', match(STRING, text, i, limit));
    offer('uuid', match(UUID, text, i, limit));
    offer('date', match(DATE, text, i, limit));
    offer('time', match(TIME, text, i, limit));
    offer('comparison', match(COMPARISON, text, i, limit));
    if (c === '*' || c === '%' || c === '+' || c === '-' || c === ',') offer(c, 1);
    if (c === '/') offer(text[i + 1] === '@' ? '/@' : '/', text[i + 1] === '@' ? 2 : 1);
    if (c === ':') offer(':', 1);
    if (bestKind === undefined) {
      if (c === "'" || c === '"')
        fail(i, `the string starting here is not closed by ${c} on this line`, 'unterminated');
      if (c === '\r' || c === '\n' || c === '\f')
        fail(
          i,
          "the expression block is not closed: '}' expected before the end of the line",
          'unterminated',
        );
      fail(i, `unexpected character '${c}' in an expression`, 'unexpected-character');
    }
    push(bestKind as TokKind, bestLen);
  }
}
