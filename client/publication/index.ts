// The publication feature (eNotices2) in the editor: submit, convert, the "My Notices" view with its
// filter, paging and context menu (report, stop, copy id), and the validation report view. Registered
// through the ExtensionState (client/features.ts). What the view and the reports show is part of the
// extension's API (EformsExtensionApi.publication), for the in-editor tests and other extensions.

import * as vscode from 'vscode';
import { businessIdProblem, isBusinessId, readNoticeIdentity } from '../../core/notice';
import { isNoticeStatus, NOTICE_STATUSES } from '../../core/services';
import { Commands } from '../command-ids';
import type { Feature } from '../extension-state';
import { enoticesClient, showFailure } from './connection';
import { convertLegacyNotice } from './convert';
import { type NoticeNode, type NoticesFilter, NoticesTreeProvider } from './notices-tree';
import { ReportPresenter } from './report-view';
import type { PublicationSnapshot } from './snapshot';

export type { PublicationSnapshot } from './snapshot';

import { SubmitFlow } from './submit';

/** What the commands accept as "a notice": a tree node, `{businessId, uri?}` or the id itself. */
type NoticeArg = NoticeNode | { businessId: string; uri?: string } | string | undefined;

function idOf(arg: NoticeArg): { businessId?: string; uri?: string } {
  if (typeof arg === 'string') return { businessId: arg.trim() };
  if (arg && 'kind' in arg) return arg.kind === 'notice' ? { businessId: arg.businessId } : {};
  if (arg && typeof arg.businessId === 'string') return { businessId: arg.businessId.trim(), uri: arg.uri };
  return {};
}

