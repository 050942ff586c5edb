// The scheduler's two lanes with a fake clock, a fake CVS and a fake SDK engine (its SVRL comes from
// the sandbox's CVS emulation, independent of the server code): the SDK rules run as you type with no
// key, a newer edit aborts the older run and a late older answer is never applied, a finding both
// engines report on the same node is shown once (the CVS's), `eforms.validation.engine` chooses the
// lanes, the injected clock stamps every status, and an SDK failure blocks only its own lane.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Finding } from '../../core/findings/finding';
import type { ValidationStatusParams } from '../../core/protocol/protocol';
import { SdkError } from '../../core/sdk/sdk-errors';
import type { ValidateNoticeOptions, ValidateNoticeResult } from '../../core/services/cvs-client';
import { type EformsSettings, readSettings } from '../../core/settings/settings';
import { parseSvrl } from '../../core/svrl/report';
import type { EngineReport, ValidationInput, Validator } from '../../core/validation';
import { mergeEngineFindings } from '../../core/validation';
import { RuleBudgetError } from '../../core/validation/worker-pool';
import { runCvsValidation } from '../../sandbox/cvs/validator';
import { ValidationScheduler } from '../../server/validation-scheduler';
import { FakeClock, settle } from '../support/fake-clock';
import { PROJECT_ROOT } from '../support/shared-data';

const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'notices');
const INVALID = readFileSync(join(FIXTURES, 'invalid-cn.xml'), 'utf8');
const VALID = readFileSync(join(FIXTURES, 'valid-cn.xml'), 'utf8');
const EXPECTED_IDS = [...INVALID.matchAll(/expect: \w+ (\S+)/g)].map((m) => m[1]).sort();
const URI = 'file:///n.xml';

function svrlOf(text: string): string {
  const r = runCvsValidation(Buffer.from(text, 'utf8'), { language: 'en', validationMode: 'static', now: 0 });
  if (!r.ok) throw new Error(r.message);
  return r.svrl;
}

interface LocalCall {
  input: ValidationInput;
  resolve(text: string): void;
  reject(e: unknown): void;
}

function rig(raw: Record<string, unknown>, apiKey?: string) {
  const clock = new FakeClock(5_000_000);
  const cvsCalls: { o: ValidateNoticeOptions; resolve(r: ValidateNoticeResult): void }[] = [];
  const localCalls: LocalCall[] = [];
  const published: { version?: number; findings: Finding[] }[] = [];
  const statuses: ValidationStatusParams[] = [];
  const settings: EformsSettings = readSettings({ validation: { debounceMs: 100 }, ...raw });
  const validator: Validator = {
    engine: 'local',
    validate: (input) =>
      new Promise<EngineReport>((resolve, reject) => {
        localCalls.push({
          input,
          resolve: (text) => {
            const svrl = svrlOf(text);
            resolve({
              engine: 'local',
              report: parseSvrl(svrl),
              svrl,
              sdkVersion: '1.15.1',
              because: 'declared',
              notEvaluated: [],
            });
          },
          reject,
        });
        input.signal?.addEventListener('abort', () => {
          const e = new Error('aborted');
          e.name = 'AbortError';
          reject(e);
        });
      }),
  };
  const scheduler = new ValidationScheduler({
    settings: async () => settings,
    apiKey,
    validate: (o) => new Promise((resolve) => cvsCalls.push({ o, resolve })),
    localEngine: () => ({ validator, identity: 'fake-sdk' }),
    publish: (_uri, version, findings) => published.push({ version, findings }),
    status: (s) => statuses.push(s),
    log: () => {},
    clock,
    localDebounceMs: 30,
  });
  return {
    clock,
    cvsCalls,
    localCalls,
    published,
    statuses,
    scheduler,
    last: () => published[published.length - 1],
    async set(version: number, text: string) {
      if (version === 1) scheduler.open({ uri: URI, version, text });
      else scheduler.change({ uri: URI, version, text });
      await settle();
    },
  };
}

const ofSource = (f: Finding[] | undefined, source: Finding['source']) =>
  (f ?? [])
    .filter((x) => x.source === source)
    .map((x) => x.id)
    .sort();

