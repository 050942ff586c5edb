// The rule messages of a batch keep what does not depend on the notice (the shape of each test, the SDK
// entry a path leads to) and, per notice, the entry of each element: a notice's messages must be the
// same whether it is composed first in a fresh process (nothing kept) or after other notices, in other
// subtypes, with findings on the same rules at other places. The fresh process is the truth here.
// Reads ../shared; writes only a temporary rule cache.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { completeFindings, sdkKnowledge } from '../../core/authoring';
import { LocalSdkValidator } from '../../core/validation/local-validator';
import { sdkFindings } from '../support/sdk-findings';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

const skip = skipUnless(SDK_DIR) ?? skipUnless(SAMPLES_DIR);

/** Each notice's findings completed alone, in a fresh Node process (argv: SDK dir, a JSON file). */
const CHILD = `
const { readFileSync } = require('node:fs');
const { completeFindings, sdkKnowledge } = require(${JSON.stringify(join(__dirname, '..', '..', 'core', 'authoring'))});
const { indexXml } = require(${JSON.stringify(join(__dirname, '..', '..', 'core', 'notice', 'xml-index'))});
const [dir, file] = process.argv.slice(1);
const { text, findings } = JSON.parse(readFileSync(file, 'utf8'));
const index = indexXml(text);
const out = completeFindings(findings, { index, sdk: sdkKnowledge(dir, '1.15.1'), language: 'en' });
process.stdout.write(JSON.stringify(out.map((f) => [f.message, f.related ?? []])));
`;

function withSubType(text: string, st: string): string {
  return text.replace(/(<efac:NoticeSubType>\s*<cbc:SubTypeCode[^>]*>)[^<]*(<)/, `$1${st}$2`);
}

describe('rule messages kept across the notices of a batch', { skip }, () => {
  const work = mkdtempSync(join(tmpdir(), 'rule-message-memo-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  test('each notice composed after the others gives what it gives alone', { timeout: 240_000 }, async () => {
    const read = (f: string) => readFileSync(join(SAMPLES_DIR, 'notices', f), 'utf8');
    const max = read('cn_24_maximal.xml');
    const can = read('can_24_minimal.xml');
    // The same two notices in subtypes whose rules they break in many places.
    const texts = [
      withSubType(max, '10'),
      withSubType(max, '1'),
      withSubType(can, '29'),
      withSubType(max, '4'),
      withSubType(max, '16'),
      read('INVALID_cn_24_multiple.xml'),
      withSubType(can, '16'),
      withSubType(max, '29'),
      read('INVALID_can_24_stage-2.xml'),
    ];
    const v = new LocalSdkValidator({
      sources: { path: SDK_DIR, cacheRoot: join(work, 'sdk') },
      ruleCacheDir: join(work, 'rules'),
    });
    const sdk = sdkKnowledge(SDK_DIR, '1.15.1');
    const script = join(work, 'child.js');
    writeFileSync(script, CHILD);
    let composed = 0;
    for (const [i, text] of texts.entries()) {
      const { index, findings } = await sdkFindings(v, text);
      const here = completeFindings(findings, { index, sdk, language: 'en' }).map((f) => [
        f.message,
        f.related ?? [],
      ]);
      const file = join(work, `n${i}.json`);
      writeFileSync(file, JSON.stringify({ text, findings }));
      const child = spawnSync(process.execPath, ['-e', readFileSync(script, 'utf8'), SDK_DIR, file], {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      });
      assert.equal(child.status, 0, child.stderr);
      assert.deepEqual(JSON.parse(JSON.stringify(here)), JSON.parse(child.stdout), `notice ${i}`);
      composed += here.length;
    }
    assert.ok(composed > 600, `enough findings composed (${composed})`);
  });
});
