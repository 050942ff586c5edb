// The notice npm start generates for its workspace has a CPV code that maps to an agri-food price
// series, so the price hover shows out of the box; it is a well-formed eForms notice with its own id.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { sectorForCpv } from '../../core/agrifood/cpv';
import { readNoticeIdentity } from '../../core/notice/identity';
import { noticeKindOf } from '../../core/notice/kind';
import { indexXml } from '../../core/notice/xml-index';
import { PROJECT_ROOT } from '../support/shared-data';

test('npm start generates a food notice whose CPV has EU prices', async () => {
  const mod = (await import(
    pathToFileURL(join(PROJECT_ROOT, 'scripts', 'vscode', 'sample-notices.mjs')).href
  )) as {
    foodNoticeText(): string;
  };
  const text = mod.foodNoticeText();
  const index = indexXml(text);
  assert.ok(noticeKindOf(index), 'an eForms notice');
  const cpvs = [...text.matchAll(/listName="cpv">(\d{8})</g)].map((m) => m[1] as string);
  assert.ok(cpvs.length > 0);
  for (const cpv of cpvs) assert.ok(sectorForCpv(cpv), `CPV ${cpv} maps to a price series`);
  const id = readNoticeIdentity(text);
  assert.ok(id.ok && id.identity.businessId);
  const fixture = readNoticeIdentity(
    (await import('node:fs')).readFileSync(
      join(PROJECT_ROOT, 'test', 'fixtures', 'notices', 'valid-cn.xml'),
      'utf8',
    ),
  );
  assert.ok(fixture.ok);
  assert.notEqual(id.identity.businessId, fixture.identity.businessId, 'its own notice id');
});
