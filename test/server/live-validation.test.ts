// The language server end to end, over stdio, against the sandbox CVS: local diagnostics at once, the
// service's after the debounce at positions found by searching the fixture text, updates on edits, no
// stale publish, the cache and cancellation proven by the sandbox's own request counts.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectationsOf, fixtureText, offsetOfLocation } from '../support/fixture-expectations';
import {
  docUri,
  LspSession,
  lineCol,
  type Published,
  type PublishedDiagnostic,
} from '../support/lsp-session';
import { type SandboxHarness, startHarness, TEST_API_KEY } from '../support/sandbox-harness';

const STAT = 'POST /cvs/v1/notices/validation';
const SEVERITY = { ERROR: 1, WARN: 2, INFO: 3 } as const;

function settingsFor(origin: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    environment: 'sandbox',
    sandboxUrl: origin,
    validation: { debounceMs: 50, timeoutMs: 30000, language: 'en', mode: 'static', ...extra },
  };
}

const remote = (p: Published) => p.diagnostics.filter((d) => d.source === 'eForms CVS');

/** Every expected assertion appears once, on the line where a text search finds its location. */
function assertMatchesFixture(
  text: string,
  diagnostics: PublishedDiagnostic[],
  label: string,
  fixed: string[] = [],
): void {
  const expected = expectationsOf(text).filter((e) => !fixed.includes(e.id));
  assert.ok(expected.length > 0);
  const got = diagnostics.filter((d) => d.source === 'eForms CVS');
  assert.deepEqual(
    got.map((d) => String(d.code)).sort(),
    expected.map((e) => e.id).sort(),
    `${label}: rule ids`,
  );
  for (const e of expected) {
    const d = got.find((x) => x.code === e.id);
    assert.ok(d);
    const at = lineCol(text, offsetOfLocation(text, e.location));
    assert.deepEqual(d.range.start, at, `${label}: ${e.id} start (${e.location})`);
    assert.equal(d.severity, SEVERITY[e.role], `${label}: ${e.id} severity`);
    assert.equal(d.data?.location, e.location, `${label}: ${e.id} data.location`);
  }
}

