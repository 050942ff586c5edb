// The "My Notices" view (eforms.myNotices): the API key's notices in eNotices2 grouped by status, one
// page at a time with a "Load more…" item, a filter shown in the view's description (and in the
// context key eforms.myNotices.filtered, so the empty view's welcome text mentions a filter only when
// one is set), and an automatic refresh while any notice is SUBMITTED (sooner) or PUBLISHING. Tooltips are escaped MarkdownStrings (service
// strings are never interpreted as markdown or links). It never logs the key.
// Rows show the title (BT-21), the buyer and the full date (notice-row.ts): the search does not
// return title or buyer, so they are read from the workspace's notice files and open documents.

import * as vscode from 'vscode';
import { businessIdOfNotice, NOTICE_STATUSES, type Notice, type SearchCriteria } from '../../core/services';
import { Commands, Views } from '../command-ids';
import type { ExtensionState } from '../extension-state';
import { wordFailure } from '../failure-wording';
import { enoticesClient } from './connection';
import { type NoticeSummary, noticeRow, summarizeNotice } from './notice-row';
import { autoRefreshDelay, isFiltered } from './refresh-policy';
import type { NoticesFilter, NoticesSnapshot } from './snapshot';

export type { NoticesFilter } from './snapshot';

/** Context key: true while the My Notices filter narrows the list (package.json viewsWelcome). */
export const FILTERED_CONTEXT = 'eforms.myNotices.filtered';

export type NoticeNode =
  | { kind: 'group'; status: string; count: number }
  | { kind: 'notice'; notice: Notice; businessId: string }
  | { kind: 'more'; loaded: number; total: number }
  | { kind: 'message'; text: string; detail?: string; command?: vscode.Command };

const STATUS_ICONS: Record<string, string> = {
  DRAFT: 'edit',
  SUBMITTED: 'cloud-upload',
  VALIDATION_FAILED: 'error',
  PUBLISHING: 'sync',
  PUBLISHED: 'pass',
  STOPPED: 'debug-stop',
  NOT_PUBLISHED: 'circle-slash',
  DELETED: 'trash',
  ARCHIVED: 'archive',
};

/** The icon of a status as eNotices2 sends it: one of its own names only (a status is the service's text). */
function statusIcon(status: string): string {
  return Object.hasOwn(STATUS_ICONS, status) ? (STATUS_ICONS[status] as string) : 'question';
}

