// Validation with the (sandbox) Central Validation Service as the user gets it: set a key with the
// command, see each failed assertion at the element its SVRL location selects, fix one and see it go,
// read the counts in the status, lose the service (offline), clear the key (needsKey).
// What is expected comes from the test notices' `expect:` header lines and from plain text searches
// (notice-text.ts); the extension's own code is never used to compute it.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import * as vscode from 'vscode';
import { Commands } from '../../../client/command-ids';
import {
  api,
  closeAll,
  codeOf,
  describeDiagnostics,
  describeStatus,
  diagnostics,
  type EformsApi,
  fixtureText,
  fixtureUri,
  open,
  plainText,
  positionAt,
  SERVICE_SOURCE,
  setSetting,
  testEnv,
  waitFor,
} from './editor-support';
import { type ExpectedAssertion, expectedAssertions, locationElement, locationOffset } from './notice-text';

const SEVERITY: Record<ExpectedAssertion['role'], vscode.DiagnosticSeverity> = {
  ERROR: vscode.DiagnosticSeverity.Error,
  WARN: vscode.DiagnosticSeverity.Warning,
  INFO: vscode.DiagnosticSeverity.Information,
};

function where(d: vscode.Diagnostic): string {
  return `${d.range.start.line}:${d.range.start.character}`;
}

/** Service diagnostics that match the expected assertions, or undefined while any is still missing. */
function matchAll(
  uri: vscode.Uri,
  text: string,
  expected: ExpectedAssertion[],
): vscode.Diagnostic[] | undefined {
  const got = diagnostics(uri, SERVICE_SOURCE);
  const matched: vscode.Diagnostic[] = [];
  for (const e of expected) {
    const offset = locationOffset(text, e.location);
    assert.notEqual(offset, undefined, `the test cannot find ${e.location} in ${uri.path}`);
    const at = positionAt(text, offset as number);
    const d = got.find(
      (x) => codeOf(x) === e.id && x.range.start.line === at.line && x.range.start.character === at.character,
    );
    if (!d) return undefined;
    matched.push(d);
  }
  return matched;
}

function explainMissing(uri: vscode.Uri, text: string, expected: ExpectedAssertion[]): string {
  const lines = expected.map((e) => {
    const at = positionAt(text, locationOffset(text, e.location) ?? 0);
    return `${e.id} expected at ${at.line}:${at.character}`;
  });
  return `Expected: ${lines.join(', ')}. ${describeDiagnostics(uri)}`;
}

function deadPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function waitForState(a: EformsApi, state: string): Promise<ReturnType<EformsApi['status']>> {
  return waitFor(
    `status ${state}`,
    () => (a.status().state === state ? a.status() : undefined),
    () => describeStatus(a),
  );
}

