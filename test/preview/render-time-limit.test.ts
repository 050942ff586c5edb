// A template line that would take too long on a large notice is left out, and nothing else changes.
// The SDK's award template (29.efx) joins every tender with every contract and result: on a generated
// award notice its "Winner of these Lots" line (873) iterates thousands of times where the other lines
// iterate a few. Rendered with a clock that counts its own readings, so that a line's time is the
// number of iterations of its loops (the runtime reads the clock every 64), the render comes back,
// names the lines it left out, and every other line is the line a render without a limit gives, with
// its value, number and children. No time is asserted: the outcome depends on how many iterations a
// line makes, not on how fast the machine is.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { indexXml } from '../../core/notice/xml-index';
import { loadPreviewSdk, type PreviewSdk, type RenderedLine, renderNotice } from '../../core/preview';
import { awardNotice } from '../bench/rules-scaling-bench';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDK_DIR) ?? skipUnless(join(SAMPLES_DIR, 'notices'));

/** Every line with the template lines of its ancestors, in document order. */
function flatten(lines: RenderedLine[], above: number[] = []): { line: RenderedLine; above: number[] }[] {
  const out: { line: RenderedLine; above: number[] }[] = [];
  for (const l of lines) {
    out.push({ line: l, above });
    out.push(...flatten(l.children, [...above, l.templateLine]));
  }
  return out;
}

const shown = (l: RenderedLine) => ({
  templateLine: l.templateLine,
  number: l.number,
  label: l.label,
  value: l.value,
  flagged: l.flagged,
  range: l.range,
});

describe('a template line past its time is left out', { skip }, () => {
  let sdk: PreviewSdk;
  let notice: string;
  before(async () => {
    sdk = await loadPreviewSdk(SDK_DIR);
    notice = awardNotice(readFileSync(join(SAMPLES_DIR, 'notices', 'can_24_minimal.xml'), 'utf8'), 60);
  });

  test('the render names the lines it left out, and renders the others as without a limit', () => {
    const index = indexXml(notice);
    const full = renderNotice(index, sdk, { language: 'en', lineTimeLimitMs: Number.POSITIVE_INFINITY });
    // A clock that moves one millisecond each time it is read: a line's time is the number of looks
    // at the clock its evaluation makes, one every 64 iterations of its loops.
    let ticks = 0;
    const clock = () => ticks++;
    const limited = renderNotice(index, sdk, { language: 'en', lineTimeLimitMs: 5000, clock });
    const leftOut = limited.problems.filter((p) => p.message.includes('was left out'));
    const lines = new Set(leftOut.map((p) => p.templateLine as number));
    // 5,000 readings are about 320,000 iterations: the join of tenders, contracts and results makes more.
    assert.ok(lines.has(873), `the join of tenders, contracts and results is left out: ${[...lines]}`);
    assert.equal(leftOut.length, lines.size, 'each line is named once');
    for (const p of leftOut)
      assert.match(
        p.message,
        /^template line \d+ was left out: on a notice this large it takes longer than /,
      );
    assert.ok(
      full.problems.every((p) => !p.message.includes('was left out')),
      'without a limit nothing is left out',
    );
    const kept = flatten(full.lines).filter(
      ({ line, above }) => !lines.has(line.templateLine) && above.every((a) => !lines.has(a)),
    );
    assert.ok(kept.length > 100, `most of the notice is still rendered (${kept.length} lines)`);
    assert.ok(kept.length < flatten(full.lines).length, 'something was left out');
    assert.deepEqual(
      flatten(limited.lines).map(({ line }) => shown(line)),
      kept.map(({ line }) => shown(line)),
    );
  });

  test('the default limit leaves nothing out of an ordinary notice', () => {
    const text = readFileSync(join(SAMPLES_DIR, 'notices', 'can_24_minimal.xml'), 'utf8');
    const r = renderNotice(indexXml(text), sdk, { language: 'en' });
    assert.ok(r.lines.length > 0);
    assert.deepEqual(
      r.problems.filter((p) => p.message.includes('was left out')),
      [],
    );
  });
});
