// Issue 21, item 6: the sandbox with an SDK logs what a caller sent only cut and escaped, and keeps
// bounded state. Notices whose SubTypeCode is 100 KB long (each one different, and starting with a
// terminal escape) ask for phases no release has: the log must hold no control character, no line
// longer than a sentence, and not grow with the codes' size.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { sandboxSdkRules } from '../../sandbox/sdk-rules';
import { slowSdkNotice, writeSlowSdk } from '../support/slow-sdk';

const work = mkdtempSync(join(tmpdir(), 'eforms-hostile-log-'));
const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of closers) await c();
  rmSync(work, { recursive: true, force: true });
});

test('hostile SubTypeCodes are logged cut and escaped, and the log does not grow with them', {
  timeout: 120_000,
}, async () => {
  const log: string[] = [];
  const sdk = sandboxSdkRules(
    { path: writeSlowSdk(join(work, 'sdk')), cacheRoot: join(work, 'cache') },
    undefined,
    (l) => log.push(l),
  );
  assert.ok(sdk);
  closers.push(() => sdk.close());
  const requests = 60;
  for (let i = 0; i < requests; i++) {
    const code = `\u001b]0;pwned\u0007${'9'.repeat(100_000)}${i}`;
    const notice = Buffer.from(
      slowSdkNotice('1').replace('>1</cbc:SubTypeCode>', `>${code}</cbc:SubTypeCode>`),
    );
    const svrl: string | undefined = await sdk.rules(notice, { language: 'en', mode: 'static' });
    assert.equal(svrl, undefined, "no such phase: the sandbox's own rules answer");
  }
  assert.ok(log.length >= 1, 'the fallback is said');
  const total = log.join('\n').length;
  assert.ok(total < 2_000, `the log stays small: ${total} characters for ${requests} requests of 100 KB`);
  for (const line of log) {
    assert.ok(line.length <= 500, `a line of ${line.length} characters`);
    assert.ok(
      ![...line].some((c) => c.charCodeAt(0) < 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f)),
      `a control character in ${JSON.stringify(line.slice(0, 120))}`,
    );
  }
});