describe('ValidationScheduler with the SDK rules', () => {
  test('no key: the SDK rules run after their short debounce, their findings sourced sdk with the release', async () => {
    const r = rig({});
    await r.set(1, INVALID);
    await r.clock.advance(29);
    assert.equal(r.localCalls.length, 0);
    await r.clock.advance(1);
    assert.equal(r.localCalls.length, 1);
    assert.equal(r.localCalls[0]?.input.sdkVersion, '1.15', 'the version the notice declares');
    r.localCalls[0]?.resolve(INVALID);
    await settle();
    assert.deepEqual(ofSource(r.last()?.findings, 'sdk'), EXPECTED_IDS);
    assert.ok(
      r
        .last()
        ?.findings.filter((f) => f.source === 'sdk')
        .every((f) => f.sdkVersion === '1.15.1'),
    );
    const st = r.statuses.filter((s) => s.engine === 'local').at(-1);
    assert.equal(st?.state, 'validated');
    assert.equal(st?.validatedAt, r.clock.t, 'the injected clock stamps the status');
    assert.equal(st?.local?.source, 'eForms SDK 1.15.1');
    assert.equal(r.cvsCalls.length, 0, 'no key: no CVS request');
  });

  test('a newer edit aborts the older run; its late answer is never applied', async () => {
    const r = rig({});
    await r.set(1, INVALID);
    await r.clock.advance(30);
    const first = r.localCalls[0];
    await r.set(2, VALID);
    await r.clock.advance(30);
    assert.equal(r.localCalls.length, 2);
    assert.equal(first?.input.signal?.aborted, true);
    r.localCalls[1]?.resolve(VALID);
    await settle();
    first?.resolve(INVALID);
    await settle();
    assert.deepEqual(ofSource(r.last()?.findings, 'sdk'), []);
    assert.equal(r.last()?.version, 2);
  });

  test('both engines: a finding on the same node appears once, the CVS one', async () => {
    const r = rig({ validation: { debounceMs: 100, engine: 'both' } }, 'key');
    await r.set(1, INVALID);
    await r.clock.advance(100);
    r.localCalls[0]?.resolve(INVALID);
    r.cvsCalls[0]?.resolve({ svrl: svrlOf(INVALID) });
    await settle();
    const all = r.last()?.findings ?? [];
    assert.deepEqual(ofSource(all, 'cvs'), EXPECTED_IDS);
    assert.deepEqual(ofSource(all, 'sdk'), [], 'the same rules on the same nodes: shown once');
    // The merge on its own: a rule only the SDK reports stays.
    const cvsOnly = all.filter((f) => f.source === 'cvs');
    const extra: Finding = { ...(cvsOnly[0] as Finding), id: 'BR-ONLY-LOCAL', source: 'sdk' };
    assert.deepEqual(
      mergeEngineFindings([extra, { ...(cvsOnly[0] as Finding), source: 'sdk' }], cvsOnly)
        .map((f) => f.id)
        .sort(),
      ['BR-ONLY-LOCAL', ...EXPECTED_IDS].sort(),
    );
  });

  test('engine cvs: the SDK rules never run; engine local: the CVS is never asked', async () => {
    const a = rig({ validation: { debounceMs: 100, engine: 'cvs' } }, 'key');
    await a.set(1, INVALID);
    await a.clock.advance(1000);
    assert.equal(a.localCalls.length, 0);
    assert.equal(a.cvsCalls.length, 1);
    const b = rig({ validation: { debounceMs: 100, engine: 'local' } }, 'key');
    await b.set(1, INVALID);
    await b.clock.advance(1000);
    assert.equal(b.localCalls.length, 1);
    assert.equal(b.cvsCalls.length, 0);
  });

  test('no SDK: one local status with the problem, no retry on edits, and the CVS lane is unaffected', async () => {
    const r = rig({ validation: { debounceMs: 100, engine: 'both' } }, 'key');
    await r.set(1, INVALID);
    await r.clock.advance(30);
    r.localCalls[0]?.reject(new SdkError('consent-needed', { wanted: '1.15' }));
    await settle();
    const failed = r.statuses.filter((s) => s.engine === 'local' && s.state === 'error');
    assert.equal(failed.length, 1);
    assert.deepEqual(failed[0]?.sdkProblem, { kind: 'consent-needed', wanted: '1.15' });
    assert.match(failed[0]?.message ?? '', /eforms\.sdk\.allowDownload/);
    await r.set(2, VALID);
    await r.clock.advance(1000);
    assert.equal(r.localCalls.length, 1, 'blocked until the SDK changes');
    assert.equal(r.cvsCalls.length, 1, 'the CVS still runs, after its own debounce');
    assert.equal(Buffer.from(r.cvsCalls[0]?.o.notice ?? []).toString('utf8'), VALID);
    r.scheduler.sdkChanged();
    await settle();
    await r.clock.advance(30);
    assert.equal(r.localCalls.length, 2, 'an SDK appeared: the rules run again');
  });

  test('a notice asking for a release that is missing stops only itself: other notices still get the rules', async () => {
    const r = rig({ validation: { debounceMs: 100, engine: 'local' } });
    const old = INVALID.replace(/eforms-sdk-1\.15/, 'eforms-sdk-1.7');
    assert.notEqual(old, INVALID);
    await r.set(1, old);
    await r.clock.advance(30);
    assert.equal(r.localCalls[0]?.input.sdkVersion, '1.7');
    r.localCalls[0]?.reject(new SdkError('consent-needed', { wanted: '1.7' }));
    await settle();
    const other = 'file:///other.xml';
    r.scheduler.open({ uri: other, version: 1, text: VALID });
    await settle();
    await r.clock.advance(30);
    assert.equal(r.localCalls.length, 2, 'the other notice, declaring 1.15, is run');
    assert.equal(r.localCalls[1]?.input.sdkVersion, '1.15');
    r.localCalls[1]?.resolve(VALID);
    await settle();
    const st = r.statuses.filter((s) => s.engine === 'local' && s.uri === other).at(-1);
    assert.equal(st?.state, 'validated');
    // The first notice, once it declares a release that is there, is run again.
    await r.set(2, INVALID);
    await r.clock.advance(30);
    assert.equal(r.localCalls.length, 3);
    assert.equal(r.localCalls[2]?.input.sdkVersion, '1.15');
  });

  test('rules stopped at their time budget: one status naming it and the setting, no run per edit, a run after a settings change', async () => {
    const r = rig({ validation: { debounceMs: 100, engine: 'local' } });
    await r.set(1, INVALID);
    await r.clock.advance(30);
    r.localCalls[0]?.reject(new RuleBudgetError(1500));
    await settle();
    const st = r.statuses.filter((s) => s.engine === 'local').at(-1);
    assert.equal(st?.state, 'error');
    assert.deepEqual(st?.sdkProblem, { kind: 'time-budget' });
    assert.match(
      st?.message ?? '',
      /time budget of 1\.5 s .*did not check this notice: raise eforms\.validation\.timeBudgetMs/,
    );
    await r.set(2, VALID);
    await r.clock.advance(1000);
    assert.equal(r.localCalls.length, 1, 'not run again on every edit');
    r.scheduler.settingsChanged();
    await settle();
    await r.clock.advance(30);
    assert.equal(r.localCalls.length, 2, 'a setting changed: the rules run again');
  });

  test('a notice with more elements than the SDK rules can hold: not checked, never run, and run again once smaller', async () => {
    const r = rig({ validation: { debounceMs: 100, engine: 'local' } });
    // The valid notice with 5,000,000 more elements inside its root: 5,000,000 is the limit.
    const close = VALID.lastIndexOf('</');
    const dense = `${VALID.slice(0, close)}${'<a/>'.repeat(5_000_000)}${VALID.slice(close)}`;
    await r.set(1, dense);
    await r.clock.advance(1000);
    assert.equal(r.localCalls.length, 0, 'refused before any run');
    const st = r.statuses.filter((s) => s.engine === 'local').at(-1);
    assert.equal(st?.state, 'error');
    const elements = (dense.match(/<[A-Za-z]/g) ?? []).length;
    assert.ok(elements > 5_000_000);
    assert.match(
      st?.message ?? '',
      new RegExp(`has ${elements.toLocaleString('en-US')} elements, more than the 5,000,000`),
    );
    // The refusal is about that text: an edit that brings it under the limit is validated.
    await r.set(2, VALID);
    await r.clock.advance(30);
    assert.equal(r.localCalls.length, 1, 'the smaller notice is run');
    r.localCalls[0]?.resolve(VALID);
    await settle();
    assert.equal(r.statuses.filter((s) => s.engine === 'local').at(-1)?.state, 'validated');
  });
});
