// runSafeAsync with a cancellation token, as VS Code's json-language-features runs its handlers: a
// request cancelled before its work never starts it, one cancelled during its work is answered
// "request cancelled" (LSP's RequestCancelled, -32800 in the specification) instead of the stale
// result, and a failure gives the fallback and one log line.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CancellationTokenSource, ResponseError } from 'vscode-languageserver';
import { runSafeAsync } from '../../server/run-safe';

const REQUEST_CANCELLED = -32800;

test('cancelled before: the work never runs', async () => {
  const cts = new CancellationTokenSource();
  cts.cancel();
  let ran = false;
  const r = await runSafeAsync(
    () => undefined,
    'x',
    'fallback',
    async () => {
      ran = true;
      return 'result';
    },
    cts.token,
  );
  assert.ok(r instanceof ResponseError && r.code === REQUEST_CANCELLED);
  assert.equal(ran, false);
});

test('cancelled during the work: the stale result is not answered', async () => {
  const cts = new CancellationTokenSource();
  const r = await runSafeAsync(
    () => undefined,
    'x',
    'fallback',
    async (token) => {
      assert.equal(token?.isCancellationRequested, false);
      cts.cancel();
      return 'stale';
    },
    cts.token,
  );
  assert.ok(r instanceof ResponseError && r.code === REQUEST_CANCELLED);
});

test('not cancelled: the result; a failure: the fallback and one log line', async () => {
  const cts = new CancellationTokenSource();
  assert.equal(
    await runSafeAsync(
      () => undefined,
      'x',
      'fallback',
      async () => 'result',
      cts.token,
    ),
    'result',
  );
  const logs: string[] = [];
  const r = await runSafeAsync(
    (m) => logs.push(m),
    'hover',
    'fallback',
    async () => {
      throw new Error('boom');
    },
    cts.token,
  );
  assert.equal(r, 'fallback');
  assert.equal(logs.length, 1);
  assert.match(logs[0] ?? '', /hover failed .*boom/s);
});
