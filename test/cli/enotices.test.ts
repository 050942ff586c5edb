// The publication subcommands (submit, report, search, stop, convert) run in-process against the
// sandbox: exit statuses (0 ok, 1 refused or has errors, 2 usage or service failure) and messages.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CliIo } from '../../cli/io';
import { main } from '../../cli/main';
import {
  FIXTURES,
  freshNotice,
  invalidNotice,
  KEY,
  startTestSandbox,
  type TestSandbox,
} from '../sandbox/enotices-kit';

let s: TestSandbox;
let dir = '';
before(async () => {
  s = await startTestSandbox();
  dir = mkdtempSync(join(tmpdir(), 'enotices-cli-'));
});
after(() => s.close());

async function run(args: string[], env: Record<string, string> = { EFORMS_API_KEY: KEY }) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: dir };
  // submit checks the notice with the CVS first: the sandbox's, beside its eNotices2.
  const cvs = args[0] === 'submit' ? ['--cvs-url', s.base.replace(/\/esenders$/, '/cvs')] : [];
  const code = await main(
    [...args, ...(args.includes('--help') ? [] : ['--enotices-url', s.base, ...cvs])],
    io,
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}
function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return name;
}

describe('eforms submit / report / search / stop', () => {
  test('a valid notice: submitted (0), listed, stopped (0), stopped again refused (1)', async () => {
    const n = freshNotice();
    const f = file('valid.xml', n.xml);
    const sub = await run(['submit', f, '--email', 'buyer@example.org', '--locale', 'en']);
    assert.equal(sub.code, 0, sub.err);
    assert.match(sub.out, new RegExp(`Submitted ${n.businessId}`));
    const table = await run(['search', '--status', 'SUBMITTED']);
    assert.equal(table.code, 0);
    assert.match(table.out, /BUSINESS ID\s+STATUS/);
    assert.ok(table.out.includes(n.businessId));
    const json = await run(['search', '--id', n.noticeId, '--format', 'json']);
    assert.equal(JSON.parse(json.out).content[0].status, 'SUBMITTED');
    assert.equal((await run(['stop', n.businessId])).code, 0);
    const again = await run(['stop', n.businessId]);
    assert.equal(again.code, 1);
    assert.match(again.err, /only while the notice is SUBMITTED/);
    // A terminal user has no My Notices view: the advice names the command instead.
    assert.match(again.err, /eforms search/);
    assert.doesNotMatch(again.err, /My Notices/);
  });

  test('an invalid notice: refused before sending (3), nothing created', async () => {
    const n = invalidNotice();
    const f = file('refused.xml', n.xml);
    const sub = await run(['submit', f, '--email', 'buyer@example.org']);
    assert.equal(sub.code, 3, sub.err);
    // invalid-cn.xml documents BR-BT-00002-0052 (its header comment): listed before the refusal.
    assert.match(sub.out, /error BR-BT-00002-0052/);
    assert.match(sub.err, /NOT submitted: the notice has \d+ errors?.*--force/);
    const json = await run(['search', '--id', n.noticeId, '--format', 'json']);
    assert.equal(JSON.parse(json.out).content.length, 0, 'eNotices2 never saw it');
    const help = await run(['submit', '--help']);
    assert.match(help.out, /3 not sent: the notice has errors/);
  });

  test('an invalid notice with --force: created but not submitted (1); the report lands on the notice lines', async () => {
    const n = invalidNotice();
    const f = file('invalid.xml', n.xml);
    const sub = await run(['submit', f, '--email', 'buyer@example.org', '--force']);
    assert.equal(sub.code, 1);
    assert.match(sub.out, /NOT submitted/);
    const rep = await run(['report', n.businessId, '--notice', f, '--format', 'json']);
    assert.equal(rep.code, 1, rep.err);
    const findings = JSON.parse(rep.out) as { id: string; range: { start: { line: number } } }[];
    // invalid-cn.xml documents BR-BT-00002-0052 on cbc:NoticeTypeCode; find that line by text search.
    const line = n.xml.split('\n').findIndex((l) => l.includes('<cbc:NoticeTypeCode'));
    const hit = findings.find((x) => x.id === 'BR-BT-00002-0052');
    assert.ok(hit, 'BR-BT-00002-0052 reported');
    assert.equal(hit.range.start.line, line);
    const sarif = await run(['report', n.businessId, '--notice', f, '--format', 'sarif']);
    assert.equal(JSON.parse(sarif.out).version, '2.1.0');
  });

  test('a duplicate submission is refused (1) with the advice to increase cbc:VersionID', async () => {
    const f = file('dup.xml', freshNotice().xml);
    assert.equal((await run(['submit', f, '--email', 'a@example.org'])).code, 0);
    const dup = await run(['submit', f, '--email', 'a@example.org']);
    assert.equal(dup.code, 1);
    assert.match(dup.err, /increase cbc:VersionID/);
  });

  test('usage errors and failures are 2 with one clear line', async () => {
    const f = file('v2.xml', freshNotice().xml);
    const noKey = await run(['submit', f, '--email', 'a@example.org'], {});
    assert.equal(noKey.code, 2);
    assert.match(noKey.err, /EFORMS_API_KEY/);
    assert.equal((await run(['submit', f])).code, 2);
    assert.equal((await run(['stop', 'not-an-id'])).code, 2);
    assert.equal((await run(['search', '--status', 'SENT'])).code, 2);
    const main2 = await main(['search', '--enotices-url', 'http://127.0.0.1:1/esenders'], {
      out: () => undefined,
      err: () => undefined,
      env: { EFORMS_API_KEY: KEY },
      cwd: dir,
    });
    assert.equal(main2, 2);
    s.sb.context.faults.add('enotices.cvs-unavailable');
    try {
      const down = await run(['submit', f, '--email', 'a@example.org']);
      assert.equal(down.code, 2);
      assert.match(down.err, /try again later/);
    } finally {
      s.sb.context.faults.delete('enotices.cvs-unavailable');
    }
  });
});

