// Broken EFX gives an EfxSyntaxError that points at the right place: the 1-based line and column are
// counted here by hand from the test text, and the code says what kind of mistake it is. A fuzz run
// then checks that mangled templates never crash the parser or the translator with anything else.

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: EFX text is written with ${…} blocks.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  EfxSyntaxError,
  EfxTranslationError,
  EfxTranslator,
  parseEfxExpression,
  parseEfxSingleExpression,
  parseEfxTemplate,
} from '../../core/efx';
import { fuzzParameters } from '../support/fuzz';
import { skipUnless } from '../support/shared-data';
import { releasesWithTemplates, SDK_ROOT, symbolsOf } from './efx-support';

function syntaxError(run: () => unknown): EfxSyntaxError {
  try {
    run();
  } catch (e) {
    assert.ok(e instanceof EfxSyntaxError, `EfxSyntaxError expected, got ${String(e)}`);
    return e;
  }
  assert.fail('no error thrown');
}

/** The error of a template, with its position and code checked. */
function expectAt(text: string, line: number, column: number, code: string, reason?: RegExp): void {
  const e = syntaxError(() => parseEfxTemplate(text, 'broken.efx'));
  assert.deepEqual({ line: e.line, column: e.column, code: e.code }, { line, column, code }, e.message);
  assert.equal(e.file, 'broken.efx');
  assert.match(e.message, /^broken\.efx:\d+:\d+: /);
  if (reason) assert.match(e.reason, reason);
}

describe('EfxSyntaxError positions in templates', () => {
  test('an expression block not closed before the end of the line', () => {
    // `{ND-Root} ${BT-21-Procedure` is 27 characters: the end of the line is column 28.
    expectAt('{ND-Root} ${BT-21-Procedure\n{ND-Root} x\n', 1, 28, 'unterminated', /not closed/);
  });
  test('a character no token accepts', () => {
    expectAt('// comment\n\n{ND-Root} ${BT-21-Procedure ? 2}\n', 3, 29, 'unexpected-character', /'\?'/);
  });
  test('a function of EFX 2, not EFX 1', () => {
    expectAt("{ND-Root} ok\n\t{ND-Root} ${upper-case('a')}\n", 2, 14, 'unknown-function', /upper-case/);
  });
  test('tabs and spaces mixed in one indentation', () => {
    expectAt('{ND-Root} a\n\t {ND-Root} b\n', 2, 1, 'indentation', /mixed/);
  });
  test('a level skipped', () => {
    expectAt('{ND-Root} a\n\t\t{ND-Root} b\n', 2, 1, 'indentation', /one level at a time/);
  });
  test('the first line indented', () => {
    expectAt('  // comment\n  {ND-Root} a\n', 2, 1, 'indentation', /first line/);
  });
  test('spaces that are not a multiple of the first indentation', () => {
    expectAt('{ND-Root} a\n    {ND-Root} b\n      {ND-Root} c\n', 3, 1, 'indentation', /multiple of 4/);
  });
  test('tabs after spaces in another line', () => {
    expectAt('{ND-Root} a\n  {ND-Root} b\n\t{ND-Root} c\n', 3, 1, 'indentation', /spaces/);
  });
  test('a line without its context declaration', () => {
    expectAt('{ND-Root} a\nND-Root} b\n', 2, 1, 'unexpected-token', /'\{'/);
  });
  test('an unknown asset type in a label', () => {
    expectAt('{ND-Root} #{foo|name|BT-21-Procedure}\n', 1, 13, 'unexpected-token', /asset type 'foo'/);
  });
  test('a label block not closed', () => {
    // `{ND-Root} #{field|name|BT-21-Procedure` is 38 characters long.
    expectAt('{ND-Root} #{field|name|BT-21-Procedure\n', 1, 39, 'unterminated');
  });
  test('a string not closed in a predicate', () => {
    expectAt("{BT-21-Procedure[BT-21-Procedure == 'a]} x\n", 1, 37, 'unterminated', /string/);
  });
  test('a node used as a value', () => {
    expectAt('{ND-Root} ${ND-Lot}\n', 1, 13, 'unexpected-token', /only be a context/);
  });
  test('a business term where a field is expected', () => {
    expectAt('{ND-Root} ${BT-21}\n', 1, 13, 'unexpected-token', /business term/);
  });
  test('a function with the wrong number of arguments', () => {
    expectAt("{ND-Root} ${substring('abc')}\n", 1, 13, 'unexpected-token', /2 to 3 arguments/);
  });
  test('a lone $ in the text', () => {
    expectAt('{ND-Root} costs 5$\n', 1, 18, 'unexpected-character');
  });
  test('lines are counted across CRLF, CR and blank lines', () => {
    expectAt('{ND-Root} a\r\n\r\n{ND-Root} b\r{ND-Root} ${1 +}\r\n', 4, 16, 'unexpected-token');
  });
  test('two contexts in one declaration', () => {
    expectAt('{ND-Root::BT-21-Procedure} x\n', 1, 9, 'unexpected-token', /'::'/);
  });
});

