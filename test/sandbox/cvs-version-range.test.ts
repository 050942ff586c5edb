// GET /cvs/v1/version-range: the sandbox's answer (TED's shape: {"minVersion", "maxVersion"}), the
// core client that reads it, the one-day cache (counted in the sandbox's own request statistics), the
// comparison of a notice's version with the range, and `eforms versions`. The range must agree with
// what the sandbox's eNotices2 accepts for publication: a notice outside it is refused at submit.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { main } from '../../cli/main';
import { CvsError } from '../../core/services/cvs-client';
import { EnoticesClient, EnoticesError } from '../../core/services/enotices-client';
import {
  compareSdkVersions,
  fetchVersionRange,
  parseVersionRange,
  placeInRange,
  VERSION_RANGE_TTL_MS,
  VersionRangeCache,
} from '../../core/services/version-range';
import {
  readNoticeFixture,
  type SandboxHarness,
  startHarness,
  TEST_API_KEY,
} from '../support/sandbox-harness';

let h: SandboxHarness;
before(async () => {
  h = await startHarness();
});
after(() => h?.close());

async function requests(): Promise<number> {
  const stats = (await (await fetch(`${h.origin}/_sandbox/stats`)).json()) as {
    requests: Record<string, number>;
  };
  return stats.requests['GET /cvs/v1/version-range'] ?? 0;
}

describe('GET /cvs/v1/version-range', () => {
  test('answers JSON with a minimum and a maximum version, with or without a key', async () => {
    for (const apiKey of [TEST_API_KEY, null]) {
      const r = await h.request('GET', '/cvs/v1/version-range', { apiKey });
      assert.equal(r.status, 200);
      assert.match(r.contentType, /application\/json/);
      const body = JSON.parse(r.text) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body).sort(), ['maxVersion', 'minVersion']);
      assert.match(String(body.minVersion), /^\d+\.\d+\.\d+$/);
      assert.match(String(body.maxVersion), /^\d+\.\d+\.\d+$/);
    }
  });

  test('a wrong key is 403 and a POST is 405, as ErrorResponse bodies', async () => {
    const bad = await h.request('GET', '/cvs/v1/version-range', { apiKey: 'wrong' });
    assert.equal(bad.status, 403);
    assert.equal((JSON.parse(bad.text) as { errorCode: number }).errorCode, 403);
    const post = await h.request('POST', '/cvs/v1/version-range', { body: '{}' });
    assert.equal(post.status, 405);
  });

  test('the client reads it; a wrong key is a CvsError of kind forbidden', async () => {
    const range = await fetchVersionRange({ baseUrl: `${h.origin}/cvs`, apiKey: TEST_API_KEY });
    const raw = JSON.parse((await h.request('GET', '/cvs/v1/version-range')).text) as Record<string, string>;
    assert.deepEqual(range, { min: raw.minVersion, max: raw.maxVersion });
    await assert.rejects(
      fetchVersionRange({ baseUrl: `${h.origin}/cvs`, apiKey: 'wrong' }),
      (e: unknown) => e instanceof CvsError && e.kind === 'forbidden',
    );
  });

  test('the range matches what eNotices2 accepts: inside is submitted, above is refused', async () => {
    const range = await fetchVersionRange({ baseUrl: `${h.origin}/cvs` });
    const [major, minor] = range.max.split('.');
    const client = new EnoticesClient({ baseUrl: `${h.origin}/esenders`, apiKey: TEST_API_KEY });
    const meta = { noticeAuthorEmail: 'buyer@example.org', noticeAuthorLocale: 'en' };
    const notice = readNoticeFixture('valid-cn.xml').toString('utf8');
    const withVersion = (v: string) =>
      notice
        .replace(/eforms-sdk-\d+\.\d+/, `eforms-sdk-${v}`)
        .replace(/(<cbc:ID schemeName="notice-id">)[^<]*/, `$1${crypto.randomUUID()}`);
    assert.equal(placeInRange(`${major}.${minor}`, range), 'inside');
    assert.equal((await client.submit(withVersion(`${major}.${minor}`), meta)).success, true);
    const above = `${major}.${Number(minor) + 1}`;
    assert.equal(placeInRange(above, range), 'above');
    await assert.rejects(
      client.submit(withVersion(above), meta),
      (e: unknown) => e instanceof EnoticesError && e.status === 404,
    );
  });
});

