// Contract tests: every row of both error tables of the publication spec
// (/work/shared/specs/notice-publication-api.md, section 7) against the sandbox, through the client.
// Each asserts the HTTP status the spec gives for the row AND that the client's message carries the
// advice the row calls for (the advice phrases come from the task's wording, not from the tool).

import assert from 'node:assert/strict';
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { EnoticesError } from '../../core/services/enotices-client';
import { explainStatus } from '../../core/services/enotices-messages';
import {
  freshNotice,
  invalidNotice,
  LEGACY_F02,
  META,
  NO_ACCOUNT_KEY,
  startTestSandbox,
  type TestSandbox,
  WRONG_KEY,
} from './enotices-kit';

let s: TestSandbox;
before(async () => {
  s = await startTestSandbox();
});
after(async () => {
  await s.close();
});

async function rejects(
  p: Promise<unknown>,
  status: number,
  code: string | undefined,
  advice: RegExp,
  faults: string[] = [],
): Promise<void> {
  await caught(p, status, code, advice, faults);
}

async function caught(
  p: Promise<unknown>,
  status: number,
  code: string | undefined,
  advice: RegExp,
  faults: string[] = [],
): Promise<EnoticesError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof EnoticesError, `expected an EnoticesError, got ${String(err)}`);
    assert.equal(err.status, status, `status (message: ${err.message})`);
    if (code) assert.equal(err.code, code);
    assert.match(err.message, advice);
    // The key never appears in a message.
    assert.ok(!err.message.includes('test-key-one'));
    return err;
  } finally {
    for (const f of faults) s.sb.context.faults.delete(f);
  }
  assert.fail(`expected HTTP ${status}, the call succeeded`);
}

function fault(name: string): string[] {
  s.sb.context.faults.add(name);
  return [name];
}

const SET_KEY = /Set API Key|EFORMS_API_KEY/;
const KEY_INVALID = /does not exist or is invalid/;
const EU_LOGIN = /log in once to eNotices2 with the same EU Login/;
const LATER = /try again in a few minutes/;

/** A stored notice of the test account, SUBMITTED at the current clock. */
async function submitted(): Promise<string> {
  const n = freshNotice();
  const r = await s.client().submit(n.xml, META);
  assert.equal(r.success, true);
  return n.businessId;
}

describe('v2 family: convert', () => {
  test('400 Authorization header missing', () =>
    rejects(s.client({ apiKey: undefined }).convert(LEGACY_F02), 400, 'AUTH_HEADER_MISSING', SET_KEY));
  test('400 request body incomplete or invalid', () =>
    rejects(s.client().convert('<TED_EXPORT/>'), 400, 'REQUEST_INVALID', /complete TED XML notice/));
  test('401 API key does not exist or is invalid', () =>
    rejects(s.client({ apiKey: WRONG_KEY }).convert(LEGACY_F02), 401, 'API_KEY_INVALID', KEY_INVALID));
  test('500 API key cannot currently be validated', () =>
    rejects(
      s.client().convert(LEGACY_F02),
      500,
      'API_KEY_UNVERIFIABLE',
      LATER,
      fault('enotices.key-unverifiable'),
    ));
});

