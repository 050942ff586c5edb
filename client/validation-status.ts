// One status bar item for the whole validation story ("validated 3 s ago · 12 errors", "offline",
// "API key needed"), fed by the server's ValidationStatusNotification. It replaces notifications, so a
// failing service never produces a storm of pop-ups.

import * as vscode from 'vscode';
import type { ValidationStatusParams } from '../core/protocol';
import { Commands } from './command-ids';

const IDLE: ValidationStatusParams = { state: 'idle', errors: 0, warnings: 0, infos: 0 };

export interface StatusSnapshot {
  state: ValidationStatusParams['state'];
  text: string;
  errors: number;
  warnings: number;
  infos: number;
  message?: string;
}

export class ValidationStatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private status: ValidationStatusParams = IDLE;
  /** The latest status per document: the item shows the active notice's, not whichever reported last. */
  private readonly byUri = new Map<string, ValidationStatusParams>();
  /** The SDK rules' latest status per document (engine `local`), shown beside the CVS's. */
  private readonly localByUri = new Map<string, ValidationStatusParams>();
  private local: ValidationStatusParams | undefined;
  /** The latest status that named no document (e.g. "API key needed" before any request). */
  private general: ValidationStatusParams = IDLE;
  private activeUri: string | undefined;
  private ticker: NodeJS.Timeout | undefined;
  private relevant = false;

  constructor() {
    this.item = vscode.window.createStatusBarItem('eforms.status', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'eForms Validation';
    this.render();
  }

  update(status: ValidationStatusParams): void {
    if (status.engine === 'local') {
      if (status.uri) this.localByUri.set(status.uri, status);
    } else if (status.uri) this.byUri.set(status.uri, status);
    else this.general = status;
    this.select();
  }

  /** The active editor's document, and whether it is an eForms notice (the item shows only then). */
  setActive(uri: string | undefined, relevant: boolean): void {
    this.activeUri = uri;
    this.relevant = relevant;
    this.select();
  }

  /** A closed document's status must not come back when another file with its name is opened. */
  forget(uri: string): void {
    this.byUri.delete(uri);
    this.localByUri.delete(uri);
  }

  private select(): void {
    this.local = this.activeUri ? this.localByUri.get(this.activeUri) : undefined;
    const cvs = (this.activeUri && this.byUri.get(this.activeUri)) || undefined;
    // With the CVS off (engine `local`) or not yet heard from, the SDK rules' status is the story.
    this.status = cvs ?? (this.local && this.general.state === 'idle' ? this.local : this.general);
    this.render();
  }

  snapshot(): StatusSnapshot {
    const { state, errors, warnings, infos, message } = this.status;
    return { state, text: this.item.text, errors, warnings, infos, message };
  }

  private render(): void {
    const s = this.status;
    const counts = countsText(s);
    let text: string;
    let tooltip: string;
    let command: string | undefined;
    let background: vscode.ThemeColor | undefined;
    switch (s.state) {
      case 'needsKey':
        text = '$(key) eForms: API key needed';
        tooltip =
          s.message ?? 'Local checks only. Set an API key to validate with the Central Validation Service.';
        command = Commands.setApiKey;
        background = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
      case 'validating':
        text = '$(sync~spin) eForms: validating…';
        tooltip = `Sending the notice to ${s.serviceUrl ?? 'the validation service'}`;
        command = Commands.showLog;
        break;
      case 'validated':
        text = `$(${s.errors ? 'error' : s.warnings ? 'warning' : 'check'}) eForms: validated ${ago(s.validatedAt)} · ${counts}`;
        tooltip = `Validated by ${s.serviceUrl ?? 'the validation service'}. Click to open the Problems view.`;
        command = 'workbench.actions.view.problems';
        break;
      case 'offline':
        text = '$(cloud-offline) eForms: offline';
        tooltip = s.message ?? 'The validation service cannot be reached. Local checks still run.';
        command = Commands.showLog;
        background = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
      case 'error':
        text = '$(error) eForms: validation failed';
        tooltip = s.message ?? 'The validation service answered with an error. See the log.';
        command = Commands.showLog;
        background = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
      case 'paused':
        text = '$(debug-pause) eForms: validate on demand';
        tooltip = s.message ?? 'Run "eForms: Validate Notice" to validate with the service.';
        command = Commands.validateNow;
        break;
      default:
        text = '$(file-code) eForms';
        tooltip = 'eForms notice tools';
        command = Commands.showLog;
    }
    if (s.engine === 'local') {
      // The SDK rules alone: say so, and name the release that produced the counts.
      const src = s.local?.source ?? 'eForms SDK';
      if (s.state === 'validated') {
        text = `$(${s.errors ? 'error' : s.warnings ? 'warning' : 'check'}) ${src}: ${counts}`;
        tooltip = `Checked here with the official rules of ${src}${s.local?.notEvaluated ? ` (${s.local.notEvaluated} rules could not be evaluated: see the log)` : ''}. Click to open the Problems view.`;
      } else if (s.state === 'validating') text = '$(sync~spin) eForms SDK: checking…';
      else if (s.state === 'error' || s.state === 'offline') text = '$(warning) eForms SDK: not checked';
    }
    const extra = this.local && this.local !== s ? localLine(this.local) : undefined;
    if (extra && s.engine !== 'local') {
      tooltip = `${tooltip}\n\n${extra}`;
      if (this.local?.state === 'validated' && (s.state === 'needsKey' || s.state === 'paused'))
        text = `${text} · ${this.local.local?.source ?? 'SDK'}: ${countsText(this.local)}`;
    }
    this.item.text = text;
    const md = new vscode.MarkdownString(undefined, true);
    md.appendText(tooltip);
    this.item.tooltip = md;
    this.item.command = command;
    this.item.backgroundColor = background;
    if (this.relevant) this.item.show();
    else this.item.hide();
    // "3 s ago" must keep counting while it is on screen; nothing ticks when it is not.
    const needsTick = this.relevant && s.state === 'validated';
    if (needsTick && !this.ticker) this.ticker = setInterval(() => this.render(), 5000);
    if (!needsTick && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  dispose(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.item.dispose();
  }
}

/** What the SDK rules found, for the tooltip beside the CVS's story. */
function localLine(l: ValidationStatusParams): string {
  if (l.state === 'validated') {
    const note =
      l.local?.versionNote === 'declares-none'
        ? ' (the notice declares no SDK version: the only SDK available was used)'
        : '';
    return `${l.local?.source ?? 'eForms SDK'} (checked here): ${countsText(l)}${note}.`;
  }
  if (l.state === 'validating') return 'eForms SDK rules: checking…';
  return `eForms SDK rules: ${l.message ?? 'not checked'}`;
}

function countsText(s: ValidationStatusParams): string {
  if (!s.errors && !s.warnings && !s.infos) return 'no problems';
  const parts: string[] = [];
  if (s.errors) parts.push(`${s.errors} error${s.errors === 1 ? '' : 's'}`);
  if (s.warnings) parts.push(`${s.warnings} warning${s.warnings === 1 ? '' : 's'}`);
  if (s.infos) parts.push(`${s.infos} info`);
  return parts.join(', ');
}

export function ago(at: number | undefined, now = Date.now()): string {
  if (!at) return 'just now';
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  return `${Math.round(m / 60)} h ago`;
}