describe('eforms convert', () => {
  test('-o writes the eForms notice; stdout otherwise', async () => {
    const legacy = file('legacy.xml', readFileSync(join(FIXTURES, 'legacy', 'ted-export-f02.xml'), 'utf8'));
    const r = await run(['convert', legacy, '-o', 'out.xml']);
    assert.equal(r.code, 0, r.err);
    const xml = readFileSync(join(dir, 'out.xml'), 'utf8');
    assert.match(xml, /<ContractNotice /);
    assert.ok(xml.includes('Wiltz'));
    const std = await run(['convert', legacy]);
    assert.match(std.out, /^<\?xml/);
    assert.equal((await run(['convert', legacy, '-o', legacy])).code, 2);
    const bad = await run(['convert', file('bad.xml', '<TED_EXPORT/>')]);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /complete TED XML notice/);
  });
});

const REPORT_ID = '52fe3748-f475-4381-9dbf-31ebb08889e8-01';

/** `eforms report REPORT_ID --format FORMAT` against a local eNotices2 that answers `content` to every request. */
async function reportAnswered(
  contentType: string,
  content: string | Buffer,
  format: string,
): Promise<{ code: number; out: string[]; err: string[] }> {
  const server = createServer((_q, res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.end(content);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/esenders`;
  try {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      env: { EFORMS_API_KEY: KEY },
      cwd: dir,
    };
    const code = await main(['report', REPORT_ID, '--format', format, '--enotices-url', base], io);
    return { code, out, err };
  } finally {
    server.close();
  }
}

describe('eforms report: an answer that is not a report', () => {
  test('a sign-in page is refused (2) in every format, --format svrl included, and not printed', async () => {
    for (const format of ['svrl', 'text']) {
      const r = await reportAnswered('text/html', '<html><body>Login required</body></html>', format);
      assert.equal(r.code, 2, format);
      assert.deepEqual(r.out, [], format);
      assert.match(r.err.join('\n'), /is not a readable SVRL report/, format);
    }
  });
});

describe('eforms report: a report past the findings limit', () => {
  test('the assertions read are listed, and a warning says how many more the report holds', async () => {
    // 50,000 assertions (INPUT_LIMITS.findings) and 4 more, sent in UTF-16 with a byte-order mark.
    const one = (i: number) =>
      `<svrl:failed-assert id="R-${i}" location="/*" role="ERROR" test="false()"><svrl:text>x</svrl:text></svrl:failed-assert>`;
    const report = `<?xml version="1.0" encoding="UTF-16"?><svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl">${Array.from({ length: 50_004 }, (_, i) => one(i)).join('')}</svrl:schematron-output>`;
    const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(report, 'utf16le')]);
    const r = await reportAnswered('application/xml', body, 'text');
    assert.equal(r.code, 1);
    assert.equal(
      r.err.join('\n'),
      `eforms report: warning: the report of ${REPORT_ID} holds 4 more assertions than the 50,000 read and shown here: correct these and validate again to see the rest.`,
    );
    assert.equal(r.out.length, 50_001);
    assert.match(r.out[50_000] ?? '', /: 50000 assertions failed, 50000 errors\./);
  });
});