describe('v2 family: validation-report', () => {
  test('400 header missing', async () =>
    rejects(
      s.client({ apiKey: undefined }).validationReport(await submitted()),
      400,
      'AUTH_HEADER_MISSING',
      SET_KEY,
    ));
  test('400 invalid business id', () =>
    rejects(
      s.client({ checkIdsLocally: false }).validationReport('not-a-business-id'),
      400,
      'INVALID_BUSINESS_ID',
      /two-digit version/,
    ));
  test('401 API key invalid', async () =>
    rejects(
      s.client({ apiKey: WRONG_KEY }).validationReport(await submitted()),
      401,
      'API_KEY_INVALID',
      KEY_INVALID,
    ));
  test('403 no notice-system account', async () =>
    rejects(
      s.client({ apiKey: NO_ACCOUNT_KEY }).validationReport(await submitted()),
      403,
      'NO_ACCOUNT',
      EU_LOGIN,
    ));
  test('404 notice not found', () =>
    rejects(s.client().validationReport(freshNotice().businessId), 404, 'NOTICE_NOT_FOUND', /check the id/));
  test('404 notice report not found', async () => {
    const bid = await submitted();
    unlinkSync(join(s.dataDir, 'enotices', `${bid}.svrl`));
    await rejects(
      s.client().validationReport(bid),
      404,
      'REPORT_NOT_FOUND',
      /validation report was not found/,
    );
  });
  test('500 API key cannot currently be validated', async () => {
    const bid = await submitted();
    await rejects(
      s.client().validationReport(bid),
      500,
      'API_KEY_UNVERIFIABLE',
      LATER,
      fault('enotices.key-unverifiable'),
    );
  });
});

describe('v2 family: search', () => {
  test('400 header missing', () =>
    rejects(s.client({ apiKey: undefined }).search(), 400, 'AUTH_HEADER_MISSING', SET_KEY));
  test('401 invalid key', () =>
    rejects(s.client({ apiKey: WRONG_KEY }).search(), 401, 'API_KEY_INVALID', KEY_INVALID));
  test('403 no account', () =>
    rejects(s.client({ apiKey: NO_ACCOUNT_KEY }).search(), 403, 'NO_ACCOUNT', EU_LOGIN));
  test('500 key cannot be validated', () =>
    rejects(s.client().search(), 500, 'API_KEY_UNVERIFIABLE', LATER, fault('enotices.key-unverifiable')));
});

describe('v2 family: stop-publication', () => {
  test('400 header missing', async () =>
    rejects(
      s.client({ apiKey: undefined }).stopPublication(await submitted()),
      400,
      'AUTH_HEADER_MISSING',
      SET_KEY,
    ));
  test('400 invalid business id', () =>
    rejects(
      s.client({ checkIdsLocally: false }).stopPublication('1234'),
      400,
      'INVALID_BUSINESS_ID',
      /two-digit version/,
    ));
  test('401 API key invalid', async () =>
    rejects(
      s.client({ apiKey: WRONG_KEY }).stopPublication(await submitted()),
      401,
      'API_KEY_INVALID',
      KEY_INVALID,
    ));
  test('403 notice is not in SUBMITTED status', async () => {
    const n = invalidNotice();
    const r = await s.client().submit(n.xml, META);
    assert.equal(r.success, false);
    await rejects(
      s.client().stopPublication(n.businessId),
      403,
      'NOTICE_NOT_SUBMITTED',
      /only while the notice is SUBMITTED/,
    );
  });
  test('403 no notice-system account', async () =>
    rejects(
      s.client({ apiKey: NO_ACCOUNT_KEY }).stopPublication(await submitted()),
      403,
      'NO_ACCOUNT',
      EU_LOGIN,
    ));
  test('404 notice not found', () =>
    rejects(s.client().stopPublication(freshNotice().businessId), 404, 'NOTICE_NOT_FOUND', /check the id/));
  test('423 notice is already locked', async () => {
    const bid = await submitted();
    await rejects(
      s.client().stopPublication(bid),
      423,
      'NOTICE_LOCKED',
      /locked.*try again/,
      fault('enotices.lock-held'),
    );
  });
  test('500 API key cannot be validated', async () => {
    const bid = await submitted();
    await rejects(
      s.client().stopPublication(bid),
      500,
      'API_KEY_UNVERIFIABLE',
      LATER,
      fault('enotices.key-unverifiable'),
    );
  });
  test('500 internal error while updating notice status', async () => {
    const bid = await submitted();
    await rejects(
      s.client().stopPublication(bid),
      500,
      'STATUS_UPDATE_FAILED',
      /refresh My Notices to see whether it was stopped/,
      fault('enotices.internal-error'),
    );
    // The failed update left the notice as it was: it can still be stopped.
    await s.client().stopPublication(bid);
  });
});

