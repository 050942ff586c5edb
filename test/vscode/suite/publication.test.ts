// Publication to the sandbox eNotices2 as the user gets it: "Submit Notice" on an open notice, the
// "My Notices" view following it from SUBMITTED to PUBLISHED by its own auto-refresh (sooner while
// SUBMITTED), "Stop Publication" from the context menu moving a notice to STOPPED, and the validation
// report of a notice whose validation failed (VALIDATION_FAILED, its own group), placed on the notice
// without repeating what live validation shows, and gone when the report is closed. Expected places
// come from the fixtures' `expect:` header lines and plain text searches, never from the extension's code.

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { Commands } from '../../../client/command-ids';
import {
  api,
  closeAll,
  codeOf,
  describeDiagnostics,
  fixtureText,
  type PublicationSnapshot,
  SERVICE_SOURCE,
  setSetting,
  testEnv,
  waitFor,
} from './editor-support';

type Snapshot = PublicationSnapshot;
/** What the view and the report views show now, through the extension's API. */
const snapshot = async (): Promise<Snapshot> => (await api()).publication();

/** A fixture with a new notice id (and procedure id), opened as an untitled XML editor. */
async function openFresh(
  name: string,
): Promise<{ doc: vscode.TextDocument; businessId: string; text: string }> {
  const id = randomUUID();
  const text = fixtureText(name)
    .replace(/(<cbc:ID schemeName="notice-id">)[^<]*(<\/cbc:ID>)/, `$1${id}$2`)
    .replace(/(<cbc:ContractFolderID>)[^<]*(<\/cbc:ContractFolderID>)/, `$1${randomUUID()}$2`);
  const version = /<cbc:VersionID>([^<]*)</.exec(text)?.[1];
  const doc = await vscode.workspace.openTextDocument({ language: 'xml', content: text });
  await vscode.window.showTextDocument(doc);
  return { doc, businessId: `${id}-${version}`, text };
}

async function statusInTree(businessId: string, status: string, ms = 40000): Promise<void> {
  let last: Snapshot | undefined;
  await waitFor(
    `${businessId} ${status} in My Notices`,
    async () => {
      last = await snapshot();
      return last.tree.notices.some((n) => n.businessId === businessId && n.status === status)
        ? true
        : undefined;
    },
    () => `View: ${JSON.stringify(last?.tree)}`,
    ms,
  );
}

const AUTHOR = { email: 'buyer@example.org', locale: 'en' };

