// Business ids and notice identity. Truth comes from elsewhere: the official SDK samples in ../shared,
// read here with plain regular expressions (another way to read the same fields), and hand-made cases.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  businessIdOf,
  businessIdProblem,
  isBusinessId,
  parseBusinessId,
} from '../../core/notice/business-id';
import { readNoticeIdentity } from '../../core/notice/identity';
import { SAMPLES_DIR, skipUnless } from '../support/shared-data';

describe('business id', () => {
  test('uuid + "-" + two digits, nothing else', () => {
    assert.equal(isBusinessId('52fe3748-f475-4381-9dbf-31ebb08889e8-01'), true);
    assert.equal(isBusinessId('52FE3748-F475-4381-9DBF-31EBB08889E8-12'), true);
    for (const bad of [
      '52fe3748-f475-4381-9dbf-31ebb08889e8',
      '52fe3748-f475-4381-9dbf-31ebb08889e8-1',
      '52fe3748-f475-4381-9dbf-31ebb08889e8-001',
      '52fe3748-f475-4381-9dbf-31ebb08889e-01',
      'x2fe3748-f475-4381-9dbf-31ebb08889e8-01',
      ' ',
      '../etc/passwd',
    ])
      assert.equal(isBusinessId(bad), false, bad);
  });
  test('parse splits at the last dash; problems say what to do', () => {
    assert.deepEqual(parseBusinessId('52fe3748-f475-4381-9dbf-31ebb08889e8-03'), {
      noticeId: '52fe3748-f475-4381-9dbf-31ebb08889e8',
      versionId: '03',
    });
    assert.match(
      businessIdProblem('52fe3748-f475-4381-9dbf-31ebb08889e8') ?? '',
      /append the two-digit cbc:VersionID/,
    );
    assert.equal(businessIdProblem('52fe3748-f475-4381-9dbf-31ebb08889e8-03'), undefined);
    assert.match(JSON.stringify(businessIdOf('abc', '01')), /not a UUID/);
    assert.match(JSON.stringify(businessIdOf('52fe3748-f475-4381-9dbf-31ebb08889e8', '1')), /two digits/);
  });
});

describe('notice identity', () => {
  test('namespace-aware: a cbc:ID under another prefix bound to the cbc URI counts, a look-alike does not', () => {
    const xml = `<n:ContractNotice xmlns:n="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2"
      xmlns:b="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2" xmlns:cbc="urn:other">
      <cbc:ID schemeName="notice-id">11111111-1111-4111-8111-111111111111</cbc:ID>
      <b:ID schemeName="notice-id">3f2b8c1e-5d4a-4b6f-9e21-7c0a1d2e3f40</b:ID>
      <b:VersionID>07</b:VersionID><b:ContractFolderID>p-1</b:ContractFolderID>
      <b:CustomizationID>eforms-sdk-1.12.3</b:CustomizationID></n:ContractNotice>`;
    const r = readNoticeIdentity(xml);
    assert.ok(r.ok);
    assert.equal(r.identity.noticeId, '3f2b8c1e-5d4a-4b6f-9e21-7c0a1d2e3f40');
    assert.equal(r.identity.businessId, '3f2b8c1e-5d4a-4b6f-9e21-7c0a1d2e3f40-07');
    assert.equal(r.identity.procedureId, 'p-1');
    assert.equal(r.identity.sdkVersion, '1.12');
    assert.equal(r.identity.rootName, 'ContractNotice');
  });
  test('bad input gives a problem, never a throw', () => {
    for (const [input, reason] of [
      ['', 'empty'],
      ['   ', 'empty'],
      ['<a><b></a>', 'unparseable'],
      ['not xml at all', 'unparseable'],
      [Buffer.from([0xff, 0xfe, 0x00]), 'unparseable'],
    ] as const) {
      const r = readNoticeIdentity(input);
      assert.equal(r.ok, false, String(input));
      if (!r.ok) assert.equal(r.reason, reason);
    }
  });
  test('every SDK sample: ids read as a regex reads them', { skip: skipUnless(SAMPLES_DIR) }, () => {
    const dir = join(SAMPLES_DIR, 'notices');
    const files = readdirSync(dir).filter((f) => f.endsWith('.xml'));
    assert.ok(files.length > 5);
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8');
      const r = readNoticeIdentity(text);
      assert.ok(r.ok, f);
      // The samples all use the cbc prefix at root level; the first notice-id cbc:ID is the notice's.
      const noticeId = /<cbc:ID schemeName="notice-id">([^<]*)<\/cbc:ID>/.exec(text)?.[1] ?? '';
      const rootBlock = text.slice(text.indexOf('</ext:UBLExtensions>') + 1);
      const version = /<cbc:VersionID>([^<]*)<\/cbc:VersionID>/.exec(rootBlock)?.[1] ?? '';
      const type = /<cbc:NoticeTypeCode[^>]*>([^<]*)</.exec(text)?.[1] ?? '';
      assert.equal(r.identity.noticeId, noticeId, f);
      assert.equal(r.identity.versionId, version, f);
      assert.equal(r.identity.noticeType, type, f);
      assert.equal(
        Boolean(r.identity.businessId),
        /^[0-9a-f-]{36}$/.test(noticeId) && /^\d\d$/.test(version),
        f,
      );
    }
  });
});
