// The precomputed Unicode general categories (core/xpath/unicode-categories.ts) against the running
// engine's own `\p{…}` (V8's Unicode data, the independent truth): the same runs for every category,
// and every code point tested one by one on a sample. When Node's Unicode changes this fails: run
// `node scripts/unicode-categories.mjs` after `tsc -p .`.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GENERAL_CATEGORIES } from '../../core/xpath/unicode-categories';
import { decodeCategories, encodeCategories, scanGeneralCategories } from '../../core/xpath/xsd-regex';

const table = decodeCategories(GENERAL_CATEGORIES);

test('the table holds every two-letter category but Cs, as the engine scans them', () => {
  assert.deepEqual(
    [...table.keys()].sort(),
    'Lu Ll Lt Lm Lo Mn Mc Me Nd Nl No Pc Pd Ps Pe Pi Pf Po Zs Zl Zp Sm Sc Sk So Cc Cf Co Cn'
      .split(' ')
      .sort(),
  );
  assert.deepEqual(table, scanGeneralCategories());
  assert.equal(encodeCategories(table), GENERAL_CATEGORIES);
});

test("each code point of a sample is in the category JavaScript's \\p{…} gives it, and in no other", () => {
  const regexes = [...table.keys()].map((name) => [name, new RegExp(`^\\p{${name}}$`, 'u')] as const);
  const inSet = (set: readonly number[], cp: number) => {
    for (let k = 0; k < set.length; k += 2)
      if (cp >= (set[k] as number) && cp <= (set[k + 1] as number)) return true;
    return false;
  };
  // Every 97th code point, plus the edges of the planes and of the surrogates.
  const sample = new Set<number>([0, 0x7f, 0xd7ff, 0xe000, 0xffff, 0x10000, 0x10ffff]);
  for (let cp = 0; cp <= 0x10ffff; cp += 97) if (cp < 0xd800 || cp > 0xdfff) sample.add(cp);
  for (const cp of sample) {
    const ch = String.fromCodePoint(cp);
    const want = regexes.filter(([, re]) => re.test(ch)).map(([n]) => n);
    const got = [...table].filter(([, set]) => inSet(set, cp)).map(([n]) => n);
    assert.deepEqual(got, want, `U+${cp.toString(16)}`);
    assert.equal(got.length, 1, `U+${cp.toString(16)} is in exactly one category`);
  }
});
