// loadPreviewSdk on folders that are not complete releases: no fields.json, no view templates (the
// trimmed 1.7.5 copy of ../shared), a label file that is a directory or a link; and the release of
// ../shared/eforms-sdk/1.15.1: its 24 languages and its subtypes, as its own folder listings give them.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadPreviewSdk, PreviewSdkError } from '../../core/preview';
import { SDK_DIR, SHARED_DIR, skipUnless } from '../support/shared-data';

describe('loadPreviewSdk', () => {
  const work = mkdtempSync(join(tmpdir(), 'preview-sdk-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  test('a folder without fields/fields.json: no-fields', async () => {
    await assert.rejects(loadPreviewSdk(join(work, 'nothing')), (e: unknown) => {
      assert.ok(e instanceof PreviewSdkError);
      assert.equal(e.kind, 'no-fields');
      return true;
    });
  });

  test('a release without view templates: no-templates', async () => {
    const dir = join(work, 'bare');
    mkdirSync(join(dir, 'fields'), { recursive: true });
    writeFileSync(join(dir, 'fields', 'fields.json'), '{"sdkVersion":"9.9.9","fields":[]}');
    await assert.rejects(
      loadPreviewSdk(dir),
      (e: unknown) => e instanceof PreviewSdkError && e.kind === 'no-templates',
    );
    const trimmed = join(SHARED_DIR, 'eforms-sdk', '1.7.5');
    if (!skipUnless(trimmed))
      await assert.rejects(
        loadPreviewSdk(trimmed),
        (e: unknown) => e instanceof PreviewSdkError && e.kind === 'no-templates',
      );
  });

  test('label files that are not regular files are ignored; a template that is a directory is absent', async () => {
    const dir = join(work, 'odd');
    mkdirSync(join(dir, 'fields'), { recursive: true });
    mkdirSync(join(dir, 'view-templates', '16.efx'), { recursive: true });
    writeFileSync(join(dir, 'view-templates', '1.efx'), '1 {ND-Root} #{auxiliary|text|buyer}\n');
    mkdirSync(join(dir, 'translations', 'field_de.xml'), { recursive: true });
    writeFileSync(
      join(dir, 'translations', 'auxiliary_en.xml'),
      '<properties><entry key="auxiliary|text|buyer">Buyer &amp; co</entry></properties>',
    );
    symlinkSync('/etc/passwd', join(dir, 'translations', 'auxiliary_fr.xml'));
    writeFileSync(join(dir, 'fields', 'fields.json'), '{"sdkVersion":"9.9.9","fields":[]}');
    const sdk = await loadPreviewSdk(dir);
    assert.deepEqual(sdk.subtypes, ['1']);
    assert.equal(sdk.templateText('16'), undefined);
    assert.equal(sdk.label('en', 'auxiliary|text|buyer'), 'Buyer & co');
    // The link and the directory are not regular files: neither gives a language.
    assert.deepEqual(sdk.languages, ['en']);
    assert.equal(sdk.version, '9.9.9');
  });

  test('SDK 1.15.1: every language and every template of the release', {
    skip: skipUnless(SDK_DIR),
  }, async () => {
    const sdk = await loadPreviewSdk(SDK_DIR);
    const langs = [
      ...new Set(
        readdirSync(join(SDK_DIR, 'translations')).flatMap((f) => /_([a-z]{2})\.xml$/.exec(f)?.[1] ?? []),
      ),
    ].sort();
    assert.equal(langs.length, 24);
    assert.deepEqual([...sdk.languages], langs);
    const templates = readdirSync(join(SDK_DIR, 'view-templates'))
      .filter((f) => f.endsWith('.efx'))
      .map((f) => f.slice(0, -4))
      .sort();
    assert.deepEqual([...sdk.subtypes], templates);
    assert.equal(sdk.version, '1.15.1');
    assert.equal(await loadPreviewSdk(SDK_DIR), sdk, 'cached per folder');
    assert.equal(sdk.label('fr', 'field|name|BT-21-Procedure'), 'Titre');
    // A code name from the genericode file when asked directly (the column of the language).
    assert.equal(sdk.codeName('fr', 'buyer-legal-type', 'body-pl'), 'Organisme de droit public');
  });
});
