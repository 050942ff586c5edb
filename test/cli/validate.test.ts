// `eforms validate` end to end: the bundled CLI (dist/cli.js) as a child process against a sandbox on a
// free port (--cvs-url), checking exit codes 0/1/2, the JSON shape for several files, and that every
// failure says what to do. Expected rule ids come from the fixtures' header comments.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type CliRun, runCli } from '../support/cli-run';
import { expectationsOf, fixtureText, NOTICES } from '../support/fixture-expectations';
import { type SandboxHarness, startHarness, TEST_API_KEY } from '../support/sandbox-harness';

function run(args: string[], apiKey: string | undefined): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.EFORMS_API_KEY;
  if (apiKey !== undefined) env.EFORMS_API_KEY = apiKey;
  return runCli(['validate', ...args], { env, cwd: NOTICES });
}

describe('eforms validate', () => {
  let h: SandboxHarness;
  let cvs: string;
  before(async () => {
    h = await startHarness();
    cvs = `${h.origin}/cvs`;
  });
  after(() => h?.close());

  test('no EFORMS_API_KEY: exit 2, saying to set it', async () => {
    const r = await run(['valid-cn.xml', '--cvs-url', cvs], undefined);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /EFORMS_API_KEY/);
  });

  test('a valid notice: exit 0', async () => {
    const r = await run(['valid-cn.xml', '--cvs-url', cvs], TEST_API_KEY);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /valid-cn\.xml: no findings/);
    // The version the notice declares (its cbc:CustomizationID) is the one named.
    const declared = /<cbc:CustomizationID>eforms-sdk-(\d+\.\d+)</.exec(fixtureText('valid-cn.xml'))?.[1];
    assert.ok(r.stdout.includes(`valid-cn.xml: no findings (eforms-sdk-${declared}, by the CVS)`), r.stdout);
  });

  test('two invalid notices as JSON: exit 1, one array, a file field per finding, the expected ids', async () => {
    const files = ['invalid-cn.xml', 'prefixes-cn.xml'];
    const r = await run([...files, '--cvs-url', cvs, '--format', 'json'], TEST_API_KEY);
    assert.equal(r.code, 1, r.stderr);
    const items = JSON.parse(r.stdout) as { file: string; id: string; severity: string; range: unknown }[];
    assert.ok(Array.isArray(items));
    for (const f of files) {
      const ids = items
        .filter((i) => i.file === f)
        .map((i) => i.id)
        .sort();
      assert.deepEqual(
        ids,
        expectationsOf(fixtureText(f))
          .map((e) => e.id)
          .sort(),
        f,
      );
    }
    assert.ok(
      items.every((i) => typeof i.range === 'object' && ['error', 'warning', 'info'].includes(i.severity)),
    );
  });

  test('SARIF: one log with one run per notice', async () => {
    const r = await run(['invalid-cn.xml', '--cvs-url', cvs, '--format', 'sarif'], TEST_API_KEY);
    assert.equal(r.code, 1, r.stderr);
    const log = JSON.parse(r.stdout) as { version: string; runs: { results: { ruleId: string }[] }[] };
    assert.equal(log.version, '2.1.0');
    assert.equal(log.runs.length, 1);
    assert.equal(log.runs[0]?.results.length, expectationsOf(fixtureText('invalid-cn.xml')).length);
  });

  test('malformed XML: the syntax error at its line, not sent, exit 1', async () => {
    const before = JSON.parse((await h.request('GET', '/_sandbox/stats')).text) as {
      requests: Record<string, number>;
    };
    const r = await run(['malformed.xml', '--cvs-url', cvs], TEST_API_KEY);
    assert.equal(r.code, 1);
    const text = fixtureText('malformed.xml');
    const line = text.slice(0, text.lastIndexOf('</cbc:IssueTime>')).split('\n').length;
    assert.match(r.stdout, new RegExp(`malformed\\.xml:${line}:\\d+: error xml-syntax`));
    const now = JSON.parse((await h.request('GET', '/_sandbox/stats')).text) as {
      requests: Record<string, number>;
    };
    assert.deepEqual(now.requests, before.requests);
  });

  test('not an eForms notice: exit 2 with the reason', async () => {
    const r = await run(['not-eforms.xml', '--cvs-url', cvs], TEST_API_KEY);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not an eForms notice/);
  });

  test('a refused key: exit 2, saying which variable to fix, without the key', async () => {
    const r = await run(['valid-cn.xml', '--cvs-url', cvs], 'wrong-key-xyz');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /403.*EFORMS_API_KEY/);
    assert.ok(!r.stderr.includes('wrong-key-xyz') && !r.stdout.includes('wrong-key-xyz'));
  });

  test('a dead port: exit 2, offline message', async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    await new Promise<void>((r) => srv.close(() => r()));
    const r = await run(['valid-cn.xml', '--cvs-url', `http://127.0.0.1:${port}`], TEST_API_KEY);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /cannot reach the validation service at http:\/\/127\.0\.0\.1:\d+ \(connection refused\)/,
    );
    // The command line names its own options, never the editor's settings or commands.
    assert.match(r.stderr, /--env/);
    assert.doesNotMatch(
      r.stderr,
      /eforms\.environment|eforms\.validation|eForms: Set API Key|retrying later/,
    );
  });

  test('plain http to a remote host: refused, exit 2', async () => {
    const r = await run(['valid-cn.xml', '--cvs-url', 'http://cvs.example.invalid'], TEST_API_KEY);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /https/);
  });

  test('usage errors: exit 2', async () => {
    for (const args of [
      [],
      ['valid-cn.xml', '--mode', 'fast'],
      ['valid-cn.xml', '--sdk', '1.15.0'],
      ['x.xml', '--bogus'],
    ]) {
      const r = await run(args, TEST_API_KEY);
      assert.equal(r.code, 2, args.join(' '));
      assert.ok(r.stderr.length > 0);
    }
  });
});
