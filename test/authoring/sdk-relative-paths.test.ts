// SdkKnowledge reads each path of fields.json as its parent node's steps and its relative path
// (core/authoring/sdk-knowledge.ts, SdkPathSteps): every entry must have the steps that reading its
// whole absolute path gives (parseSdkPath, the truth here), in every release in ../shared/eforms-sdk
// and in a fields.json whose relative paths lie, climb, union, start with `//`, or whose parents are
// missing, unreadable or in a cycle. Reads ../shared; writes only a temporary folder.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { SdkKnowledge } from '../../core/authoring/sdk-knowledge';
import { parseSdkPath } from '../../core/authoring/sdk-paths';
import { SHARED_DIR, skipUnless } from '../support/shared-data';

const RELEASES = join(SHARED_DIR, 'eforms-sdk');

function checkAll(k: SdkKnowledge): number {
  let n = 0;
  for (const e of k.entries.values()) {
    const def = e.field ?? e.node;
    assert.ok(def, e.id);
    assert.deepEqual(e.steps, parseSdkPath(def.xpathAbsolute), `${e.id}: ${def.xpathAbsolute}`);
    n++;
  }
  return n;
}

describe('fields.json paths read as parent and relative path', () => {
  const work = mkdtempSync(join(tmpdir(), 'sdk-relative-paths-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  test('every release: the same steps as each whole path', { skip: skipUnless(RELEASES) }, () => {
    const versions = readdirSync(RELEASES).filter((v) =>
      existsSync(join(RELEASES, v, 'fields', 'fields.json')),
    );
    assert.ok(versions.length >= 3, `releases (${versions.join(', ')})`);
    for (const v of versions) {
      const k = new SdkKnowledge(join(RELEASES, v), v);
      assert.equal(k.problem, undefined, v);
      assert.ok(checkAll(k) > 900, v);
    }
  });

  test('relative paths that do not continue their parent are read whole', () => {
    const dir = join(work, 'hostile');
    mkdirSync(join(dir, 'fields'), { recursive: true });
    const node = (id: string, parentId: string | undefined, abs: string, rel?: string) => ({
      id,
      ...(parentId ? { parentId } : {}),
      xpathAbsolute: abs,
      ...(rel !== undefined ? { xpathRelative: rel } : {}),
    });
    const field = (id: string, parentNodeId: string, abs: string, rel: string) => ({
      id,
      parentNodeId,
      xpathAbsolute: abs,
      xpathRelative: rel,
      type: 'text',
    });
    const xmlStructure = [
      node('ND-Root', undefined, '/*'),
      node('ND-A', 'ND-Root', '/*/cac:A', 'cac:A'),
      node('ND-B', 'ND-A', "/*/cac:A/cac:B[cbc:ID/@schemeName='x/y']", "cac:B[cbc:ID/@schemeName='x/y']"),
      // Unreadable parent: its children are read whole.
      node('ND-Bad', 'ND-Root', '/*/cac:A[', 'cac:A['),
      node('ND-Under-Bad', 'ND-Bad', '/*/cac:A[/cbc:X', 'cbc:X'),
      // A cycle of parents.
      node('ND-C1', 'ND-C2', '/*/cac:C/cac:D', 'cac:D'),
      node('ND-C2', 'ND-C1', '/*/cac:C', 'cac:C'),
      // A named root.
      node('ND-Named', undefined, '/cn:ContractNotice'),
      node('ND-Named-A', 'ND-Named', '/cn:ContractNotice/cac:A', 'cac:A'),
    ];
    const fields = [
      field('F-1', 'ND-B', "/*/cac:A/cac:B[cbc:ID/@schemeName='x/y']/cbc:Name", 'cbc:Name'),
      field(
        'F-2',
        'ND-B',
        "/*/cac:A/cac:B[cbc:ID/@schemeName='x/y']/cbc:ID/@schemeName",
        'cbc:ID/@schemeName',
      ),
      // The relative path lies about the absolute one (at the same length).
      field('F-3', 'ND-A', '/*/cac:A/cbc:Other', 'cbc:Otter'),
      // Descendants, a union, a comparison, a climb, a function: not steps of the parent.
      field('F-4', 'ND-A', '/*/cac:A//cbc:Name', '/cbc:Name'),
      field('F-5', 'ND-A', '/*/cac:A/cbc:X | cbc:Y', 'cbc:X | cbc:Y'),
      field('F-6', 'ND-A', "/*/cac:A/cbc:X = 'a'", "cbc:X = 'a'"),
      field('F-7', 'ND-A', '/*/cac:A/../cbc:X', '../cbc:X'),
      field('F-8', 'ND-A', '/*/cac:A/text()', 'text()'),
      field('F-9', 'ND-A', '/*/cac:A/count(cbc:X)', 'count(cbc:X)'),
      field('F-10', 'ND-Under-Bad', '/*/cac:A[/cbc:X/cbc:Y', 'cbc:Y'),
      field('F-11', 'ND-C1', '/*/cac:C/cac:D/cbc:E', 'cbc:E'),
      field('F-12', 'ND-Missing', '/*/cac:Z/cbc:E', 'cbc:E'),
      field('F-13', 'ND-Named-A', '/cn:ContractNotice/cac:A/cbc:E', 'cbc:E'),
      field('F-14', 'ND-A', '/*/cac:A/', ''),
    ];
    writeFileSync(join(dir, 'fields', 'fields.json'), JSON.stringify({ xmlStructure, fields }));
    const k = new SdkKnowledge(dir, '9.9.9');
    assert.equal(k.problem, undefined);
    assert.equal(checkAll(k), xmlStructure.length + fields.length);
    // The kept steps carry the predicates, text and all.
    assert.deepEqual(
      k.entries.get('F-1')?.steps.map((s) => s.name),
      ['cac:A', 'cac:B', 'cbc:Name'],
    );
  });
});
