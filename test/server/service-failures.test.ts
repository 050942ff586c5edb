// Each way the validation service can fail gives the user one clear status, exactly once, with only the
// local diagnostics shown, and never the key: no key, a refused key, a 400 for settings the service
// rejects, a 500, a non-XML answer, a dead port. Plus `eforms lsp --stdio`, a client without
// workspace/configuration, and the run modes.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { expectationsOf, fixtureText } from '../support/fixture-expectations';
import { docUri, LspSession, type Published, type StatusEvent } from '../support/lsp-session';
import { type SandboxHarness, startHarness, TEST_API_KEY } from '../support/sandbox-harness';

const STAT = 'POST /cvs/v1/notices/validation';
const remote = (p: Published) => p.diagnostics.filter((d) => d.source === 'eForms CVS');

function settingsFor(origin: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    environment: 'sandbox',
    sandboxUrl: origin,
    validation: { debounceMs: 50, timeoutMs: 30000, language: 'en', mode: 'static', ...extra },
  };
}

async function deadOrigin(): Promise<string> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

/** Just after the XML declaration, where a new line keeps the notice well-formed. */
function afterProlog(s: LspSession, uri: string): number {
  return s.textOf(uri).text.indexOf('?>') + 2;
}

async function requestCount(h: SandboxHarness): Promise<number> {
  const st = JSON.parse((await h.request('GET', '/_sandbox/stats')).text) as {
    requests: Record<string, number>;
  };
  return st.requests[STAT] ?? 0;
}

function assertNoKeyLeak(s: LspSession): void {
  const all = JSON.stringify([s.logs, s.statuses, s.published]) + s.stderr.join('');
  assert.ok(!all.includes(TEST_API_KEY), 'the API key never appears in logs, statuses or diagnostics');
}

describe('service failures, one status each', () => {
  let h: SandboxHarness;
  let s: LspSession;
  const uri = docUri('failures.xml');
  let n = 0;
  /** The fixture with a unique comment, so that the cache never answers. */
  const unique = () =>
    fixtureText('invalid-cn.xml').replace('<ContractNotice', `<!-- ${++n} -->\n<ContractNotice`);

  before(async () => {
    h = await startHarness();
    s = await LspSession.start({ apiKey: TEST_API_KEY, settings: settingsFor(h.origin) });
    const mark = s.mark;
    await s.open(uri, unique());
    await s.nextStatus(mark, 'first validation', (x) => x.state === 'validated');
  });
  after(async () => {
    await s?.stop();
    await h?.close();
  });

  /** Runs `provoke`, waits for the failure status, then `recover` and a validated status; returns the statuses in between. */
  async function failure(
    provoke: () => Promise<void>,
    isFailure: (x: StatusEvent) => boolean,
    recover: () => Promise<void>,
  ): Promise<{ failure: StatusEvent; between: StatusEvent[] }> {
    const mark = s.mark;
    await provoke();
    const failed = await s.nextStatus(mark, 'failure status', isFailure);
    // Local diagnostics keep flowing while the service fails.
    const p = await s.nextPublish(uri, mark, 'publish of the edit');
    assert.ok(p.diagnostics.every((d) => d.source === 'eForms' || d.source === 'eForms CVS'));
    await recover();
    const ok = await s.nextStatus(failed.seq, 'validated after recovery', (x) => x.state === 'validated');
    return { failure: failed, between: s.statuses.filter((x) => x.seq >= mark && x.seq < ok.seq) };
  }

  test('500: error status, once', async () => {
    const r = await failure(
      async () => {
        await h.setFaults(['cvs.error-500']);
        await s.replace(uri, unique());
      },
      (x) => x.state === 'error',
      async () => {
        await h.setFaults([], ['cvs.error-500']);
        assert.equal((await s.validateNow(uri)).started, true);
      },
    );
    assert.match(r.failure.message ?? '', /500/);
    assert.equal(r.between.filter((x) => x.state === 'error').length, 1, JSON.stringify(r.between));
  });

  test('non-XML answer: error status saying so, once', async () => {
    const r = await failure(
      async () => {
        await h.setFaults(['cvs.non-xml']);
        await s.replace(uri, unique());
      },
      (x) => x.state === 'error',
      async () => {
        await h.setFaults([], ['cvs.non-xml']);
        await s.validateNow(uri);
      },
    );
    assert.match(r.failure.message ?? '', /not a validation report/);
    assert.equal(r.between.filter((x) => x.state === 'error').length, 1);
  });

  test('settings the service rejects (rules missing for the SDK version): the 400 message, once', async () => {
    const raw = await h.validate(fixtureText('valid-cn.xml'), { eFormsSdkVersion: '9.9', language: 'en' });
    assert.equal(raw.status, 400);
    const said = (JSON.parse(raw.text) as { message: string }).message.replace(/[.\s]+$/, '');
    const r = await failure(
      () => s.changeSettings(settingsFor(h.origin, { sdkVersion: '9.9' })),
      (x) => x.state === 'error',
      () => s.changeSettings(settingsFor(h.origin)),
    );
    assert.ok(r.failure.message?.includes(said), `${r.failure.message} shows ${said}`);
    assert.match(r.failure.message ?? '', /\(400\)/);
    assert.equal(r.between.filter((x) => x.state === 'error').length, 1);
  });

  test('a dead port: offline status, once', async () => {
    const dead = await deadOrigin();
    const r = await failure(
      async () => {
        await s.changeSettings(settingsFor(dead));
        await s.replace(uri, unique());
      },
      (x) => x.state === 'offline',
      () => s.changeSettings(settingsFor(h.origin)),
    );
    assert.match(r.failure.message ?? '', /cannot be reached/);
    assert.equal(r.between.filter((x) => x.state === 'offline').length, 1);
    assertNoKeyLeak(s);
  });
});

