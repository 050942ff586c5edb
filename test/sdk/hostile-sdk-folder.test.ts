// Issue 21, item 2: an SDK folder is input. Each of its files may be a link to /dev/zero, a FIFO, a file
// over its cap (sparse, so nothing is written), a link out of the release, a folder, missing, or a
// truncated copy of a valid file; a Schematron include may leave the release. The tools must refuse
// each with one message naming the file (or the include), never hang or exhaust memory, and never use
// a byte from outside the release. The caps come from the limits table; what is "valid" is written
// here by hand. fast-check generates whole folders (fixed seed); unit tests pin each kind.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { SdkKnowledge } from '../../core/authoring/sdk-knowledge';
import { INPUT_LIMITS, type InputKind } from '../../core/notice/limits';
import { loadRuleSet, RuleSetError } from '../../core/schematron';
import { clearRuleSetMemory } from '../../core/schematron/engine';
import { listSdkReleases } from '../../core/sdk/sdk-folder';
import { readSdkFile, SdkFileError } from '../../core/sdk/sdk-read';
import { fuzzParameters } from '../support/fuzz';

const temp = mkdtempSync(join(tmpdir(), 'eforms-hostile-sdk-'));
after(() => rmSync(temp, { recursive: true, force: true }));
const HAS_FIFO = spawnSync('mkfifo', [join(temp, 'probe-fifo')]).status === 0;
const GUARD = { timeout: 120_000 };

/** A secret outside every release: it must never be read through a link. */
const OUTSIDE = join(temp, 'outside.json');
writeFileSync(OUTSIDE, JSON.stringify({ fields: [{ id: 'OUTSIDE-FIELD', xpathAbsolute: '/x' }] }));

const FILES: Record<string, { kind: InputKind; valid: string }> = {
  'fields/fields.json': {
    kind: 'sdkFieldsBytes',
    valid: JSON.stringify({
      xmlStructure: [{ id: 'ND-Root', xpathAbsolute: '/*' }],
      fields: [{ id: 'BT-01', xpathAbsolute: '/*/Id', name: 'Identifier', type: 'id' }],
    }),
  },
  'notice-types/notice-types.json': {
    kind: 'sdkNoticeTypeBytes',
    valid: JSON.stringify({ noticeSubTypes: [{ subTypeId: '1', documentType: 'PIN' }] }),
  },
  'codelists/codelists.json': {
    kind: 'sdkCodelistBytes',
    valid: JSON.stringify({ codelists: [{ id: 'x', filename: 'x.gc' }] }),
  },
  'codelists/x.gc': {
    kind: 'sdkCodelistBytes',
    valid:
      '<gc:CodeList xmlns:gc="http://docs.oasis-open.org/codelist/ns/genericode/1.0/"><SimpleCodeList><Row><Value ColumnRef="code"><SimpleValue>A</SimpleValue></Value></Row></SimpleCodeList></gc:CodeList>',
  },
  'translations/field_en.xml': {
    kind: 'sdkTranslationBytes',
    valid: '<properties><entry key="field|name|BT-01">Identifier</entry></properties>',
  },
  'schematrons/static/complete-validation.sch': {
    kind: 'sdkSchematronBytes',
    valid: `<schema xmlns="http://purl.oclc.org/dsdl/schematron"><phase id="eforms-1"><active pattern="p"/></phase><include href="p.sch"/></schema>`,
  },
  'schematrons/static/p.sch': {
    kind: 'sdkSchematronBytes',
    valid: `<pattern xmlns="http://purl.oclc.org/dsdl/schematron" id="p"><rule context="/*"><assert id="R-1" role="ERROR" test="false()">rule|text|R-1</assert></rule></pattern>`,
  },
};
type Hostile = 'valid' | 'truncated' | 'dev-zero' | 'fifo' | 'huge' | 'outside' | 'folder' | 'missing';
const HOSTILE: Hostile[] = ['valid', 'truncated', 'dev-zero', 'fifo', 'huge', 'outside', 'folder', 'missing'];

/** Include targets: inside the release, or leaving it (upwards, absolute, into another release). */
const HREFS = [
  'p.sch',
  '../static/p.sch',
  '../../../outside.sch',
  '../../../../etc/passwd',
  '/etc/passwd',
  '../../../../r0/1.15.0/schematrons/static/p.sch',
];

let n = 0;
/** Writes a release whose files are as `plan` says; returns its folder. */
function writeRelease(plan: Record<string, Hostile>, cut = 0.5): string {
  const dir = join(temp, `r${n++}`, '1.15.0');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'VERSION'), '1.15.0\n');
  for (const [file, spec] of Object.entries(FILES)) {
    const path = join(dir, file);
    mkdirSync(dirname(path), { recursive: true });
    const how = plan[file] ?? 'valid';
    if (how === 'valid') writeFileSync(path, spec.valid);
    else if (how === 'truncated')
      writeFileSync(path, spec.valid.slice(0, Math.floor(spec.valid.length * cut)));
    else if (how === 'dev-zero') symlinkSync('/dev/zero', path);
    else if (how === 'fifo') {
      if (!HAS_FIFO || spawnSync('mkfifo', [path]).status !== 0) symlinkSync('/dev/zero', path);
    } else if (how === 'huge') {
      writeFileSync(path, '');
      truncateSync(path, INPUT_LIMITS[spec.kind].max + 1);
    } else if (how === 'outside') symlinkSync(OUTSIDE, path);
    else if (how === 'folder') mkdirSync(path);
  }
  return dir;
}

