// The command line as a new user meets it (issue 11): findings in reading order, every subcommand
// reading EFORMS_ENV and the EFORMS_*_URL variables, --lang fr without English tails, failures worded
// for a terminal (--env, not VS Code settings) for every service, redirects naming the new address,
// `check` warning about a report made for another notice, `search` pages counted one way, and
// `prices --help` text. In-process through cli/main.ts, against a sandbox on a free port.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ENVIRONMENT_VARIABLES } from '../../cli/environment';
import { main } from '../../cli/main';
import { invalidNotice } from '../sandbox/enotices-kit';
import {
  NOTICE_FIXTURES_DIR,
  type SandboxHarness,
  startHarness,
  TEST_API_KEY,
} from '../support/sandbox-harness';
import { PROJECT_ROOT } from '../support/shared-data';

let h: SandboxHarness;
let scratch: string;
before(async () => {
  h = await startHarness();
  scratch = mkdtempSync(join(tmpdir(), 'eforms-cli-'));
});
after(async () => {
  await h?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function run(args: string[], env: Record<string, string> = {}, cwd = NOTICE_FIXTURES_DIR) {
  let out = '';
  let err = '';
  const code = await main(args, {
    out: (t) => {
      out += `${t}\n`;
    },
    err: (t) => {
      err += `${t}\n`;
    },
    env: { XDG_CACHE_HOME: scratch, ...env },
    cwd,
  });
  return { code, out, err };
}

const sandboxEnv = () => ({
  EFORMS_ENV: 'sandbox',
  EFORMS_SANDBOX_URL: h.origin,
  EFORMS_API_KEY: TEST_API_KEY,
});

describe('validate', () => {
  test('reads EFORMS_ENV like every other subcommand, and prints findings by position', async () => {
    const r = await run(['validate', 'invalid-cn.xml'], sandboxEnv());
    assert.equal(r.code, 1, r.err);
    const places = [...r.out.matchAll(/^invalid-cn\.xml:(\d+):(\d+): /gm)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    assert.ok(places.length > 3, r.out);
    const sorted = [...places].sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0));
    assert.deepEqual(places, sorted);
  });

  test('--lang fr: French to the end of every message (no English tails)', async () => {
    const r = await run(['validate', 'invalid-cn.xml', '--lang', 'fr'], sandboxEnv());
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /\(champ BT-/);
    assert.doesNotMatch(r.out, /\(field |— missing |which is not in this notice/);
  });

  test('--sdk takes both spellings (and a full release, cut to MAJOR.MINOR), and refuses anything else', async () => {
    for (const v of ['1.15', 'eforms-sdk-1.15', '1.15.1'])
      assert.equal((await run(['validate', 'valid-cn.xml', '--sdk', v], sandboxEnv())).code, 0, v);
    for (const v of ['1.x', 'sdk-1.15', '15']) {
      const bad = await run(['validate', 'valid-cn.xml', '--sdk', v], sandboxEnv());
      assert.equal(bad.code, 2, v);
      assert.match(bad.err, /--sdk takes a version such as 1\.15, 1\.15\.1 or eforms-sdk-1\.15/);
    }
  });

  test('a refused key is said once, naming EFORMS_API_KEY and --env, for all the files', async () => {
    const r = await run(['validate', 'valid-cn.xml', 'invalid-cn.xml'], {
      ...sandboxEnv(),
      EFORMS_API_KEY: 'wrong',
    });
    assert.equal(r.code, 2);
    const refusals = r.err
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('eforms validate:'));
    assert.equal(refusals.length, 1, r.err);
    assert.match(refusals[0] ?? '', /refused \(403\): set EFORMS_API_KEY .*--env/);
    assert.doesNotMatch(r.err, /invalid-cn\.xml/, 'the second file is not tried');
  });

  test('a moved service: the error names the new address', async () => {
    const srv: Server = createServer((_req, res) => {
      res.writeHead(301, { location: 'https://cvs.moved.example/v1/notices/validation?token=x' }).end();
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
      const r = await run(['validate', 'valid-cn.xml', '--cvs-url', url], { EFORMS_API_KEY: TEST_API_KEY });
      assert.equal(r.code, 2);
      assert.match(
        r.err,
        /has moved to https:\/\/cvs\.moved\.example\/v1\/notices\/validation: give the new address with --cvs-url/,
      );
      assert.doesNotMatch(r.err, /token=x/, 'a query could carry a token: never repeated');
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });
});

describe('every service, worded for a terminal', () => {
  async function dead(): Promise<string> {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as AddressInfo).port;
    await new Promise<void>((r) => s.close(() => r()));
    return `http://127.0.0.1:${port}`;
  }

  test('eNotices2, the agri-food service and the CVS unreachable: --env named, no editor setting', async () => {
    const origin = await dead();
    const env = { EFORMS_ENV: 'sandbox', EFORMS_SANDBOX_URL: origin, EFORMS_API_KEY: TEST_API_KEY };
    for (const args of [
      ['search'],
      ['prices', 'beef', '--years', '2020', '--no-cache'],
      ['validate', 'valid-cn.xml'],
      ['versions'],
    ]) {
      const r = await run(args, env);
      assert.equal(r.code, 2, `${args[0]}: ${r.err}`);
      assert.match(
        r.err,
        new RegExp(`^eforms ${args[0]}: .*cannot reach .*${origin.replace(/[.]/g, '\\.')}.*--env`, 'm'),
        r.err,
      );
      assert.doesNotMatch(r.err, /eforms\.environment|eforms\.\w+\.\w+|Set API Key|retrying later/, r.err);
    }
  });
});

describe('eNotices2 refusing the key', () => {
  test('worded for a terminal: EFORMS_API_KEY and --env, not the editor command', async () => {
    const r = await run(['search'], { ...sandboxEnv(), EFORMS_API_KEY: 'wrong' });
    assert.equal(r.code, 1);
    assert.match(
      r.err,
      /^eforms search: eNotices2 refused the API key \(HTTP 401\): set EFORMS_API_KEY .*--env/m,
    );
    assert.doesNotMatch(r.err, /Set API Key/);
  });
});

describe('search', () => {
  test('--page counts from 1, as the "Page N of M" line does', async () => {
    const env = sandboxEnv();
    // Three notices of this key, submitted through the CLI itself.
    for (let i = 0; i < 3; i++) {
      const xml = (await import('node:fs'))
        .readFileSync(join(NOTICE_FIXTURES_DIR, 'valid-cn.xml'), 'utf8')
        .replace(/(<cbc:ID schemeName="notice-id">)[^<]*/, `$1${crypto.randomUUID()}`);
      writeFileSync(join(scratch, `n${i}.xml`), xml);
      const s = await run(['submit', `n${i}.xml`, '--email', 'buyer@example.org'], env, scratch);
      assert.equal(s.code, 0, s.err);
    }
    const first = await run(['search', '--size', '2'], env);
    assert.match(first.out, /Page 1 of 2 \(3 notices\) — next: --page 2/);
    const second = await run(['search', '--size', '2', '--page', '2'], env);
    assert.match(second.out, /Page 2 of 2 \(3 notices\)$/m);
    const zero = await run(['search', '--page', '0'], env);
    assert.equal(zero.code, 2);
    assert.match(zero.err, /--page must be an integer ≥ 1/);
  });
});

describe('VALIDATION_FAILED', () => {
  test('a submission that fails validation ends there, and --status finds it', async () => {
    const env = sandboxEnv();
    const { xml } = invalidNotice();
    writeFileSync(join(scratch, 'bad.xml'), xml);
    const s = await run(
      ['submit', 'bad.xml', '--email', 'buyer@example.org', '--format', 'json', '--force'],
      env,
      scratch,
    );
    assert.equal(s.code, 1, s.err);
    const { businessId } = JSON.parse(s.out) as { businessId: string };
    const r = await run(['search', '--status', 'VALIDATION_FAILED', '--format', 'json'], env);
    assert.equal(r.code, 0, r.err);
    const found = (JSON.parse(r.out) as { content: { id: string; versionId: string; status: string }[] })
      .content;
    const mine = found.find((n) => `${n.id}-${n.versionId}` === businessId);
    assert.equal(mine?.status, 'VALIDATION_FAILED');
    assert.match((await run(['search', '--help'])).out, /VALIDATION_FAILED/);
  });
});

describe('check', () => {
  test('warns when the report was made for another notice (root, subtype, paths)', async () => {
    const svrl = `<?xml version="1.0" encoding="UTF-8"?>
<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl" phase="eforms-29" title="eForms schematron rules">
  <svrl:ns-prefix-in-attribute-values prefix="can" uri="urn:oasis:names:specification:ubl:schema:xsd:ContractAwardNotice-2"/>
  <svrl:ns-prefix-in-attribute-values prefix="cbc" uri="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"/>
  <svrl:failed-assert id="BR-X" location="/can:ContractAwardNotice/cbc:ID" role="ERROR" test="false()"><svrl:text>x</svrl:text></svrl:failed-assert>
</svrl:schematron-output>`;
    writeFileSync(join(scratch, 'other.svrl'), svrl);
    const r = await run([
      'check',
      join(NOTICE_FIXTURES_DIR, 'valid-cn.xml'),
      '--svrl',
      join(scratch, 'other.svrl'),
      '--format',
      'json',
    ]);
    assert.match(r.err, /warning: .*made for a can:ContractAwardNotice, but .* is a ContractNotice/);
    assert.match(r.err, /warning: .*subtype 29, but .* declares subtype 16/);
    assert.match(r.err, /warning: 1 of 1 locations .* are not in/);
    assert.doesNotThrow(() => JSON.parse(r.out), 'stdout stays clean JSON');
  });

  test('a report made for the notice gives no warning', async () => {
    const notice = (await import('node:fs')).readFileSync(join(NOTICE_FIXTURES_DIR, 'invalid-cn.xml'));
    const a = await h.validate(notice);
    writeFileSync(join(scratch, 'own.svrl'), a.text);
    const r = await run([
      'check',
      join(NOTICE_FIXTURES_DIR, 'invalid-cn.xml'),
      '--svrl',
      join(scratch, 'own.svrl'),
    ]);
    assert.equal(r.code, 1);
    assert.doesNotMatch(r.err, /warning/);
  });
});

describe('help texts', () => {
  test('prices pigmeat --help names each date format once and ends with its listings', async () => {
    const r = await run(['prices', 'pigmeat', '--help']);
    assert.equal(r.code, 0);
    assert.doesNotMatch(r.out, /\(dd\/mm\/yyyy\) \(dd\/mm\/yyyy\)/);
    assert.match(r.out, /--beginDate +From \(dd\/mm\/yyyy\)\n/);
    assert.match(r.out, /\n\nListings: .*\n$/);
  });

  test('eforms --help lists every environment variable, and the README too', async () => {
    const r = await run(['--help']);
    const readme = (await import('node:fs')).readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    for (const [name] of ENVIRONMENT_VARIABLES) {
      assert.ok(r.out.includes(name), `--help: ${name}`);
      for (const one of name.split(', ')) assert.ok(readme.includes(`\`${one}\``), `README: ${one}`);
    }
  });

  test("the README's prices example returns more than one Member State", async () => {
    const readme = (await import('node:fs')).readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const line = /^eforms (prices pigmeat [^\n]*)$/m.exec(readme)?.[1];
    assert.ok(line, 'the README shows a pigmeat example');
    const args = line.split(/\s+/).filter((a) => a !== '--format' && a !== 'csv');
    const r = await run([
      ...args,
      '--format',
      'json',
      '--agrifood-url',
      `${h.origin}/agrifood`,
      '--no-cache',
    ]);
    assert.equal(r.code, 0, r.err);
    const states = new Set(
      (JSON.parse(r.out) as { memberStateCode: string }[]).map((x) => x.memberStateCode),
    );
    assert.ok(states.size > 1, `Member States: ${[...states]}`);
  });
});
