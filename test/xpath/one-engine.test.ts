// One XPath engine: no source file outside core/xpath/ reads XPath text by itself. The review found two
// and a half readers (the SVRL mapping's step parser, the SDK field paths' bracket loop, beside
// core/xpath's parser); this test fails when such a reader comes back. It scans every TypeScript file
// under core/, server/, client/ and cli/ (core/xpath/ excepted: it is the engine) for the tell-tale signs
// of XPath parsing below. sandbox/ is exempt on purpose: it is an independent oracle, and must not share
// the engine it checks. The signs are checked first on snippets of the readers the review removed, so
// that the scan is known to catch them.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';

const ROOT = join(__dirname, '..', '..', '..');
const SCANNED = ['core', 'server', 'client', 'cli'];
const ENGINE = join('core', 'xpath');

interface Sign {
  name: string;
  /** Why this sign means that the file parses XPath text. */
  why: string;
  found(code: string): boolean;
}

const SIGNS: Sign[] = [
  {
    name: 'an axis name before ::',
    why: "`child::`, `attribute::`, `following-sibling::` in code are only ever compared with XPath text: code that recognises an axis is reading a step's syntax.",
    found: (code) =>
      /\b(?:child|attribute|parent|self|descendant|ancestor|following-sibling|preceding-sibling)(?:-or-self)?::/.test(
        code,
      ),
  },
  {
    name: 'a step-position regex',
    why: 'A regex for `[digits]` (`\\[\\d+\\]`, `\\[(\\d+)\\]`) picks positional predicates out of a step: parsing a path by pattern.',
    found: (code) => /\\\[\(?\\d\+\)?\\\]/.test(code),
  },
  {
    name: 'a bracket-depth loop',
    why: "A character loop that compares with '[' and counts a depth finds where a predicate ends: the core of a hand-written step parser.",
    found: (code) =>
      /(?:===?|case)\s*(['"])\[\1/.test(code) &&
      /\bdepth\s*(?:\+\+|--|\+=|-=)|(?:\+\+|--)\s*depth\b/.test(code),
  },
  {
    name: 'bracket-aware path splitters',
    why: "splitTopLevel/splitOutsideBrackets (the removed core/xpath/text.ts) cut XPath text into steps and predicates: a path is being read outside the engine's parser.",
    found: (code) => /\b(?:splitTopLevel|splitOutsideBrackets)\s*\(/.test(code),
  },
];

/** The code of a TypeScript file without its comments (lines starting with //, * or /*): comments may name axes. */
function codeOf(source: string): string {
  return source
    .split('\n')
    .filter((line) => !/^\s*(?:\/\/|\/\*|\*)/.test(line))
    .map((line) => line.replace(/\s\/\/ .*$/, ''))
    .join('\n');
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...sourceFiles(path));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Snippets of the readers this test exists to keep out (core/svrl/mapping.ts, core/authoring/sdk-paths.ts before). */
const REMOVED_READERS: Record<string, string> = {
  'svrl mapping, axes': `if (s === '.' || s === 'self::node()') return self;\n  } else if (s.startsWith('attribute::')) {`,
  'svrl mapping, steps': `for (const raw of splitTopLevel(p, '/')) {\n  const step = parseStep(raw, namespaces);`,
  'sdk paths, bracket loop': [
    'for (let i = open; i < raw.length; i++) {',
    '  const c = raw[i];',
    "  if (c === '[') {",
    '    if (depth === 0) from = i + 1;',
    '    depth++;',
    "  } else if (c === ']') {",
    '    depth--;',
  ].join('\n'),
  'a positional regex': 'const m = /^(@?)([\\w.-]+)(?:\\[(\\d+)\\])?$/.exec(step);',
};

describe('one XPath engine', () => {
  for (const [what, snippet] of Object.entries(REMOVED_READERS)) {
    test(`the scan catches ${what}`, () => {
      const hits = SIGNS.filter((s) => s.found(codeOf(snippet))).map((s) => s.name);
      assert.ok(hits.length > 0, `no sign found in:\n${snippet}`);
    });
  }

  test('comments that name an axis are not code', () => {
    assert.equal(SIGNS[0].found(codeOf('// the following-sibling:: axis\nconst x = 1;')), false);
  });

  test('no source file outside core/xpath/ parses XPath text', () => {
    const offenders: string[] = [];
    let scanned = 0;
    for (const top of SCANNED) {
      for (const file of sourceFiles(join(ROOT, top))) {
        const rel = relative(ROOT, file);
        if (rel.startsWith(`${ENGINE}/`) || rel.startsWith(`${ENGINE}\\`)) continue;
        scanned++;
        const code = codeOf(readFileSync(file, 'utf8'));
        for (const sign of SIGNS) if (sign.found(code)) offenders.push(`${rel}: ${sign.name} (${sign.why})`);
      }
    }
    assert.ok(scanned > 50, `scanned ${scanned} files under ${ROOT}`);
    assert.deepEqual(offenders, [], 'XPath is read by core/xpath only: use parseXPath / LocationReader');
  });
});
