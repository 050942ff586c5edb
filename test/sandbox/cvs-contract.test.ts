// Contract tests of the emulated Central Validation Service over HTTP: every row of the error table of
// notice-validation-api.md, the ErrorResponse shape, the SVRL report of the test notices against what
// their header comments document, languages, modes, and the fault switches.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type HttpAnswer,
  NOTICE_FIXTURES_DIR,
  parseSvrlStrict,
  readNoticeFixture,
  type SandboxHarness,
  startHarness,
} from '../support/sandbox-harness';
import { SAMPLES_DIR, skipUnless } from '../support/shared-data';

const PATH = '/cvs/v1/notices/validation';
/** RFC 3339 date-time (section 5.6), with a mandatory offset. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function assertErrorResponse(a: HttpAnswer, status: number): { message: string } {
  assert.equal(a.status, status, a.text);
  assert.match(a.contentType, /^application\/json/);
  const body = JSON.parse(a.text) as { errorCode: unknown; message: unknown; timestamp: unknown };
  assert.equal(body.errorCode, status);
  assert.equal(typeof body.message, 'string');
  assert.ok((body.message as string).trim().length > 0, 'message is empty');
  assert.match(String(body.timestamp), RFC3339);
  assert.ok(!Number.isNaN(Date.parse(String(body.timestamp))), 'timestamp does not parse');
  return { message: body.message as string };
}

/** The `expect: ROLE ID LOCATION` lines of a fixture's header comment. */
function documentedAsserts(name: string): string[] {
  const text = readFileSync(join(NOTICE_FIXTURES_DIR, name), 'utf8');
  const header = text.slice(0, text.indexOf('-->'));
  return [...header.matchAll(/^\s*expect:\s+(\S+)\s+(\S+)\s+(\S+)\s*$/gm)].map(
    (m) => `${m[1]} ${m[2]} ${m[3]}`,
  );
}

const triple = (a: { role: string; id: string; location: string }) => `${a.role} ${a.id} ${a.location}`;

