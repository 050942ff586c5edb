// Fidelity to what known working clients send and the real services answer (issue 11): the SDK version
// field (left out unless pinned, `eforms-sdk-MAJOR.MINOR` when pinned, both spellings accepted by the
// sandbox, a version-less notice validated when the request names one), the submit metadata as a plain
// form field (and the file part still accepted), and a 400 that explains what the notice lacks shown as
// the service's own words on the notice.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import busboy from 'busboy';
import { indexXml } from '../../core/notice/xml-index';
import { CvsError, validateNotice } from '../../core/services/cvs-client';
import { EnoticesClient } from '../../core/services/enotices-client';
import { REJECTION_FINDING_ID, rejectionFinding } from '../../core/validation/service-rejection';
import {
  readNoticeFixture,
  type SandboxHarness,
  startHarness,
  TEST_API_KEY,
} from '../support/sandbox-harness';
import { PROJECT_ROOT } from '../support/shared-data';

let h: SandboxHarness;
before(async () => {
  h = await startHarness();
});
after(() => h?.close());

const NOTICE = readNoticeFixture('valid-cn.xml').toString('utf8');
const WITHOUT_VERSION = NOTICE.replace(/\s*<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/, '');

/** A loopback server that records the JSON body of one validation request and answers 400. */
async function capture(): Promise<{
  url: string;
  bodies: Record<string, unknown>[];
  close(): Promise<void>;
}> {
  const bodies: Record<string, unknown>[] = [];
  const srv = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => {
      raw += d;
    });
    req.on('end', () => {
      bodies.push(JSON.parse(raw) as Record<string, unknown>);
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"errorCode":400,"message":"x"}');
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    bodies,
    close: () => new Promise((r) => srv.close(() => r())),
  };
}

describe('eFormsSdkVersion', () => {
  test('left out unless pinned; sent as eforms-sdk-MAJOR.MINOR when pinned', async () => {
    const c = await capture();
    try {
      for (const pinned of [undefined, '', '1.14']) {
        await validateNotice({
          baseUrl: c.url,
          apiKey: TEST_API_KEY,
          notice: Buffer.from(NOTICE),
          eFormsSdkVersion: pinned,
          timeoutMs: 5000,
        }).catch(() => undefined);
      }
      assert.equal('eFormsSdkVersion' in (c.bodies[0] ?? {}), false, 'unpinned: absent');
      assert.equal('eFormsSdkVersion' in (c.bodies[1] ?? {}), false, 'empty: absent');
      assert.equal(c.bodies[2]?.eFormsSdkVersion, 'eforms-sdk-1.14');
    } finally {
      await c.close();
    }
  });

  test('the sandbox accepts both spellings, and validates a version-less notice when the request names one', async () => {
    for (const v of ['1.15', 'eforms-sdk-1.15']) {
      const r = await h.validate(NOTICE, { eFormsSdkVersion: v });
      assert.equal(r.status, 200, `${v}: ${r.text}`);
      const r2 = await h.validate(WITHOUT_VERSION, { eFormsSdkVersion: v });
      assert.equal(r2.status, 200, `version-less notice with ${v}: ${r2.text}`);
    }
  });
});

describe('a notice the service refuses (400 naming what the XML lacks)', () => {
  test("the service's own explanation, placed where it points; not the settings advice", async () => {
    const e = await validateNotice({
      baseUrl: `${h.origin}/cvs`,
      apiKey: TEST_API_KEY,
      notice: Buffer.from(WITHOUT_VERSION),
      timeoutMs: 10_000,
    }).then(
      () => assert.fail('expected a 400'),
      (err: unknown) => err,
    );
    assert.ok(e instanceof CvsError);
    assert.equal(e.kind, 'notice-rejected');
    const said = e.fields.serviceMessage ?? '';
    assert.match(said, /cbc:CustomizationID/);
    assert.doesNotMatch(e.message, /eforms\.validation\.language|eforms\.validation\.mode/);
    // The explanation names an element the notice lacks: the finding sits on the root, where it goes.
    const index = indexXml(WITHOUT_VERSION);
    const f = rejectionFinding(index, said);
    assert.equal(f.id, REJECTION_FINDING_ID);
    assert.equal(f.severity, 'error');
    assert.ok(f.message.includes(said));
    assert.deepEqual(f.range.start, index.positionAt(index.elements[0]?.start ?? 0));
  });

  test('an explanation naming an element the notice has is placed on that element, whatever its prefix', () => {
    const text = NOTICE.replace(/cbc:/g, 'b:').replace(/xmlns:cbc=/, 'xmlns:b=');
    const index = indexXml(text);
    const f = rejectionFinding(index, 'cbc:ContractFolderID must be a UUID');
    const el = index.elements.find((x) => x.local === 'ContractFolderID');
    assert.ok(el);
    assert.deepEqual(f.range.start, index.positionAt(el.start));
    assert.equal(f.resolved, true);
  });

  test('a 400 about the request (a pinned version without rules) stays a request problem', async () => {
    const e = await validateNotice({
      baseUrl: `${h.origin}/cvs`,
      apiKey: TEST_API_KEY,
      notice: Buffer.from(NOTICE),
      eFormsSdkVersion: '9.9',
      timeoutMs: 10_000,
    }).then(
      () => assert.fail('expected a 400'),
      (err: unknown) => err,
    );
    assert.ok(e instanceof CvsError);
    assert.equal(e.kind, 'bad-request');
    assert.match(e.fields.serviceMessage ?? '', /9\.9/);
  });
});

