// `eforms check` as a user runs it (the built dist/cli.js): exit statuses, one-line messages for bad
// input, text and SARIF output, a byte-order mark and UTF-16 columns — on files written here.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { PROJECT_ROOT } from '../support/shared-data';

const CLI = join(PROJECT_ROOT, 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'eforms-check-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  writeFileSync(join(dir, name), content);
  return name;
}

function run(...args: string[]) {
  return spawnSync(process.execPath, [CLI, 'check', ...args], { cwd: dir, encoding: 'utf8' });
}

const NOTICE = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<ContractNotice xmlns="urn:cn" xmlns:cbc="urn:cbc">',
  '  <!-- 𝔘𝔘 --><cbc:ID schemeName="x">1</cbc:ID>',
  '</ContractNotice>',
].join('\n');

function report(role: string, location = '/cn:ContractNotice/cbc:ID'): string {
  return `<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl">
  <svrl:ns-prefix-in-attribute-values prefix="cn" uri="urn:cn"/>
  <svrl:ns-prefix-in-attribute-values prefix="cbc" uri="urn:cbc"/>
  <svrl:failed-assert id="R-1" location="${location}" role="${role}" test="false()">
    <svrl:text>rule|text|R-1</svrl:text>
  </svrl:failed-assert>
</svrl:schematron-output>`;
}