describe('CVS emulation: POST /v1/notices/validation', () => {
  let h: SandboxHarness;
  const valid = readNoticeFixture('valid-cn.xml');
  const invalid = readNoticeFixture('invalid-cn.xml');

  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h.close();
  });

  describe('authentication', () => {
    it('answers 401 when X-API-Key is missing', async () => {
      const a = await h.postJson(PATH, { notice: valid.toString('base64') }, { apiKey: null });
      assertErrorResponse(a, 401);
    });

    it('answers 403 for a key it does not know, without echoing the key', async () => {
      const key = 'not-a-valid-key-4711';
      const a = await h.postJson(PATH, { notice: valid.toString('base64') }, { apiKey: key });
      const { message } = assertErrorResponse(a, 403);
      assert.ok(!message.includes(key));
    });

    it('checks the key before the body', async () => {
      assertErrorResponse(await h.postJson(PATH, 'not json', { apiKey: null }), 401);
      assertErrorResponse(await h.postJson(PATH, { language: 'xx' }, { apiKey: 'wrong' }), 403);
    });
  });

  describe('400 rows of the error table', () => {
    it('rejects a language that is not one of the 24', async () => {
      for (const language of ['xx', 'EN', 'english', '']) {
        const { message } = assertErrorResponse(await h.validate(valid, { language }), 400);
        assert.match(message, /language/);
      }
    });

    it('rejects a validationMode other than static or dynamic', async () => {
      const { message } = assertErrorResponse(await h.validate(valid, { validationMode: 'strict' }), 400);
      assert.match(message, /validationMode/);
    });

    it('rejects versions it has no rules for, requested or declared by the notice', async () => {
      for (const eFormsSdkVersion of ['2.0', '1.16', '0.9', 'latest']) {
        const { message } = assertErrorResponse(await h.validate(valid, { eFormsSdkVersion }), 400);
        assert.match(message, /1\.0 to 1\.15/);
      }
      const declared = valid.toString('utf8').replace('eforms-sdk-1.15', 'eforms-sdk-1.99');
      const { message } = assertErrorResponse(await h.validate(declared), 400);
      assert.match(message, /1\.99/);
    });

    it('accepts every version from 1.0 to 1.15, with or without a patch number or prefix', async () => {
      for (const eFormsSdkVersion of ['1.0', '1.7', '1.15', '1.10.2', 'eforms-sdk-1.12']) {
        assert.equal((await h.validate(valid, { eFormsSdkVersion })).status, 200, eFormsSdkVersion);
      }
    });

    it('takes the version from cbc:CustomizationID, national suffixes included, else says what is missing', async () => {
      const national = valid
        .toString('utf8')
        .replace('eforms-sdk-1.15', 'eforms-sdk-1.8#extended#urn:fdc:example.eu:2024:national');
      assert.equal((await h.validate(national)).status, 200);
      const without = valid.toString('utf8').replace(/<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/, '');
      const { message } = assertErrorResponse(await h.validate(without), 400);
      assert.match(message, /CustomizationID/);
      assert.match(message, /eFormsSdkVersion/);
      assert.equal((await h.validate(without, { eFormsSdkVersion: '1.15' })).status, 200);
    });

    it('rejects a body that is not JSON, a missing notice and a notice that is not base64', async () => {
      assertErrorResponse(await h.postJson(PATH, '{"notice": '), 400);
      assertErrorResponse(await h.postJson(PATH, '[1,2]'), 400);
      assert.match(assertErrorResponse(await h.postJson(PATH, { language: 'en' }), 400).message, /notice/);
      assert.match(
        assertErrorResponse(await h.postJson(PATH, { notice: '<xml/> not base64!' }), 400).message,
        /base64/,
      );
      assertErrorResponse(await h.postJson(PATH, { notice: 12345 }), 400);
    });

    it('rejects malformed XML saying where', async () => {
      const { message } = assertErrorResponse(await h.validate(readNoticeFixture('malformed.xml')), 400);
      const lines = readNoticeFixture('malformed.xml').toString('utf8').split('\n');
      const line = lines.findIndex((l) => /^\s*<cbc:IssueDate>.*<\/cbc:IssueTime>/.test(l)) + 1;
      assert.ok(line > 0);
      assert.match(message, /well-formed/);
      assert.match(message, new RegExp(`line ${line}\\b`));
    });

    it('rejects XML that is not an eForms notice', async () => {
      const { message } = assertErrorResponse(await h.validate(readNoticeFixture('not-eforms.xml')), 400);
      assert.match(message, /not an eForms notice/);
    });

    it('keeps hostile request values out of the message as control characters', async () => {
      const a = await h.validate(valid, { eFormsSdkVersion: '<script>\u0000\u001b[31m' });
      const { message } = assertErrorResponse(a, 400);
      assert.ok(![...message].some((c) => c.charCodeAt(0) < 0x20), JSON.stringify(message));
    });
  });

  describe('other statuses', () => {
    it('answers 405 for another method on the path and 404 elsewhere, as ErrorResponse', async () => {
      const get = await h.request('GET', PATH);
      assertErrorResponse(get, 405);
      assert.equal(get.headers.get('allow'), 'POST');
      assertErrorResponse(await h.request('POST', '/cvs/v1/notices/validate', { body: '{}' }), 404);
      assertErrorResponse(await h.request('GET', '/cvs/'), 404);
    });
  });

  describe('200: the SVRL report', () => {
    it('reports nothing for valid-cn.xml in static mode', async () => {
      const a = await h.validate(valid);
      assert.equal(a.status, 200);
      assert.match(a.contentType, /^application\/xml; charset=UTF-8$/i);
      const svrl = parseSvrlStrict(a.text);
      assert.equal(svrl.rootName, '{http://purl.oclc.org/dsdl/svrl}schematron-output');
      assert.equal(svrl.phase, 'eforms-16');
      assert.ok(svrl.activePatterns.length > 0 && svrl.firedRules > 0);
      assert.deepEqual(svrl.asserts, []);
    });

    it('reports for invalid-cn.xml exactly the assertions its header documents', async () => {
      const expected = documentedAsserts('invalid-cn.xml');
      assert.ok(expected.length >= 8, 'the header documents the expected assertions');
      const svrl = parseSvrlStrict((await h.validate(invalid)).text);
      assert.deepEqual(svrl.asserts.map(triple).sort(), [...expected].sort());
    });

    it('reports the same for prefixes-cn.xml (other prefixes, CRLF, non-ASCII comments)', async () => {
      const expected = documentedAsserts('prefixes-cn.xml');
      assert.deepEqual(expected.sort(), documentedAsserts('invalid-cn.xml').sort());
      const svrl = parseSvrlStrict((await h.validate(readNoticeFixture('prefixes-cn.xml'))).text);
      assert.deepEqual(svrl.asserts.map(triple).sort(), expected);
    });

    it('puts missing children on the parent with a diagnostic reference, and flags LAWFULNESS', async () => {
      const svrl = parseSvrlStrict((await h.validate(invalid)).text);
      const missing = svrl.asserts.find((a) => a.id === 'BR-BT-00024-0022');
      assert.deepEqual(missing?.diagnostics, [
        { diagnostic: 'BT-24-Procedure', see: 'field:BT-24-Procedure', text: 'cbc:Description' },
      ]);
      assert.equal(missing?.test, 'count(cbc:Description) > 0');
      const lawfulness = svrl.asserts.filter((a) => a.flag !== undefined);
      assert.deepEqual(
        lawfulness.map((a) => [a.id, a.role, a.flag]),
        [['BR-BT-00514-0310', 'WARN', 'LAWFULNESS']],
      );
    });

    it('declares the prefixes of the official reports', { skip: skipUnless(SAMPLES_DIR) }, async () => {
      const official = parseSvrlStrict(
        readFileSync(join(SAMPLES_DIR, 'reports', 'cn_24_minimal.svrl'), 'utf8'),
      );
      const text = (await h.validate(valid)).text;
      const ours = parseSvrlStrict(text);
      assert.deepEqual(ours.namespaces, official.namespaces);
      // Unlike the official report, its title and a comment say whose rules answered (issue 18).
      assert.equal(ours.title, 'Sandbox rules, not the official SDK rules');
      assert.notEqual(ours.title, official.title);
      assert.match(text, /<!-- Sandbox rules, not the official SDK rules: [^>]*-->/);
    });

    it('writes messages in en, fr and de, and the raw key in the other languages', async () => {
      const by = async (language: string) =>
        new Map(
          parseSvrlStrict((await h.validate(invalid, { language })).text).asserts.map((a) => [a.id, a.text]),
        );
      const [en, fr, de, it_, bg] = await Promise.all(['en', 'fr', 'de', 'it', 'bg'].map(by));
      assert.ok(en.size >= 8);
      for (const [id, text] of en) {
        assert.ok(text.length > 0 && !text.startsWith('rule|text|'), id);
        assert.notEqual(fr.get(id), text, `fr = en for ${id}`);
        assert.notEqual(de.get(id), text, `de = en for ${id}`);
        assert.notEqual(de.get(id), fr.get(id), `de = fr for ${id}`);
        assert.equal(it_.get(id), `rule|text|${id}`);
        assert.equal(bg.get(id), `rule|text|${id}`);
      }
    });

    it('applies the clock rules only in dynamic mode', async () => {
      // valid-cn.xml was issued on 2025-03-03+01:00, i.e. from 2025-03-02T23:00Z.
      const at = (iso: string) => {
        h.sandbox.context.now = () => Date.parse(iso);
      };
      const ids = async (validationMode: string) =>
        parseSvrlStrict((await h.validate(valid, { validationMode })).text)
          .asserts.map((a) => a.id)
          .sort();
      try {
        at('2025-03-04T10:00:00Z');
        assert.deepEqual(await ids('dynamic'), []);
        at('2025-03-02T12:00:00Z'); // before the issue day began: issued in the future
        assert.deepEqual(await ids('dynamic'), ['BR-BT-00005-0901']);
        assert.deepEqual(await ids('static'), []);
        at('2025-06-01T10:00:00Z'); // about 90 days later: too old
        assert.deepEqual(await ids('dynamic'), ['BR-BT-00005-0902']);
        assert.deepEqual(await ids('static'), []);
        const svrl = parseSvrlStrict((await h.validate(valid, { validationMode: 'dynamic' })).text);
        assert.ok(
          svrl.activePatterns.length > parseSvrlStrict((await h.validate(valid)).text).activePatterns.length,
        );
      } finally {
        h.sandbox.context.now = () => Date.now();
      }
    });

    it('escapes what comes from the notice: a namespace with quotes, ampersand and angle bracket', async () => {
      const hostile = valid
        .toString('utf8')
        .replace('<cbc:UBLVersionID>', '<h:Odd xmlns:h="urn:a&amp;b&lt;c&quot;d\'e"/><cbc:UBLVersionID>');
      const a = await h.validate(hostile);
      assert.equal(a.status, 200);
      const svrl = parseSvrlStrict(a.text);
      const empty = svrl.asserts.filter((x) => x.id === 'element-not-empty');
      assert.equal(empty.length, 1);
      assert.match(empty[0].location, /^\/cn:ContractNotice\/\*:Odd\[namespace-uri\(\)=/);
    });
  });

  describe('fault switches', () => {
    it('cvs.error-500 answers 500 as ErrorResponse', async () => {
      await h.setFaults(['cvs.error-500']);
      try {
        assertErrorResponse(await h.validate(valid), 500);
      } finally {
        await h.setFaults([], ['cvs.error-500']);
      }
      assert.equal((await h.validate(valid)).status, 200);
    });

    it('cvs.non-xml answers 200 with an HTML page that is not SVRL', async () => {
      await h.setFaults(['cvs.non-xml']);
      try {
        const a = await h.validate(valid);
        assert.equal(a.status, 200);
        assert.match(a.contentType, /^text\/html/);
        assert.throws(() => parseSvrlStrict(a.text));
      } finally {
        await h.setFaults([], ['cvs.non-xml']);
      }
    });

    it('cvs.slow holds the answer: a client that gives up is counted as aborted, a patient one gets the report', async () => {
      await h.setFaults(['cvs.slow']);
      try {
        await assert.rejects(
          h.postJson(PATH, { notice: valid.toString('base64') }, { signal: AbortSignal.timeout(300) }),
        );
        const patient = await h.validate(valid);
        assert.equal(patient.status, 200);
        const stats = (await (await fetch(`${h.origin}/_sandbox/stats`)).json()) as {
          aborted?: Record<string, number>;
        };
        if (stats.aborted) assert.ok((stats.aborted[`POST ${PATH}`] ?? 0) >= 1);
      } finally {
        await h.setFaults([], ['cvs.slow']);
      }
    });
  });
});