suite('validation with the sandbox service', () => {
  suiteSetup(async function () {
    if (!testEnv.sandboxUrl || !testEnv.apiKey) {
      this.skip();
      return;
    }
    await setSetting('environment', 'sandbox');
    await setSetting('sandboxUrl', testEnv.sandboxUrl);
    await vscode.commands.executeCommand(Commands.setApiKey, testEnv.apiKey);
  });
  teardown(closeAll);
  suiteTeardown(async () => {
    await setSetting('sandboxUrl', testEnv.sandboxUrl);
  });

  for (const name of ['invalid-cn.xml', 'prefixes-cn.xml']) {
    test(`${name} shows every failed assertion of its header at the element its location selects`, async () => {
      const text = fixtureText(name);
      const expected = expectedAssertions(text);
      assert.ok(expected.length > 0, `${name} lists no "expect:" lines in its header comment`);
      const uri = fixtureUri(name);
      await open(name);
      const matched = await waitFor(
        `the service diagnostics of ${name}`,
        () => matchAll(uri, text, expected),
        () => explainMissing(uri, text, expected),
      );
      expected.forEach((e, i) => {
        assert.equal(matched[i].severity, SEVERITY[e.role], `${e.id} at ${where(matched[i])}: severity`);
        assert.ok(matched[i].message.trim().length > 0, `${e.id} has an empty message`);
      });
      // Nothing beyond what the notice declares: the header says the service reports exactly these.
      const extra = diagnostics(uri, SERVICE_SOURCE).filter((d) => !matched.includes(d));
      assert.deepEqual(
        extra.map((d) => `${codeOf(d)} ${where(d)}`),
        [],
        'unexpected service diagnostics',
      );
    });
  }

  test('the status shows "validated" with the counts of the problems shown', async () => {
    const name = 'invalid-cn.xml';
    const text = fixtureText(name);
    const expected = expectedAssertions(text);
    const uri = fixtureUri(name);
    await open(name);
    const a = await api();
    await waitFor(
      'the service diagnostics',
      () => matchAll(uri, text, expected),
      () => describeDiagnostics(uri),
    );
    const s = await waitForState(a, 'validated');
    const count = (sev: vscode.DiagnosticSeverity) =>
      diagnostics(uri).filter((d) => d.severity === sev).length;
    assert.equal(s.errors, count(vscode.DiagnosticSeverity.Error), `errors: ${describeStatus(a)}`);
    assert.equal(s.warnings, count(vscode.DiagnosticSeverity.Warning), `warnings: ${describeStatus(a)}`);
    assert.equal(s.infos, count(vscode.DiagnosticSeverity.Information), `infos: ${describeStatus(a)}`);
    assert.ok(s.errors >= expected.filter((e) => e.role === 'ERROR').length, describeStatus(a));
    const shown = plainText(s.text);
    assert.match(shown, /^eForms\b/, shown);
    assert.match(shown, /validated/, shown);
    assert.ok(shown.includes(`${s.errors} error`), `the status text must give the error count: ${shown}`);
  });

  test('fixing one problem clears its diagnostics and keeps the others', async () => {
    const name = 'invalid-cn.xml';
    const text = fixtureText(name);
    const valid = fixtureText('valid-cn.xml');
    const expected = expectedAssertions(text);
    // The fix is the element as valid-cn.xml has it (invalid-cn.xml is valid-cn.xml with failures): pick
    // an element location with no other expected location inside it, so that only its own rules go.
    const isElement = (l: string) => !l.includes('/@');
    const target = expected.find(
      (e) =>
        isElement(e.location) &&
        e.location.split('/').length > 2 &&
        !expected.some((o) => o.location !== e.location && o.location.startsWith(`${e.location}/`)) &&
        locationElement(valid, e.location) !== undefined,
    );
    assert.ok(target, 'invalid-cn.xml has no failed element that valid-cn.xml has right');
    const fixed = expected.filter((e) => e.location === target.location);
    const kept = expected.filter((e) => e.location !== target.location);

    const uri = fixtureUri(name);
    const editor = await open(name);
    await waitFor(
      'the service diagnostics',
      () => matchAll(uri, text, expected),
      () => explainMissing(uri, text, expected),
    );

    const bad = locationElement(text, target.location);
    const good = locationElement(valid, target.location);
    assert.ok(bad && good);
    const replacement = valid.slice(good.start, good.end);
    const doc = editor.document;
    const ok = await editor.edit((b) =>
      b.replace(new vscode.Range(doc.positionAt(bad.start), doc.positionAt(bad.end)), replacement),
    );
    assert.ok(ok, 'the edit was not applied');
    const after = doc.getText();
    assert.equal(after, text.slice(0, bad.start) + replacement + text.slice(bad.end));

    await waitFor(
      `${fixed.map((e) => e.id).join(', ')} to disappear and the others to stay`,
      () => {
        const got = diagnostics(uri, SERVICE_SOURCE);
        if (got.some((d) => fixed.some((e) => e.id === codeOf(d)))) return undefined;
        return matchAll(uri, after, kept);
      },
      () => explainMissing(uri, after, kept),
    );
  });

  test('an unreachable service turns the status to "offline"', async () => {
    const name = 'invalid-cn.xml';
    const a = await api();
    const editor = await open(name);
    const port = await deadPort();
    try {
      await setSetting('sandboxUrl', `http://127.0.0.1:${port}`);
      // New content, so that no cached report can answer for it.
      const end = editor.document.positionAt(editor.document.getText().length);
      await editor.edit((b) => b.insert(end, `\n<!-- offline check ${Date.now()} -->\n`));
      const s = await waitForState(a, 'offline');
      assert.match(plainText(s.text), /^eForms\b.*offline/i, s.text);
    } finally {
      await setSetting('sandboxUrl', testEnv.sandboxUrl);
    }
  });

  test('clearing the key turns the status to "needsKey"', async () => {
    const a = await api();
    await open('invalid-cn.xml');
    await waitFor('a status other than needsKey while a key is set', () =>
      a.status().state !== 'needsKey' ? true : undefined,
    );
    await vscode.commands.executeCommand(Commands.clearApiKey);
    const s = await waitForState(a, 'needsKey');
    assert.match(plainText(s.text), /^eForms\b/, s.text);
  });
});
