// `eforms render` through the CLI's own entry (cli/main.ts, in process): text and HTML output, -o FILE
// and -o DIR for many notices, the SDK release chosen per notice (a real notice declaring 1.7 rendered
// with 1.15.1's templates, said on stderr), every usage error with exit 2, and --remote against the
// sandbox's render endpoint (same engine: the same labels come back), its key errors included.
// Labels are checked against the SDK's translation files, read here with a regular expression.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../../cli/main';
import { createRenderService } from '../../sandbox/render/service';
import { type RunningSandbox, startSandbox } from '../../sandbox/server';
import { SAMPLES_DIR, SDK_DIR, SHARED_DIR, skipUnless } from '../support/shared-data';

const NOTICES = join(SAMPLES_DIR, 'notices');
const SDK_ROOT = join(SHARED_DIR, 'eforms-sdk');
const skip = skipUnless(SDK_DIR) ?? skipUnless(NOTICES);

function label(kind: string, lang: string, key: string): string {
  const text = readFileSync(join(SDK_DIR, 'translations', `${kind}_${lang}.xml`), 'utf8');
  const m = new RegExp(`<entry key="${key.replace(/[|()]/g, '\\$&')}">([^<]*)</entry>`).exec(text);
  assert.ok(m, `no ${key}`);
  return m[1];
}

