// Issue 21, item 1: with an SDK, the sandbox runs the official rules off its HTTP thread. A generated
// SDK whose rules never finish (test/support/slow-sdk.ts) holds one CVS validation; meanwhile the
// sandbox answers its health, the CVS version range, eNotices2 and agri-food, and another CVS
// validation (of a fast phase). The order of events is checked, never a time: the rules started, the
// other answers came, and only then did the held validation end. With a budget, the held validation
// is answered with one error that names the notice and the budget.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { sandboxSdkRules } from '../../sandbox/sdk-rules';
import { type RunningSandbox, startSandbox } from '../../sandbox/server';
import { slowSdkNotice, writeSlowSdk } from '../support/slow-sdk';

const KEY = 'slow-rules-key';
const GUARD = { timeout: 90_000 };
const work = mkdtempSync(join(tmpdir(), 'eforms-slow-sandbox-'));
const sdkDir = writeSlowSdk(join(work, 'sdk'));
const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of closers) await c();
  rmSync(work, { recursive: true, force: true });
});

function validation(origin: string, notice: string): Promise<Response> {
  return fetch(`${origin}/cvs/v1/notices/validation`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY },
    body: JSON.stringify({ notice: Buffer.from(notice).toString('base64'), validationMode: 'static' }),
  });
}

async function start(budgetMs: number, events: string[], name: string): Promise<RunningSandbox> {
  const sdk = sandboxSdkRules(
    { path: sdkDir, cacheRoot: join(work, `cache-${name}`) },
    undefined,
    (l) => events.push(`log: ${l}`),
    budgetMs,
    (e) => events.push(`rules ${e}`),
  );
  assert.ok(sdk, 'the generated release is found');
  const sb = await startSandbox({
    port: 0,
    apiKeys: [KEY],
    dataDir: join(work, `data-${name}`),
    sdkRules: sdk.rules,
    log: (m) => events.push(`log: ${m}`),
  });
  closers.push(async () => {
    await sb.close();
    await sdk.close();
  });
  return sb;
}

/** Resolves once `events` holds `what` (checked whenever the event loop turns). */
async function until(events: string[], what: string): Promise<void> {
  while (!events.includes(what)) await new Promise((r) => setImmediate(r));
}

describe('the sandbox while the SDK rules run long', () => {
  test('answers its other services while a validation is held', GUARD, async () => {
    const events: string[] = [];
    const sb = await start(600_000, events, 'held');
    const held = validation(sb.origin, slowSdkNotice('1', 'held-notice')).then(
      (r) => events.push(`held answered ${r.status}`),
      // Closing the sandbox below ends the held request.
      () => events.push('held closed'),
    );
    await until(events, 'rules start');
    const answers = await Promise.all([
      fetch(`${sb.origin}/_sandbox/health`).then((r) => `health ${r.status}`),
      fetch(`${sb.origin}/cvs/v1/version-range`).then((r) => `version-range ${r.status}`),
      fetch(`${sb.origin}/esenders/api/v2/notice/notices/search`).then((r) => `esenders ${r.status > 0}`),
      fetch(`${sb.origin}/agrifood/api/nothing-here`).then((r) => `agrifood ${r.status > 0}`),
      validation(sb.origin, slowSdkNotice('2', 'fast-notice')).then(async (r) => {
        const body = await r.text();
        return `fast ${r.status} ${body.includes('FAST-1')}`;
      }),
    ]);
    for (const a of answers) events.push(a);
    assert.deepEqual(answers, [
      'health 200',
      'version-range 200',
      'esenders true',
      'agrifood true',
      'fast 200 true',
    ]);
    assert.ok(
      !events.some((e) => e.startsWith('held answered')),
      `the held validation is still running: ${events.join(' | ')}`,
    );
    assert.equal(events[0], 'rules start', 'the held rules were running before the other answers');
    await closers.pop()?.();
    await held;
  });

  test(
    'past its budget, the held validation is answered with an error naming the notice and the budget',
    GUARD,
    async () => {
      const events: string[] = [];
      const sb = await start(1000, events, 'budget');
      const r = await validation(sb.origin, slowSdkNotice('1', 'budget-notice'));
      assert.equal(r.status, 500);
      const body = (await r.json()) as { message: string };
      assert.match(body.message, /time budget of 1 s/);
      assert.match(body.message, /notice budget-notice/);
      assert.deepEqual(
        events.filter((e) => e.startsWith('rules')),
        ['rules start', 'rules end'],
      );
    },
  );
});