describe('EfxSyntaxError positions in expressions', () => {
  test('a comparison without its right side', () => {
    const e = syntaxError(() => parseEfxExpression('BT-21-Procedure =='));
    assert.deepEqual([e.line, e.column, e.code], [1, 19, 'unexpected-token']);
  });
  test('a missing then, on the second line', () => {
    const e = syntaxError(() => parseEfxExpression("if BT-21-Procedure is present\n  'a' else 'b'"));
    assert.deepEqual([e.line, e.column], [2, 3]);
    assert.match(e.reason, /'then' expected/);
  });
  test('is present on something that is not a field', () => {
    const e = syntaxError(() => parseEfxExpression("'a' is present"));
    assert.deepEqual([e.line, e.column], [1, 1]);
  });
  test('a single expression without its block', () => {
    const e = syntaxError(() => parseEfxSingleExpression('{ND-Root, text:$p} $p'));
    assert.deepEqual([e.line, e.column], [1, 20]);
  });
});

describe('hostile sizes are refused, not crashed on', () => {
  test('parentheses nested ten thousand deep', () => {
    const e = syntaxError(() => parseEfxExpression(`${'('.repeat(10000)}1${')'.repeat(10000)}`));
    assert.equal(e.code, 'too-deep');
  });
  test('an operator chain of fifty thousand terms', () => {
    const e = syntaxError(() => parseEfxTemplate(`{ND-Root} \${${Array(50000).fill('1').join(' + ')}}\n`));
    assert.equal(e.code, 'too-deep');
    assert.equal(e.line, 1);
  });
  test('a chain just under the bound still translates', () => {
    const symbols = { field: () => undefined, node: () => undefined };
    const out = new EfxTranslator({ symbols }).expression(Array(900).fill('1').join(' + '));
    assert.equal(out.xpath, Array(900).fill('1').join(' + '));
  });
  test('a line of a million spaces before a comment', () => {
    const t = parseEfxTemplate(`{ND-Root} a${' '.repeat(1_000_000)}// c\n`);
    assert.deepEqual(
      t.lines[0].template.map((p) => p.kind === 'text' && p.text),
      ['a'],
    );
  });
});

describe('mangled templates never crash', { skip: skipUnless(SDK_ROOT) }, () => {
  test('any edit of SDK template lines is parsed or refused with EfxSyntaxError', () => {
    const release = releasesWithTemplates()[0];
    if (!release) return;
    const text = readFileSync(join(release, 'view-templates', '16.efx'), 'utf8');
    const lines = text.split('\n').filter((l) => l.trim() && !l.trim().startsWith('//'));
    const translator = new EfxTranslator({ symbols: symbolsOf(release) });
    const special = fc.constantFrom(
      ...'{}[]()$#|\'":/\\ \t\n-=!<>,@*%+'.split(''),
      'value',
      'ND-',
      'BT-21-',
      '::',
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: lines.length - 4 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(3), special), { minLength: 1, maxLength: 4 }),
        (start, edits) => {
          let s = lines
            .slice(start, start + 4)
            .join('\n')
            .replace(/^\t+/gm, (t) => t.slice(0, 1));
          s = s.replace(/^\t/, '');
          for (const [pos, del, ins] of edits) {
            const at = pos % (s.length + 1);
            s = s.slice(0, at) + ins + s.slice(at + del);
          }
          try {
            const parsed = parseEfxTemplate(s, 'fuzz.efx');
            const out = translator.template(parsed, s);
            for (const e of out.errors) assert.ok(e.line >= 1 && e.column >= 1);
          } catch (e) {
            if (e instanceof EfxTranslationError) return;
            assert.ok(e instanceof EfxSyntaxError, String(e));
            assert.ok(e.line >= 1 && e.column >= 1 && e.offset >= 0 && e.offset <= s.length, e.message);
          }
        },
      ),
      fuzzParameters(400),
    );
  });
});