export class NoticesTreeProvider implements vscode.TreeDataProvider<NoticeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<NoticeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<NoticeNode>;
  private notices: Notice[] = [];
  private total = 0;
  private pages = 1;
  private problem: NoticeNode | undefined;
  private filter: NoticesFilter = { statuses: [] };
  private timer: NodeJS.Timeout | undefined;
  private generation = 0;
  private loading: Promise<void> | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** Title and buyer by notice id, from the notices the editor can read. */
  private readonly summaries = new Map<string, NoticeSummary>();
  private scannedAt = 0;

  constructor(private readonly state: ExtensionState) {
    this.view = vscode.window.createTreeView(Views.myNotices, {
      treeDataProvider: this,
      showCollapseAll: true,
    });
    this.disposables.push(
      this.view,
      this.changed,
      state.onDidChangeApiKey(() => void this.refresh()),
      state.onDidChangeSettings(() => void this.refresh()),
      this.view.onDidChangeVisibility((e) => {
        if (e.visible) void this.refresh();
      }),
    );
  }

  /** What the view shows now, flattened (for the in-editor tests and the commands). */
  snapshot(): NoticesSnapshot {
    return {
      total: this.total,
      filter: { ...this.filter },
      notices: this.notices.map((n) => ({ ...n, businessId: businessIdOfNotice(n) })),
      problem: this.problem?.kind === 'message' ? this.problem.text : undefined,
      groups: this.getChildren()
        .filter((g): g is Extract<NoticeNode, { kind: 'group' }> => g.kind === 'group')
        .map((g) => g.status),
      nextRefreshSeconds: this.nextRefreshSeconds,
    };
  }

  getFilter(): NoticesFilter {
    return { ...this.filter, statuses: [...this.filter.statuses] };
  }

  setFilter(f: NoticesFilter): Promise<void> {
    this.filter = f;
    void vscode.commands.executeCommand('setContext', FILTERED_CONTEXT, isFiltered(f));
    this.pages = 1;
    return this.refresh();
  }

  /** Reloads the pages shown so far; concurrent calls share one load. */
  refresh(): Promise<void> {
    this.generation++;
    const gen = this.generation;
    const run = this.load(gen).finally(() => {
      if (this.loading === run) this.loading = undefined;
    });
    this.loading = run;
    return run;
  }

  loadMore(): Promise<void> {
    this.pages++;
    return this.refresh();
  }

  private async load(gen: number): Promise<void> {
    this.clearTimer();
    const client = await enoticesClient(this.state, { prompt: false });
    if (gen !== this.generation) return;
    if (!client) {
      // No key: the welcome content (when !eforms.hasApiKey) explains; the tree is empty.
      this.notices = [];
      this.total = 0;
      this.problem = undefined;
      this.changed.fire(undefined);
      return;
    }
    const pageSize = this.state.settings().publication.pageSize;
    const criteria: SearchCriteria = {
      statuses: this.filter.statuses,
      noticeAuthor: this.filter.author,
      submittedAfter: this.filter.submittedAfter,
      submittedBefore: this.filter.submittedBefore,
      id: this.filter.id,
    };
    try {
      const r = await client.search(criteria, {
        page: 0,
        size: Math.min(pageSize * this.pages, 1000),
        sortProperty: 'submittedAt',
        sortDirection: 'DESC',
      });
      if (gen !== this.generation) return;
      this.notices = r.content;
      this.total = r.totalSize;
      this.problem = undefined;
      await this.readSummaries();
      if (gen !== this.generation) return;
    } catch (err) {
      if (gen !== this.generation) return;
      const { message, actions } = wordFailure(err, 'Loading your notices');
      this.state.log.warn(`My Notices: ${message}`);
      this.notices = [];
      this.total = 0;
      this.problem = {
        kind: 'message',
        text: 'Could not load your notices',
        detail: message,
        command: actions.includes('Set API Key')
          ? { command: Commands.setApiKey, title: 'Set API Key' }
          : { command: Commands.refreshNotices, title: 'Retry' },
      };
    }
    this.view.description = describeFilter(this.filter);
    this.view.message = undefined;
    this.changed.fire(undefined);
    this.scheduleAutoRefresh();
  }

  /**
   * Reads title and buyer of the listed notices from open documents and the workspace's XML files
   * (bounded: 500 files, 4 MB each, at most every 30 s), so that rows are named as their notices are.
   */
  private async readSummaries(): Promise<void> {
    const learn = (xml: string) => {
      const sm = summarizeNotice(xml);
      if (sm) this.summaries.set(sm.noticeId, sm);
    };
    for (const d of vscode.workspace.textDocuments) if (d.languageId === 'xml') learn(d.getText());
    const missing = this.notices.some((n) => !this.summaries.has(n.id));
    if (!missing || Date.now() - this.scannedAt < 30_000) return;
    this.scannedAt = Date.now();
    try {
      const files = await vscode.workspace.findFiles('**/*.xml', '**/node_modules/**', 500);
      for (const f of files) {
        try {
          const st = await vscode.workspace.fs.stat(f);
          if (st.size > 4 * 1024 * 1024) continue;
          learn(new TextDecoder().decode(await vscode.workspace.fs.readFile(f)));
        } catch {
          // unreadable: the row keeps its id
        }
      }
    } catch (err) {
      this.state.log.warn(`My Notices: the workspace's notices could not be read: ${String(err)}`);
    }
  }

  /** Seconds until the next automatic refresh (undefined: none), for the in-editor tests. */
  nextRefreshSeconds: number | undefined;

  private scheduleAutoRefresh(): void {
    const seconds = autoRefreshDelay(
      this.notices.map((n) => n.status),
      this.state.settings().publication.autoRefreshSeconds,
    );
    this.nextRefreshSeconds = seconds;
    if (seconds !== undefined) this.timer = setTimeout(() => void this.refresh(), seconds * 1000);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  getChildren(node?: NoticeNode): NoticeNode[] {
    if (!node) {
      if (this.problem) return [this.problem];
      if (this.notices.length === 0) return [];
      const groups: NoticeNode[] = [];
      const statuses = [...NOTICE_STATUSES, ...new Set(this.notices.map((n) => n.status))];
      for (const status of new Set(statuses)) {
        const count = this.notices.filter((n) => n.status === status).length;
        if (count > 0) groups.push({ kind: 'group', status, count });
      }
      if (this.notices.length < this.total)
        groups.push({ kind: 'more', loaded: this.notices.length, total: this.total });
      return groups;
    }
    if (node.kind === 'group')
      return this.notices
        .filter((n) => n.status === node.status)
        .map((n) => ({ kind: 'notice', notice: n, businessId: businessIdOfNotice(n) }));
    return [];
  }

  getTreeItem(node: NoticeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'group': {
        const item = new vscode.TreeItem(
          node.status || 'No status given',
          vscode.TreeItemCollapsibleState.Expanded,
        );
        item.description = String(node.count);
        item.iconPath = new vscode.ThemeIcon(statusIcon(node.status));
        item.contextValue = 'status-group';
        item.id = `group:${node.status}`;
        return item;
      }
      case 'notice': {
        const n = node.notice;
        const summary = this.summaries.get(n.id);
        const row = noticeRow(n, summary);
        const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
        item.id = `notice:${node.businessId}`;
        item.description = row.description;
        item.tooltip = tooltipOf(n, node.businessId, summary);
        item.contextValue = `notice-${n.status}`;
        item.iconPath = new vscode.ThemeIcon(statusIcon(n.status));
        item.command = {
          command: Commands.openValidationReport,
          title: 'Open Validation Report',
          arguments: [node],
        };
        return item;
      }
      case 'more': {
        const item = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
        item.description = `${node.loaded} of ${node.total}`;
        item.iconPath = new vscode.ThemeIcon('more');
        item.command = { command: Commands.loadMoreNotices, title: 'Load More Notices' };
        item.contextValue = 'load-more';
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon('warning');
        if (node.detail) {
          item.tooltip = new vscode.MarkdownString().appendText(node.detail);
          item.description = node.detail;
        }
        item.command = node.command;
        item.contextValue = 'message';
        return item;
      }
    }
  }

  dispose(): void {
    this.clearTimer();
    this.generation++;
    for (const d of this.disposables) d.dispose();
  }
}