describe('eforms check (built CLI)', () => {
  const notice = file('notice.xml', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(NOTICE)]));
  const errors = file('errors.svrl', report('ERROR'));
  const warnings = file('warnings.svrl', report('WARN', '/cn:ContractNotice/cbc:ID/@schemeName'));

  test('errors: exit 1, text line with one-based line and UTF-16 column', () => {
    const r = run(notice, '--svrl', errors);
    assert.equal(r.status, 1, r.stderr);
    const lines = r.stdout.trim().split('\n');
    // The column counts UTF-16 units: each 𝔘 before the tag is two of them.
    const column = NOTICE.split('\n')[2].indexOf('<cbc:ID') + 1;
    assert.equal(column, 16);
    assert.equal(lines[0], `notice.xml:3:${column}: error R-1 Rule R-1 failed: false()`);
    assert.match(lines[1], /1 error/);
  });

  test('a report past the findings limit: the first ones and one note, described as a note of this tool', () => {
    // 50,000 assertions (INPUT_LIMITS.findings) and 3 more, each with its own rule id.
    const one = (i: number) =>
      `<svrl:failed-assert id="R-${i}" location="/cn:ContractNotice/cbc:ID" role="ERROR" test="false()"><svrl:text>Failure ${i}.</svrl:text></svrl:failed-assert>`;
    const big = report('ERROR').replace(
      /<svrl:failed-assert[\s\S]*<\/svrl:failed-assert>/,
      Array.from({ length: 50_003 }, (_, i) => one(i)).join('\n'),
    );
    // 50,001 results: some 40 MB of SARIF, past spawnSync's default buffer.
    const r = spawnSync(
      process.execPath,
      [CLI, 'check', notice, '--svrl', file('big.svrl', big), '--format', 'sarif'],
      { cwd: dir, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 },
    );
    assert.equal(r.status, 1, r.stderr);
    const sarif = JSON.parse(r.stdout).runs[0];
    assert.equal(sarif.results.length, 50_001);
    const note = sarif.results.find((x: { ruleId: string }) => x.ruleId === 'findings-omitted');
    assert.equal(note?.level, 'warning');
    assert.match(note?.message.text, /^The report holds 3 more findings than the 50,000 shown here/);
    const rule = sarif.tool.driver.rules.find((x: { id: string }) => x.id === 'findings-omitted');
    assert.equal(
      rule?.shortDescription.text,
      'The report holds more findings than the 50,000 this tool shows of one notice',
    );
    assert.equal(
      rule?.help.text,
      'The report holds more findings than the 50,000 this tool shows of one notice. A note of this tool: correct the findings shown and validate again.',
    );
    // A message's own full stop and the description's: one.
    const r0 = sarif.tool.driver.rules.find((x: { id: string }) => x.id === 'R-0');
    assert.equal(r0?.shortDescription.text, 'Failure 0');
    assert.equal(r0?.fullDescription.text, 'Failure 0. Schematron test: false()');
  });

  test('warnings only: exit 0; SARIF region on the attribute name', () => {
    const r = run(notice, '--svrl', warnings, '--format', 'sarif');
    assert.equal(r.status, 0, r.stderr);
    const result = JSON.parse(r.stdout).runs[0].results[0];
    assert.equal(result.level, 'warning');
    const start = NOTICE.split('\n')[2].indexOf('schemeName');
    assert.deepEqual(result.locations[0].physicalLocation.region, {
      startLine: 3,
      startColumn: start + 1,
      endLine: 3,
      endColumn: start + 1 + 'schemeName'.length,
    });
  });

  const failures: [string, string[], RegExp][] = [
    ['no arguments', [], /give the notice file/],
    ['no --svrl', ['notice.xml'], /--svrl/],
    ['unknown option', ['notice.xml', '--svrl', 'errors.svrl', '--bogus'], /bogus/],
    ['unknown format', ['notice.xml', '--svrl', 'errors.svrl', '--format', 'xml'], /unknown format 'xml'/],
    [
      'missing notice',
      ['absent.xml', '--svrl', 'errors.svrl'],
      /cannot read the notice absent\.xml: no such file/,
    ],
    ['missing report', ['notice.xml', '--svrl', 'absent.svrl'], /cannot read the SVRL report absent\.svrl/],
    ['report is not SVRL', ['notice.xml', '--svrl', 'notice.xml'], /not an SVRL report/],
  ];
  for (const [what, args, message] of failures) {
    test(`${what}: exit 2 with a one-line message`, () => {
      const r = run(...args);
      assert.equal(r.status, 2);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.equal(r.stdout, '');
    });
  }

  test('a notice that is not well-formed: exit 2, with where and why', () => {
    const broken = file('broken.xml', '<a>\n  <b>\n</a>');
    const r = run(broken, '--svrl', errors);
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      /broken\.xml:3:1: the notice is not well-formed XML: end tag <\/a> does not match/,
    );
  });

  test('a file that is not UTF-8: exit 2', () => {
    const latin1 = file('latin1.xml', Buffer.from([0x3c, 0x61, 0x3e, 0xe9, 0x3c, 0x2f, 0x61, 0x3e]));
    const r = run(latin1, '--svrl', errors);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /not UTF-8/);
  });

  test('a file that is not UTF-8: the line and column of its first byte that is not, in UTF-16 units', () => {
    // The notice's text with one letter written in Latin-1 (0xE9), after astral characters on its line.
    const marked = NOTICE.replace('</cbc:ID>', '</cbc:ID><!-- caf\u0000 -->');
    const at = marked.indexOf('\u0000');
    const [before, after] = marked.split('\u0000') as [string, string];
    // The expected place, computed over the string (not over bytes): lines, and UTF-16 units from the
    // line's start.
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    const cases: [string, Buffer][] = [
      ['latin1-letter', Buffer.from([0xe9])],
      ['overlong', Buffer.from([0xc0, 0xaf])],
      ['surrogate', Buffer.from([0xed, 0xa0, 0x80])],
      ['past-max', Buffer.from([0xf4, 0x90, 0x80, 0x80])],
      ['lone-trail', Buffer.from([0x80])],
    ];
    for (const [name, bad] of cases) {
      const f = file(`${name}.xml`, Buffer.concat([Buffer.from(before), bad, Buffer.from(after)]));
      const r = run(f, '--svrl', errors);
      assert.equal(r.status, 2, name);
      assert.match(
        r.stderr,
        new RegExp(
          `not UTF-8 text: line ${line}, column ${column} holds a byte \\(0x${bad[0]?.toString(16).toUpperCase()}\\)`,
        ),
        name,
      );
      assert.match(r.stderr, /save the file as UTF-8/);
    }
    // Cut short at the end of the file; and after a byte-order mark, which is not a column.
    const cut = file('cut.xml', Buffer.concat([Buffer.from('<a>'), Buffer.from([0xe2, 0x82])]));
    assert.match(run(cut, '--svrl', errors).stderr, /line 1, column 4 holds a byte \(0xE2\)/);
    const bom = file('bom-bad.xml', Buffer.from([0xef, 0xbb, 0xbf, 0x3c, 0x61, 0x3e, 0xff]));
    assert.match(run(bom, '--svrl', errors).stderr, /line 1, column 4 holds a byte \(0xFF\)/);
    // A UTF-16 file, either byte order: named as what it is.
    for (const [name, encoding] of [
      ['utf16le', 'UTF-16LE'],
      ['utf16be', 'UTF-16BE'],
    ] as const) {
      const le = Buffer.from(`\ufeff${NOTICE}`, 'utf16le');
      const bytes = name === 'utf16le' ? le : Buffer.from(le).swap16();
      const r = run(file(`${name}.xml`, bytes), '--svrl', errors);
      assert.equal(r.status, 2, name);
      assert.match(r.stderr, new RegExp(`is ${encoding} text \\(it starts with a UTF-16 byte-order mark\\)`));
      assert.match(r.stderr, /save the file as UTF-8/);
    }
  });

  test('--help: exit 0 and the usage', () => {
    const r = run('--help');
    assert.equal(r.status, 0);
    assert.match(r.stdout, /Usage: eforms check NOTICE\.xml --svrl REPORT\.svrl/);
  });
});

