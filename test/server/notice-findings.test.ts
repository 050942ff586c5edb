// eforms/noticeFindings (the pre-submit check) over stdio: it runs every enabled engine on the current
// text, even when service validation is manual, and answers exactly the diagnostics the server
// published for that version, so the submit dialog's count is the editor's by construction. The
// engines are the real ones: the sandbox's CVS (its rules documented in invalid-cn.xml's header) and
// the SDK's rules from ../shared.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NoticeFindingsRequest, type NoticeFindingsResult } from '../../core/protocol';
import { docUri, LspSession } from '../support/lsp-session';
import {
  NOTICE_FIXTURES_DIR,
  type SandboxHarness,
  startHarness,
  TEST_API_KEY,
} from '../support/sandbox-harness';
import { SDK_DIR, skipUnless } from '../support/shared-data';

const fixture = (name: string) => readFileSync(join(NOTICE_FIXTURES_DIR, name), 'utf8');
/** The failures invalid-cn.xml's header says the sandbox's CVS reports. */
const cvsExpected = () => [...fixture('invalid-cn.xml').matchAll(/expect: ERROR (\S+)/g)].map((m) => m[1]);

describe('eforms/noticeFindings', { skip: skipUnless(SDK_DIR) }, () => {
  let work: string;
  let h: SandboxHarness;
  let s: LspSession;
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'lsp-findings-'));
    h = await startHarness();
    s = await LspSession.start({
      apiKey: TEST_API_KEY,
      settings: {
        environment: 'sandbox',
        sandboxUrl: h.origin,
        // Manual: the service never runs on its own, so only the request can bring its findings.
        validation: { engine: 'both', run: 'manual', debounceMs: 50, language: 'en', mode: 'static' },
        sdk: { path: SDK_DIR, allowDownload: false, repositoryUrl: 'http://127.0.0.1:9/maven2' },
      },
      sdkCacheRoot: join(work, 'sdk'),
    });
  });
  after(async () => {
    await s?.stop();
    await h?.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('runs both engines now and returns exactly what was published', async () => {
    const uri = docUri('invalid-cn.xml');
    // The SDK's rules follow the edit on their own; the service waits (manual).
    await s.openAndPublish(uri, fixture('invalid-cn.xml'), 'SDK diagnostics', (p) =>
      p.diagnostics.some((d) => d.source === 'eForms SDK 1.15.1'),
    );
    const before = s.published.filter((p) => p.uri === uri).at(-1);
    assert.ok(!before?.diagnostics.some((d) => d.source === 'eForms CVS'), 'no service findings yet');

    const r = (await s.connection.sendRequest(NoticeFindingsRequest.type, { uri })) as NoticeFindingsResult;
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.version, 1);
    assert.deepEqual(r.engines, [{ engine: 'local' }, { engine: 'cvs' }]);
    // The publication for that version that came last is the answer, diagnostic for diagnostic.
    const last = await s.waitFor('the publication of the answer', () =>
      s.published.filter((p) => p.uri === uri && p.version === r.version).at(-1),
    );
    assert.deepEqual(r.diagnostics, last.diagnostics);
    // Both engines are in it: the service's documented failures, and rules only the SDK has.
    const cvsIds = new Set(r.diagnostics.filter((d) => d.source === 'eForms CVS').map((d) => String(d.code)));
    for (const id of cvsExpected()) assert.ok(cvsIds.has(id), `${id} from the service`);
    assert.ok(
      r.diagnostics.some((d) => d.code === 'BR-BT-00503-0022'),
      'an SDK-only rule',
    );
    assert.ok(r.diagnostics.filter((d) => d.severity === 1).length > cvsExpected().length);
  });

  test('a document the server does not have: not ok, with a reason', async () => {
    const r = (await s.connection.sendRequest(NoticeFindingsRequest.type, {
      uri: docUri('never-opened.xml'),
    })) as NoticeFindingsResult;
    assert.equal(r.ok, false);
  });

  test('an engine that cannot run is named; the other still answers', async () => {
    const down = await LspSession.start({
      // No key: the service cannot be asked; the SDK's rules still answer.
      settings: {
        environment: 'sandbox',
        sandboxUrl: h.origin,
        validation: { engine: 'both', run: 'manual' },
        sdk: { path: SDK_DIR, allowDownload: false, repositoryUrl: 'http://127.0.0.1:9/maven2' },
      },
      sdkCacheRoot: join(work, 'sdk2'),
    });
    try {
      const uri = docUri('valid-cn.xml');
      await down.open(uri, fixture('valid-cn.xml'));
      const r = (await down.connection.sendRequest(NoticeFindingsRequest.type, {
        uri,
      })) as NoticeFindingsResult;
      assert.ok(r.ok);
      assert.equal(r.engines.find((e) => e.engine === 'local')?.problem, undefined);
      assert.match(r.engines.find((e) => e.engine === 'cvs')?.problem ?? '', /key/i);
      const last = down.published.filter((p) => p.uri === uri && p.version === r.version).at(-1);
      assert.deepEqual(r.diagnostics, last?.diagnostics);
      assert.ok(r.diagnostics.some((d) => d.source === 'eForms SDK 1.15.1' && d.severity === 1));
    } finally {
      await down.stop();
    }
  });
});
