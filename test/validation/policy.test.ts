// The validation policy against the CVS's own contract (/work/shared/specs/notice-validation-api.md):
// a local HTTP service answers each status the spec lists (ErrorResponse bodies, section 7), the real
// client (core/services) turns it into a CvsError, and classifyFailure must give the meaning the spec
// implies: 401 (header missing) needs a key, 403 (key invalid) blocks until the key changes, 400 about
// language / mode / missing rules for a version refuses those options, a 400 that names an element of
// the notice is a finding on it. Statuses the spec leaves open (5xx, no answer) are transient. Each
// preflight verdict is derived from the same contract (the key travels in X-API-Key, so never over
// plain http off loopback) and from XML well-formedness.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { indexXml } from '../../core/notice';
import { SdkError } from '../../core/sdk';
import { CvsError, validateNotice } from '../../core/services';
import { DEFAULT_SETTINGS, type EformsSettings } from '../../core/settings';
import {
  BACKOFF,
  backoffDelay,
  classifyFailure,
  cvsPipeline,
  DEFAULT_MAX_SERVICE_BYTES,
  enginesOf,
  noticePreflight,
  preflight,
  prepareNotice,
  RETRY_RULE,
  servicePreflight,
  validateOnce,
} from '../../core/validation';

const NOTICE = `<?xml version="1.0" encoding="UTF-8"?>
<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2"
  xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>eforms-sdk-1.15</cbc:CustomizationID>
  <cbc:ID>1</cbc:ID>
</ContractNotice>
`;

/** The spec's ErrorResponse (section 2). */
function errorResponse(status: number, message: string): string {
  return JSON.stringify({ errorCode: status, message, timestamp: '2026-01-01T00:00:00Z' });
}

