// The SDK's own rules through the language server, over stdio, with no API key and no network: an
// official sample with its procedure description removed gets BR-BT-00024-0022 (the rule the
// official report gives INVALID_cn_24_empty for the same omission), sourced "eForms SDK 1.15.1"; the
// fix clears it; a burst of edits ends on the last text's result, and no run for an older version is
// applied after a newer one; without an SDK, one status says what to do and nothing is fetched.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { docUri, LspSession, type Published } from '../support/lsp-session';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDK_DIR) ?? skipUnless(SAMPLES_DIR);
const SOURCE = 'eForms SDK 1.15.1';
/** The server's log line for an SDK run applied to a document. */
const APPLIED = /^Validated .* with eForms SDK/;
const sdkOf = (p: Published) => p.diagnostics.filter((d) => d.source === SOURCE);

function texts() {
  const good = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_minimal.xml'), 'utf8');
  const bad = good.replace(
    /<cbc:Description languageID="ENG">Provision of IT services related.*?<\/cbc:Description>/s,
    '',
  );
  assert.notEqual(bad, good);
  return { good, bad };
}

describe('SDK diagnostics in the language server', { skip }, () => {
  let work: string;
  let s: LspSession;
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'lsp-sdk-'));
    s = await LspSession.start({
      // No key at all, and a repository nobody listens on: nothing may go to the network.
      settings: {
        validation: { engine: 'both' },
        sdk: { path: SDK_DIR, allowDownload: false, repositoryUrl: 'http://127.0.0.1:9/maven2' },
      },
      sdkCacheRoot: join(work, 'sdk'),
    });
  });
  after(async () => {
    await s?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  test('a missing description: BR-BT-00024-0022 from the SDK, no key needed; the fix clears it', async () => {
    const { good, bad } = texts();
    const uri = docUri('sdk-cn.xml');
    let mark = s.mark;
    await s.open(uri, bad);
    const found = await s.nextPublish(uri, mark, 'SDK diagnostics', (p) => sdkOf(p).length > 0);
    assert.equal(found.version, 1);
    assert.deepEqual(
      sdkOf(found).map((d) => d.code),
      ['BR-BT-00024-0022'],
    );
    const d = sdkOf(found)[0];
    assert.equal(d?.severity, 1);
    assert.equal(d?.data?.field, 'BT-24-Procedure');
    // The CVS side still says a key is needed (after its own debounce, which may end after the SDK's run).
    await s.nextStatus(mark, 'needsKey', (x) => x.uri === uri && x.state === 'needsKey');
    const local = await s.nextLocalStatus(mark, 'local validated', (x) => x.state === 'validated');
    assert.equal(local.local?.source, SOURCE);
    assert.equal(local.errors, 1);

    mark = s.mark;
    const v = await s.replace(uri, good);
    const cleared = await s.nextPublish(
      uri,
      mark,
      'cleared',
      (p) => p.version === v && sdkOf(p).length === 0,
    );
    assert.equal(cleared.diagnostics.length, 0);
    await s.closeDocument(uri);
  });

  test('a burst of edits: the last text decides, and older runs are never applied after newer ones', async () => {
    const { good, bad } = texts();
    const uri = docUri('burst-cn.xml');
    await s.open(uri, good);
    await s.nextLocalStatus(0, 'first run', (x) => x.uri === uri && x.state === 'validated');
    let last = 1;
    const mark = s.mark;
    for (let i = 0; i < 8; i++) {
      // A comment makes each text new, so that no run is answered from the cache.
      last = await s.replace(uri, `${i % 2 === 0 ? bad : good}<!-- ${i} -->`);
      // Paced so that some runs start before the next edit arrives (and must then be cancelled).
      await new Promise((r) => setTimeout(r, 15 + i * 5));
      // Once in the middle, the burst waits for its run to be applied, so that at least two runs are
      // applied whatever the machine's load (the order check below is then never vacuous).
      if (i === 4) {
        const v = last;
        await s.waitFor('a run in the middle of the burst, applied', () =>
          s.logs.some((l) => l.includes(uri) && APPLIED.test(l) && l.includes(`(version ${v})`)),
        );
      }
    }
    last = await s.replace(uri, `${bad}<!-- last -->`);
    const final = await s.nextPublish(
      uri,
      mark,
      'the last text checked',
      (p) => p.version === last && sdkOf(p).length === 1,
    );
    assert.equal(sdkOf(final)[0]?.code, 'BR-BT-00024-0022');
    // The server logs each applied SDK run with its version: they only ever go up.
    const applied = s.logs
      .filter((l) => l.includes(uri) && APPLIED.test(l))
      .map((l) => Number(/\(version (\d+)\)/.exec(l)?.[1]));
    assert.ok(applied.length >= 2);
    for (let i = 1; i < applied.length; i++)
      assert.ok((applied[i] ?? 0) > (applied[i - 1] ?? 0), applied.join(','));
    // Nothing published after the final result changes it.
    await new Promise((r) => setTimeout(r, 300));
    for (const p of s.published.filter((x) => x.uri === uri && x.seq > final.seq))
      assert.deepEqual(
        sdkOf(p).map((d) => d.code),
        ['BR-BT-00024-0022'],
      );
    await s.closeDocument(uri);
  });

  test('a value the rules cannot read: the status and the log line name the value in words', async () => {
    // A faulty variant of a sample: its issue date is not a date, so the rules that read it as xs:date
    // cannot run. The status bar's tooltip says "see the log": the log says what to correct.
    const good = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_maximal.xml'), 'utf8');
    const faulty = good.replace(/(<cbc:IssueDate>)[^<]*</, '$1tomorrow<');
    assert.notEqual(faulty, good);
    const uri = docUri('issue-date-cn.xml');
    const mark = s.mark;
    await s.open(uri, faulty);
    const local = await s.nextLocalStatus(
      mark,
      'local validated',
      (x) => x.uri === uri && x.state === 'validated',
    );
    const count = local.local?.notEvaluated ?? 0;
    assert.ok(count >= 1, JSON.stringify(local.local));
    await s.waitFor('the applied run logged', () => s.logs.some((l) => l.includes(uri) && APPLIED.test(l)));
    const line = s.logs.find((l) => l.includes(uri) && APPLIED.test(l)) ?? '';
    const m = /; (\d+) rules? could not be checked here: 'tomorrow' is not a date \(BR-[^)]*\)\.$/.exec(line);
    assert.ok(m, line);
    assert.equal(Number(m[1]), count);
    // The status carries the same sentence, for the status bar's tooltip.
    assert.equal(`; ${local.local?.notEvaluatedText}`, line.slice(line.indexOf('; ')));
    // No XSD type and no XPath error code: a buyer reads this line.
    assert.doesNotMatch(line, /xs:date|FORG/);
    await s.closeDocument(uri);
  });

  test('no SDK: one status saying what to do, and nothing requested', async () => {
    const t = await LspSession.start({
      settings: {
        validation: { engine: 'local' },
        sdk: { path: '', repositoryUrl: 'http://127.0.0.1:9/maven2' },
      },
      sdkCacheRoot: join(work, 'empty', 'sdk'),
    });
    try {
      const uri = docUri('no-sdk.xml');
      await t.open(uri, texts().good);
      const st = await t.nextLocalStatus(0, 'local failure', (x) => x.state === 'error');
      assert.equal(st.sdkProblem?.kind, 'consent-needed');
      assert.equal(st.sdkProblem?.wanted, '1.15');
      assert.match(st.message ?? '', /eforms\.sdk\.path/);
      assert.match(st.message ?? '', /eforms\.sdk\.allowDownload/);
      await t.replace(uri, `${texts().good}\n`);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(t.localStatuses.filter((x) => x.state === 'error').length, 1, 'said once');
      assert.equal(t.statuses.length, 0, 'engine local: the CVS is not involved');
    } finally {
      await t.stop();
    }
  });
});