function tooltipOf(n: Notice, businessId: string, s: NoticeSummary | undefined): vscode.MarkdownString {
  // appendText escapes: a notice type or author from the service can never become a link or markup.
  const md = new vscode.MarkdownString();
  const row = (label: string, value: string | undefined) => {
    if (!value) return;
    md.appendMarkdown(`**${label}:** `);
    md.appendText(value);
    md.appendMarkdown('  \n');
  };
  row('Title', s?.title);
  row('Buyer', s?.buyer);
  row('Business id', businessId);
  row('Status', n.status || 'not given by eNotices2');
  row('Notice type', n.noticeType);
  row('Procedure', n.procedureId);
  row('Submitted', n.submittedAt);
  row('Updated', n.updatedAt);
  row('Expected publication', n.expectedPublicationDate);
  row('Published', n.publicationDate);
  row('Publication id', n.publicationId);
  row('Author', n.noticeAuthor);
  row('Languages', n.languages.join(', '));
  row('Legal basis', n.legalBasis);
  return md;
}

export function describeFilter(f: NoticesFilter): string | undefined {
  const parts: string[] = [];
  if (f.statuses.length) parts.push(f.statuses.join('|'));
  if (f.author) parts.push(`by ${f.author}`);
  if (f.submittedAfter) parts.push(`after ${f.submittedAfter.slice(0, 10)}`);
  if (f.submittedBefore) parts.push(`before ${f.submittedBefore.slice(0, 10)}`);
  if (f.id) parts.push(`id ${f.id.slice(0, 8)}…`);
  return parts.length ? `Filter: ${parts.join(', ')}` : undefined;
}
