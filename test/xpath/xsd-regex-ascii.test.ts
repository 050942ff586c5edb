// The ASCII-first form of a regular expression (core/xpath/xsd-regex.ts): a pattern whose classes go
// beyond ASCII is compiled first with each class reduced to its ASCII members, used for strings that are
// all ASCII, and compiled whole when another string comes. It must answer exactly as the pattern compiled
// whole (compileXsdRegexWhole): matches, replace and tokenize, their errors, on seeded ASCII strings built
// from each pattern's own characters and the ASCII characters classes treat specially (newlines, spaces,
// punctuation, the letters that case-fold beyond ASCII: k, s), and on strings beyond ASCII, interleaved.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileXsdRegex, compileXsdRegexWhole, type XsdRegex } from '../../core/xpath/xsd-regex';
import { mulberry32 } from '../support/notice-variants';

/** [pattern, flags]: the SDK's own patterns whose classes reach beyond ASCII, and edge cases. */
const PATTERNS: [string, string][] = [
  [
    "^[\\p{L}\\p{N}!#$%&'*+/=?_-]+(\\.[\\p{L}\\p{N}!#$%&'*+/=?_-]+)*@([\\p{L}\\p{N}]([\\p{L}\\p{N}_-]*[\\p{L}\\p{N}])?\\.)+([\\p{L}\\p{N}]{2,})$",
    '',
  ],
  [
    '((^(http|HTTP|https|HTTPS|ftp|FTP|ftps|FTPS|sftp|SFTP)://)|(^(w|W){3}([0-9])?\\.))[\\p{L}\\p{N}\\?!\\./:;,\\-_=#+*%@"\\(\\)&]+',
    '',
  ],
  ['^\\p{Lu}\\p{Ll}*$', ''],
  ['[\\w-[a-z]]+', ''],
  ['^\\i\\c*$', ''],
  ['\\W+', ''],
  ['[^\\p{L}]', ''],
  ['\\S+', ''],
  ['\\D+', ''],
  ['.+', ''],
  ['^.$', 's'],
  ['^.*$', 'm'],
  ['a.b', 's'],
  ['(é|e)+', ''],
  ['é+|x', ''],
  ['[^a]', ''],
  ['k', 'i'],
  ['[a-z]+', 'i'],
  ['s+', 'i'],
  ['^\\p{IsBasicLatin}+$', ''],
  ['[\\p{IsLatin-1Supplement}a]+', ''],
  ['(a|ä)*b', ''],
  ['([\\p{L}]{2,3})-(\\p{Nd})', ''],
  ['[\\p{P}\\p{S}]', ''],
  ['\\s+$', ''],
  ['^\\s+', ''],
  ['(\\p{L}+)\\s*(\\d*)', ''],
  ['[ \\p{Z}]+', 'x'],
  ['é.', 'q'],
  ['(?:\\p{L}|\\d)?', ''],
  ['^$', 'm'],
];

/** The ASCII characters that matter to classes, anchors and case: each pattern also adds its own. */
const ASCII_ALPHABET = 'aAbBkKsSzZ019_-.@:/?!#$%&\'"*+=()[]{}^~|\\;,<> \t\n\r\x00\x7f';
const BEYOND = ['é', 'Ä', '\u212a', '\u017f', '\u00a0', '\u2028', '𝒜', '中', '٣'];

function strings(pattern: string, seed: number, beyond: boolean): string[] {
  const own = [...pattern].filter((c) => c.charCodeAt(0) < 0x80).join('');
  const alphabet = [...new Set([...ASCII_ALPHABET, ...own])];
  const next = mulberry32(seed);
  const out = [
    '',
    'abc@example.com',
    'a.b-c@mail.example.eu',
    'https://example.com/path?x=1&y=(2)',
    'www.example.org',
    'Kks S',
    'line1\nline2\r\n',
  ];
  for (let i = 0; i < 300; i++) {
    const len = Math.floor(next() * 14);
    let s = '';
    for (let j = 0; j < len; j++) {
      if (beyond && next() < 0.15) s += BEYOND[Math.floor(next() * BEYOND.length)];
      else s += alphabet[Math.floor(next() * alphabet.length)];
    }
    out.push(s);
  }
  return out;
}

/** What a call gives: its value, or its error's code. */
function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (e) {
    return { error: (e as { code?: string }).code ?? String(e) };
  }
}

function agree(fast: XsdRegex, whole: XsdRegex, s: string, where: string): void {
  assert.deepEqual(
    outcome(() => fast.test(s)),
    outcome(() => whole.test(s)),
    `${where}: matches(${JSON.stringify(s)})`,
  );
  assert.deepEqual(
    outcome(() => fast.replace(s, '[$0]')),
    outcome(() => whole.replace(s, '[$0]')),
    `${where}: replace(${JSON.stringify(s)})`,
  );
  assert.deepEqual(
    outcome(() => fast.tokenize(s)),
    outcome(() => whole.tokenize(s)),
    `${where}: tokenize(${JSON.stringify(s)})`,
  );
}

describe('regular expressions compiled ASCII first', () => {
  for (const [k, [pattern, flags]] of PATTERNS.entries()) {
    test(`${JSON.stringify(pattern)} ${flags ? `flags ${flags}` : ''}: as the whole pattern on ASCII strings`, () => {
      const fast = compileXsdRegex(pattern, flags);
      const whole = compileXsdRegexWhole(pattern, flags);
      assert.equal(fast.groupCount, whole.groupCount);
      assert.equal(fast.engine, whole.engine);
      for (const s of strings(pattern, 1000 + k, false)) agree(fast, whole, s, pattern);
    });
    test(`${JSON.stringify(pattern)} ${flags ? `flags ${flags}` : ''}: and beyond ASCII, interleaved`, () => {
      // A fresh compile (another flag order is another cache entry), so that its first strings are ASCII.
      const fast = compileXsdRegex(pattern, [...flags].reverse().join('') + (flags.includes('s') ? '' : 's'));
      const whole = compileXsdRegexWhole(
        pattern,
        [...flags].reverse().join('') + (flags.includes('s') ? '' : 's'),
      );
      for (const s of strings(pattern, 2000 + k, true)) agree(fast, whole, s, `${pattern} (flags s)`);
    });
  }

  test('the ASCII form is taken: a pattern whose only class lies beyond ASCII matches no ASCII string, and the whole pattern still comes', () => {
    const re = compileXsdRegex('\\p{IsCyrillic}');
    assert.equal(re.test('abc'), false);
    assert.equal(re.test('ж'), true);
    assert.equal(re.test('abc'), false);
  });

  test('a pattern RE2 refuses is refused as before (repetition above 1000), whatever the string', () => {
    for (const s of ['abc', 'é']) {
      assert.deepEqual(
        outcome(() => compileXsdRegex('\\p{L}{1001}').test(s)),
        outcome(() => compileXsdRegexWhole('\\p{L}{1001}').test(s)),
      );
    }
  });
});
