// Cancellation and the per-request budget of workspace symbols, through the real server: the walk over
// the notices on disk stops at the next file once the client cancels, the request is answered
// "request cancelled" (-32800) rather than with a stale list, and one request reads at most
// WORKSPACE_SYMBOL_BUDGET.files files it has not read before (the next goes on from its cache).
// The work done is observed from outside: the server asks workspace/configuration once per notice it
// reads, so the test counts those requests, and cancels from inside the third one. Nothing is timed.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { CancellationTokenSource, ResponseError } from 'vscode-languageserver-protocol/node';
import { WORKSPACE_SYMBOL_BUDGET } from '../../server/authoring/authoring-handlers';
import { LspSession } from '../support/lsp-session';
import { PROJECT_ROOT } from '../support/shared-data';

const N = WORKSPACE_SYMBOL_BUDGET.files + 20;

describe('workspace symbols: cancellation and budget', () => {
  let s: LspSession;
  let dir: string;
  const asked: string[] = [];
  let onAsk: ((uri: string) => void) | undefined;
  const inDir = (uri: string) => uri.startsWith(pathToFileURL(dir).toString());

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eforms-cancel-'));
    const base = readFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'notices', 'valid-cn.xml'), 'utf8');
    for (let i = 0; i < N; i++) writeFileSync(join(dir, `n${String(i).padStart(3, '0')}.xml`), base);
    const settings = { validation: { run: 'manual', engine: 'cvs' } };
    s = await LspSession.start({ settings, workspaceFolders: [pathToFileURL(dir).toString()] });
    // Replaces the session's answer, to count the notices the server reads (one question each).
    s.connection.onRequest(
      'workspace/configuration',
      (p: { items: { scopeUri?: string; section?: string }[] }) =>
        p.items.map((i) => {
          if (i.scopeUri && inDir(i.scopeUri) && i.section === 'eforms') {
            asked.push(i.scopeUri);
            onAsk?.(i.scopeUri);
          }
          return i.section === 'eforms' ? settings : null;
        }),
    );
  });
  after(async () => {
    await s?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  type Sym = { location: { uri: string } };
  const filesIn = (syms: Sym[]) => new Set(syms.map((x) => x.location.uri).filter(inDir));

  test('a request cancelled while it walks stops at the next file and answers -32800', async () => {
    const cts = new CancellationTokenSource();
    onAsk = () => {
      if (asked.length === 3) cts.cancel();
    };
    await assert.rejects(
      s.connection.sendRequest('workspace/symbol', { query: '' }, cts.token),
      (e: unknown) => e instanceof ResponseError && e.code === -32800,
    );
    onAsk = undefined;
    const read = asked.length;
    assert.ok(read >= 3 && read <= 4, `the walk stopped at the next file: ${read} of ${N} read`);
    const line = await s.waitFor('the walk’s log line', () =>
      s.logs.find((l) => l.startsWith('workspace symbols:')),
    );
    assert.match(line, /; cancelled$/);
    assert.match(line, new RegExp(`read ${read} file\\(s\\) .* of ${N} on disk`));
  });

  test('one request reads at most the budget; the next one goes on from the cache', async () => {
    const before = asked.length;
    const first = filesIn((await s.connection.sendRequest('workspace/symbol', { query: '' })) as Sym[]);
    const readNow = asked.length - before;
    assert.equal(readNow, WORKSPACE_SYMBOL_BUDGET.files, 'the budget of new files, no more');
    assert.equal(first.size, before + readNow, 'the notices read before (cached) and now');
    const second = filesIn((await s.connection.sendRequest('workspace/symbol', { query: '' })) as Sym[]);
    assert.equal(second.size, N, 'every notice, once the rest is read');
    assert.equal(asked.length, N, 'each notice read once');
  });
});