describe('submit metadata', () => {
  test('sent as a plain form field carrying the JSON text, without a filename', async () => {
    const parts: { name: string; filename?: string; value: string }[] = [];
    const srv = createServer((req: IncomingMessage, res) => {
      const bb = busboy({ headers: req.headers });
      bb.on('field', (name, value) => parts.push({ name, value }));
      bb.on('file', (name, stream, info) => {
        let value = '';
        stream.on('data', (d: Buffer) => {
          value += d.toString('utf8');
        });
        stream.on('end', () => parts.push({ name, filename: info.filename, value }));
      });
      bb.on('close', () => {
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"success":true}');
      });
      req.pipe(bb);
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const client = new EnoticesClient({
        baseUrl: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/esenders`,
        apiKey: TEST_API_KEY,
      });
      await client.submit(NOTICE, { noticeAuthorEmail: 'buyer@example.org', noticeAuthorLocale: 'en' });
      const meta = parts.find((p) => p.name === 'metadata');
      assert.ok(meta, JSON.stringify(parts));
      assert.equal(meta.filename, undefined, 'a plain field, not a file part');
      assert.deepEqual(JSON.parse(meta.value), {
        noticeAuthorEmail: 'buyer@example.org',
        noticeAuthorLocale: 'en',
      });
      assert.equal(parts.find((p) => p.name === 'notice')?.filename, 'notice.xml');
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });

  test('the sandbox accepts metadata both as a plain field and as a metadata.json file part', async () => {
    for (const asFile of [false, true]) {
      const form = new FormData();
      const xml = NOTICE.replace(/(<cbc:ID schemeName="notice-id">)[^<]*/, `$1${randomUUID()}`);
      form.append('notice', new Blob([xml], { type: 'application/xml' }), 'notice.xml');
      const meta = JSON.stringify({ noticeAuthorEmail: 'buyer@example.org', noticeAuthorLocale: 'en' });
      if (asFile) form.append('metadata', new Blob([meta], { type: 'application/json' }), 'metadata.json');
      else form.append('metadata', meta);
      const res = await fetch(`${h.origin}/esenders/api/v2/notice/notices/submit`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_API_KEY}` },
        body: form,
      });
      assert.equal(res.status, 201, `${asFile ? 'file part' : 'plain field'}: ${await res.text()}`);
    }
  });
});

describe('eforms sandbox --publish-delay', () => {
  function firstLines(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
    return new Promise((resolve) => {
      const p = spawn(
        process.execPath,
        [join(PROJECT_ROOT, 'dist', 'cli.js'), 'sandbox', '--port', '0', ...args],
        {
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
        },
      );
      let out = '';
      let err = '';
      p.stdout.on('data', (d) => {
        out += d;
        if (/publish/.test(out)) p.kill('SIGTERM');
      });
      p.stderr.on('data', (d) => {
        err += d;
      });
      p.on('close', (code) => resolve({ code, out, err }));
    });
  }

  test('a realistic default (120 s per step), the flag, and a usage error for nonsense', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eforms-delay-'));
    try {
      const byDefault = await firstLines(['--data-dir', dir]);
      assert.match(byDefault.out, /publish +SUBMITTED 120 s, then PUBLISHING 120 s/);
      const set = await firstLines(['--data-dir', dir, '--publish-delay', '30']);
      assert.match(set.out, /publish +SUBMITTED 30 s, then PUBLISHING 30 s/);
      const bad = await firstLines(['--data-dir', dir, '--publish-delay', 'soon']);
      assert.equal(bad.code, 2);
      assert.match(bad.err, /--publish-delay takes a number of seconds/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
