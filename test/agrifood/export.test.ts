// Exports of agri-food data: the CSV formula guard against cells a hostile answer shapes as formulas
// (OWASP CSV injection), and the terminal table on a full cereal answer (187,000 records overflowed the
// stack when widths were found by spreading the rows into Math.max).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { csvCell, toTextTable } from '../../core/agrifood/export';

describe('csvCell: formula guard', () => {
  test('formulas that start with a sign and a digit are defused', () => {
    for (const formula of [
      "-2+3+cmd|' /C calc'!A0",
      '+1-HYPERLINK("http://evil.example","x")',
      '-1+1',
      '+1)*cmd|"/C calc"!A0',
      '=1+1',
      '@SUM(A1)',
    ]) {
      const cell = csvCell(formula);
      assert.ok(/^"?'/.test(cell), `${formula} -> ${cell}`);
    }
  });

  test('signed plain numbers and percentages stay numbers', () => {
    for (const n of ['-2', '+3', '-1.5', '+1,234.50', '-1.2e5', '+3.0 %', '-12%']) {
      assert.equal(csvCell(n).replace(/^"|"$/g, ''), n, n);
    }
    assert.equal(csvCell(-2), '-2');
  });
});

describe('toTextTable', () => {
  test('187,000 rows: no stack overflow, widths from the widest cell, capped at 60', () => {
    const rows = Array.from({ length: 187_000 }, (_, k) => [`row ${k}`, k % 7 === 0 ? 'x'.repeat(100) : 'y']);
    const lines = toTextTable(['Name', 'Value'], rows).split('\n');
    assert.equal(lines.length, 187_001);
    // 'row 186999' is the widest first cell: 10 units, then two spaces.
    assert.equal(lines[1], `row 0       ${'x'.repeat(59)}…`);
    assert.equal(lines[2], 'row 1       y');
  });

  test('every cell goes through the terminal sanitiser', () => {
    const out = toTextTable(['h\u001b[2J'], [['\u009b31mred\u202e'], [null]]);
    assert.equal(out, 'h\\u001b[2J\n\\u009b31mred\\u202e\n', 'the empty cell makes an empty line');
  });
});