describe('language server over stdio', () => {
  let h: SandboxHarness;
  let s: LspSession;
  const stats = async () =>
    JSON.parse((await h.request('GET', '/_sandbox/stats')).text) as {
      requests: Record<string, number>;
      aborted: Record<string, number>;
    };

  before(async () => {
    h = await startHarness();
    s = await LspSession.start({ apiKey: TEST_API_KEY, settings: settingsFor(h.origin) });
  });
  after(async () => {
    await s?.stop();
    await h?.close();
  });

  test('open: local diagnostics at once, then the service findings where the text says', async () => {
    const uri = docUri('invalid-cn.xml');
    const text = fixtureText('invalid-cn.xml');
    const mark = s.mark;
    await s.open(uri, text);
    const first = await s.nextPublish(uri, mark, 'first publish');
    assert.equal(first.version, 1);
    assert.deepEqual(remote(first), [], 'the first publish does not wait for the service');
    const withRemote = await s.nextPublish(uri, mark, 'service findings', (p) => remote(p).length > 0);
    assert.equal(withRemote.version, 1);
    assertMatchesFixture(text, withRemote.diagnostics, 'invalid-cn');
    const flagged = withRemote.diagnostics.find((d) => d.code === 'BR-BT-00514-0310');
    assert.match(flagged?.message ?? '', /^\[LAWFULNESS\] /);
    const status = await s.nextStatus(
      mark,
      'validated status',
      (x) => x.state === 'validated' && x.uri === uri,
    );
    const exp = expectationsOf(text);
    assert.equal(status.errors, exp.filter((e) => e.role === 'ERROR').length);
    assert.equal(status.warnings, exp.filter((e) => e.role === 'WARN').length);
    assert.equal(status.infos, exp.filter((e) => e.role === 'INFO').length);
  });

  test('other prefixes and CRLF line ends: same findings, on the lines of that text', async () => {
    const uri = docUri('prefixes-cn.xml');
    const text = fixtureText('prefixes-cn.xml');
    const p = await s.openAndPublish(uri, text, 'service findings', (x) => remote(x).length > 0);
    assertMatchesFixture(text, p.diagnostics, 'prefixes-cn');
    await s.closeDocument(uri);
  });

  test('an edit moves the shown findings at once, and the next result follows the new text', async () => {
    const uri = docUri('invalid-cn.xml');
    const before = s.textOf(uri).text;
    // Three new lines above every finding, and the EURO currency fixed.
    const insertAt = before.indexOf('<ContractNotice');
    let mark = s.mark;
    const v2 = await s.edit(uri, insertAt, insertAt, '\n\n\n');
    const shifted = await s.nextPublish(uri, mark, 'publish for the edit', (p) => p.version === v2);
    const text2 = s.textOf(uri).text;
    // Before any new answer, the earlier findings are re-placed on the new text, three lines lower.
    assertMatchesFixture(text2, shifted.diagnostics, 'shifted');

    const euro = text2.indexOf('currencyID="EURO"') + 'currencyID="'.length;
    mark = s.mark;
    const requestsBefore = (await stats()).requests[STAT] ?? 0;
    const v3 = await s.edit(uri, euro, euro + 4, 'EUR');
    const updated = await s.nextPublish(
      uri,
      mark,
      'findings without BR-BT-00027-0203',
      (p) =>
        p.version === v3 && remote(p).length > 0 && !remote(p).some((d) => d.code === 'BR-BT-00027-0203'),
    );
    assert.ok(
      remote(updated).some((d) => d.code === 'BR-BT-00137-0155'),
      'the other findings stay',
    );
    assert.ok(((await stats()).requests[STAT] ?? 0) > requestsBefore, 'a new request was made');
  });

  test('identical content is answered from the cache: no second request', async () => {
    const uri = docUri('invalid-cn.xml');
    const { text } = s.textOf(uri);
    const count = (await stats()).requests[STAT] ?? 0;
    // A change and its undo within the debounce: the content to validate is one already validated.
    let mark = s.mark;
    await s.edit(uri, 0, 0, ' ');
    const v = await s.edit(uri, 0, 1, '');
    await s.nextStatus(mark, 'validated again', (x) => x.state === 'validated' && x.uri === uri);
    assert.equal(s.textOf(uri).version, v);
    // The same bytes under another uri: also no request.
    const other = docUri('copy-of-invalid.xml');
    mark = s.mark;
    await s.open(other, text);
    const p = await s.nextPublish(other, mark, 'copy validated', (x) => remote(x).length > 0);
    assertMatchesFixture(text, p.diagnostics, 'copy', ['BR-BT-00027-0203']);
    assert.equal((await stats()).requests[STAT] ?? 0, count, 'no request for content already validated');
    await s.closeDocument(other);
  });

  test('a slow answer overtaken by an edit: the older request is aborted and nothing stale is published', async () => {
    const uri = docUri('slow.xml');
    const original = fixtureText('invalid-cn.xml');
    // Different bytes from everything validated so far, so that the cache cannot answer.
    const v1text = original.replace('<ContractNotice', '<!-- slow v1 -->\n<ContractNotice');
    await h.request('POST', '/_sandbox/stats/reset');
    await h.setFaults(['cvs.slow']);
    try {
      const mark = s.mark;
      await s.open(uri, v1text);
      await s.nextStatus(mark, 'validating', (x) => x.state === 'validating' && x.uri === uri);
      // Wait until the sandbox has the first request, then edit: lines shift by two.
      for (let i = 0; i < 200 && !(await stats()).requests[STAT]; i++)
        await new Promise((r) => setTimeout(r, 10));
      assert.equal((await stats()).requests[STAT], 1);
      const editMark = s.mark;
      const at = v1text.indexOf('<ContractNotice');
      const v2 = await s.edit(uri, at, at, '\n\n');
      const v2text = s.textOf(uri).text;
      const final = await s.nextPublish(uri, editMark, 'result for version 2', (p) => remote(p).length > 0);
      assert.equal(final.version, v2);
      assertMatchesFixture(v2text, final.diagnostics, 'after the slow answer');
      const published = s.published.filter((p) => p.uri === uri);
      for (const p of published) {
        if (p.seq >= editMark) assert.equal(p.version, v2, 'after the edit, only version 2 is published');
        else assert.deepEqual(remote(p), [], 'version 1 never got service findings');
      }
      const st = await stats();
      assert.equal(st.requests[STAT], 2, 'one request per version');
      assert.equal(st.aborted[STAT], 1, 'the older request was abandoned');
    } finally {
      await h.setFaults([], ['cvs.slow']);
      await s.closeDocument(uri);
    }
  });

  test('XML that is not an eForms notice gets no diagnostics; a notice that stops being one is cleared', async () => {
    const pom = docUri('pom.xml');
    const mark = s.mark;
    await s.open(pom, fixtureText('not-eforms.xml'));
    const uri = docUri('becomes-pom.xml');
    await s.open(uri, fixtureText('malformed.xml'));
    const p = await s.nextPublish(uri, mark, 'malformed diagnostics', (x) => x.diagnostics.length > 0);
    assert.ok(p.diagnostics.some((d) => d.code === 'xml-syntax'));
    const m2 = s.mark;
    await s.replace(uri, fixtureText('not-eforms.xml'));
    const cleared = await s.nextPublish(uri, m2, 'cleared diagnostics');
    assert.deepEqual(cleared.diagnostics, []);
    assert.equal(
      s.published.filter((x) => x.uri === pom).length,
      0,
      'nothing was ever published for a non-eForms file',
    );
    await s.closeDocument(pom);
    await s.closeDocument(uri);
  });

  test('malformed XML: the syntax error where the fixture says, source eForms, at once', async () => {
    const uri = docUri('malformed.xml');
    const text = fixtureText('malformed.xml');
    const p = await s.openAndPublish(uri, text, 'first publish');
    const d = p.diagnostics.find((x) => x.code === 'xml-syntax');
    assert.ok(d, 'an xml-syntax diagnostic');
    assert.equal(d.source, 'eForms');
    assert.deepEqual(d.range.start, lineCol(text, text.lastIndexOf('</cbc:IssueTime>')));
    await s.closeDocument(uri);
  });
});
