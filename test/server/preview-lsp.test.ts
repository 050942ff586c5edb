// `eforms/renderPreview` over LSP, against the real server (dist/server.js) with the SDK releases of
// ../shared/eforms-sdk: the release the notice declares is used, the languages are those the release
// has translations for, the language asked for (else the setting, else the notice's own) is used, the
// render is of the document's current text and version, its ranges point at elements or attributes of
// that text, a notice with errors still renders, and the failures carry a kind. A request replaced by a
// newer one for the same document is answered `superseded`, not rendered. Expected values are read from
// the SDK folders and the notices with other means (directory listings, regular expressions).
// Only contract-level properties are checked, so the test holds for any renderer behind the contract.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CancellationTokenSource } from 'vscode-languageserver-protocol/node';
import type { RenderedLine } from '../../core/preview';
import { RenderPreviewRequest, type RenderPreviewResult } from '../../core/protocol';
import { docUri, LspSession } from '../support/lsp-session';
import { PROJECT_ROOT, SHARED_DIR, skipUnless } from '../support/shared-data';

const RELEASES = join(SHARED_DIR, 'eforms-sdk');
const REAL = join(SHARED_DIR, 'real-notices', 'notices');
const skip = skipUnless(join(RELEASES, '1.15.1')) ?? skipUnless(REAL);
const fixture = (name: string) =>
  readFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'notices', name), 'utf8');

/** Languages of a release, from the names of its translation files. */
function languagesOf(version: string): string[] {
  return [
    ...new Set(
      readdirSync(join(RELEASES, version, 'translations'))
        .map((f) => /_([a-z]{2})\.xml$/.exec(f)?.[1])
        .filter((l): l is string => !!l),
    ),
  ].sort();
}

type Rendered = Extract<RenderPreviewResult, { lines: unknown }>;

function rendered(r: RenderPreviewResult): Rendered {
  assert.ok(!('error' in r), `a render, not ${JSON.stringify(r)}`);
  return r as Rendered;
}

function allLines(lines: RenderedLine[]): RenderedLine[] {
  return lines.flatMap((l) => [l, ...allLines(l.children)]);
}

/** Each range is an element (`<name`) or an attribute (`name=`) of the text, within it. */
function assertRangesIn(text: string, r: Rendered): number {
  let n = 0;
  for (const l of allLines(r.lines)) {
    if (!l.range) continue;
    n++;
    const { start, end } = l.range;
    assert.ok(start >= 0 && end <= text.length && start < end, `${l.label}: [${start}, ${end})`);
    assert.match(text.slice(start, start + 80), /^(<[A-Za-z_][\w.:-]*|[A-Za-z_][\w.:-]*\s*=)/, l.label);
  }
  return n;
}

