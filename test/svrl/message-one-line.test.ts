// assertionMessage puts a report's text and test on one line (runs of white space as one space, none at
// the ends) and returns a text that is one line already without a copy. Its messages must be those of
// the plain rule, `replace(/\s+/g, ' ').trim()` (the truth here), for texts built of every kind of white
// space JavaScript's \s knows (tabs, line ends, NBSP, U+FEFF, U+2028, U+3000, …) and ordinary letters,
// as the message itself and as the test shown for a raw key.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertionMessage } from '../../core/svrl/mapping';
import type { SvrlAssertion } from '../../core/svrl/report';

const CHARS = [
  ' ',
  ' ',
  'a',
  'b',
  '|',
  '\t',
  '\n',
  '\r',
  '\u000b',
  '\u000c',
  '\u00a0',
  '\u1680',
  '\u2003',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
  '\u200b',
  '\u0085',
];

const plain = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** A small deterministic generator (the failures reproduce). */
function* texts(n: number): Generator<string> {
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed;
  };
  for (let k = 0; k < n; k++) {
    let s = '';
    const length = next() % 9;
    for (let i = 0; i < length; i++) s += CHARS[next() % CHARS.length];
    yield s;
  }
}

function assertion(text: string, testText: string): SvrlAssertion {
  return {
    kind: 'failed-assert',
    id: 'BR-X-1',
    location: '',
    role: 'ERROR',
    test: testText,
    text,
    diagnosticReferences: [],
  };
}

describe('assertion messages on one line', () => {
  test('the text, as the plain rule puts it', () => {
    let n = 0;
    for (const t of texts(20_000)) {
      const text = `x${t}y`;
      assert.equal(assertionMessage(assertion(text, 'true()')), plain(text), JSON.stringify(text));
      assert.equal(
        assertionMessage(assertion(t, 'true()')),
        plain(t) || 'Rule BR-X-1 failed: true()',
        JSON.stringify(t),
      );
      n++;
    }
    assert.equal(n, 20_000);
  });

  test('the test shown for a raw key or an empty text, as the plain rule puts it', () => {
    for (const t of texts(20_000)) {
      const testText = `count(a)${t}= 0${t}`;
      const shown = plain(testText);
      assert.equal(
        assertionMessage(assertion('', testText)),
        shown ? `Rule BR-X-1 failed: ${shown}` : 'Rule BR-X-1 failed.',
      );
      assert.equal(
        assertionMessage(assertion('rule|text|BR-X-1', testText)),
        shown ? `Rule BR-X-1 failed: ${shown}` : 'Rule BR-X-1 failed.',
      );
    }
  });

  test('an assertion with neither an id nor a text is "a rule without a name"', () => {
    const nameless = { ...assertion('', 'count(a) = 0'), id: '' };
    assert.equal(assertionMessage(nameless), 'A rule without a name failed: count(a) = 0');
    assert.equal(assertionMessage({ ...nameless, test: '' }), 'A rule without a name failed.');
    assert.equal(
      assertionMessage({ ...nameless, kind: 'successful-report' }),
      'A rule without a name reported: count(a) = 0',
    );
  });
});