export const registerPublication: Feature = (state) => {
  const tree = new NoticesTreeProvider(state);
  const reports = new ReportPresenter();
  const submit = new SubmitFlow(state, () => void tree.refresh());
  const push = (...d: vscode.Disposable[]) => state.context.subscriptions.push(...d);
  push(tree, reports);

  /** The business id to act on: the argument, else the active notice's, else asked for. */
  async function resolveId(arg: NoticeArg): Promise<{ businessId: string; uri?: string } | undefined> {
    const given = idOf(arg);
    if (given.businessId) return { businessId: given.businessId, uri: given.uri };
    const doc = vscode.window.activeTextEditor?.document;
    if (doc) {
      const id = readNoticeIdentity(doc.getText());
      if (id.ok && id.identity.businessId)
        return { businessId: id.identity.businessId, uri: doc.uri.toString() };
    }
    const typed = await vscode.window.showInputBox({
      title: 'Business id of the notice',
      placeHolder: '52fe3748-f475-4381-9dbf-31ebb08889e8-01',
      validateInput: (v) => businessIdProblem(v),
    });
    return typed ? { businessId: typed.trim() } : undefined;
  }

  async function openReport(arg: NoticeArg): Promise<{ businessId: string; findings: number } | undefined> {
    const target = await resolveId(arg);
    if (!target) return undefined;
    const client = await enoticesClient(state, { prompt: true });
    if (!client) return undefined;
    try {
      const svrl = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Window,
          title: `eForms: fetching the report of ${target.businessId}`,
        },
        () => client.validationReport(target.businessId),
      );
      const notice = reports.findNotice(
        target.businessId,
        target.uri ? vscode.Uri.parse(target.uri) : undefined,
      );
      const findings = reports.show(target.businessId, svrl, notice);
      return { businessId: target.businessId, findings: findings.length };
    } catch (err) {
      void showFailure(state, err, 'Fetching the validation report');
      return undefined;
    }
  }

  async function stop(arg: NoticeArg, opts?: { confirmed?: boolean }): Promise<boolean> {
    const target = await resolveId(arg);
    if (!target) return false;
    if (!isBusinessId(target.businessId)) {
      void vscode.window.showErrorMessage(`eForms: ${businessIdProblem(target.businessId)}`);
      return false;
    }
    if (!opts?.confirmed) {
      const pick = await vscode.window.showWarningMessage(
        `Stop the publication of ${target.businessId}?`,
        { modal: true, detail: 'The notice will not be published. This cannot be undone.' },
        'Stop Publication',
      );
      if (pick !== 'Stop Publication') return false;
    }
    const client = await enoticesClient(state, { prompt: true });
    if (!client) return false;
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `eForms: stopping ${target.businessId}…` },
        () => client.stopPublication(target.businessId),
      );
      void vscode.window.showInformationMessage(`eForms: publication of ${target.businessId} stopped.`);
      return true;
    } catch (err) {
      void showFailure(state, err, 'Stopping publication');
      return false;
    } finally {
      await tree.refresh();
    }
  }

  async function filter(given?: Partial<NoticesFilter>): Promise<void> {
    if (given && typeof given === 'object' && !('kind' in given)) {
      return tree.setFilter({
        statuses: Array.isArray(given.statuses) ? given.statuses.filter(isNoticeStatus) : [],
        author: given.author,
        submittedAfter: given.submittedAfter,
        submittedBefore: given.submittedBefore,
        id: given.id,
      });
    }
    const f = tree.getFilter();
    const choice = await vscode.window.showQuickPick(
      [
        { label: 'Status…', description: f.statuses.join(', ') || 'all', key: 'status' },
        { label: 'Author…', description: f.author ?? 'anyone', key: 'author' },
        { label: 'Submitted after…', description: f.submittedAfter?.slice(0, 10) ?? '', key: 'after' },
        { label: 'Submitted before…', description: f.submittedBefore?.slice(0, 10) ?? '', key: 'before' },
        { label: 'Notice id…', description: f.id ?? '', key: 'id' },
        { label: 'Clear filter', key: 'clear' },
      ],
      { title: 'Filter My Notices' },
    );
    if (!choice) return;
    const dateProblem = (v: string) =>
      v.trim() === '' || (/^\d{4}-\d{2}-\d{2}$/.test(v.trim()) && !Number.isNaN(Date.parse(v.trim())))
        ? undefined
        : 'A date as YYYY-MM-DD (empty: no limit).';
    const date = async (title: string, current?: string) => {
      const v = await vscode.window.showInputBox({
        title,
        value: current?.slice(0, 10),
        placeHolder: 'YYYY-MM-DD',
        validateInput: dateProblem,
      });
      if (v === undefined) return current;
      return v.trim() ? new Date(`${v.trim()}T00:00:00Z`).toISOString() : undefined;
    };
    switch (choice.key) {
      case 'status': {
        const picked = await vscode.window.showQuickPick(
          NOTICE_STATUSES.map((s) => ({ label: s, picked: f.statuses.includes(s) })),
          { canPickMany: true, title: 'Show notices in these statuses (none: all)' },
        );
        if (picked) f.statuses = picked.map((p) => p.label);
        break;
      }
      case 'author': {
        const v = await vscode.window.showInputBox({
          title: 'Notice author e-mail (empty: anyone)',
          value: f.author,
        });
        if (v !== undefined) f.author = v.trim() || undefined;
        break;
      }
      case 'after':
        f.submittedAfter = await date('Submitted on or after', f.submittedAfter);
        break;
      case 'before':
        f.submittedBefore = await date('Submitted before', f.submittedBefore);
        break;
      case 'id': {
        const v = await vscode.window.showInputBox({
          title: 'Notice id (UUID, without version; empty: any)',
          value: f.id,
        });
        if (v !== undefined) f.id = v.trim() || undefined;
        break;
      }
      case 'clear':
        return tree.setFilter({ statuses: [] });
    }
    return tree.setFilter(f);
  }

  push(
    vscode.commands.registerCommand(Commands.submitNotice, (arg?: unknown) =>
      submit.run(arg instanceof vscode.Uri ? { uri: arg } : ((arg as object | undefined) ?? {})),
    ),
    vscode.commands.registerCommand(Commands.convertLegacyNotice, (arg?: vscode.Uri | string) =>
      convertLegacyNotice(state, arg),
    ),
    vscode.commands.registerCommand(Commands.openValidationReport, (arg?: NoticeArg) => openReport(arg)),
    vscode.commands.registerCommand(
      Commands.stopPublication,
      (arg?: NoticeArg, opts?: { confirmed?: boolean }) => stop(arg, opts),
    ),
    vscode.commands.registerCommand(Commands.copyBusinessId, async (arg?: NoticeArg) => {
      const id = idOf(arg).businessId;
      if (!id) return;
      await vscode.env.clipboard.writeText(id);
      vscode.window.setStatusBarMessage(`Copied ${id}`, 3000);
    }),
    vscode.commands.registerCommand(Commands.refreshNotices, () => tree.refresh()),
    vscode.commands.registerCommand(Commands.loadMoreNotices, () => tree.loadMore()),
    vscode.commands.registerCommand(Commands.filterNotices, (given?: Partial<NoticesFilter>) =>
      filter(given),
    ),
  );
  void tree.setFilter({ statuses: [] });
  return {
    publication: (): PublicationSnapshot => ({
      tree: tree.snapshot(),
      reports: reports.openReports(),
      reportDiagnostics: Object.fromEntries(
        vscode.workspace.textDocuments.map((d) => [d.uri.toString(), reports.shownOn(d.uri)]),
      ),
      submitting: [...submit.inFlight],
    }),
  };
};