describe('eforms/renderPreview over LSP', { skip }, () => {
  let s: LspSession;
  before(async () => {
    s = await LspSession.start({ settings: { sdk: { path: RELEASES }, validation: { engine: 'cvs' } } });
  });
  after(async () => {
    await s?.stop();
  });

  const ask = (uri: string, language?: string) =>
    s.connection.sendRequest(RenderPreviewRequest.type, { uri, ...(language ? { language } : {}) });

  test('a 1.15 notice renders with SDK 1.15.1, in the language asked, on its current text', async () => {
    const uri = docUri('preview-valid.xml');
    const text = fixture('valid-cn.xml');
    await s.open(uri, text, 1);
    const en = rendered(await ask(uri, 'en'));
    assert.equal(en.sdkVersion, '1.15.1');
    assert.equal(en.subtype, /<cbc:SubTypeCode[^>]*>([^<]*)</.exec(text)?.[1]);
    assert.deepEqual([...en.languages].sort(), languagesOf('1.15.1'));
    assert.equal(en.language, 'en');
    assert.equal(en.version, 1);
    assert.ok(assertRangesIn(text, en) > 0, 'some lines point into the notice');
    // Rendered on the render thread, not on the server's own.
    assert.ok(!s.logs.some((l) => /render on the server's thread/.test(l)), s.logs.join('\n'));
    const de = rendered(await ask(uri, 'de'));
    assert.equal(de.language, 'de');
    // An edit: the next render is of the new version and its offsets.
    const at = text.indexOf('<cac:ProcurementProject>');
    const v = await s.edit(uri, at, at, '<!-- edited -->\n  ');
    const after = rendered(await ask(uri, 'en'));
    assert.equal(after.version, v);
    assertRangesIn(s.textOf(uri).text, after);
  });

  test('without a language: the setting, else the notice’s own language (English: see 1.7 below)', async () => {
    const uri = docUri('preview-deu.xml');
    const text = fixture('valid-cn.xml').replace(
      /<cbc:NoticeLanguageCode>ENG</,
      '<cbc:NoticeLanguageCode>DEU<',
    );
    await s.open(uri, text, 1);
    assert.equal(rendered(await ask(uri)).language, 'de');
    await s.changeSettings({ ...s.settings, preview: { language: 'fr' } });
    assert.equal(rendered(await ask(uri)).language, 'fr');
    // A language the release does not translate gives way to the next choice.
    assert.equal(rendered(await ask(uri, 'xx')).language, 'fr');
    await s.changeSettings({ sdk: { path: RELEASES }, validation: { engine: 'cvs' } });
    assert.equal(rendered(await ask(uri, 'xx')).language, 'de');
  });

  test('an older release is chosen as the notice declares, with only its languages', async () => {
    // A real notice in Dutch declaring SDK 1.7: release 1.7.5 has English labels only.
    const file = readdirSync(REAL).find((f) => {
      const t = readFileSync(join(REAL, f), 'utf8');
      return /eforms-sdk-1\.7</.test(t) && /NoticeLanguageCode>NLD</.test(t);
    });
    assert.ok(file, 'a Dutch 1.7 notice among the real notices');
    const uri = docUri(`preview-${file}`);
    const text = readFileSync(join(REAL, file), 'utf8');
    await s.open(uri, text, 1);
    const r = rendered(await ask(uri));
    assert.equal(r.sdkVersion, '1.7.5');
    assert.deepEqual([...r.languages].sort(), languagesOf('1.7.5'));
    assert.equal(r.language, 'en');
    assertRangesIn(text, r);
  });

  test('a notice with errors still renders', async () => {
    const uri = docUri('preview-invalid.xml');
    const text = fixture('invalid-cn.xml');
    await s.open(uri, text, 1);
    const r = rendered(await ask(uri, 'en'));
    assert.ok(r.lines.length > 0);
    assertRangesIn(text, r);
    // Cut in the middle of an element: not well-formed any more, still a preview.
    const cut = text.slice(0, text.indexOf('<cac:ProcurementProjectLot>') + 40);
    await s.replace(uri, cut);
    const broken = rendered(await ask(uri, 'en'));
    assert.ok(broken.lines.length > 0);
    assertRangesIn(cut, broken);
  });

  test('what cannot render says why, with a kind', async () => {
    const notOpen = await ask(docUri('never-opened.xml'));
    assert.equal('error' in notOpen && notOpen.kind, 'no-document');
    const other = docUri('preview-other.xml');
    await s.open(other, fixture('not-eforms.xml'), 1);
    const r = await ask(other);
    assert.equal('error' in r && r.kind, 'not-a-notice');
    const bad = await s.connection.sendRequest(RenderPreviewRequest.type, { uri: 42 } as never);
    assert.equal('error' in bad && bad.kind, 'no-document');
    const none = await s.connection.sendRequest(RenderPreviewRequest.method, null);
    assert.equal((none as { kind?: string }).kind, 'no-document');
    // A language that is no string is ignored, not a crash.
    const valid = docUri('preview-valid.xml');
    for (const language of [{}, 42, ['de'], null]) {
      const r = await s.connection.sendRequest(RenderPreviewRequest.type, { uri: valid, language } as never);
      assert.equal(rendered(r).language, 'en', JSON.stringify(language));
    }
  });

  test('a request replaced by a newer one for the same document is not rendered', async () => {
    const uri = docUri('preview-race.xml');
    await s.open(uri, fixture('valid-cn.xml'), 1);
    // The first waits for this new document's settings from the client (workspace/configuration), so
    // the second is read meanwhile: the first gives way.
    const [first, second] = await Promise.all([ask(uri, 'en'), ask(uri, 'en')]);
    assert.deepEqual('error' in first && first.kind, 'superseded');
    assert.equal(rendered(second).version, 1);
    // A cancelled request is not rendered either. A document the server has no settings for yet: it
    // asks the client for them first (workspace/configuration), and the cancellation is read meanwhile.
    const fresh = docUri('preview-cancel.xml');
    await s.open(fresh, fixture('valid-cn.xml'), 1);
    const cts = new CancellationTokenSource();
    const pending = s.connection.sendRequest(
      RenderPreviewRequest.type,
      { uri: fresh, language: 'en' },
      cts.token,
    );
    cts.cancel();
    const r = await pending.catch((e: Error) => ({ error: e.message, kind: 'cancelled-by-client' }));
    assert.ok('error' in r, JSON.stringify(r).slice(0, 200));
  });
});

describe('eforms/renderPreview without an SDK', () => {
  test('no release on this machine: kind no-sdk', async () => {
    const s = await LspSession.start({ settings: { validation: { engine: 'cvs' } } });
    try {
      const uri = docUri('preview-nosdk.xml');
      await s.open(uri, fixture('valid-cn.xml'), 1);
      const r = await s.connection.sendRequest(RenderPreviewRequest.type, { uri });
      assert.equal('error' in r && r.kind, 'no-sdk');
    } finally {
      await s.stop();
    }
  });
});