describe('validation policy: failures of the CVS (spec section 7) and what they mean', () => {
  let server: Server;
  let base = '';
  /** What the fake service answers next: status and body. */
  let answer: { status: number; body: string } = { status: 200, body: '' };
  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  async function failureFor(status: number, message: string, apiKey: string | undefined = 'k') {
    answer = { status, body: errorResponse(status, message) };
    const err = await validateNotice({
      baseUrl: base,
      apiKey,
      notice: Buffer.from(NOTICE),
      timeoutMs: 10000,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof CvsError, `status ${status} must fail with a CvsError`);
    return classifyFailure('cvs', err);
  }

  test('401, header X-API-Key missing: needs a key, not retried until the key changes', async () => {
    const f = await failureFor(401, 'Missing API key');
    assert.equal(f.class, 'needs-key');
    assert.ok('retry' in f && f.retry === 'settings-change');
  });

  test('403, key invalid: blocking until the settings change', async () => {
    const f = await failureFor(403, 'Invalid API key');
    assert.equal(f.class, 'blocking');
    assert.ok('retry' in f && f.retry === 'settings-change' && !f.offline);
  });

  test('400, language / validationMode not valid, rules missing for the version: these options are refused', async () => {
    for (const said of [
      "Invalid value 'xx' for parameter language",
      "Invalid value 'fast' for parameter validationMode",
      'No rules found for the requested version eforms-sdk-0.9',
    ]) {
      const f = await failureFor(400, said);
      assert.equal(f.class, 'request-refused', said);
      assert.ok('retry' in f && f.retry === 'options-change', said);
    }
  });

  test('400 whose explanation names an element of the notice: a finding on the notice', async () => {
    const f = await failureFor(400, 'The element cbc:CustomizationID has an unsupported value');
    assert.equal(f.class, 'notice-refused');
    assert.ok(f.class === 'notice-refused' && /cbc:CustomizationID/.test(f.explanation));
  });

  test('statuses the spec leaves open (5xx) are transient: backed off, then retried', async () => {
    const f = await failureFor(503, 'Service unavailable');
    assert.equal(f.class, 'transient');
    assert.ok('retry' in f && f.retry === 'backoff' && !f.offline);
  });

  test('no answer at all (connection refused): transient and offline', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    const err = await validateNotice({
      baseUrl: url,
      apiKey: 'k',
      notice: Buffer.from(NOTICE),
      timeoutMs: 10000,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const f = classifyFailure('cvs', err);
    assert.equal(f.class, 'transient');
    assert.ok('offline' in f && f.offline);
  });

  test('an abort is a cancellation, for both engines; anything unexpected is still classified', () => {
    const abort = new Error('stop');
    abort.name = 'AbortError';
    assert.equal(classifyFailure('local', abort).class, 'cancelled');
    assert.equal(classifyFailure('cvs', new CvsError('cancelled', 'x', false)).class, 'cancelled');
    const odd = classifyFailure('cvs', new TypeError('boom'));
    assert.equal(odd.class, 'transient', 'an unexpected error of the service is retried later');
    const oddLocal = classifyFailure('local', new TypeError('boom'));
    assert.ok(
      'cause' in oddLocal && oddLocal.cause.service === 'sdk' && oddLocal.cause.error.kind === 'engine',
    );
  });

  test('SDK failures: offline is transient, no SDK at all blocks, the rest refuses only that release and subtype', () => {
    const offline = classifyFailure('local', new SdkError('offline', { reason: 'no connection' }));
    assert.ok(offline.class === 'transient' && offline.offline);
    assert.equal(classifyFailure('local', new SdkError('no-sdk', {})).class, 'blocking');
    // One notice's release (1.7 missing, not allowed to download, corrupt) must not stop the others'.
    for (const kind of [
      'engine',
      'time-budget',
      'version-missing',
      'consent-needed',
      'not-found',
      'no-version',
      'corrupt',
      'cancelled',
    ] as const)
      assert.equal(classifyFailure('local', new SdkError(kind, {})).class, 'request-refused', kind);
  });

  test('validateOnce: a refused notice comes back as the local checks plus one finding where it points', async () => {
    answer = { status: 400, body: errorResponse(400, 'The element cbc:ID is not allowed here') };
    const notice = prepareNotice(NOTICE);
    const r = await validateOnce(notice, cvsPipeline({ baseUrl: base, apiKey: 'k' }), {
      language: 'en',
      mode: 'static',
      sdkVersion: '',
      timeoutMs: 10000,
    });
    assert.equal(r.outcome, 'notice-refused');
    const refused = r.findings.filter((f) => f.source === 'cvs');
    assert.equal(refused.length, 1);
    // Line 5 (0-based 4) holds <cbc:ID>: the element the explanation names.
    assert.equal(refused[0]?.range.start.line, 4);
  });
});

describe('validation policy: preflight verdicts', () => {
  const wellFormed = indexXml(NOTICE);
  const broken = indexXml('<ContractNotice><cbc:ID></ContractNotice>');

  test('no key: needs-key, before anything else', () => {
    assert.deepEqual(servicePreflight({ apiKey: undefined, baseUrl: 'https://cvs.example.org' }), {
      ok: false,
      reason: 'needs-key',
    });
    assert.equal(servicePreflight({ apiKey: '', baseUrl: 'https://cvs.example.org' }).ok, false);
    const both = preflight({
      engine: 'cvs',
      index: broken,
      byteLength: 10,
      baseUrl: 'http://cvs.example.org',
    });
    assert.ok(!both.ok && both.reason === 'needs-key', 'the key comes first');
  });

  test('the key over plain http to a remote host: insecure; to loopback or over https: allowed', () => {
    const v = servicePreflight({ apiKey: 'k', baseUrl: 'http://cvs.example.org' });
    assert.ok(!v.ok && v.reason === 'insecure' && v.origin === 'http://cvs.example.org');
    assert.deepEqual(servicePreflight({ apiKey: 'k', baseUrl: 'http://127.0.0.1:8723' }), { ok: true });
    assert.deepEqual(servicePreflight({ apiKey: 'k', baseUrl: 'https://cvs.example.org' }), { ok: true });
  });

  test('not well-formed: malformed, for both engines (no key needed for the SDK rules)', () => {
    assert.ok(broken.errors.length > 0, 'the probe must be malformed XML');
    for (const engine of ['cvs', 'local'] as const) {
      const v = preflight({ engine, index: broken, byteLength: 10, apiKey: 'k', baseUrl: 'https://x.org' });
      assert.ok(!v.ok && v.reason === 'malformed', engine);
    }
    assert.deepEqual(preflight({ engine: 'local', index: wellFormed, byteLength: 10 }), { ok: true });
  });

  test('too large for the service: only the CVS is refused, at one byte over the limit', () => {
    const limit = 1000;
    assert.deepEqual(
      noticePreflight({ engine: 'cvs', index: wellFormed, byteLength: limit, maxServiceBytes: limit }),
      {
        ok: true,
      },
    );
    assert.deepEqual(
      noticePreflight({ engine: 'cvs', index: wellFormed, byteLength: limit + 1, maxServiceBytes: limit }),
      { ok: false, reason: 'too-large', bytes: limit + 1, limit },
    );
    assert.deepEqual(
      noticePreflight({ engine: 'local', index: wellFormed, byteLength: limit + 1, maxServiceBytes: limit }),
      { ok: true },
    );
    assert.equal(DEFAULT_MAX_SERVICE_BYTES, 10 * 1024 * 1024);
  });
  test('more elements than the SDK rules can hold: only the local engine is refused, at one element over', () => {
    // Counted by a regular expression over the text, not by the index: 5,000,000 elements are the limit.
    const dense = (n: number) => `<r>${'<a/>'.repeat(n - 1)}</r>`;
    const count = (text: string) => text.match(/<[a-z]/g)?.length ?? 0;
    const at = dense(5_000_000);
    const over = dense(5_000_001);
    assert.equal(count(at), 5_000_000);
    assert.deepEqual(noticePreflight({ engine: 'local', index: indexXml(at), byteLength: at.length }), {
      ok: true,
    });
    const index = indexXml(over);
    assert.deepEqual(noticePreflight({ engine: 'local', index, byteLength: over.length }), {
      ok: false,
      reason: 'too-many-elements',
      elements: count(over),
      limit: 5_000_000,
    });
    // The service is judged by its own limit, in bytes, not by what this machine's rules can hold.
    const v = noticePreflight({ engine: 'cvs', index, byteLength: over.length });
    assert.ok(!v.ok && v.reason === 'too-large', JSON.stringify(v));
    assert.deepEqual(noticePreflight({ engine: 'cvs', index, byteLength: 1000, maxServiceBytes: 2000 }), {
      ok: true,
    });
  });
});

describe('validation policy: retry numbers and engines', () => {
  test('back-off doubles from the base and stops at the cap', () => {
    assert.equal(backoffDelay(1), BACKOFF.baseMs);
    assert.equal(backoffDelay(2), 2 * BACKOFF.baseMs);
    assert.equal(backoffDelay(3), 4 * BACKOFF.baseMs);
    assert.equal(backoffDelay(100), BACKOFF.maxMs);
    assert.equal(backoffDelay(4, 100, 500), 500);
  });

  test('each failure class has its retry rule', () => {
    assert.deepEqual(RETRY_RULE, {
      cancelled: 'never',
      'notice-refused': 'never',
      transient: 'backoff',
      'needs-key': 'settings-change',
      blocking: 'settings-change',
      'request-refused': 'options-change',
    });
  });

  test('engines from eforms.validation.engine, the SDK rules only where available', () => {
    const s = (engine: EformsSettings['validation']['engine']): EformsSettings => ({
      ...DEFAULT_SETTINGS,
      validation: { ...DEFAULT_SETTINGS.validation, engine },
    });
    assert.deepEqual(enginesOf(s('both'), true), ['local', 'cvs']);
    assert.deepEqual(enginesOf(s('both'), false), ['cvs']);
    assert.deepEqual(enginesOf(s('local'), true), ['local']);
    assert.deepEqual(enginesOf(s('local'), false), []);
    assert.deepEqual(enginesOf(s('cvs'), true), ['cvs']);
  });
});
