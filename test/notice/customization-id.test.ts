// cbc:CustomizationID parsing: the forms the eForms SDK documents (`eforms-sdk-MAJOR.MINOR`), national
// suffixes after `#`, and the malformed forms users actually type. Expected values are written from the
// SDK's documented format, not from the parser's output.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  declaredSdkVersion,
  findCustomizationId,
  parseCustomizationId,
} from '../../core/notice/customization-id';
import { indexXml } from '../../core/notice/xml-index';
import { SAMPLES_DIR, skipUnless } from '../support/shared-data';

describe('parseCustomizationId', () => {
  const valid: [string, number, number, string][] = [
    ['eforms-sdk-1.8', 1, 8, ''],
    ['eforms-sdk-1.15', 1, 15, ''],
    ['eforms-sdk-0.9', 0, 9, ''],
    ['  eforms-sdk-1.10\n\t', 1, 10, ''],
    ['eforms-sdk-1.8#extended#urn:fdc:gov.ie:2023:eforms', 1, 8, 'extended#urn:fdc:gov.ie:2023:eforms'],
    ['eforms-sdk-1.12#national', 1, 12, 'national'],
    ['eforms-sdk-2.0', 2, 0, ''],
  ];
  for (const [raw, major, minor, suffix] of valid) {
    test(`accepts ${JSON.stringify(raw)}`, () => {
      const r = parseCustomizationId(raw);
      assert.ok(r.ok, `expected ${raw} to parse`);
      assert.equal(r.value.major, major);
      assert.equal(r.value.minor, minor);
      assert.equal(r.value.sdkVersion, `${major}.${minor}`);
      assert.equal(r.value.suffix, suffix);
    });
  }

  const malformed = [
    '',
    '   ',
    'eforms-sdk-1',
    'eforms-sdk-1.8.0',
    'eforms-sdk-v1.8',
    'eforms-sdk-1.08',
    'eforms-sdk-.8',
    'eforms-sdk-1.8-SNAPSHOT',
    'eForms-SDK-1.8',
    'eforms-1.8',
    'urn:eforms-sdk-1.8',
    '1.8',
    'eforms-sdk-1.8 extra',
    'eforms-sdk-1.8#with space',
    'eforms-sdk-1. 8',
  ];
  for (const raw of malformed) {
    test(`rejects ${JSON.stringify(raw)} with a message naming the expected form`, () => {
      const r = parseCustomizationId(raw);
      assert.equal(r.ok, false);
      if (!r.ok) {
        assert.match(r.problem, /CustomizationID/);
        assert.match(r.problem, /eforms-sdk-1\.\d+/, 'the message shows an example to copy');
      }
    });
  }
});

describe('declaredSdkVersion on indexed notices', () => {
  test('finds the element by namespace, not by prefix', () => {
    const text =
      '<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2" ' +
      'xmlns:b="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">' +
      '<b:CustomizationID>eforms-sdk-1.11</b:CustomizationID></ContractNotice>';
    assert.equal(declaredSdkVersion(indexXml(text)), '1.11');
    const found = findCustomizationId(indexXml(text));
    assert.ok(found);
    assert.equal(text.slice(found.contentStart, found.contentEnd), 'eforms-sdk-1.11');
  });

  test('ignores a CustomizationID in another namespace', () => {
    const text =
      '<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2" xmlns:cbc="urn:other">' +
      '<cbc:CustomizationID>eforms-sdk-1.11</cbc:CustomizationID></ContractNotice>';
    assert.equal(declaredSdkVersion(indexXml(text)), undefined);
  });

  test('only a child of the root counts, after any number of siblings with their own subtrees', () => {
    const cbc = 'xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"';
    const lot = '<Lot><cbc:CustomizationID>eforms-sdk-1.7</cbc:CustomizationID><x><y/></x></Lot>';
    const open = `<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2" ${cbc}>`;
    const nested = `${open}${lot.repeat(1000)}</ContractNotice>`;
    assert.equal(declaredSdkVersion(indexXml(nested)), undefined, 'deeper ones do not declare the version');
    const late = `${open}${lot.repeat(1000)}<cbc:CustomizationID>eforms-sdk-1.9</cbc:CustomizationID></ContractNotice>`;
    const found = findCustomizationId(indexXml(late));
    assert.equal(found && late.slice(found.contentStart, found.contentEnd), 'eforms-sdk-1.9');
    assert.equal(found?.element.start, late.lastIndexOf('<cbc:CustomizationID>'));
  });

  test('every SDK sample notice declares the version written in its text', {
    skip: skipUnless(SAMPLES_DIR),
  }, () => {
    const dir = join(SAMPLES_DIR, 'notices');
    const files = readdirSync(dir).filter((f) => f.endsWith('.xml'));
    assert.ok(files.length > 0);
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8');
      // Independent truth: the text between the tags, found by a plain search.
      const m = /<cbc:CustomizationID>\s*eforms-sdk-(\d+\.\d+)\s*<\/cbc:CustomizationID>/.exec(text);
      assert.equal(declaredSdkVersion(indexXml(text)), m?.[1], f);
    }
  });
});
