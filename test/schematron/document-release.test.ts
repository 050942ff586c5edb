// A run lets its notice go: once evaluate() returns, nothing the compiled rules keep (context objects
// reused between calls, per-document caches, the memo of a window) holds a node of the notice, so the
// whole model (tens of megabytes for a large notice) is collected and is not there, beside the next
// notice's, at the next run's peak. Checked with a weak reference to the notice's index, which its
// model holds, on the SDK sample of 100 lots, in one stretch and window by window, and after a small
// notice that runs other closures than the large one.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { indexXml } from '../../core/notice';
import { loadRuleSetSync } from '../../core/schematron/engine';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

test('a run of the SDK rules leaves nothing that holds the notice it read', {
  skip: skipUnless(SDK_DIR) ?? skipUnless(SAMPLES_DIR),
}, async () => {
  // A garbage collection on demand, without starting node with --expose-gc.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const rules = loadRuleSetSync({
    sdkDir: SDK_DIR,
    sdkVersion: '1.15.1',
    phase: 'eforms-16',
    mode: 'static',
  });
  const large = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_maximal_100_lots.xml'), 'utf8');
  const small = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_minimal.xml'), 'utf8');
  const run = (text: string, chunkChars: number): WeakRef<object> => {
    const index = indexXml(text);
    const r = rules.evaluate(index, { today: '2024-01-01', chunkChars });
    assert.ok(r.assertsEvaluated > 100, `the rules ran (${r.assertsEvaluated} asserts)`);
    return new WeakRef(index);
  };
  // Whether the notice is collected within a few rounds: a weak reference keeps its target until the
  // job that read it ends, and V8's optimising compiler, running beside the main thread, may hold the
  // run's closures (and through them the notice) for a moment after the run. What a compiled rule kept
  // would hold it for good.
  const collected = async (ref: WeakRef<object>): Promise<boolean> => {
    for (let round = 0; round < 40; round++) {
      await new Promise((r) => setTimeout(r, 25));
      gc();
      await new Promise((r) => setImmediate(r));
      if (ref.deref() === undefined) return true;
    }
    return false;
  };
  for (const chunkChars of [Number.POSITIVE_INFINITY, Math.ceil(large.length / 8)]) {
    const held = run(large, chunkChars);
    assert.ok(await collected(held), `the notice is collected after its run (stretch ${chunkChars})`);
    const before = run(large, chunkChars);
    run(small, Number.POSITIVE_INFINITY);
    assert.ok(await collected(before), 'nor held after a run of another notice');
  }
});