describe('v2 family: submit', () => {
  const meta = (m: Record<string, unknown>) => JSON.stringify(m);
  test('400 header missing', () =>
    rejects(
      s.client({ apiKey: undefined }).submit(freshNotice().xml, META),
      400,
      'AUTH_HEADER_MISSING',
      SET_KEY,
    ));
  test('400 metadata missing', () =>
    rejects(
      s.client().submitParts({ notice: freshNotice().xml }),
      400,
      'METADATA_MISSING',
      /author e-mail and locale/,
    ));
  test('400 notice missing', () =>
    rejects(s.client().submitParts({ metadata: META }), 400, 'NOTICE_MISSING', /notice XML/));
  test('400 noticeAuthorEmail missing', () =>
    rejects(
      s.client().submitParts({ notice: freshNotice().xml, metadata: meta({ noticeAuthorLocale: 'en' }) }),
      400,
      'AUTHOR_EMAIL_MISSING',
      /e-mail is missing/,
    ));
  test('400 noticeAuthorLocale missing', () =>
    rejects(
      s
        .client()
        .submitParts({ notice: freshNotice().xml, metadata: meta({ noticeAuthorEmail: 'a@example.org' }) }),
      400,
      'AUTHOR_LOCALE_MISSING',
      /locale is missing/,
    ));
  test('400 a notice with the same noticeId and versionId exists', async () => {
    const n = freshNotice();
    await s.client().submit(n.xml, META);
    const e = await caught(
      s.client().submit(n.xml, META),
      400,
      'NOTICE_ALREADY_EXISTS',
      /increase cbc:VersionID/,
    );
    // Its own kind: the editor treats an "already exists" after its own submission as submitted.
    assert.equal(e.kind, 'already-exists');
  });
  test('400 noticeAuthorEmail not valid', () =>
    rejects(
      s.client().submit(freshNotice().xml, { noticeAuthorEmail: 'not an e-mail', noticeAuthorLocale: 'en' }),
      400,
      'AUTHOR_EMAIL_INVALID',
      /e-mail is not valid/,
    ));
  test('400 notice empty', () =>
    rejects(s.client().submit('', META), 400, 'NOTICE_EMPTY', /notice is empty/));
  test('400 notice cannot be parsed or is invalid', () =>
    rejects(
      s.client().submit('<ContractNotice><cbc:ID>', META),
      400,
      'NOTICE_INVALID',
      /cannot be parsed or is invalid/,
    ));
  test('400 procedure not found and cannot be created for this notice type', () => {
    // A change notice (efac:Changes) for a procedure nobody submitted.
    const n = freshNotice({ procedureId: '0b1e2f3a-4c5d-4e6f-8a9b-0c1d2e3f4a5b' });
    const change = n.xml.replace(
      '</efac:Organizations>',
      '</efac:Organizations><efac:Changes><efac:ChangeReason><cbc:ReasonCode listName="change-corrig-justification">update-add</cbc:ReasonCode></efac:ChangeReason></efac:Changes>',
    );
    return rejects(s.client().submit(change, META), 400, 'PROCEDURE_NOT_FOUND', /ContractFolderID/);
  });
  test('400 procedure id missing in the notice', () =>
    rejects(
      s.client().submit(freshNotice({ procedureId: '' }).xml, META),
      400,
      'PROCEDURE_ID_MISSING',
      /fill cbc:ContractFolderID/,
    ));
  test('401 API key invalid', () =>
    rejects(
      s.client({ apiKey: WRONG_KEY }).submit(freshNotice().xml, META),
      401,
      'API_KEY_INVALID',
      KEY_INVALID,
    ));
  test('403 no notice-system account', () =>
    rejects(
      s.client({ apiKey: NO_ACCOUNT_KEY }).submit(freshNotice().xml, META),
      403,
      'NO_ACCOUNT',
      EU_LOGIN,
    ));
  test('404 no compatible SDK version found (CustomizationID)', () => {
    const xml = freshNotice().xml.replace('eforms-sdk-1.15', 'eforms-sdk-2.0');
    return rejects(
      s.client().submit(xml, META),
      404,
      'SDK_NOT_SUPPORTED',
      /supported eforms-sdk-1\.x version/,
    );
  });
  test('404 no compatible SDK version found (service side)', () =>
    rejects(
      s.client().submit(freshNotice().xml, META),
      404,
      'SDK_NOT_SUPPORTED',
      /no compatible SDK version/,
      fault('enotices.no-sdk'),
    ));
  test('409 multiple objects created or updated at the same time', () =>
    rejects(
      s.client().submit(freshNotice().xml, META),
      409,
      'CONCURRENT_UPDATE',
      /check My Notices/,
      fault('enotices.concurrent-update'),
    ));
  test('500 API key cannot be validated', () =>
    rejects(
      s.client().submit(freshNotice().xml, META),
      500,
      'API_KEY_UNVERIFIABLE',
      LATER,
      fault('enotices.key-unverifiable'),
    ));
  test('500 CVS service unavailable', () =>
    rejects(
      s.client().submit(freshNotice().xml, META),
      500,
      'CVS_UNAVAILABLE',
      /unavailable.*try again later/,
      fault('enotices.cvs-unavailable'),
    ));
  test('500 CVS could not execute validation', () =>
    rejects(
      s.client().submit(freshNotice().xml, META),
      500,
      'CVS_FAILED',
      /could not execute validation/,
      fault('enotices.cvs-failed'),
    ));
});

