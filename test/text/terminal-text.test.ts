// The one terminal sanitiser: every character that can drive a terminal or reorder text comes out as a
// visible escape, the rest unchanged, and inside JSON string literals the escape means the same text.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clip, terminalLine, terminalText } from '../../core/text/terminal-text';

describe('terminalText', () => {
  test('ESC, OSC 8, BEL, NUL, CR, DEL, C1, bidi overrides and isolates are escaped; text stays', () => {
    const hostile =
      'a\u001b[31mb\u001b]8;;http://x/\u0007c\u0000d\re\u007ff\u009b2Jg\u202eh\u2066i\u200bj\ufeffk';
    assert.equal(
      terminalText(hostile),
      'a\\u001b[31mb\\u001b]8;;http://x/\\u0007c\\u0000d\\u000de\\u007ff\\u009b2Jg\\u202eh\\u2066i\\u200bj\\ufeffk',
    );
    assert.equal(
      terminalText('tab\there\nnext line, Évaluation 𝔘 €'),
      'tab\there\nnext line, Évaluation 𝔘 €',
    );
  });

  test('lone surrogates are escaped, pairs kept', () => {
    assert.equal(terminalText('\ud83d\ude00 \ud800 x \udc00'), '\ud83d\ude00 \\ud800 x \\udc00');
  });

  test('every code unit below U+00A0 that is not printable ASCII, tab or line feed is escaped', () => {
    for (let c = 0; c < 0xa0; c++) {
      const ch = String.fromCharCode(c);
      const printable = (c >= 0x20 && c < 0x7f) || c === 9 || c === 10;
      assert.equal(terminalText(ch) === ch, printable, `U+${c.toString(16)}`);
    }
  });

  test('inside a JSON string the escape reads back as the same character', () => {
    const value = { id: 'X\u009b31m\u202e', m: '\u2028 \u0085 \ud800' };
    assert.deepEqual(JSON.parse(terminalText(JSON.stringify(value))), value);
  });

  test('idempotent: escaping twice changes nothing more', () => {
    const once = terminalText('\u001b\u202e\u009b');
    assert.equal(terminalText(once), once);
  });

  test('terminalLine collapses line breaks to one space before escaping', () => {
    assert.equal(terminalLine('  one\r\n two\u001b\t three '), 'one two\\u001b three');
  });

  test('clip: at most max units, ending in …, never half a surrogate pair', () => {
    assert.equal(clip('abcdef', 10), 'abcdef');
    assert.equal(clip('abcdef', 4), 'abc…');
    assert.equal(clip('ab𝔘cd', 4), 'ab…');
    assert.equal(clip('x'.repeat(10_000_000), 80).length, 80);
  });
});
