// The pipeline's cache: every option that changes an engine's answer changes the key (so a cached
// report is never given for another request), and the same request, built again from the same bytes,
// is answered from the cache without asking the engine. The engine here counts its calls and answers
// with what it was asked, so a wrong hit shows as a wrong answer too.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { indexXml } from '../../core/notice';
import { parseSvrl } from '../../core/svrl';
import {
  type EngineName,
  type EngineReport,
  type ValidationInput,
  ValidationPipeline,
  type Validator,
} from '../../core/validation';

const SVRL = '<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl"/>';

class EchoValidator implements Validator {
  calls = 0;
  constructor(readonly engine: EngineName) {}
  async validate(input: ValidationInput): Promise<EngineReport> {
    this.calls++;
    return {
      engine: this.engine,
      report: parseSvrl(SVRL),
      svrl: JSON.stringify([input.language, input.mode, input.sdkVersion, input.pinned, input.today]),
      sdkVersion: input.sdkVersion,
      because: input.pinned ? 'pinned' : 'declared',
      notEvaluated: [],
    };
  }
}

const TEXT = '<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2"/>';

function input(o: Partial<ValidationInput> = {}, text = TEXT): ValidationInput {
  return {
    index: indexXml(text),
    bytes: Buffer.from(text, 'utf8'),
    language: 'en',
    mode: 'static',
    sdkVersion: '1.15',
    pinned: false,
    timeoutMs: 1000,
    today: '2026-01-01',
    ...o,
  };
}

describe('validation pipeline cache key', () => {
  test('every option that changes the answer changes the key', () => {
    const p = new ValidationPipeline(new EchoValidator('local'), '/sdk/a');
    const base = p.keyOf(input());
    const variants: Record<string, string> = {
      bytes: p.keyOf(input({}, `${TEXT} `)),
      language: p.keyOf(input({ language: 'fr' })),
      mode: p.keyOf(input({ mode: 'dynamic' })),
      sdkVersion: p.keyOf(input({ sdkVersion: '1.14' })),
      pinned: p.keyOf(input({ pinned: true })),
      today: p.keyOf(input({ today: '2026-01-02' })),
      identity: new ValidationPipeline(new EchoValidator('local'), '/sdk/b').keyOf(input()),
      engine: new ValidationPipeline(new EchoValidator('cvs'), '/sdk/a').keyOf(input()),
    };
    for (const [what, key] of Object.entries(variants)) assert.notEqual(key, base, what);
    assert.equal(new Set(Object.values(variants)).size, Object.keys(variants).length, 'all keys distinct');
  });

  test('what does not change the answer does not change the key: timeout, signal, a fresh index', () => {
    const p = new ValidationPipeline(new EchoValidator('cvs'), 'https://cvs.example.org');
    const base = p.keyOf(input());
    assert.equal(p.keyOf(input({ timeoutMs: 99999 })), base);
    assert.equal(p.keyOf(input({ signal: new AbortController().signal })), base);
  });

  test('identical input hits: the engine is asked once, and each different request once more', async () => {
    const v = new EchoValidator('local');
    const p = new ValidationPipeline(v, '/sdk/a');
    const first = await p.report(input());
    const again = await p.report(input());
    assert.equal(v.calls, 1);
    assert.equal(again, first);
    assert.equal(p.cached(input()), first);
    const pinned = await p.report(input({ pinned: true }));
    assert.equal(v.calls, 2);
    assert.equal(pinned.because, 'pinned', 'a pinned request never gets the declared answer');
    const french = await p.report(input({ language: 'fr' }));
    assert.equal(v.calls, 3);
    assert.match(french.svrl, /"fr"/);
  });
});
