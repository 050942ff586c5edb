// The validation state machine with a fake clock and a fake service: debounce, one request in flight,
// abort of the older one, results never applied out of order or at stale offsets, the cache, back-off
// (5 s doubling), no retry after 401/403 until settings change, one status per state change. The SVRL
// answers come from the sandbox's own CVS emulation, independent of the server code.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Finding } from '../../core/findings/finding';
import type { ValidationStatusParams } from '../../core/protocol/protocol';
import {
  CvsError,
  type ValidateNoticeOptions,
  type ValidateNoticeResult,
} from '../../core/services/cvs-client';
import { DEFAULT_SETTINGS, type EformsSettings, readSettings } from '../../core/settings/settings';
import { runCvsValidation } from '../../sandbox/cvs/validator';
import { ValidationScheduler } from '../../server/validation-scheduler';
import { FakeClock, settle } from '../support/fake-clock';
import { expectationsOf, offsetOfLocation } from '../support/fixture-expectations';
import { lineCol } from '../support/lsp-session';
import { PROJECT_ROOT } from '../support/shared-data';

const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'notices');
const INVALID = readFileSync(join(FIXTURES, 'invalid-cn.xml'), 'utf8');
const VALID = readFileSync(join(FIXTURES, 'valid-cn.xml'), 'utf8');
const EXPECTED_IDS = [...INVALID.matchAll(/expect: \w+ (\S+)/g)].map((m) => m[1]).sort();

function svrlOf(text: string): string {
  const r = runCvsValidation(Buffer.from(text, 'utf8'), {
    language: 'en',
    validationMode: 'static',
    now: Date.now(),
  });
  if (!r.ok) throw new Error(r.message);
  return r.svrl;
}

interface Call {
  o: ValidateNoticeOptions;
  resolve(r: ValidateNoticeResult): void;
  reject(e: unknown): void;
}

function rig(
  opts: { apiKey?: string | null; settings?: Record<string, unknown>; maxServiceBytes?: number } = {},
) {
  const clock = new FakeClock();
  const calls: Call[] = [];
  const published: { uri: string; version?: number; findings: Finding[] }[] = [];
  const statuses: ValidationStatusParams[] = [];
  let settings: EformsSettings = readSettings({ validation: { debounceMs: 100 }, ...opts.settings });
  const scheduler = new ValidationScheduler({
    settings: async () => settings,
    apiKey: opts.apiKey === null ? undefined : (opts.apiKey ?? 'k'),
    validate: (o) =>
      new Promise<ValidateNoticeResult>((resolve, reject) => {
        calls.push({ o, resolve, reject });
        o.signal?.addEventListener('abort', () => reject(new CvsError('cancelled', 'cancelled', false)));
      }),
    publish: (uri, version, findings) => published.push({ uri, version, findings }),
    status: (s) => statuses.push(s),
    log: () => {},
    clock,
    maxServiceBytes: opts.maxServiceBytes,
  });
  return {
    clock,
    calls,
    published,
    statuses,
    scheduler,
    setSettings(raw: Record<string, unknown>) {
      settings = readSettings(raw);
    },
    last: () => published[published.length - 1],
    /** Opens or edits, then lets the scheduler read its settings (async) so that timers start now. */
    async open(doc: { uri: string; version: number; text: string }) {
      scheduler.open(doc);
      await settle();
    },
    async change(doc: { uri: string; version: number; text: string }) {
      scheduler.change(doc);
      await settle();
    },
  };
}

const URI = 'file:///n.xml';
const remoteIds = (f: Finding[]) =>
  f
    .filter((x) => x.source === 'cvs')
    .map((x) => x.id)
    .sort();

