// runCvsValidation called directly, as the eNotices2 emulation does: option checks, version parsing,
// decoding of the notice bytes, and the error/warning counts against the report itself.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeBase64 } from '../../sandbox/cvs/service';
import { writeSvrl } from '../../sandbox/cvs/svrl-writer';
import { parseSdkVersion, runCvsValidation } from '../../sandbox/cvs/validator';
import { parseSvrlStrict, readNoticeFixture } from '../support/sandbox-harness';

describe('runCvsValidation', () => {
  it('parses SDK versions as requested or as written in cbc:CustomizationID', () => {
    assert.deepEqual(parseSdkVersion('1.15'), { major: 1, minor: 15 });
    assert.deepEqual(parseSdkVersion('eforms-sdk-1.8#extended#urn:fdc:example.eu:2024'), {
      major: 1,
      minor: 8,
    });
    assert.deepEqual(parseSdkVersion(' 1.10.2 '), { major: 1, minor: 10 });
    assert.deepEqual(parseSdkVersion('eforms-sdk-1.0'), { major: 1, minor: 0 });
    for (const bad of ['', '1', 'eforms-sdk-', 'sdk-1.2', '1.x', 'eforms-sdk-1.2 extra']) {
      assert.equal(parseSdkVersion(bad), undefined, bad);
    }
  });

  it('counts ERROR and WARN failed assertions as the report lists them', () => {
    const r = runCvsValidation(readNoticeFixture('invalid-cn.xml'), {});
    assert.ok(r.ok);
    const asserts = parseSvrlStrict(r.svrl).asserts;
    assert.equal(r.errors, asserts.filter((a) => a.role === 'ERROR').length);
    assert.equal(r.warnings, asserts.filter((a) => a.role === 'WARN').length);
    assert.ok(r.errors > 0 && r.warnings > 0);
    assert.ok(
      asserts.some((a) => a.role === 'INFO'),
      'an INFO assertion is reported but not counted',
    );
  });

  it('gives the same report for the notice in UTF-8 with a BOM and in UTF-16', () => {
    const utf8 = readNoticeFixture('invalid-cn.xml');
    const reference = runCvsValidation(utf8, {});
    assert.ok(reference.ok);
    const text = utf8.toString('utf8').replace('encoding="UTF-8"', 'encoding="UTF-16"');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]);
    for (const bytes of [utf16, bom]) {
      const r = runCvsValidation(bytes, {});
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.equal(r.svrl, reference.svrl);
    }
  });

  it('answers 400 for input that is not a usable notice, never throwing', () => {
    const cases: [Buffer, RegExp][] = [
      [Buffer.alloc(0), /empty/],
      [Buffer.from([0xc3, 0x28, 0x3c, 0x61, 0x3e]), /UTF-8/],
      [Buffer.from('just text'), /well-formed|no XML element/],
      [readNoticeFixture('malformed.xml'), /well-formed/],
      [readNoticeFixture('not-eforms.xml'), /not an eForms notice/],
      [
        Buffer.from(
          '<TED_EXPORT xmlns="http://publications.europa.eu/resource/schema/ted/R2.0.9/publication"/>',
        ),
        /legacy TED/,
      ],
      [Buffer.from('<?xml version="1.0" encoding="x-unknown-9"?><a/>'), /encoding/],
    ];
    for (const [bytes, message] of cases) {
      const r = runCvsValidation(bytes, {});
      assert.equal(r.ok, false);
      if (!r.ok) {
        assert.equal(r.status, 400);
        assert.match(r.message, message);
      }
    }
  });

  it('rejects options that are not strings by name', () => {
    const notice = readNoticeFixture('valid-cn.xml');
    for (const opts of [{ language: 5 }, { validationMode: ['static'] }, { eFormsSdkVersion: 1.15 }]) {
      const r = runCvsValidation(notice, opts as never);
      assert.equal(r.ok, false, JSON.stringify(opts));
      if (!r.ok) assert.match(r.message, new RegExp(Object.keys(opts)[0]));
    }
  });

  it('decodes strict base64 only', () => {
    assert.equal(decodeBase64('PGEvPg==')?.toString(), '<a/>');
    assert.equal(decodeBase64('PGEv\r\nPg==')?.toString(), '<a/>');
    for (const bad of ['', 'PGEvPg=x', 'not base64!', 'A', 42, null])
      assert.equal(decodeBase64(bad), undefined);
  });

  it('escapes every value it writes, so that the report parses back to the same strings', () => {
    const hostile = 'a&b<c>d"e\'f\tg\nh\u0001i]]>j\ud800k';
    const xml = writeSvrl(hostile, [
      {
        kind: 'failed-assert',
        id: hostile,
        location: hostile,
        role: 'ERROR',
        test: hostile,
        text: hostile,
        diagnostic: { id: hostile, see: hostile, path: hostile },
      },
    ]);
    const report = parseSvrlStrict(xml);
    // What XML cannot carry at all (U+0001, a lone surrogate) becomes U+FFFD; everything else survives.
    const expected = hostile.replace('\u0001', '\ufffd').replace('\ud800', '\ufffd');
    assert.equal(report.phase, expected);
    const [a] = report.asserts;
    assert.deepEqual([a.id, a.location, a.test, a.text], [expected, expected, expected, expected]);
    assert.deepEqual(a.diagnostics, [{ diagnostic: expected, see: expected, text: expected }]);
  });
});
