// Two notices of different SDK releases open side by side in one language server, with eforms.sdk.path
// naming ../shared/eforms-sdk (a folder of releases): each gets hover, completion and rules of its own
// release. The same published notice (declaring 1.8) is opened twice, once as published and once
// declaring 1.15, so only the release differs. What each release knows is read from its
// fields/fields.json by JSON.parse and plain string tests, never through the code under test. Then
// the lifecycle: a notice declaring a version the (sandbox) CVS does not accept gets the warning on
// cbc:CustomizationID, whose quick fix moves it to an accepted version, and it is revalidated with
// that release's rules.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { applyEdits, type Pos, type TextEdit } from '../support/lsp-edits';
import { docUri, LspSession, lineCol, type Published, type StatusEvent } from '../support/lsp-session';
import { type SandboxHarness, startHarness, TEST_API_KEY } from '../support/sandbox-harness';
import { SDK_DIR, SHARED_DIR, skipUnless } from '../support/shared-data';

const SDK_ROOT = dirname(SDK_DIR);
const NOTICE_18 = join(SHARED_DIR, 'real-notices', 'notices', '129266-2024.xml');
const skip = skipUnless(join(SDK_ROOT, '1.8.5')) ?? skipUnless(NOTICE_18);

function fieldsOf(version: string): { id: string; xpathAbsolute: string }[] {
  return (
    JSON.parse(readFileSync(join(SDK_ROOT, version, 'fields', 'fields.json'), 'utf8')) as {
      fields: { id: string; xpathAbsolute: string }[];
    }
  ).fields;
}