describe('ValidationScheduler', () => {
  test('local findings at once; one request after the debounce, for the latest text', async () => {
    const r = rig();
    await r.open({ uri: URI, version: 1, text: VALID });
    assert.equal(r.published.length, 1, 'published at once');
    assert.equal(r.published[0]?.version, 1);
    await r.clock.advance(50);
    await r.change({ uri: URI, version: 2, text: INVALID });
    await r.clock.advance(99);
    assert.equal(r.calls.length, 0, 'still debouncing');
    await r.clock.advance(1);
    assert.equal(r.calls.length, 1);
    assert.equal(Buffer.from(r.calls[0]?.o.notice ?? []).toString('utf8'), INVALID);
    assert.equal(
      r.calls[0]?.o.eFormsSdkVersion,
      undefined,
      'unpinned: left to the service, which reads the notice',
    );
    r.calls[0]?.resolve({ svrl: svrlOf(INVALID) });
    await settle();
    assert.deepEqual(remoteIds(r.last()?.findings ?? []), EXPECTED_IDS);
    assert.equal(r.last()?.version, 2);
    assert.equal(r.statuses.at(-1)?.state, 'validated');
  });

  test('a newer edit aborts the older request; a late older answer is never applied', async () => {
    const r = rig();
    await r.open({ uri: URI, version: 1, text: INVALID });
    await r.clock.advance(100);
    assert.equal(r.calls.length, 1);
    const first = r.calls[0];
    await r.change({ uri: URI, version: 2, text: VALID });
    await r.clock.advance(100);
    assert.equal(r.calls.length, 2);
    assert.equal(first?.o.signal?.aborted, true, 'the older request was aborted');
    r.calls[1]?.resolve({ svrl: svrlOf(VALID) });
    await settle();
    // Even if the aborted request's answer still arrived, it must not override the newer one.
    first?.resolve({ svrl: svrlOf(INVALID) });
    await settle();
    assert.deepEqual(remoteIds(r.last()?.findings ?? []), []);
    assert.ok(r.published.every((p) => p.version === 1 || remoteIds(p.findings).length === 0));
  });

  test('an answer for older text is re-placed on the current text, never at old offsets', async () => {
    const r = rig({ settings: { validation: { run: 'onSave', debounceMs: 100 } } });
    await r.open({ uri: URI, version: 1, text: INVALID });
    await r.clock.advance(100);
    assert.equal(r.calls.length, 1);
    const shifted = INVALID.replace('<ContractNotice', '\n\n\n\n<ContractNotice');
    await r.change({ uri: URI, version: 2, text: shifted });
    await r.clock.advance(1000);
    assert.equal(r.calls.length, 1, 'onSave: an edit makes no request');
    r.calls[0]?.resolve({ svrl: svrlOf(INVALID) });
    await settle();
    const p = r.last();
    assert.equal(p?.version, 2);
    // Each finding is on the line where a text search finds its location in the shifted text, 4 lines
    // below where it is in the original.
    const line = (text: string, location: string) => lineCol(text, offsetOfLocation(text, location)).line;
    for (const e of expectationsOf(INVALID)) {
      const f = p?.findings.find((x) => x.id === e.id);
      assert.ok(f, e.id);
      assert.equal(f.range.start.line, line(shifted, e.location), e.id);
      assert.equal(f.range.start.line, line(INVALID, e.location) + 4, e.id);
    }
  });

  test('identical content is answered from the cache', async () => {
    const r = rig();
    await r.open({ uri: URI, version: 1, text: INVALID });
    await r.clock.advance(100);
    r.calls[0]?.resolve({ svrl: svrlOf(INVALID) });
    await settle();
    await r.change({ uri: URI, version: 2, text: VALID });
    await r.change({ uri: URI, version: 3, text: INVALID });
    await r.clock.advance(100);
    assert.equal(r.calls.length, 1);
    assert.deepEqual(remoteIds(r.last()?.findings ?? []), EXPECTED_IDS);
    assert.equal(r.last()?.version, 3);
  });

  test('offline: one status, retries after 5 s then 10 s, reset on success', async () => {
    const r = rig();
    await r.open({ uri: URI, version: 1, text: INVALID });
    await r.clock.advance(100);
    r.calls[0]?.reject(new CvsError('network', 'The service cannot be reached.', true));
    await settle();
    assert.equal(r.statuses.filter((s) => s.state === 'offline').length, 1);
    await r.clock.advance(4999);
    assert.equal(r.calls.length, 1);
    await r.clock.advance(1);
    assert.equal(r.calls.length, 2, 'first retry after 5 s');
    r.calls[1]?.reject(new CvsError('network', 'The service cannot be reached.', true));
    await settle();
    await r.clock.advance(9999);
    assert.equal(r.calls.length, 2);
    await r.clock.advance(1);
    assert.equal(r.calls.length, 3, 'second retry after 10 s');
    assert.equal(r.statuses.filter((s) => s.state === 'offline').length, 1, 'no status storm');
    r.calls[2]?.resolve({ svrl: svrlOf(INVALID) });
    await settle();
    assert.equal(r.statuses.at(-1)?.state, 'validated');
    // After a success, a new failure waits 5 s again.
    await r.change({ uri: URI, version: 2, text: VALID });
    await r.clock.advance(100);
    r.calls[3]?.reject(new CvsError('server', 'HTTP 503', true, 503));
    await settle();
    await r.clock.advance(5000);
    assert.equal(r.calls.length, 5);
  });

  test('during a back-off, another notice that wants validation reports the failure under its own uri', async () => {
    const r = rig();
    const other = 'file:///other.xml';
    await r.open({ uri: URI, version: 1, text: INVALID });
    await r.clock.advance(100);
    assert.equal(r.calls.length, 1);
    r.calls[0]?.reject(new CvsError('network', 'The service cannot be reached.', true));
    await settle();
    // Within the 5 s back-off: the other notice makes no request, yet its status must not stay silent,
    // since a client shows the active notice's status.
    await r.open({ uri: other, version: 1, text: VALID });
    await r.clock.advance(100);
    assert.equal(r.calls.length, 1, 'no request during the back-off');
    const mine = r.statuses.filter((s) => s.uri === other);
    assert.equal(mine.at(-1)?.state, 'offline', JSON.stringify(mine));
    assert.equal(mine.at(-1)?.message, 'The service cannot be reached.');
  });

  test('the back-off is capped at 5 minutes', async () => {
    const r = rig();
    await r.open({ uri: URI, version: 1, text: INVALID });
    await r.clock.advance(100);
    for (let i = 0; i < 8; i++) {
      r.calls[i]?.reject(new CvsError('server', 'HTTP 500', true, 500));
      await settle();
      await r.clock.advance(Math.min(5000 * 2 ** i, 300000));
      assert.equal(r.calls.length, i + 2, `retry ${i + 1}`);
    }
  });

  test('403: one error status, no retry on edits, until the settings change', async () => {
    const r = rig();
    await r.open({ uri: URI, version: 1, text: INVALID });
    await r.clock.advance(100);
    r.calls[0]?.reject(new CvsError('forbidden', 'The API key was refused (403).', false, 403));
    await settle();
    await r.change({ uri: URI, version: 2, text: VALID });
    await r.clock.advance(600000);
    assert.equal(r.calls.length, 1);
    assert.equal(r.statuses.filter((s) => s.state === 'error').length, 1);
    r.scheduler.settingsChanged();
    await settle();
    await r.clock.advance(100);
    assert.equal(r.calls.length, 2);
  });

  test('ValidateNow overrides the manual run mode and the back-off', async () => {
    const r = rig({ settings: { validation: { run: 'manual' } } });
    await r.open({ uri: URI, version: 1, text: INVALID });
    await r.clock.advance(10000);
    assert.equal(r.calls.length, 0);
    assert.equal(r.statuses.at(-1)?.state, 'paused');
    const res = await r.scheduler.validateNow(URI);
    assert.equal(res.started, true);
    assert.equal(r.calls.length, 1);
    assert.deepEqual(await r.scheduler.validateNow('file:///other.xml'), {
      started: false,
      message: 'The document is not open in the eForms language server.',
    });
  });

  test('no key: needsKey and no request; too large: paused and no request', async () => {
    const a = rig({ apiKey: null });
    await a.open({ uri: URI, version: 1, text: INVALID });
    await a.clock.advance(1000);
    assert.equal(a.calls.length, 0);
    assert.equal(a.statuses.at(-1)?.state, 'needsKey');
    const b = rig({ maxServiceBytes: 1000 });
    await b.open({ uri: URI, version: 1, text: INVALID });
    await b.clock.advance(1000);
    assert.equal(b.calls.length, 0);
    assert.equal(b.statuses.at(-1)?.state, 'paused');
    assert.equal(b.published.length, 1, 'local findings still published');
  });

  test('a document that stops being a notice is cleared; one that never was gets nothing', async () => {
    const r = rig();
    await r.open({ uri: 'file:///pom.xml', version: 1, text: '<project xmlns="urn:x"/>' });
    assert.equal(r.published.length, 0);
    await r.open({ uri: URI, version: 1, text: INVALID });
    await r.change({ uri: URI, version: 2, text: '<project xmlns="urn:x"/>' });
    assert.deepEqual(r.last(), { uri: URI, version: 2, findings: [] });
    assert.equal(DEFAULT_SETTINGS.validation.run, 'onType');
  });
});
