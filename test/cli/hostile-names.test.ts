// Issue 21, items 8, 9 and 10 (CLI): file names and input sources are hostile input. Truth comes from
// outside the code: WHATWG URL resolution and fileURLToPath for SARIF URIs (resolving the URI against a
// base must give back the file, with the file: scheme), the bytes written here for the limits, the
// file system for non-UTF-8 names. The built CLI (dist/cli.js) runs with piped output.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { usefulJobs } from '../../cli/commands/validate';
import { InputFileError, platformPath, readInputFile } from '../../cli/input-files';
import { sarifUri } from '../../cli/output-formats';
import { INPUT_LIMITS } from '../../core/notice/limits';
import { fuzzParameters } from '../support/fuzz';
import { PROJECT_ROOT } from '../support/shared-data';

const CLI = join(PROJECT_ROOT, 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'eforms-names-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const HAS_FIFO = spawnSync('mkfifo', [join(dir, 'probe')]).status === 0;

const NOTICE =
  '<?xml version="1.0" encoding="UTF-8"?>\n<ContractNotice xmlns="urn:cn" xmlns:cbc="urn:cbc"><cbc:ID>1</cbc:ID></ContractNotice>\n';
const SVRL = `<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl">
  <svrl:ns-prefix-in-attribute-values prefix="cn" uri="urn:cn"/>
  <svrl:ns-prefix-in-attribute-values prefix="cbc" uri="urn:cbc"/>
  <svrl:failed-assert id="R-1" location="/cn:ContractNotice/cbc:ID" role="ERROR" test="false()"><svrl:text>rule|text|R-1</svrl:text></svrl:failed-assert>
</svrl:schematron-output>`;
writeFileSync(join(dir, 'r.svrl'), SVRL);

describe('SARIF URIs (item 8)', () => {
  const resolveBack = (uri: string) => {
    const url = new URL(uri, 'file:///base/dir/');
    return { protocol: url.protocol, path: fileURLToPath(url) };
  };

  for (const name of ['javascript:alert(1).xml', '#.xml', 'a?b.xml', 'a\\b.xml', '100%.xml', 'x y.xml']) {
    test(`${JSON.stringify(name)} resolves back to itself, as a file`, () => {
      const r = resolveBack(sarifUri(name, 'linux'));
      assert.equal(r.protocol, 'file:');
      assert.equal(r.path, `/base/dir/${name}`);
    });
  }

  test('on Windows a backslash separates folders', () => {
    assert.equal(resolveBack(sarifUri('sub\\n#1.xml', 'win32')).path, '/base/dir/sub/n#1.xml');
  });

  test('absolute paths become file: URLs that read back the same', () => {
    for (const p of ['/tmp/a#b?c.xml', '/tmp/javascript:x.xml', '/tmp/%41.xml'])
      assert.equal(fileURLToPath(sarifUri(p, 'linux')), p);
  });

  test('generated relative names resolve back to themselves (fast-check)', () => {
    const char = fc.constantFrom(
      ...Array.from('ab:#?%\\ .-_~!$&\'()*+,;=@[]é𝔘\n\t"<>^`{|}'),
      '\u202e',
      '\u0000',
    );
    const segment = fc
      .array(char, { minLength: 1, maxLength: 8 })
      .map((cs) => cs.join(''))
      .filter((s) => s !== '.' && s !== '..');
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (segments) => {
        const name = segments.join('/');
        const r = resolveBack(sarifUri(name, 'linux'));
        assert.equal(r.protocol, 'file:');
        assert.equal(r.path, posix.join('/base/dir', name));
      }),
      fuzzParameters(300),
    );
  });
});

describe('the summary line and every line with a file name (item 8)', () => {
  test('a name with a newline or an escape sequence forges no line and drives no terminal', () => {
    const name = 'n\u001b[31m\nforged.xml:1:1: error FORGED everything is fine\n.xml';
    writeFileSync(join(dir, name), NOTICE);
    for (const format of ['text', 'json', 'sarif']) {
      const r = spawnSync(process.execPath, [CLI, 'check', name, '--svrl', 'r.svrl', '--format', format], {
        cwd: dir,
        encoding: 'utf8',
      });
      assert.equal(r.status, 1, r.stderr);
      const all = `${r.stdout}${r.stderr}`;
      assert.ok(!all.includes('\u001b'), `${format}: no raw escape: ${JSON.stringify(all)}`);
      for (const line of all.split('\n'))
        assert.ok(!line.startsWith('forged.xml'), `${format}: a forged line: ${JSON.stringify(line)}`);
    }
  });
});