describe('the one-day cache', () => {
  test('one request per service per day, however many ask; asked again after a day', async () => {
    let now = Date.UTC(2026, 0, 1);
    const cache = new VersionRangeCache(undefined, () => now);
    const before = await requests();
    const o = { baseUrl: `${h.origin}/cvs`, apiKey: TEST_API_KEY };
    const answers = await Promise.all([
      cache.get(o),
      cache.get(o),
      cache.get({ ...o, baseUrl: `${o.baseUrl}/` }),
    ]);
    assert.ok(answers.every((a) => a && a.max === answers[0]?.max));
    now += VERSION_RANGE_TTL_MS - 1;
    await cache.get(o);
    assert.equal((await requests()) - before, 1, 'one request within the day');
    now += 1;
    await cache.get(o);
    assert.equal((await requests()) - before, 2, 'asked again after a day');
  });

  test('a failure gives undefined (the warning is advisory) and is not kept for a day', async () => {
    let now = 0;
    let calls = 0;
    const cache = new VersionRangeCache(
      async () => {
        calls++;
        throw new CvsError('network', 'down', true);
      },
      () => now,
    );
    assert.equal(await cache.get({ baseUrl: 'https://cvs.example' }), undefined);
    await cache.get({ baseUrl: 'https://cvs.example' });
    assert.equal(calls, 1);
    now += 10 * 60 * 1000;
    await cache.get({ baseUrl: 'https://cvs.example' });
    assert.equal(calls, 2);
  });
});

describe('versions', () => {
  test('shapes TED and others write are read; nonsense is not', () => {
    assert.deepEqual(parseVersionRange('{"minVersion":"1.10.0","maxVersion":"1.15.1"}'), {
      min: '1.10.0',
      max: '1.15.1',
    });
    assert.deepEqual(parseVersionRange('{"min":"eforms-sdk-1.10","max":"eforms-sdk-1.13"}'), {
      min: '1.10',
      max: '1.13',
    });
    assert.deepEqual(parseVersionRange('{"minimumVersion":"1.9.1","maximumVersion":"1.12.0"}'), {
      min: '1.9.1',
      max: '1.12.0',
    });
    for (const bad of [
      '[]',
      '{}',
      '{"min":"1.10"}',
      '{"min":"1.12","max":"1.10"}',
      '{"min":"one","max":"two"}',
      '<html>',
    ])
      assert.equal(parseVersionRange(bad), undefined, bad);
  });

  test('comparison is numeric, and a MAJOR.MINOR is inside whatever the patch bounds', () => {
    assert.equal(compareSdkVersions('1.9', '1.10'), -1);
    assert.equal(compareSdkVersions('1.10.0', '1.10'), 0);
    assert.equal(compareSdkVersions('2.0', '1.99.9'), 1);
    const range = { min: '1.10.2', max: '1.13.1' };
    assert.equal(placeInRange('1.9', range), 'below');
    assert.equal(placeInRange('1.10', range), 'inside');
    assert.equal(placeInRange('1.13', range), 'inside');
    assert.equal(placeInRange('1.14', range), 'above');
  });
});

describe('eforms versions', () => {
  async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await main(['versions', ...args], {
      out: (t) => {
        out += `${t}\n`;
      },
      err: (t) => {
        err += `${t}\n`;
      },
      env: { EFORMS_ENV: 'sandbox', EFORMS_SANDBOX_URL: h.origin },
      cwd: process.cwd(),
    });
    return { code, out, err };
  }

  test('prints the range (EFORMS_ENV and EFORMS_SANDBOX_URL honoured) and judges each notice', async () => {
    const r = await run(['test/fixtures/notices/valid-cn.xml', '--format', 'json']);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out) as {
      min: string;
      max: string;
      notices: { declared: string; accepted: boolean }[];
    };
    assert.equal(j.notices[0]?.declared, '1.15');
    assert.equal(j.notices[0]?.accepted, true);
    const text = await run([]);
    assert.match(
      text.out,
      new RegExp(`accepts eForms SDK ${j.min.replace(/\./g, '\\.')} to ${j.max.replace(/\./g, '\\.')}`),
    );
    const none = await run(['test/fixtures/notices/not-eforms.xml']);
    assert.equal(none.code, 1);
    assert.match(none.out, /declares no SDK version/);
  });
});