suite('publication with the sandbox eNotices2', () => {
  suiteSetup(async () => {
    // The runner always provides these: without them this proof would silently vanish from the run.
    if (!testEnv.sandboxUrl || !testEnv.apiKey)
      throw new Error('EFORMS_TEST_SANDBOX_URL and EFORMS_TEST_API_KEY must be set by the in-editor runner');
    await api();
    await setSetting('environment', 'sandbox');
    await setSetting('sandboxUrl', testEnv.sandboxUrl);
    // The view refreshes itself while a notice moves: every second here, so the test sees it move.
    await setSetting('publication.autoRefreshSeconds', 1);
    await vscode.commands.executeCommand(Commands.setApiKey, testEnv.apiKey);
  });
  teardown(closeAll);
  suiteTeardown(async () => {
    await setSetting('publication.autoRefreshSeconds', undefined);
  });

  test('submit from the command: the view shows SUBMITTED, then PUBLISHED on its own', async function () {
    this.timeout(90000);
    const { doc, businessId } = await openFresh('valid-cn.xml');
    const outcome = await vscode.commands.executeCommand<{ businessId: string; success: boolean }>(
      Commands.submitNotice,
      { uri: doc.uri.toString(), ...AUTHOR, submitAnyway: true },
    );
    assert.deepEqual(outcome, { businessId, success: true });
    await statusInTree(businessId, 'SUBMITTED', 4000).catch(() =>
      statusInTree(businessId, 'PUBLISHING', 8000),
    );
    // No refresh command from here on: the view's auto-refresh must carry it to PUBLISHED.
    await statusInTree(businessId, 'PUBLISHED', 60000);
  });

  test('stop from the context menu command moves a SUBMITTED notice to STOPPED', async () => {
    const { doc, businessId } = await openFresh('valid-cn.xml');
    const outcome = await vscode.commands.executeCommand<{ success: boolean }>(Commands.submitNotice, {
      uri: doc.uri.toString(),
      ...AUTHOR,
      submitAnyway: true,
    });
    assert.equal(outcome?.success, true);
    // The tree item's argument shape; the modal confirmation is answered by `confirmed`.
    const stopped = await vscode.commands.executeCommand<boolean>(
      Commands.stopPublication,
      { kind: 'notice', businessId },
      { confirmed: true },
    );
    assert.equal(stopped, true);
    await statusInTree(businessId, 'STOPPED', 10000);
  });

  test('while a notice is SUBMITTED the view refreshes sooner than the setting says', async () => {
    await setSetting('publication.autoRefreshSeconds', 30);
    try {
      const { doc, businessId } = await openFresh('valid-cn.xml');
      const outcome = await vscode.commands.executeCommand<{ success: boolean }>(Commands.submitNotice, {
        uri: doc.uri.toString(),
        ...AUTHOR,
        submitAnyway: true,
      });
      assert.equal(outcome?.success, true);
      await statusInTree(businessId, 'SUBMITTED', 4000);
      const next = (await snapshot()).tree.nextRefreshSeconds;
      assert.equal(next, 5, `next refresh in ${next} s while SUBMITTED (setting: 30 s)`);
    } finally {
      await setSetting('publication.autoRefreshSeconds', 1);
    }
  });

  test('Submit refuses a notice with errors by default: the dialog counts what the editor shows', async () => {
    const { doc, businessId, text } = await openFresh('invalid-cn.xml');
    await waitFor(
      'live service diagnostics on the notice',
      () =>
        vscode.languages.getDiagnostics(doc.uri).some((d) => d.source === SERVICE_SOURCE) ? true : undefined,
      () => describeDiagnostics(doc.uri),
      30000,
    );
    // Pressing Enter in the dialog: its default button.
    const outcome = await vscode.commands.executeCommand<{
      submitted?: boolean;
      success?: boolean;
      reason?: string;
      errors?: number;
      answer?: string;
    }>(Commands.submitNotice, { uri: doc.uri.toString(), ...AUTHOR, dialog: 'default' });
    assert.equal(outcome?.submitted, false, JSON.stringify(outcome));
    assert.equal(outcome?.reason, 'errors');
    assert.equal(outcome?.answer, 'Review errors');
    // The fixture's header lists the service's errors: the check saw at least those, but for the two
    // on cbc:ContractFolderID, which openFresh fills.
    const documented = [...text.matchAll(/expect: ERROR \S+ (\S+)/g)].filter(
      (m) => !m[1]?.endsWith('cbc:ContractFolderID'),
    ).length;
    assert.equal(documented, 6);
    assert.ok((outcome?.errors ?? 0) >= documented, `${outcome?.errors} errors, ${documented} documented`);
    // The count is the editor's, once the check's publication has arrived.
    await waitFor(
      'the editor showing as many errors as the dialog counted',
      () =>
        vscode.languages.getDiagnostics(doc.uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error)
          .length === outcome?.errors
          ? true
          : undefined,
      () => `dialog ${outcome?.errors}; editor: ${describeDiagnostics(doc.uri)}`,
      10000,
    );
    // Nothing was sent: eNotices2 does not know the notice.
    await vscode.commands.executeCommand(Commands.refreshNotices);
    const tree = (await snapshot()).tree;
    assert.ok(!tree.notices.some((n) => n.businessId === businessId), 'not in My Notices');
  });

  test('a notice with errors ends VALIDATION_FAILED; its report lands on the notice once, and goes with the report', async () => {
    const { doc, businessId, text } = await openFresh('invalid-cn.xml');
    // Live validation of the open notice first, so the report has something it must not repeat.
    await waitFor(
      'live service diagnostics on the notice',
      () =>
        vscode.languages.getDiagnostics(doc.uri).some((d) => d.source === SERVICE_SOURCE) ? true : undefined,
      () => describeDiagnostics(doc.uri),
      30000,
    );
    const outcome = await vscode.commands.executeCommand<{ success: boolean }>(Commands.submitNotice, {
      uri: doc.uri.toString(),
      ...AUTHOR,
      submitAnyway: true,
    });
    assert.equal(outcome?.success, false);
    await statusInTree(businessId, 'VALIDATION_FAILED', 10000);
    const groups = (await snapshot()).tree.groups;
    assert.ok(groups.includes('VALIDATION_FAILED'), `groups: ${groups.join(', ')}`);
    const opened = await vscode.commands.executeCommand<{ findings: number }>(Commands.openValidationReport, {
      businessId,
      uri: doc.uri.toString(),
    });
    assert.ok(opened && opened.findings > 0, 'the report was mapped onto the open notice');
    assert.ok((await snapshot()).reports.includes(businessId), 'the report view is open');
    // invalid-cn.xml's header expects BR-BT-00002-0052 on cbc:NoticeTypeCode: find that line by text.
    // Live validation and the report both find it: the Problems view must list it once.
    const line = text.split('\n').findIndex((l) => l.includes('<cbc:NoticeTypeCode'));
    const all = vscode.languages.getDiagnostics(doc.uri);
    const hits = all.filter((d) => codeOf(d) === 'BR-BT-00002-0052' && d.range.start.line === line);
    assert.equal(hits.length, 1, describeDiagnostics(doc.uri));
    assert.equal(hits[0]?.severity, vscode.DiagnosticSeverity.Error);
    const key = (d: vscode.Diagnostic) => `${codeOf(d)}@${d.range.start.line}:${d.range.start.character}`;
    const live = new Set(all.filter((d) => d.source !== 'eForms report').map(key));
    const repeated = all.filter((d) => d.source === 'eForms report' && live.has(key(d)));
    assert.deepEqual(repeated.map(key), [], 'report diagnostics repeat live ones');
    // Closing the report's view (beside the notice) takes its findings away; the notice stays open.
    await vscode.commands.executeCommand('workbench.action.focusFirstEditorGroup');
    await vscode.commands.executeCommand('workbench.action.closeEditorsInOtherGroups');
    assert.ok(
      vscode.workspace.textDocuments.includes(doc),
      'the notice must stay open while its report is closed',
    );
    await waitFor(
      'no report diagnostics once the report is closed',
      async () =>
        (await snapshot()).reports.length === 0 &&
        vscode.languages.getDiagnostics(doc.uri).every((d) => d.source !== 'eForms report')
          ? true
          : undefined,
      () => describeDiagnostics(doc.uri),
      10000,
    );
  });
});
