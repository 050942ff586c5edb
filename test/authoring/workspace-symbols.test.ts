// Workspace symbols find a lot or an organisation across the notices of a workspace folder, opened or
// not, through the real server. The notices are written here from an SDK sample with new identifiers,
// so the expected names are known before the server is asked. Skips when ../shared is absent.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { LspSession } from '../support/lsp-session';
import { SAMPLES_DIR, SDK_DIR, skipUnless } from '../support/shared-data';

describe('workspace symbols across notices on disk', {
  skip: skipUnless(SDK_DIR) ?? skipUnless(SAMPLES_DIR),
}, () => {
  let s: LspSession;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eforms-ws-'));
    const base = readFileSync(join(SAMPLES_DIR, 'notices', 'cn_24_maximal.xml'), 'utf8');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'a.xml'), base.replace(/LOT-0001/g, 'LOT-0042'));
    writeFileSync(join(dir, 'sub', 'b.xml'), base.replace(/LOT-0001/g, 'LOT-0077'));
    writeFileSync(join(dir, 'not-a-notice.xml'), '<root>LOT-0042</root>');
    s = await LspSession.start({
      settings: { validation: { run: 'manual' }, sdk: { path: SDK_DIR } },
      workspaceFolders: [pathToFileURL(dir).toString()],
    });
  });
  after(async () => {
    await s?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a lot is found in the notice that has it, and only there', async () => {
    type Sym = { name: string; location: { uri: string } };
    const a = (await s.connection.sendRequest('workspace/symbol', { query: 'LOT-0042' })) as Sym[];
    assert.deepEqual(
      a.map((x) => x.location.uri),
      [pathToFileURL(join(dir, 'a.xml')).toString()],
    );
    const b = (await s.connection.sendRequest('workspace/symbol', { query: 'lot-0077' })) as Sym[];
    assert.deepEqual(
      b.map((x) => x.location.uri),
      [pathToFileURL(join(dir, 'sub', 'b.xml')).toString()],
    );
    // An organisation by its name, in both notices.
    const org = /<cac:PartyName>(?:\s|<!--[\s\S]*?-->)*<cbc:Name[^>]*>([^<]*)</.exec(
      readFileSync(join(dir, 'a.xml'), 'utf8'),
    )?.[1] as string;
    const o = (await s.connection.sendRequest('workspace/symbol', { query: org.slice(0, 12) })) as Sym[];
    assert.equal(new Set(o.map((x) => x.location.uri)).size, 2);
  });
});
