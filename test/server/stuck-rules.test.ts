// Issue 21, item 1 (language server): a notice whose SDK rules never finish (test/support/slow-sdk.ts:
// one expression over 10^10 pairs, which polls no cancellation flag) must not hold the SDK diagnostics
// of the other notices, and closing it must free its worker. Only the order of events is checked:
// while A is stuck, C gets its diagnostics; after A is closed, a second stuck notice B and another
// fast notice D both start, which needs A's worker back (one worker and one spare).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { docUri, LspSession, type Published } from '../support/lsp-session';
import { slowSdkNotice, writeSlowSdk } from '../support/slow-sdk';

const work = mkdtempSync(join(tmpdir(), 'eforms-stuck-lsp-'));
const codes = (p: Published) => p.diagnostics.map((d) => String(d.code));

describe('language server: a stuck run of the SDK rules', () => {
  let s: LspSession;
  before(async () => {
    s = await LspSession.start({
      settings: {
        validation: { engine: 'local', debounceMs: 10, timeBudgetMs: 600_000 },
        sdk: { path: writeSlowSdk(join(work, 'sdk')) },
      },
      sdkCacheRoot: join(work, 'cache', 'sdk'),
    });
  });
  after(async () => {
    await s?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  test('holds no other notice, and closing it frees its worker', { timeout: 120_000 }, async () => {
    const a = docUri('stuck-a.xml');
    const c = docUri('fast-c.xml');
    await s.open(a, slowSdkNotice('1', 'a'));
    await s.nextLocalStatus(0, 'the rules of A started', (x) => x.uri === a && x.state === 'validating');
    const pc = await s.openAndPublish(c, slowSdkNotice('2', 'c'), 'the SDK diagnostics of C', (p) =>
      codes(p).includes('FAST-1'),
    );
    assert.ok(pc);
    assert.ok(
      !s.published.some((p) => p.uri === a && codes(p).includes('SLOW-1')),
      'A is still running when C is answered',
    );
    await s.closeDocument(a);
    const b = docUri('stuck-b.xml');
    const d = docUri('fast-d.xml');
    const mark2 = s.mark;
    await s.open(b, slowSdkNotice('1', 'b'));
    await s.nextLocalStatus(mark2, 'the rules of B started', (x) => x.uri === b && x.state === 'validating');
    await s.open(d, slowSdkNotice('2', 'd'));
    await s.nextPublish(d, mark2, 'the SDK diagnostics of D', (p) => codes(p).includes('FAST-1'));
    await s.closeDocument(b);
  });
});
