// The sandbox's TED Visualisation API, POST /ted/v3/notices/render, over HTTP: the request shape TED's
// developer documentation gives ({"file": base64, "language", "format": "HTML"|"PDF", "summary"}), the
// key as a bearer token or in X-API-Key, HTML rendered from the SDK's view templates (the labels checked
// against the SDK's translation files, read here with a regular expression), PDF a 501 said in words,
// and every error an ErrorResponse.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createRenderService } from '../../sandbox/render/service';
import { type RunningSandbox, startSandbox } from '../../sandbox/server';
import { SAMPLES_DIR, SDK_DIR, SHARED_DIR, skipUnless } from '../support/shared-data';

const KEY = 'render-test-key';
const PATH = '/ted/v3/notices/render';
const skip = skipUnless(SDK_DIR) ?? skipUnless(join(SAMPLES_DIR, 'notices'));

function label(kind: string, lang: string, key: string): string {
  const text = readFileSync(join(SDK_DIR, 'translations', `${kind}_${lang}.xml`), 'utf8');
  const m = new RegExp(`<entry key="${key.replace(/[|()]/g, '\\$&')}">([^<]*)</entry>`).exec(text);
  assert.ok(m, `no ${key} in ${kind}_${lang}.xml`);
  return m[1].replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

describe('sandbox: POST /ted/v3/notices/render', { skip }, () => {
  let sandbox: RunningSandbox;
  let cache: string;
  const notice = () => readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_minimal.xml'));

  before(async () => {
    cache = mkdtempSync(join(tmpdir(), 'render-sandbox-'));
    sandbox = await startSandbox({
      port: 0,
      apiKeys: [KEY],
      dataDir: join(cache, 'data'),
      services: [
        (ctx) => createRenderService(ctx, { path: join(SHARED_DIR, 'eforms-sdk'), cacheRoot: cache }),
      ],
      log: () => undefined,
    });
  });
  after(async () => {
    await sandbox.close();
    rmSync(cache, { recursive: true, force: true });
  });

  async function post(body: unknown, headers: Record<string, string> = { authorization: `Bearer ${KEY}` }) {
    const res = await fetch(`${sandbox.origin}${PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  }

  function errorOf(a: { status: number; type: string; text: string }, status: number): string {
    assert.equal(a.status, status, a.text);
    assert.match(a.type, /^application\/json/);
    const j = JSON.parse(a.text) as { errorCode: number; message: string; timestamp: string };
    assert.equal(j.errorCode, status);
    assert.ok(j.message.length > 10);
    assert.ok(!Number.isNaN(Date.parse(j.timestamp)));
    assert.ok(!j.message.includes(KEY), 'the key is echoed');
    return j.message;
  }

  test('HTML in English and in French, labels from the SDK translations', async () => {
    for (const lang of ['en', 'fr']) {
      const a = await post({
        file: notice().toString('base64'),
        language: lang,
        format: 'HTML',
        summary: false,
      });
      assert.equal(a.status, 200, a.text);
      assert.match(a.type, /^text\/html/);
      assert.match(a.text, /^<!DOCTYPE html>/);
      assert.ok(a.text.includes(`<html lang="${lang}">`));
      assert.ok(a.text.includes(label('auxiliary', lang, 'auxiliary|text|buyer')), 'buyer heading');
      assert.ok(a.text.includes(label('field', lang, 'field|name|BT-21-Procedure')), 'title label');
      assert.ok(
        a.text.includes(label('code', lang, 'code|name|buyer-legal-type.eu-ins-bod-ag')),
        'code name',
      );
      assert.ok(a.text.includes('Provision of IT Services Related to OP IT Systems'));
    }
  });

  test('the key in X-API-Key is accepted too; missing 401, unknown 403', async () => {
    const body = { file: notice().toString('base64'), language: 'en', format: 'HTML' };
    assert.equal((await post(body, { 'x-api-key': KEY })).status, 200);
    errorOf(await post(body, {}), 401);
    errorOf(await post(body, { authorization: 'Bearer nope' }), 403);
  });

  test('PDF answers 501 in words', async () => {
    const m = errorOf(await post({ file: notice().toString('base64'), language: 'en', format: 'PDF' }), 501);
    assert.match(m, /HTML only/);
    // PDF is the API's default format.
    errorOf(await post({ file: notice().toString('base64'), language: 'en' }), 501);
  });

  test('bad requests: 400 with what to send', async () => {
    assert.match(errorOf(await post('not json'), 400), /not JSON/);
    assert.match(errorOf(await post([1]), 400), /JSON object/);
    assert.match(errorOf(await post({ language: 'en', format: 'HTML' }), 400), /"file" is missing/);
    assert.match(errorOf(await post({ file: '%%%', format: 'HTML' }), 400), /not valid base64/);
    assert.match(errorOf(await post({ file: notice().toString('base64'), format: 'DOCX' }), 400), /"format"/);
    assert.match(
      errorOf(await post({ file: notice().toString('base64'), format: 'HTML', language: 'english' }), 400),
      /two-letter/,
    );
    assert.match(
      errorOf(await post({ file: notice().toString('base64'), format: 'HTML', language: 'zz' }), 400),
      /not one of the SDK's/,
    );
    assert.match(
      errorOf(await post({ file: Buffer.from('<a><b></a>').toString('base64'), format: 'HTML' }), 400),
      /not well-formed/,
    );
    assert.match(
      errorOf(await post({ file: Buffer.from([0xff, 0xfe, 0x00]).toString('base64'), format: 'HTML' }), 400),
      /UTF-8/,
    );
    assert.match(
      errorOf(await post({ file: Buffer.from('<Notice/>').toString('base64'), format: 'HTML' }), 400),
      /cannot be rendered/,
    );
  });

  test('wrong method and path', async () => {
    const get = await fetch(`${sandbox.origin}${PATH}`, { headers: { authorization: `Bearer ${KEY}` } });
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    const other = await fetch(`${sandbox.origin}/ted/v3/notices/other`, { method: 'POST' });
    assert.equal(other.status, 404);
  });

  const real = join(SHARED_DIR, 'real-notices', 'notices', '127505-2024.xml');
  test('a real notice declaring SDK 1.7 renders with the newest templates', {
    skip: skipUnless(real),
  }, async () => {
    const a = await post({ file: readFileSync(real).toString('base64'), language: 'en', format: 'HTML' });
    assert.equal(a.status, 200, a.text);
    assert.match(a.text, /eForms SDK 1\.15\.1/);
  });
});