// Issue 12: output that a reader stops reading, and report text meant to drive the terminal.
describe('eforms check: hostile output paths (built CLI)', () => {
  const notice = file('hostile-notice.xml', NOTICE);
  const many = (role: string, count: number) =>
    `<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl">
  <svrl:ns-prefix-in-attribute-values prefix="cn" uri="urn:cn"/>
  ${Array.from(
    { length: count },
    (_, k) =>
      `<svrl:failed-assert id="W-${k}" location="/cn:ContractNotice" role="${role}" test="false()"><svrl:text>warning number ${k}</svrl:text></svrl:failed-assert>`,
  ).join('\n')}
</svrl:schematron-output>`;

  /** Runs check with a reader that takes the first chunk and closes the pipe, as `| head -1` does. */
  function runClosedEarly(svrl: string): Promise<{ status: number | null; stderr: string; first: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, 'check', notice, '--svrl', svrl], { cwd: dir });
      let first = '';
      let stderr = '';
      child.stdout.once('data', (chunk: Buffer) => {
        first = chunk.toString('utf8').split('\n')[0];
        child.stdout.destroy();
      });
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString('utf8');
      });
      child.on('close', (status) => resolve({ status, stderr, first }));
    });
  }

  test('| head -1 on warnings only: exit 0, no EPIPE trace', async () => {
    const r = await runClosedEarly(file('many-warnings.svrl', many('WARN', 20_000)));
    assert.match(r.first, /^hostile-notice\.xml:2:1: warning W-0 warning number 0$/);
    assert.equal(r.stderr, '');
    assert.equal(r.status, 0);
  });

  test('| head -1 on errors: exit 1 because the notice has errors, no EPIPE trace', async () => {
    const r = await runClosedEarly(file('many-errors.svrl', many('ERROR', 20_000)));
    assert.equal(r.stderr, '');
    assert.equal(r.status, 1);
  });

  test('C1 controls (CSI), DEL and bidi overrides in id, message and location reach the terminal escaped', () => {
    // XML 1.0 allows these as characters; ESC, BEL and NUL it forbids (next test).
    const hostile = `<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl">
  <svrl:failed-assert id="X&#x9b;31m" location="/nowhere&#x202e;/x&#x7f;" role="ERROR" test="false()">
    <svrl:text>pwned &#x9d;8;;http://evil.example/&#x9c; click&#x9b;2J&#x202e;txt.exe&#x2066;</svrl:text>
  </svrl:failed-assert>
</svrl:schematron-output>`;
    const r = run(notice, '--svrl', file('hostile.svrl', hostile));
    assert.equal(r.status, 1, r.stderr);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: their absence is the point.
    assert.doesNotMatch(r.stdout, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e\u2066]/);
    assert.ok(
      r.stdout.includes(
        'error X\\u009b31m pwned \\u009d8;;http://evil.example/\\u009c click\\u009b2J\\u202etxt.exe\\u2066',
      ),
      r.stdout,
    );
    assert.ok(r.stdout.includes('/nowhere\\u202e/x\\u007f, which is not in this notice'), r.stdout);
  });

  test('ESC, BEL and NUL, raw or as references, make the report not well-formed: exit 2, said plainly', () => {
    for (const bad of ['&#x1b;[31m', '\u0007', '&#0;']) {
      const r = run(notice, '--svrl', file('forbidden.svrl', report('ERROR').replace('R-1', `R-1${bad}`)));
      assert.equal(r.status, 2);
      assert.match(
        r.stderr,
        /not well-formed XML: (the character reference &#\w+; names a character XML 1\.0 forbids|character U\+0007 is not allowed in XML 1\.0)/,
      );
      // biome-ignore lint/suspicious/noControlCharactersInRegex: their absence is the point.
      assert.doesNotMatch(r.stderr, /[\u0000-\u0008\u000b-\u001f]/);
    }
  });

  test('JSON output keeps the characters exactly (escaped by JSON itself)', () => {
    const r = run(notice, '--svrl', 'hostile.svrl', '--format', 'json');
    const [f] = JSON.parse(r.stdout) as { id: string; message: string }[];
    assert.equal(f.id, 'X\u009b31m');
    assert.ok(f.message.includes('\u202etxt.exe'));
  });
});

describe('eforms: inputs over their limit', () => {
  test('a notice over 30 MB is refused before it is read or sent: exit 2, the limit named', () => {
    // A sparse file: its size is over the limit without writing 30 MB.
    const name = 'huge.xml';
    writeFileSync(join(dir, name), '');
    truncateSync(join(dir, name), 31 * 1024 * 1024);
    for (const args of [
      ['check', name, '--svrl', 'x.svrl'],
      ['validate', name, '--env', 'sandbox'],
    ]) {
      const r = spawnSync(process.execPath, [CLI, ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, EFORMS_API_KEY: 'k', EFORMS_SANDBOX_URL: 'http://127.0.0.1:9' },
      });
      assert.equal(r.status, 2, r.stderr);
      assert.match(
        r.stderr,
        /cannot use the notice huge\.xml: the notice is larger than 30 MB \(31\.0 MB\), the most this tool accepts: make it smaller\./,
      );
      assert.doesNotMatch(r.stderr, /setting|environment|URL/i, 'not reported as a settings problem');
    }
  });
});
