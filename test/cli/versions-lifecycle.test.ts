// `eforms versions` with the releases on disk (../shared/eforms-sdk) and a service that dates what it
// accepts: for each real notice it says whether TED accepts its SDK today, until when, what to move it
// to, and it names the switch dates. The service here is a local HTTP server answering a dated
// version range written in this test; the expectations are worked out by hand from that answer and
// from ../shared/real-notices/index.tsv (the version each notice declares).

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../../cli/main';
import { SDK_DIR, SHARED_DIR, skipUnless } from '../support/shared-data';

const SDK_ROOT = dirname(SDK_DIR);
const REAL = join(SHARED_DIR, 'real-notices');
const skip = skipUnless(SDK_ROOT) ?? skipUnless(REAL);

const ANSWER = {
  minVersion: '1.8.0',
  maxVersion: '1.15.1',
  versions: [
    { version: '1.8', validFrom: '2023-05-01', validTo: '2026-11-30' },
    { version: '1.9', validFrom: '2023-09-01', validTo: '2027-03-31' },
    { version: '1.10', validFrom: '2024-01-01' },
    { version: '1.15', validFrom: '2025-07-01' },
  ],
};

function firstDeclaring(v: string): string {
  for (const row of readFileSync(join(REAL, 'index.tsv'), 'utf8').trim().split('\n').slice(1)) {
    const [pubno, customization] = row.split('\t');
    if (customization === `eforms-sdk-${v}`) return join(REAL, 'notices', `${pubno}.xml`);
  }
  throw new Error(`no notice declares ${v}`);
}

describe('eforms versions: lifecycle of each notice’s SDK', { skip }, () => {
  let answer = JSON.stringify(ANSWER);
  let server: Server;
  let url: string;
  let work: string;
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'cli-versions-'));
    server = createServer((req, res) => {
      if (req.url === '/v1/version-range' && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(answer);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(work, { recursive: true, force: true });
  });

  async function run(args: string[]) {
    let out = '';
    let err = '';
    const code = await main(
      ['versions', '--env', 'custom', '--cvs-url', url, '--sdk-dir', SDK_ROOT, ...args],
      {
        out: (t) => {
          out += `${t}\n`;
        },
        err: (t) => {
          err += `${t}\n`;
        },
        env: { EFORMS_SDK_CACHE: join(work, 'cache') },
        cwd: process.cwd(),
      },
    );
    return { code, out, err };
  }

  test('text: accepted until, refused with the version to move to, switch dates named', async () => {
    const n17 = firstDeclaring('1.7');
    const n8 = firstDeclaring('1.8');
    const n9 = firstDeclaring('1.9');
    const r = await run(['--today', '2026-11-24', n17, n8, n9]);
    assert.equal(r.code, 1, r.err);
    // 1.7 is below min; 1.8 ends 2026-11-30, 1.9 ends 2027-03-31; 1.11 to 1.14 are inside min/max
    // and undated, so accepted; 1.15 is accepted since 2025-07-01. On disk: 1.8.5, 1.9.5, 1.10.5, 1.15.1.
    assert.match(
      r.out,
      /Accepted on 2026-11-24: 1\.8 \(on disk: 1\.8\.5, from 2023-05-01, until 2026-11-30\), 1\.9 \(on disk: 1\.9\.5, from 2023-09-01, until 2027-03-31\), 1\.10 \(on disk: 1\.10\.5, from 2024-01-01\), 1\.11, 1\.12, 1\.13, 1\.14, 1\.15 \(on disk: 1\.15\.1, from 2025-07-01\)\./,
    );
    assert.match(
      r.out,
      /Switch dates: 2026-11-30: last day 1\.8 is accepted; 2027-03-31: last day 1\.9 is accepted\./,
    );
    assert.ok(
      r.out.includes(
        `${n17}: TED no longer accepts eforms-sdk-1.7 for publication. Move the notice to eforms-sdk-1.15.`,
      ),
      r.out,
    );
    assert.ok(r.out.includes(`${n8}: TED accepts eforms-sdk-1.8 for publication until 2026-11-30.`), r.out);
    assert.ok(r.out.includes(`${n9}: TED accepts eforms-sdk-1.9 for publication until 2027-03-31.`), r.out);
  });

  test('json, the day after 1.8’s last day: 1.8 refused, the switch behind', async () => {
    const n8 = firstDeclaring('1.8');
    const r = await run(['--today', '2026-12-01', '--format', 'json', n8]);
    assert.equal(r.code, 1, r.err);
    const j = JSON.parse(r.out) as {
      today: string;
      accepted: { version: string }[];
      switches: { date: string; version: string; change: string }[];
      notices: { declared: string; accepted: boolean; moveTo?: string }[];
    };
    assert.equal(j.today, '2026-12-01');
    assert.equal(j.accepted[0]?.version, '1.9');
    assert.deepEqual(j.switches, [{ date: '2027-03-31', version: '1.9', change: 'withdrawn' }]);
    assert.deepEqual(
      j.notices.map((n) => [n.declared, n.accepted, n.moveTo]),
      [['1.8', false, '1.15']],
    );
  });

  test('a bad --today is a usage error', async () => {
    const r = await run(['--today', 'tomorrow']);
    assert.equal(r.code, 2);
  });

  test('an answer that is not a version range is said to be that, not "not a validation report"', async () => {
    answer = JSON.stringify({ minVersion: '1.15.1', maxVersion: '1.8.0' });
    try {
      const r = await run([]);
      assert.notEqual(r.code, 0);
      assert.match(
        r.err,
        /gave an answer that is not its version range \(a minimum and a maximum SDK version\)/,
      );
      assert.doesNotMatch(r.err, /validation report/);
    } finally {
      answer = JSON.stringify(ANSWER);
    }
  });
});
