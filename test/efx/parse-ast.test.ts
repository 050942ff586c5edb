// The shape of the syntax tree, written out by hand from Efx.g4 for small inputs: operator precedence,
// references with their context overrides, literals, and each template fragment and label form.

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: EFX text is written with ${…} blocks.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseEfxExpression, parseEfxSingleExpression, parseEfxTemplate } from '../../core/efx';

/** The tree without source offsets, which the expectations below do not spell out. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shape);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (k !== 'at' && k !== 'children') out[k] = shape(x);
    return out;
  }
  return v;
}
const ast = (efx: string): unknown => shape(parseEfxExpression(efx));
const f = (id: string, extra: Record<string, unknown> = {}) => ({
  kind: 'field',
  id,
  absolute: false,
  contexts: [],
  ...extra,
});
const num = (text: string) => ({ kind: 'number', text });
const str = (value: string) => ({ kind: 'string', quote: "'", value });

describe('expressions', () => {
  test('and binds tighter than or; * than +; arithmetic than comparison', () => {
    assert.deepEqual(ast('1 == 1 or 2 == 2 and 3 == 3'), {
      kind: 'logical',
      op: 'or',
      left: { kind: 'comparison', op: '==', left: num('1'), right: num('1') },
      right: {
        kind: 'logical',
        op: 'and',
        left: { kind: 'comparison', op: '==', left: num('2'), right: num('2') },
        right: { kind: 'comparison', op: '==', left: num('3'), right: num('3') },
      },
    });
    assert.deepEqual(ast('1 + 2 * 3 > 4'), {
      kind: 'comparison',
      op: '>',
      left: {
        kind: 'arithmetic',
        op: '+',
        left: num('1'),
        right: { kind: 'arithmetic', op: '*', left: num('2'), right: num('3') },
      },
      right: num('4'),
    });
  });
  test('conditions', () => {
    assert.deepEqual(ast("BT-1-x not in ('a')"), {
      kind: 'in',
      not: true,
      value: f('BT-1-x'),
      list: { kind: 'paren', expr: str('a') },
    });
    assert.deepEqual(ast('BT-1-x is not present'), { kind: 'present', not: true, ref: f('BT-1-x') });
    assert.deepEqual(ast('BT-1-x is empty'), { kind: 'empty', not: false, value: f('BT-1-x') });
    assert.deepEqual(ast("BT-1-x not like '[a-z]+'"), {
      kind: 'like',
      not: true,
      value: f('BT-1-x'),
      pattern: str('[a-z]+'),
    });
    assert.deepEqual(ast('BT-1-x is unique in /BT-1-x'), {
      kind: 'unique',
      not: false,
      ref: f('BT-1-x'),
      within: f('BT-1-x', { absolute: true }),
    });
  });
  test('field identifiers with a qualifier', () => {
    assert.deepEqual(ast('BT-26(m)-Procedure'), f('BT-26(m)-Procedure'));
    assert.deepEqual(ast('BT-195(BT-106)-Procedure'), f('BT-195(BT-106)-Procedure'));
    assert.deepEqual(ast('OPT-300-Procedure-Buyer'), f('OPT-300-Procedure-Buyer'));
  });
  test('references: predicate, attribute, overrides, axis, other notice', () => {
    assert.deepEqual(ast("BT-1-x[BT-2-x == 'a']/@listName"), {
      kind: 'attribute',
      field: f('BT-1-x', { predicate: { kind: 'comparison', op: '==', left: f('BT-2-x'), right: str('a') } }),
      name: 'listName',
    });
    assert.deepEqual(ast('$v::ND-Lot[BT-1-x is present]::BT-3-x::preceding::BT-2-x'), {
      ...f('BT-2-x', { axis: 'preceding' }),
      contexts: [
        { kind: 'variable', name: 'v' },
        {
          kind: 'node',
          ref: {
            kind: 'node',
            id: 'ND-Lot',
            absolute: false,
            predicate: { kind: 'present', not: false, ref: f('BT-1-x') },
          },
        },
        { kind: 'field', ref: f('BT-3-x') },
      ],
    });
    assert.deepEqual(ast("notice('abc')/BT-1-x"), f('BT-1-x', { notice: str('abc') }));
    assert.deepEqual(ast('/ND-Root :: BT-1-x'), {
      ...f('BT-1-x'),
      contexts: [{ kind: 'node', ref: { kind: 'node', id: 'ND-Root', absolute: true } }],
    });
  });
  test('literals', () => {
    assert.deepEqual(ast('(2020-01-01Z, 12:30:00+02:00, P3W, -P2M, TRUE, NEVER, 3.5, "d")'), {
      kind: 'list',
      items: [
        { kind: 'date', text: '2020-01-01Z' },
        { kind: 'time', text: '12:30:00+02:00' },
        { kind: 'duration', text: 'P3W', family: 'dayTime' },
        { kind: 'duration', text: '-P2M', family: 'yearMonth' },
        { kind: 'boolean', value: true },
        { kind: 'boolean', value: false },
        num('3.5'),
        { kind: 'string', quote: '"', value: 'd' },
      ],
    });
    assert.deepEqual(ast('{5f0c5ad8-6b2e-4d8e-9b5c-0123456789ab}'), {
      kind: 'string',
      quote: '{',
      value: '5f0c5ad8-6b2e-4d8e-9b5c-0123456789ab',
    });
    assert.deepEqual(ast('(accessibility)'), { kind: 'codelist', id: 'accessibility' });
  });
  test('if, for, some, casts, functions', () => {
    assert.deepEqual(ast("if TRUE then 'a' else if FALSE then 'b' else 'c'"), {
      kind: 'if',
      condition: { kind: 'boolean', value: true },
      whenTrue: str('a'),
      whenFalse: {
        kind: 'if',
        condition: { kind: 'boolean', value: false },
        whenTrue: str('b'),
        whenFalse: str('c'),
      },
    });
    assert.deepEqual(ast('for text:$a in BT-1-x, context:$n in ND-Lot return concat($a, number:BT-2-x)'), {
      kind: 'for',
      iterators: [
        { type: 'text', variable: 'a', source: f('BT-1-x') },
        { type: 'context', variable: 'n', source: { kind: 'node', id: 'ND-Lot', absolute: false } },
      ],
      result: {
        kind: 'call',
        name: 'concat',
        args: [
          { kind: 'variable', name: 'a' },
          { kind: 'cast', type: 'number', expr: f('BT-2-x') },
        ],
      },
    });
    assert.deepEqual(ast('some number:$x in (1, 2) satisfies $x > 1'), {
      kind: 'quantified',
      quantifier: 'some',
      iterators: [{ type: 'number', variable: 'x', source: { kind: 'list', items: [num('1'), num('2')] } }],
      condition: { kind: 'comparison', op: '>', left: { kind: 'variable', name: 'x' }, right: num('1') },
    });
  });
  test('a single expression with parameters', () => {
    assert.deepEqual(shape(parseEfxSingleExpression('{BT-1-x, text:$p, date:$d} ${$p}')), {
      kind: 'single-expression',
      context: { kind: 'field', id: 'BT-1-x' },
      parameters: [
        { type: 'text', name: 'p' },
        { type: 'date', name: 'd' },
      ],
      expression: { kind: 'variable', name: 'p' },
    });
  });
});

describe('templates', () => {
  const T = [
    '// header',
    '12 {ND-Root} #{auxiliary|text|buyer} see http://x.eu/a  #{name} // trailing comment',
    "  {BT-1-x [BT-1-x != 'a']} #value: $value, #{BT-1-x} #{name|BT-1} #{description|BT-1-x}",
    "  {ND-Lot} #{code|name|${concat('a.', BT-1-x)}}${BT-2-x}  ",
    '',
    '    {ND-Lot}',
  ].join('\r\n');
  const file = parseEfxTemplate(T, 't.efx');
  test('lines, levels and outline numbers', () => {
    assert.deepEqual(
      file.lines.map((l) => [l.line, l.level, l.outlineNumber, l.indent.kind, l.context.id]),
      [
        [2, 0, 12, 'none', 'ND-Root'],
        [3, 1, undefined, 'spaces', 'BT-1-x'],
        [4, 1, undefined, 'spaces', 'ND-Lot'],
        [6, 2, undefined, 'spaces', 'ND-Lot'],
      ],
    );
    assert.equal(file.roots.length, 1);
    assert.deepEqual(
      file.roots[0].children.map((c) => c.line),
      [3, 4],
    );
    assert.deepEqual(
      file.lines[2].children.map((c) => c.line),
      [6],
    );
  });
  test('fragments: text keeps inner spaces and // inside words, loses the comment and outer spaces', () => {
    assert.deepEqual(shape(file.lines[0].template), [
      {
        kind: 'label',
        label: {
          form: 'standard',
          assetType: { kind: 'text', text: 'auxiliary' },
          labelType: { kind: 'text', text: 'text' },
          assetId: { kind: 'text', text: 'buyer' },
        },
      },
      { kind: 'text', text: ' see http://x.eu/a  ' },
      { kind: 'label', label: { form: 'context', labelType: 'name' } },
    ]);
    assert.deepEqual(shape(file.lines[1].template), [
      { kind: 'label', label: { form: 'context-value' } },
      { kind: 'text', text: ': ' },
      { kind: 'context-value' },
      { kind: 'text', text: ', ' },
      { kind: 'label', label: { form: 'field-value', fieldId: 'BT-1-x' } },
      { kind: 'text', text: ' ' },
      { kind: 'label', label: { form: 'bt', labelType: { kind: 'text', text: 'name' }, btId: 'BT-1' } },
      { kind: 'text', text: ' ' },
      {
        kind: 'label',
        label: { form: 'field', labelType: { kind: 'text', text: 'description' }, fieldId: 'BT-1-x' },
      },
    ]);
    assert.deepEqual(shape(file.lines[2].template), [
      {
        kind: 'label',
        label: {
          form: 'standard',
          assetType: { kind: 'text', text: 'code' },
          labelType: { kind: 'text', text: 'name' },
          assetId: {
            kind: 'expression',
            expr: { kind: 'call', name: 'concat', args: [str('a.'), f('BT-1-x')] },
          },
        },
      },
      { kind: 'expression', expr: f('BT-2-x') },
    ]);
    assert.deepEqual(file.lines[3].template, []);
  });
  test('the context predicate is read as an expression', () => {
    const ctx = file.lines[1].context;
    assert.deepEqual(
      shape(ctx),
      f('BT-1-x', { predicate: { kind: 'comparison', op: '!=', left: f('BT-1-x'), right: str('a') } }),
    );
  });
});