describe('notices of different releases side by side', { skip }, () => {
  let s: LspSession;
  let h: SandboxHarness;
  let work: string;
  const published = () => readFileSync(NOTICE_18, 'utf8');
  const as115 = (t: string) => t.replace(/eforms-sdk-1\.8\b/, 'eforms-sdk-1.15');

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'lsp-releases-'));
    h = await startHarness();
    s = await LspSession.start({
      apiKey: TEST_API_KEY,
      settings: {
        environment: 'sandbox',
        sandboxUrl: h.origin,
        validation: { engine: 'both', debounceMs: 20, timeoutMs: 60000, language: 'en', mode: 'static' },
        sdk: { path: SDK_ROOT, allowDownload: false, repositoryUrl: 'http://127.0.0.1:9/maven2' },
      },
      sdkCacheRoot: join(work, 'sdk'),
    });
  });
  after(async () => {
    await s?.stop();
    await h?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const hover = async (uri: string, p: Pos) =>
    (await s.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: p })) as {
      contents: { value: string };
    } | null;
  const complete = async (uri: string, p: Pos) =>
    (await s.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: p })) as {
      items: { label: string }[];
    } | null;

  test('hover and completion follow each notice’s own release', async () => {
    const text18 = published();
    assert.match(text18, /<cbc:CustomizationID>eforms-sdk-1\.8<\/cbc:CustomizationID>/);
    const text115 = as115(text18);
    const a = docUri('side-1.8.xml');
    const b = docUri('side-1.15.xml');
    await s.open(a, text18);
    await s.open(b, text115);

    // Hover on the first languageID attribute: 1.15.1 has the attribute field of the organisation's
    // name, 1.8.5 has none (attribute fields came later).
    const attributeField = 'BT-500-Organization-Company-Language';
    assert.ok(
      fieldsOf('1.15.1').some((f) => f.id === attributeField && f.xpathAbsolute.endsWith('/@languageID')),
    );
    assert.ok(!fieldsOf('1.8.5').some((f) => f.id === attributeField));
    const at = text18.indexOf('languageID=');
    const first = text18.slice(0, at);
    assert.match(first.slice(first.lastIndexOf('<')), /^<cbc:Name /);
    const p = lineCol(text18, at + 2);
    const h18 = await hover(a, p);
    const h115 = await hover(b, p);
    assert.ok(h115?.contents.value.includes(attributeField), JSON.stringify(h115));
    assert.ok(!h18?.contents.value.includes(attributeField), JSON.stringify(h18));

    // Completion of a child of cac:CallForTendersDocumentReference: ext:UBLExtensions is a child there
    // in 1.15.1's fields.json only.
    const parent = '/cac:CallForTendersDocumentReference/ext:UBLExtensions';
    assert.ok(fieldsOf('1.15.1').some((f) => f.xpathAbsolute.replace(/\[[^\]]*\]/g, '').includes(parent)));
    assert.ok(!fieldsOf('1.8.5').some((f) => f.xpathAbsolute.replace(/\[[^\]]*\]/g, '').includes(parent)));
    const open = '<cac:CallForTendersDocumentReference>';
    const cut = text18.indexOf(open) + open.length;
    const typed18 = `${text18.slice(0, cut)}\n<${text18.slice(cut)}`;
    const typed115 = as115(typed18);
    await s.replace(a, typed18);
    await s.replace(b, typed115);
    const where = lineCol(typed18, cut + 2);
    const c18 = ((await complete(a, where))?.items ?? []).map((i) => i.label);
    const c115 = ((await complete(b, where))?.items ?? []).map((i) => i.label);
    assert.ok(c18.length > 0 && c115.length > 0);
    assert.ok(c115.includes('ext:UBLExtensions'), c115.join(' '));
    assert.ok(!c18.includes('ext:UBLExtensions'), c18.join(' '));
    await s.closeDocument(a);
    await s.closeDocument(b);
  });

  test('New Notice: the versions on disk with what TED says, and the notice written for the chosen one', async () => {
    const versions = (await s.connection.sendRequest('eforms/noticeSdkVersions', {})) as {
      version: string;
      release: string;
      accepted?: boolean;
    }[];
    assert.deepEqual(
      versions.map((v) => [v.version, v.release]),
      [
        ['1.15', '1.15.1'],
        ['1.10', '1.10.5'],
        ['1.9', '1.9.5'],
        ['1.8', '1.8.5'],
        ['1.7', '1.7.5'],
      ],
    );
    // The sandbox CVS accepts 1.0.0 to 1.15.0 (test/sandbox/cvs-version-range.test.ts): all of them.
    assert.ok(
      versions.every((v) => v.accepted === true),
      JSON.stringify(versions),
    );
    // The subtypes offered are those of the chosen release's notice-types.json.
    const subtypeIds = (v: string) =>
      (
        JSON.parse(readFileSync(join(SDK_ROOT, v, 'notice-types', 'notice-types.json'), 'utf8')) as {
          noticeSubTypes: { subTypeId: string }[];
        }
      ).noticeSubTypes
        .map((t) => t.subTypeId)
        .sort();
    for (const [v, release] of [
      ['1.7', '1.7.5'],
      ['1.15', '1.15.1'],
    ] as const) {
      const items = (await s.connection.sendRequest('eforms/noticeSubtypes', { sdkVersion: v })) as {
        id: string;
      }[];
      assert.deepEqual(items.map((i) => i.id).sort(), subtypeIds(release), v);
    }
    const r = (await s.connection.sendRequest('eforms/newNotice', { subtype: '16', sdkVersion: '1.10' })) as {
      ok: boolean;
      xml?: string;
      sdkVersion?: string;
    };
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.sdkVersion, '1.10.5');
    assert.match(r.xml ?? '', /<cbc:CustomizationID>eforms-sdk-1\.10<\/cbc:CustomizationID>/);
  });

  test('each notice is validated with the rules of its own release', async () => {
    const a = docUri('rules-1.8.xml');
    const b = docUri('rules-1.15.xml');
    const mark = s.mark;
    const text18 = published();
    await s.open(a, text18);
    await s.open(b, as115(text18));
    const said = (x: StatusEvent) => `${x.local?.source ?? ''} ${x.message ?? ''}`;
    const statusA = await s.nextLocalStatus(
      mark,
      'local status of the 1.8 notice',
      (x) => x.uri === a && (x.state === 'validated' || x.state === 'error'),
      60000,
    );
    const statusB = await s.nextLocalStatus(
      mark,
      'local status of the 1.15 notice',
      (x) => x.uri === b && x.state === 'validated',
      60000,
    );
    // The 1.8 notice: validated with 1.8.5, or (while the engine cannot run that release's layout)
    // stopped naming 1.8.5; never 1.15.1's rules.
    assert.match(said(statusA), /1\.8\.5/);
    assert.doesNotMatch(said(statusA), /1\.15\.1/);
    assert.equal(statusB.local?.source, 'eForms SDK 1.15.1');
    const pubB = await s.nextPublish(b, mark, 'diagnostics of the 1.15 notice', (x: Published) =>
      x.diagnostics.some((d) => d.source === 'eForms SDK 1.15.1'),
    );
    assert.ok(!pubB.diagnostics.some((d) => /eForms SDK 1\.8/.test(d.source ?? '')));
    await s.closeDocument(a);
    await s.closeDocument(b);
  });

  test('an SDK the service does not accept: warning, quick fix to an accepted one, revalidated', async () => {
    // The sandbox CVS answers its version range as 1.0.0 to 1.15.0 (sandbox/cvs/service.ts, and
    // test/sandbox/cvs-version-range.test.ts checks it over HTTP): 1.99 is outside, 1.15 inside.
    const uri = docUri('lifecycle.xml');
    const text = published().replace(/eforms-sdk-1\.8\b/, 'eforms-sdk-1.99');
    const mark = s.mark;
    await s.open(uri, text);
    const p = await s.nextPublish(uri, mark, 'the version warning', (x) =>
      x.diagnostics.some((d) => d.code === 'sdk-version-not-accepted'),
    );
    const warning = p.diagnostics.find((d) => d.code === 'sdk-version-not-accepted');
    assert.ok(warning);
    // The status item is told the same, with what TED accepts instead.
    const st = await s.nextStatus(
      mark,
      'status with the lifecycle',
      (x) => x.uri === uri && !!x.sdkLifecycle,
    );
    assert.equal(st.sdkLifecycle?.declared, '1.99');
    assert.equal(st.sdkLifecycle?.acceptedToday, false);
    assert.equal(st.sdkLifecycle?.moveTo, '1.15');
    assert.deepEqual(warning.range.start, lineCol(text, text.indexOf('eforms-sdk-1.99')));
    const actions = (await s.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: warning.range,
      context: { diagnostics: [warning] },
    })) as { title: string; edit?: { changes?: Record<string, TextEdit[]> } }[];
    const move = actions.find((x) => /Move the notice to eforms-sdk-1\.15/.test(x.title));
    assert.ok(move, JSON.stringify(actions.map((x) => x.title)));
    const fixed = applyEdits(text, move.edit?.changes?.[uri] ?? []);
    assert.match(fixed, /<cbc:CustomizationID>eforms-sdk-1\.15<\/cbc:CustomizationID>/);
    const m2 = s.mark;
    const v = await s.replace(uri, fixed);
    const after = await s.nextPublish(
      uri,
      m2,
      'revalidated with 1.15.1',
      (x) => x.version === v && x.diagnostics.some((d) => d.source === 'eForms SDK 1.15.1'),
    );
    assert.ok(!after.diagnostics.some((d) => d.code === 'sdk-version-not-accepted'));
    await s.closeDocument(uri);
  });
});