describe('one file of each hostile kind', () => {
  for (const how of HOSTILE.filter((h) => h !== 'valid' && h !== 'truncated' && h !== 'missing')) {
    test(`fields/fields.json as ${how}: refused, naming the file`, GUARD, () => {
      const dir = writeRelease({ 'fields/fields.json': how });
      const k = new SdkKnowledge(dir, '1.15.0');
      assert.match(k.problem ?? '', /fields\.json/);
      assert.equal(k.fields.size, 0, 'nothing read from it');
      assert.throws(
        () => readSdkFile(dir, 'fields/fields.json', 'sdkFieldsBytes'),
        (e: unknown) =>
          e instanceof SdkFileError &&
          e.file.endsWith('fields.json') &&
          e.message.includes('fields.json') &&
          e.problem ===
            (
              {
                'dev-zero': 'outside',
                fifo: 'not-regular',
                huge: 'too-large',
                outside: 'outside',
                folder: 'not-regular',
              } as const
            )[how as 'huge'],
      );
    });
  }

  test('a link to a file inside the release is read', () => {
    const dir = writeRelease({});
    rmSync(join(dir, 'fields', 'fields.json'));
    writeFileSync(join(dir, 'fields', 'real.json'), FILES['fields/fields.json']?.valid as string);
    symlinkSync(join(dir, 'fields', 'real.json'), join(dir, 'fields', 'fields.json'));
    const k = new SdkKnowledge(dir, '1.15.0');
    assert.equal(k.problem, undefined);
    assert.ok(k.fields.has('BT-01'));
  });

  test('a VERSION file linked to /dev/zero is not waited on', GUARD, () => {
    const dir = writeRelease({});
    rmSync(join(dir, 'VERSION'));
    symlinkSync('/dev/zero', join(dir, 'VERSION'));
    assert.deepEqual(
      listSdkReleases(dirname(dir)).map((r) => r.version),
      ['1.15.0'],
      'the version then comes from the folder name',
    );
  });

  // From schematrons/static/, `../../../` is the folder above the release.
  for (const href of ['../../../outside.sch', '../../../../../../etc/passwd', '/etc/passwd']) {
    test(`<include href="${href}"> leaving the release is refused, naming the include`, async () => {
      const dir = writeRelease({});
      writeFileSync(join(dir, '..', 'outside.sch'), FILES['schematrons/static/p.sch']?.valid as string);
      writeFileSync(
        join(dir, 'schematrons', 'static', 'complete-validation.sch'),
        `<schema xmlns="http://purl.oclc.org/dsdl/schematron"><phase id="eforms-1"><active pattern="p"/></phase><include href="${href}"/></schema>`,
      );
      clearRuleSetMemory();
      const err = await loadRuleSet({
        sdkDir: dir,
        sdkVersion: '1.15.0',
        phase: 'eforms-1',
        mode: 'static',
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof RuleSetError, String(err));
      assert.ok(
        err.message.includes(href) || JSON.stringify(err.fields).includes(href),
        JSON.stringify(err.fields),
      );
    });
  }
});

describe('generated hostile SDK folders (fast-check)', () => {
  test('every file refused or read; never a hang, a crash, or a byte from outside', GUARD, async () => {
    const files = Object.keys(FILES);
    const plan = fc.record(
      Object.fromEntries(files.map((f) => [f, fc.constantFrom(...HOSTILE)])) as Record<
        string,
        fc.Arbitrary<Hostile>
      >,
    );
    await fc.assert(
      fc.asyncProperty(
        plan,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(...HREFS),
        async (p, cut, href) => {
          const dir = writeRelease(p, cut);
          const escapes = !href.startsWith('p.sch') && !href.startsWith('../static/');
          if (p['schematrons/static/complete-validation.sch'] === 'valid')
            writeFileSync(
              join(dir, 'schematrons', 'static', 'complete-validation.sch'),
              String(FILES['schematrons/static/complete-validation.sch']?.valid).replace(
                'href="p.sch"',
                `href="${href}"`,
              ),
            );
          assert.deepEqual(
            listSdkReleases(dir).map((r) => r.version),
            ['1.15.0'],
          );
          const k = new SdkKnowledge(dir, '1.15.0');
          const fieldsOk = p['fields/fields.json'] === 'valid';
          if (fieldsOk) assert.equal(k.problem, undefined);
          else if (p['fields/fields.json'] !== 'truncated' || cut < 1)
            assert.match(k.problem ?? 'empty model', /fields\.json|empty model/);
          assert.ok(!k.fields.has('OUTSIDE-FIELD'), 'nothing read through a link out of the release');
          assert.equal(
            k.fields.has('BT-01'),
            fieldsOk || (p['fields/fields.json'] === 'truncated' && k.problem === undefined),
          );
          // The other readers answer, from the file or with nothing.
          k.noticeSubtypes();
          k.codeList('x');
          k.fieldLabel('BT-01', 'en');
          clearRuleSetMemory();
          let refusal = '';
          const rules = await loadRuleSet({
            sdkDir: dir,
            sdkVersion: '1.15.0',
            phase: 'eforms-1',
            mode: 'static',
          }).then(
            (r) => r,
            (e: unknown) => {
              assert.ok(e instanceof RuleSetError, `a RuleSetError, not ${String(e)}`);
              refusal = JSON.stringify(e.fields);
              return undefined;
            },
          );
          const mainOk = p['schematrons/static/complete-validation.sch'] === 'valid';
          if (mainOk && escapes) {
            assert.equal(rules, undefined, `the include ${href} leaves the release`);
            assert.ok(refusal.includes(href), `the refusal names the include: ${refusal}`);
          }
          const schOk = mainOk && !escapes && p['schematrons/static/p.sch'] === 'valid';
          if (schOk) {
            assert.ok(rules, 'a valid release compiles');
            assert.deepEqual(
              rules.evaluate('<a/>').failures.map((f) => f.id),
              ['R-1'],
            );
          }
        },
      ),
      fuzzParameters(40),
    );
  });
});