describe('no key and a refused key', () => {
  let h: SandboxHarness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h?.close());

  test('no key: needsKey, local diagnostics only, no request', async () => {
    const s = await LspSession.start({ settings: settingsFor(h.origin) });
    try {
      const before = await requestCount(h);
      const uri = docUri('nokey.xml');
      const text = fixtureText('malformed.xml');
      await s.open(uri, text);
      const st = await s.nextStatus(0, 'needsKey', (x) => x.state === 'needsKey');
      assert.match(st.message ?? '', /API key/);
      const p = await s.nextPublish(uri, 0, 'local diagnostics', (x) => x.diagnostics.length > 0);
      assert.ok(p.diagnostics.every((d) => d.source === 'eForms'));
      const now = await s.validateNow(uri);
      assert.equal(now.started, false);
      assert.match(now.message ?? '', /API key/);
      assert.equal(await requestCount(h), before);
      assert.equal(s.statuses.filter((x) => x.state === 'needsKey').length, 1);
    } finally {
      await s.stop();
    }
  });

  test('a refused key: the 403 message, once, and no retry on further edits', async () => {
    const s = await LspSession.start({ apiKey: 'wrong-key-123', settings: settingsFor(h.origin) });
    try {
      const uri = docUri('badkey.xml');
      const before = await requestCount(h);
      await s.open(uri, fixtureText('valid-cn.xml'));
      const st = await s.nextStatus(0, 'error', (x) => x.state === 'error');
      assert.equal(st.message, "The API key was refused (403): set a valid key with 'eForms: Set API Key'.");
      assert.equal(await requestCount(h), before + 1);
      const mark = s.mark;
      const v = await s.edit(uri, afterProlog(s, uri), afterProlog(s, uri), '\n');
      await s.nextPublish(uri, mark, 'local publish', (p) => p.version === v);
      // The debounce has run when ValidateNow's own status arrives; the edit made no request.
      await s.waitFor('the skip after the debounce', () =>
        s.logs.find((l) => l.startsWith('Not asking') && l.includes('(403)')),
      );
      assert.equal(await requestCount(h), before + 1, 'no retry with a refused key');
      assert.equal(s.statuses.filter((x) => x.state === 'error').length, 1);
      assert.ok(!JSON.stringify([s.logs, s.statuses]).includes('wrong-key-123'));
    } finally {
      await s.stop();
    }
  });
});

describe('eforms lsp --stdio, a client without workspace/configuration, run modes', () => {
  let h: SandboxHarness;
  let s: LspSession;
  before(async () => {
    h = await startHarness();
    s = await LspSession.start({
      entry: 'cli',
      apiKey: TEST_API_KEY,
      settings: settingsFor(h.origin),
      configurationSupport: false,
    });
  });
  after(async () => {
    await s?.stop();
    await h?.close();
  });

  test('validates with the settings pushed by didChangeConfiguration', async () => {
    const uri = docUri('cli.xml');
    const text = fixtureText('invalid-cn.xml');
    await s.open(uri, text);
    const p = await s.nextPublish(uri, 0, 'service findings', (x) => remote(x).length > 0);
    assert.deepEqual(
      remote(p)
        .map((d) => String(d.code))
        .sort(),
      expectationsOf(text)
        .map((e) => e.id)
        .sort(),
    );
  });

  test('manual: edits make no request; Validate Now does', async () => {
    const uri = docUri('cli.xml');
    const mark = s.mark;
    await s.changeSettings(settingsFor(h.origin, { run: 'manual' }));
    await s.nextStatus(mark, 'paused', (x) => x.state === 'paused');
    const before = await requestCount(h);
    const m2 = s.mark;
    const v = await s.edit(uri, afterProlog(s, uri), afterProlog(s, uri), '\n');
    await s.nextPublish(uri, m2, 'local publish', (p) => p.version === v);
    assert.equal(await requestCount(h), before);
    const now = await s.validateNow(uri);
    assert.equal(now.started, true);
    await s.nextStatus(m2, 'validated', (x) => x.state === 'validated');
    assert.equal(await requestCount(h), before + 1);
  });

  test('onSave: an edit waits for the save', async () => {
    const uri = docUri('cli.xml');
    const m0 = s.mark;
    await s.changeSettings(settingsFor(h.origin, { run: 'onSave' }));
    // A settings change revalidates the current text once (here from the cache): let it land first, or
    // its status could be taken for the save's on a loaded machine.
    await s.nextStatus(m0, 'the revalidation after the settings change', (x) => x.state === 'validated');
    const before = await requestCount(h);
    const mark = s.mark;
    const v = await s.edit(uri, afterProlog(s, uri), afterProlog(s, uri), '\n');
    await s.nextPublish(uri, mark, 'local publish', (p) => p.version === v);
    assert.equal(await requestCount(h), before);
    await s.save(uri);
    await s.nextStatus(mark, 'validated', (x) => x.state === 'validated');
    assert.equal(await requestCount(h), before + 1);
  });
});