describe('eforms render', { skip }, () => {
  let work: string;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'cli-render-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
    let stdout = '';
    let stderr = '';
    const code = await main(['render', ...args], {
      out: (t) => {
        stdout += `${t}\n`;
      },
      err: (t) => {
        stderr += `${t}\n`;
      },
      env: { EFORMS_SDK_CACHE: join(work, 'cache'), ...env },
      cwd: NOTICES,
    });
    return { code, stdout, stderr };
  }

  test('text outline in French: numbered sections, labels and code names from the SDK', async () => {
    const r = await run(['cn_24_minimal.xml', '--sdk-dir', SDK_ROOT, '--format', 'text', '--lang', 'fr']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], `1 ${label('auxiliary', 'fr', 'auxiliary|text|buyer')}`);
    assert.equal(lines[1], `  1.1 ${label('auxiliary', 'fr', 'auxiliary|text|buyer')}`);
    assert.ok(
      lines.includes(
        `    ${label('field', 'fr', 'field|name|BT-11-Procedure-Buyer')}: ${label('code', 'fr', 'code|name|buyer-legal-type.eu-ins-bod-ag')}`,
      ),
      r.stdout.slice(0, 400),
    );
  });

  test('HTML to a file; several notices into a directory', async () => {
    const one = join(work, 'one.html');
    const r = await run(['cn_24_minimal.xml', '--sdk-dir', SDK_ROOT, '-o', one]);
    assert.equal(r.code, 0, r.stderr);
    const html = readFileSync(one, 'utf8');
    assert.match(html, /^<!DOCTYPE html>/);
    assert.ok(html.includes(label('field', 'en', 'field|name|BT-21-Procedure')));
    const dir = join(work, 'many');
    const m = await run([
      'cn_24_minimal.xml',
      'pin-only_24.xml',
      'X01_EEIG.xml',
      '--sdk-dir',
      SDK_ROOT,
      '-o',
      `${dir}/`,
    ]);
    assert.equal(m.code, 0, m.stderr);
    assert.deepEqual(readdirSync(dir).sort(), ['X01_EEIG.html', 'cn_24_minimal.html', 'pin-only_24.html']);
  });

  const real = join(SHARED_DIR, 'real-notices', 'notices', '127505-2024.xml');
  test('a real notice declaring SDK 1.7: rendered with 1.15.1, said on stderr', {
    skip: skipUnless(real),
  }, async () => {
    const r = await run([real, '--sdk-dir', SDK_ROOT, '--format', 'text']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /eForms SDK 1\.7\.\d+ has no view templates: rendered with those of 1\.15\.1/);
    assert.match(r.stdout, /^1 Buyer/);
  });

  test('a release not on this machine: one sentence naming it and the release that renders', async () => {
    const text = readFileSync(join(NOTICES, 'cn_24_minimal.xml'), 'utf8');
    const file = join(work, 'absent-release.xml');
    writeFileSync(file, text.replace(/eforms-sdk-1\.\d+/, 'eforms-sdk-99.99'));
    const r = await run([file, '--sdk-dir', SDK_ROOT, '--format', 'text']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(
      lines[0] ?? '',
      /eForms SDK 99\.99 is not on this machine: rendered with the view templates of 1\.15\.1$/,
    );
    assert.equal(lines[0]?.split('99.99').length, 2, 'the version named once');
    // A CustomizationID with a patch number names no release: said so, not that it declares none.
    const patch = join(work, 'patch-release.xml');
    writeFileSync(patch, text.replace(/eforms-sdk-1\.\d+/, 'eforms-sdk-1.15.1'));
    const p = await run([patch, '--sdk-dir', SDK_ROOT, '--format', 'text']);
    assert.equal(p.code, 0, p.stderr);
    assert.match(
      p.stderr,
      /cbc:CustomizationID names no SDK release: rendered with the view templates of 1\.15\.1/,
    );
  });

  test('usage errors and unreadable input: exit 2, one line that says what to do', async () => {
    const cases: [string[], RegExp][] = [
      [[], /give at least one notice/],
      [['cn_24_minimal.xml', '--format', 'pdf'], /unknown format 'pdf'/],
      [['cn_24_minimal.xml', '--lang', 'english'], /two-letter/],
      [['cn_24_minimal.xml', 'pin-only_24.xml', '--sdk-dir', SDK_ROOT], /add -o DIR/],
      [['cn_24_minimal.xml', '--render-url', 'http://127.0.0.1:9'], /goes with --remote/],
      [['cn_24_minimal.xml', '--remote', '--format', 'text'], /HTML only/],
      [['cn_24_minimal.xml', '--remote', '--sdk-dir', SDK_ROOT], /do not apply/],
      [['cn_24_minimal.xml', '--sdk', 'latest'], /--sdk takes a version/],
      [['cn_24_minimal.xml', '--sdk-dir', SDK_ROOT, '--lang', 'zz'], /no labels in 'zz'/],
      [['cn_24_minimal.xml', '-o', 'cn_24_minimal.xml'], /must not be the input/],
      [['cn_24_minimal.xml', '--bogus'], /Unknown option/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
    }
    const missing = await run(['nope.xml', '--sdk-dir', SDK_ROOT]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read the notice nope.xml: no such file/);
    const broken = join(work, 'broken.xml');
    writeFileSync(broken, '<a><b></a>');
    const b = await run([broken, '--sdk-dir', SDK_ROOT]);
    assert.equal(b.code, 2);
    assert.match(b.stderr, /not well-formed XML/);
    const noSdk = await run(['cn_24_minimal.xml', '--sdk-dir', work]);
    assert.equal(noSdk.code, 2);
    assert.match(noSdk.stderr, /no eForms SDK is available/);
  });

  describe('--remote, against the sandbox', () => {
    let sandbox: RunningSandbox;
    const KEY = 'cli-render-key';
    before(async () => {
      sandbox = await startSandbox({
        port: 0,
        apiKeys: [KEY],
        dataDir: join(work, 'data'),
        services: [(ctx) => createRenderService(ctx, { path: SDK_ROOT, cacheRoot: join(work, 'cache') })],
        log: () => undefined,
      });
    });
    after(() => sandbox.close());

    test('the service renders the same document as the local engine', async () => {
      const env = { EFORMS_API_KEY: KEY, EFORMS_SANDBOX_URL: sandbox.origin };
      const remote = await run(['cn_24_minimal.xml', '--remote', '--env', 'sandbox', '--lang', 'fr'], env);
      assert.equal(remote.code, 0, remote.stderr);
      const local = await run(['cn_24_minimal.xml', '--sdk-dir', SDK_ROOT, '--lang', 'fr']);
      assert.equal(remote.stdout, local.stdout);
      const viaUrl = await run(
        ['cn_24_minimal.xml', '--remote', '--render-url', `${sandbox.origin}/ted`],
        env,
      );
      assert.equal(viaUrl.code, 0, viaUrl.stderr);
    });

    test('a refused key, no key, and plain http to another host', async () => {
      const bad = await run(['cn_24_minimal.xml', '--remote', '--env', 'sandbox'], {
        EFORMS_API_KEY: 'wrong',
        EFORMS_SANDBOX_URL: sandbox.origin,
      });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /refused the API key \(check EFORMS_API_KEY\)/);
      assert.ok(!bad.stderr.includes('wrong'));
      const none = await run(['cn_24_minimal.xml', '--remote', '--env', 'sandbox']);
      assert.equal(none.code, 2);
      assert.match(none.stderr, /EFORMS_API_KEY/);
      const http = await run(['cn_24_minimal.xml', '--remote', '--render-url', 'http://example.org'], {
        EFORMS_API_KEY: KEY,
      });
      assert.equal(http.code, 2);
      assert.match(http.stderr, /Refusing to send the API key/);
    });
  });
});