describe('earlier family /api/notice', () => {
  const legacy = (o: Parameters<TestSandbox['client']>[0] = {}) => s.client({ family: 'legacy', ...o });
  /** Two stored versions of one notice id. */
  async function twoVersions(): Promise<string> {
    const a = freshNotice();
    await s.client().submit(a.xml, META);
    await s.client().submit(freshNotice({ noticeId: a.noticeId, versionId: '02' }).xml, META);
    return a.noticeId;
  }
  async function oneVersion(): Promise<string> {
    const a = freshNotice();
    await s.client().submit(a.xml, META);
    return a.noticeId;
  }

  test('validation-report 404 notice or report not found', () =>
    rejects(legacy().validationReport(freshNotice().noticeId), 404, 'NOTICE_NOT_FOUND', /not found/));
  test('validation-report 500 API key missing', async () =>
    rejects(
      legacy({ apiKey: undefined }).validationReport(await oneVersion()),
      500,
      'AUTH_HEADER_MISSING',
      SET_KEY,
    ));
  test('validation-report 500 API key invalid', async () =>
    rejects(
      legacy({ apiKey: WRONG_KEY }).validationReport(await oneVersion()),
      500,
      'API_KEY_INVALID',
      KEY_INVALID,
    ));
  test('validation-report 500 no notice-system account', async () =>
    rejects(
      legacy({ apiKey: NO_ACCOUNT_KEY }).validationReport(await oneVersion()),
      500,
      'NO_ACCOUNT',
      EU_LOGIN,
    ));
  test('validation-report 500 several versions of the noticeId exist', async () =>
    rejects(
      legacy().validationReport(await twoVersions()),
      500,
      'SEVERAL_VERSIONS',
      /use the full business id/,
    ));
  test('validation-report by notice id works when there is one version', async () => {
    const svrl = await legacy().validationReport(await oneVersion());
    assert.match(svrl, /schematron-output/);
  });

  test('stop-publication 403 notice publication cannot be stopped', async () => {
    const n = invalidNotice();
    await s.client().submit(n.xml, META);
    await rejects(legacy().stopPublication(n.businessId), 403, 'NOTICE_NOT_SUBMITTED', /cannot be stopped/);
  });
  test('stop-publication 404 notice not found', () =>
    rejects(legacy().stopPublication(freshNotice().businessId), 404, 'NOTICE_NOT_FOUND', /check the id/));
  test('stop-publication 500 API key missing', async () =>
    rejects(
      legacy({ apiKey: undefined }).stopPublication(await oneVersion()),
      500,
      'AUTH_HEADER_MISSING',
      SET_KEY,
    ));
  test('stop-publication 500 API key invalid', async () =>
    rejects(
      legacy({ apiKey: WRONG_KEY }).stopPublication(await oneVersion()),
      500,
      'API_KEY_INVALID',
      KEY_INVALID,
    ));
  test('stop-publication 500 no account', async () =>
    rejects(
      legacy({ apiKey: NO_ACCOUNT_KEY }).stopPublication(await oneVersion()),
      500,
      'NO_ACCOUNT',
      EU_LOGIN,
    ));
  test('stop-publication 500 several versions of the noticeId exist', async () =>
    rejects(legacy().stopPublication(await twoVersions()), 500, 'SEVERAL_VERSIONS', /apiFamily to v2/));
  test('stop-publication 200 by notice id', async () => {
    const id = await oneVersion();
    await legacy().stopPublication(id);
    const r = await s.client().search({ id });
    assert.equal(r.content[0].status, 'STOPPED');
  });

  test('submit 404 no compatible SDK version found', () =>
    rejects(
      legacy().submit(freshNotice().xml.replace('eforms-sdk-1.15', 'eforms-sdk-3.1'), META),
      404,
      'SDK_NOT_SUPPORTED',
      /supported eforms-sdk-1\.x/,
    ));
  test('submit 500 API key missing', () =>
    rejects(
      legacy({ apiKey: undefined }).submit(freshNotice().xml, META),
      500,
      'AUTH_HEADER_MISSING',
      SET_KEY,
    ));
  test('submit 500 API key invalid', () =>
    rejects(
      legacy({ apiKey: WRONG_KEY }).submit(freshNotice().xml, META),
      500,
      'API_KEY_INVALID',
      KEY_INVALID,
    ));
  test('submit 500 no notice-system account', () =>
    rejects(legacy({ apiKey: NO_ACCOUNT_KEY }).submit(freshNotice().xml, META), 500, 'NO_ACCOUNT', EU_LOGIN));
  test('submit 500 notice cannot be created (parsing errors)', () =>
    rejects(legacy().submit('<ContractNotice>', META), 500, 'NOTICE_INVALID', /cannot be parsed/));
  test('submit 500 same noticeId and versionId exists', async () => {
    const n = freshNotice();
    await legacy().submit(n.xml, META);
    await rejects(legacy().submit(n.xml, META), 500, 'NOTICE_ALREADY_EXISTS', /increase cbc:VersionID/);
  });
  test('submit 201 answers cvsLink, which the client reads as the report address', async () => {
    const n = invalidNotice();
    const r = await legacy().submit(n.xml, META);
    assert.equal(r.success, false);
    assert.ok(r.validationReportUrl?.endsWith(`/notices/${n.businessId}/validation-report`));
  });
  test('search hides noticeAuthor (EsentoolNoticeDto has none)', async () => {
    const id = await oneVersion();
    const r = await legacy().search({ id });
    assert.equal(r.totalSize, 1);
    assert.equal(r.content[0].noticeAuthor, undefined);
    assert.equal(r.content[0].id, id);
  });
});

describe('answers without a code still get advice covering every condition of the status', () => {
  test('a bare 400 on submit names each condition', () => {
    const m = explainStatus('v2', 'submit', 400).message;
    for (const part of [/e-mail/, /locale/, /VersionID/, /ContractFolderID/, /well-formed/])
      assert.match(m, part);
  });
});
