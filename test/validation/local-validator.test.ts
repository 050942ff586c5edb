// The local validator over a folder of releases (../shared/eforms-sdk/): each real notice is run with the
// release it declares, in the phase that release's layout names (`#ALL` for 1.7 to 1.9, `17` for 1.10),
// with the failed asserts the Saxon-HE reference found (../shared/real-notices/saxon-reports/); a notice
// without a subtype runs every pattern of a release without phases, as the reference does, and is
// refused, with its reason, by a release that has phases. Reads ../shared; writes nothing.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { indexXml } from '../../core/notice/xml-index';
import { SdkError } from '../../core/sdk';
import { LocalSdkValidator } from '../../core/validation/local-validator';
import type { ValidationInput } from '../../core/validation/validator';
import { REAL_DIR, REFERENCE_TODAY, realNotices, SDKS_DIR } from '../support/real-notices';
import { skipUnless } from '../support/shared-data';

const skip = skipUnless(join(REAL_DIR, 'index.tsv')) ?? skipUnless(SDKS_DIR);

function input(text: string, sdkVersion: string): ValidationInput {
  return {
    index: indexXml(text),
    bytes: new TextEncoder().encode(text),
    language: 'en',
    mode: 'static',
    sdkVersion,
    pinned: false,
    timeoutMs: 60_000,
    today: REFERENCE_TODAY,
  };
}

describe('the local validator over a folder of releases', { skip }, () => {
  const validator = new LocalSdkValidator({
    sources: { path: SDKS_DIR, cacheRoot: join(tmpdir(), 'eforms-no-such-cache') },
  });
  const notices = skip ? [] : realNotices();

  test('each notice gets its own release and the phase of its layout', async () => {
    for (const pubno of ['611835-2024', '128154-2024']) {
      const n = notices.find((x) => x.pubno === pubno);
      assert.ok(n);
      const r = await validator.validate(input(readFileSync(n.path, 'utf8'), n.minor));
      assert.match(r.sdkVersion, new RegExp(`^${n.minor.replace('.', '\\.')}\\.`));
      assert.equal(r.phase, n.minor === '1.10' ? n.subtype : '#ALL');
      const expected = readFileSync(join(REAL_DIR, 'saxon-reports', `${pubno}.tsv`), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split('\t')[0])
        .sort();
      assert.deepEqual(r.report.assertions.map((a) => a.id).sort(), expected);
    }
  });

  test('without a subtype: every pattern on a release without phases, a named reason on one with phases', async () => {
    const strip = (text: string): string =>
      text.replace(/<efac:NoticeSubType>[\s\S]*?<\/efac:NoticeSubType>/, '');
    const old = notices.find((x) => x.minor === '1.8');
    const newer = notices.find((x) => x.minor === '1.10');
    assert.ok(old && newer);
    const a = await validator.validate(input(strip(readFileSync(old.path, 'utf8')), old.minor));
    assert.equal(a.phase, '#ALL');
    assert.ok(!a.notEvaluated?.some((x) => x.ruleId === '*'));
    const b = await validator.validate(input(strip(readFileSync(newer.path, 'utf8')), newer.minor));
    assert.deepEqual(
      b.notEvaluated?.map((x) => x.ruleId),
      ['*'],
    );
  });
});

describe('a notice with more elements than the local rules can hold', () => {
  test('is refused with one message before any release is looked for', async () => {
    // Denser than any notice: 5,000,001 elements in 20 MB, under the 160 MB size limit. No release is
    // needed: the folder named does not exist, and the refusal must come before it is read.
    const validator = new LocalSdkValidator({
      sources: {
        path: join(tmpdir(), 'eforms-no-such-sdk'),
        cacheRoot: join(tmpdir(), 'eforms-no-such-cache'),
      },
    });
    const text = `<r>${'<a/>'.repeat(5_000_000)}</r>`;
    await assert.rejects(validator.validate(input(text, '1.15')), (e: unknown) => {
      assert.ok(e instanceof SdkError);
      assert.equal(e.kind, 'engine');
      assert.equal(
        e.fields.reason,
        'the notice validated locally is larger than 5,000,000 elements (5,000,001 elements), the most this tool accepts: make it smaller.',
      );
      return true;
    });
    const under = `<r>${'<a/>'.repeat(4_999_999)}</r>`;
    await assert.rejects(validator.validate(input(under, '1.15')), (e: unknown) => {
      assert.ok(e instanceof SdkError);
      assert.notEqual(e.kind, 'engine', 'one element fewer is not refused for its size');
      return true;
    });
  });
});