describe('generated file names through the built CLI (fast-check)', () => {
  test('every line printed is one line, without a control character, naming the file escaped', {
    timeout: 120_000,
  }, () => {
    const nameChar = fc.constantFrom(...Array.from('ab.:#?%\\ \n\r\t\u001b\u0007\u009b\u202e\u2028é𝔘[]'));
    fc.assert(
      fc.property(fc.array(nameChar, { minLength: 1, maxLength: 12 }), (cs) => {
        const name = `${cs.join('')}.xml`;
        if (name.includes('/')) return;
        writeFileSync(join(dir, name), NOTICE);
        try {
          const r = spawnSync(process.execPath, [CLI, 'check', name, '--svrl', 'r.svrl'], {
            cwd: dir,
            encoding: 'utf8',
          });
          assert.equal(r.status, 1, r.stderr);
          const lines = r.stdout.replace(/\n$/, '').split('\n');
          assert.equal(lines.length, 2, `one finding and one summary: ${JSON.stringify(r.stdout)}`);
          for (const line of [...lines, ...r.stderr.split('\n')])
            assert.ok(
              ![...line].some((c) => {
                const u = c.charCodeAt(0);
                return (u < 0x20 && u !== 0x09) || (u >= 0x7f && u <= 0x9f) || u === 0x202e || u === 0x2028;
              }),
              JSON.stringify(line),
            );
        } finally {
          rmSync(join(dir, name), { force: true });
        }
      }),
      fuzzParameters(12),
    );
  });
});

describe('limits on the bytes actually read (item 9)', () => {
  const max = INPUT_LIMITS.noticeBytes.max;

  test('/dev/zero is refused once the limit is read', { timeout: 60_000 }, () => {
    assert.throws(
      () => readInputFile('/', '/dev/zero', 'notice'),
      (e: unknown) => e instanceof InputFileError && /larger than 30 MB/.test(e.message),
    );
  });

  test('a FIFO: a small notice is read, an endless one refused at the limit', {
    skip: !HAS_FIFO,
    timeout: 60_000,
  }, async () => {
    const fifo = join(dir, 'notice.fifo');
    spawnSync('mkfifo', [fifo]);
    const small = spawn('sh', ['-c', `printf '%s' '<a/>' > '${fifo}'`]);
    assert.equal(readInputFile(dir, 'notice.fifo', 'notice').toString(), '<a/>');
    await new Promise((r) => small.on('close', r));
    const endless = spawn('sh', ['-c', `cat /dev/zero > '${fifo}'`]);
    assert.throws(
      () => readInputFile(dir, 'notice.fifo', 'notice'),
      (e: unknown) => e instanceof InputFileError && /larger than 30 MB/.test(e.message),
    );
    endless.kill();
  });

  test('stdin piped into the CLI: a notice one byte over the limit is refused', { timeout: 60_000 }, () => {
    const r = spawnSync(
      'sh',
      ['-c', `head -c ${max + 1} /dev/zero | '${process.execPath}' '${CLI}' check /dev/stdin --svrl r.svrl`],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.equal(r.status, 2);
    assert.match(r.stderr, /larger than 30 MB/);
  });

  test('--jobs is capped to what helps: cores and distinct rule sets', () => {
    assert.equal(usefulJobs(64, Array(64).fill('1.15|16|static'), 8), 1);
    assert.equal(usefulJobs(64, ['a', 'b', 'a', 'c'], 8), 3);
    assert.equal(usefulJobs(64, ['a', 'b', 'c', 'd'], 2), 2);
    assert.equal(usefulJobs(2, ['a', 'b', 'c'], 8), 2);
    assert.equal(usefulJobs(4, ['', ''], 8), 1, 'notices that cannot run still need one worker');
    assert.ok(usefulJobs(64, ['a', 'b']) <= availableParallelism());
  });
});

describe('a file name that is not UTF-8 (item 10)', () => {
  const raw = Buffer.concat([Buffer.from(join(dir, 'bytes')), Buffer.from('/n\xff\xfe.xml', 'latin1')]);
  mkdirSync(join(dir, 'bytes'), { recursive: true });
  writeFileSync(raw, NOTICE);

  test('the raw argument bytes name the file', () => {
    const decoded = raw.toString('utf8');
    const p = platformPath('/', decoded, () => [Buffer.from('node'), raw]);
    assert.ok(Buffer.isBuffer(p) && p.equals(raw));
  });

  test('the built CLI validates it', { skip: process.platform !== 'linux' }, () => {
    const r = spawnSync(
      'sh',
      ['-c', `'${process.execPath}' '${CLI}' check "$(printf 'bytes/n\\377\\376.xml')" --svrl r.svrl`],
      {
        cwd: dir,
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /R-1/);
  });
});
