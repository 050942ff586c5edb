// The notices npm start writes into its workspace mean what their names say under the official rules
// (the SDK 1.15.1 release in ../shared, run by core/schematron through the local validator): the valid
// one and the school-catering one have no finding at all, in static and in dynamic mode on the day they
// are generated; each INVALID_ one has exactly the findings listed here, each named in its comment.
// The school-catering notice is about school catering (its texts, CPV 15113000 Pork everywhere) with
// its deadline in the future. Without an SDK, the sandbox's own rules accept the two valid ones too.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { LocalSdkValidator, prepareNotice, ValidationPipeline, validateOnce } from '../../core/validation';
import { runCvsValidation } from '../../sandbox/cvs/validator';
import { PROJECT_ROOT, SDK_DIR, skipUnless } from '../support/shared-data';

interface DemoModule {
  demoNotices(today?: number): Record<string, string>;
}
const load = async () =>
  (await import(
    pathToFileURL(join(PROJECT_ROOT, 'scripts', 'vscode', 'sample-notices.mjs')).href
  )) as DemoModule;

/** What the official rules must find in each demo notice: failed rule ids, sorted. */
const EXPECTED: Record<string, string[]> = {
  'valid-cn.xml': [],
  'school-catering-cn.xml': [],
  'INVALID_cn_no-deadline.xml': ['BR-BT-00131-0022'],
  'INVALID_cn_missing-buyer-contact.xml': ['BR-BT-00503-0022', 'BR-BT-00506-0022'],
};

const today = Date.now();
const todayIso = new Date(today).toISOString().slice(0, 10);

describe('the demo workspace under the official rules', { skip: skipUnless(SDK_DIR) }, () => {
  const sources = { path: SDK_DIR, cacheRoot: join(PROJECT_ROOT, '.no-sdk-cache') };
  const pipeline = new ValidationPipeline(new LocalSdkValidator({ sources }), 'demo');

  test('every demo notice is listed here', async () => {
    assert.deepEqual(Object.keys((await load()).demoNotices(today)).sort(), Object.keys(EXPECTED).sort());
  });

  for (const mode of ['static', 'dynamic'] as const) {
    for (const [name, ids] of Object.entries(EXPECTED)) {
      test(`${name} (${mode}): ${ids.length ? ids.join(', ') : 'no finding'}`, async () => {
        const text = (await load()).demoNotices(today)[name];
        assert.ok(text);
        const run = await validateOnce(prepareNotice(text), pipeline, {
          language: 'en',
          mode,
          sdkVersion: '',
          timeoutMs: 120_000,
          today: todayIso,
        });
        assert.equal(run.outcome, 'validated');
        if (run.outcome !== 'validated') return;
        assert.equal(run.report.sdkVersion, '1.15.1');
        assert.deepEqual(run.report.notEvaluated, []);
        assert.deepEqual(
          run.findings.map((f) => f.id).sort(),
          ids,
          run.findings.map((f) => `${f.id} ${f.message}`).join('\n'),
        );
        // Each INVALID_ notice says in its comment which fields it lacks.
        for (const id of ids) {
          const bt = /^BR-BT-0*(\d+)-/.exec(id)?.[1];
          assert.ok(bt && text.split('-->')[0].includes(`BT-${bt}`), `${name} names BT-${bt}`);
        }
      });
    }
  }
});

describe('the school-catering demo notice', () => {
  test('is about school catering: pork, canteens, and a deadline ahead', async () => {
    const text = (await load()).demoNotices(today)['school-catering-cn.xml'];
    assert.ok(text);
    const cpvs = [...text.matchAll(/listName="cpv">(\d{8})</g)].map((m) => m[1]);
    assert.ok(cpvs.length >= 2);
    for (const cpv of cpvs) assert.equal(cpv, '15113000');
    const names = [...text.matchAll(/<cbc:(?:Name|Description) languageID="ENG">([^<]+)</g)].map((m) =>
      (m[1] ?? '').toLowerCase(),
    );
    assert.ok(names.some((n) => n.includes('school catering')));
    assert.ok(names.some((n) => n.includes('pork')));
    assert.ok(!names.some((n) => /park|mow/.test(n)), 'nothing of the parks notice is left');
    const deadline = /<cac:TenderSubmissionDeadlinePeriod>\s*<cbc:EndDate>(\d{4}-\d{2}-\d{2})/.exec(
      text,
    )?.[1];
    assert.ok(deadline && deadline > todayIso, `deadline ${deadline} after ${todayIso}`);
  });
});

describe('the demo notices without an SDK', () => {
  test("the sandbox's own rules find no error in the valid ones", async () => {
    const notices = (await load()).demoNotices(today);
    for (const name of ['valid-cn.xml', 'school-catering-cn.xml']) {
      const r = runCvsValidation(Buffer.from(notices[name] ?? ''), { now: today });
      assert.ok(r.ok, name);
      if (r.ok) assert.equal(r.errors, 0, `${name}\n${r.svrl}`);
    }
  });
});
