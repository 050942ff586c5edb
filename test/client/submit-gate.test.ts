// The decision before a submission (client/publication/submit-gate.ts), as plain logic: with errors the
// user is asked and the safe button comes first; a notice no engine could check is not sent silently;
// production always asks, naming the notice and the environment; --force-like callers skip the error
// question but never the production one. The notice's name is its title (BT-21), else its id.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CANCEL,
  noticeName,
  REVIEW_ERRORS,
  SUBMIT_ANYWAY,
  type SubmitCheck,
  submitGate,
} from '../../client/publication/submit-gate';
import { indexXml } from '../../core/notice';
import { readNoticeFixture } from '../support/sandbox-harness';

const clean: SubmitCheck = { errors: 0, warnings: 0, problems: [], answered: true };

describe('submitGate', () => {
  test('no error, not production: no question', () => {
    assert.deepEqual(submitGate({ notice: 'N', environment: 'sandbox', check: clean }), { ask: false });
    assert.deepEqual(submitGate({ notice: 'N', environment: 'preview', check: { ...clean, warnings: 3 } }), {
      ask: false,
    });
  });

  test('errors: asks, "Review errors" is the safe (first, default) button, the count is the check\'s', () => {
    const g = submitGate({ notice: 'School meals', environment: 'sandbox', check: { ...clean, errors: 27 } });
    assert.ok(g.ask);
    assert.equal(g.reason, 'errors');
    assert.equal(g.safe, REVIEW_ERRORS);
    assert.equal(g.proceed, SUBMIT_ANYWAY);
    assert.match(g.message, /"School meals" has 27 errors/);
    const one = submitGate({ notice: 'x', environment: 'sandbox', check: { ...clean, errors: 1 } });
    assert.ok(one.ask);
    assert.match(one.message, /has 1 error:/);
  });

  test('nothing could validate it: asks, Cancel first', () => {
    const g = submitGate({
      notice: 'x',
      environment: 'sandbox',
      check: { errors: 0, warnings: 0, problems: ['the validation service: down'], answered: false },
    });
    assert.ok(g.ask);
    assert.equal(g.reason, 'unvalidated');
    assert.equal(g.safe, CANCEL);
    assert.match(g.detail, /the validation service: down/);
  });

  test('production always asks, naming the notice and the environment, even without errors or with force', () => {
    for (const force of [false, true]) {
      const g = submitGate({ notice: 'School meals', environment: 'production', check: clean, force });
      assert.ok(g.ask);
      assert.equal(g.reason, 'production');
      assert.equal(g.safe, CANCEL);
      assert.match(g.message, /School meals/);
      assert.match(g.message, /PRODUCTION/);
    }
  });

  test('force skips the error question, except in production', () => {
    const errors = { ...clean, errors: 4 };
    assert.deepEqual(submitGate({ notice: 'x', environment: 'sandbox', check: errors, force: true }), {
      ask: false,
    });
    const prod = submitGate({ notice: 'x', environment: 'production', check: errors, force: true });
    assert.ok(prod.ask);
    assert.match(prod.detail, /4 errors/);
  });
});

describe('noticeName', () => {
  test("the procedure's title (BT-21, cac:ProcurementProject/cbc:Name under the root)", () => {
    const text = readNoticeFixture('valid-cn.xml').toString('utf8');
    // Read independently: the first cbc:Name directly inside the root's cac:ProcurementProject.
    const project = /\n {2}<cac:ProcurementProject>([\s\S]*?)\n {2}<\/cac:ProcurementProject>/.exec(text);
    const title = /<cbc:Name[^>]*>([^<]+)<\/cbc:Name>/.exec(project?.[1] ?? '')?.[1];
    assert.ok(title, 'the fixture has a title');
    assert.equal(noticeName(indexXml(text), 'fallback'), title.trim());
  });

  test('no title: the fallback (the business id)', () => {
    const text =
      '<cn:ContractNotice xmlns:cn="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2"/>';
    assert.equal(noticeName(indexXml(text), 'abc-01'), 'abc-01');
    assert.equal(noticeName(indexXml(''), 'abc-01'), 'abc-01');
  });
});
