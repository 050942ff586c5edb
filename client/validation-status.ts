// One status bar item for the whole validation story ("validated 3 s ago · 12 errors", "offline",
// "API key needed"), fed by the server's ValidationStatusNotification. It replaces notifications, so a
// failing service never produces a storm of pop-ups.

import * as vscode from 'vscode';
import type { EnvironmentName } from '../core/http';
import type { ValidationStatusParams } from '../core/protocol';
import { presentNoSdk } from './first-run';
import { environmentLabel, presentStatus } from './status-presentation';

const IDLE: ValidationStatusParams = { state: 'idle', errors: 0, warnings: 0, infos: 0 };

export interface StatusSnapshot {
  state: ValidationStatusParams['state'];
  text: string;
  errors: number;
  warnings: number;
  infos: number;
  message?: string;
  /** The environment the item names (`PRODUCTION`, `preview`, `sandbox`, `custom`). */
  environment: string;
  /** The accessible label screen readers announce. */
  ariaLabel: string;
  /** Set while no SDK is available: '' for none at all, else the missing version. */
  sdkMissing?: string;
  /** The item's background: 'warning' or 'error' when it asks for attention. */
  background?: 'warning' | 'error';
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
  private ariaLabel = '';
  private background: StatusSnapshot['background'];
  /** No SDK on the machine ('' for none at all): the item warns, whatever editor is active. */
  private sdkMissing: string | undefined;

  constructor(private readonly environment: () => EnvironmentName) {
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

  /** Whether an SDK is missing (undefined: one is available). */
  setSdkMissing(wanted: string | undefined): void {
    this.sdkMissing = wanted;
    this.render();
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
    return {
      state,
      text: this.item.text,
      errors,
      warnings,
      infos,
      message,
      environment: environmentLabel(this.environment()),
      ariaLabel: this.ariaLabel,
      ...(this.sdkMissing !== undefined ? { sdkMissing: this.sdkMissing } : {}),
      background: this.background,
    };
  }

  private render(): void {
    const s = this.status;
    // With no SDK, the SDK rules cannot run and New Notice cannot write: that is the story until the
    // CVS has something to say about the active notice.
    const noSdk =
      this.sdkMissing !== undefined &&
      (s.state === 'idle' || (s.engine === 'local' && s.state !== 'validated' && s.state !== 'validating'));
    const p = noSdk
      ? presentNoSdk(this.sdkMissing || undefined)
      : presentStatus(s, this.environment(), Date.now(), this.local);
    this.background = p.background;
    this.item.text = p.text;
    // A plain string: a MarkdownString's escaping (`&nbsp;`) would reach the accessible label.
    this.item.tooltip = p.tooltip;
    this.item.accessibilityInformation = { label: p.ariaLabel, role: 'button' };
    this.ariaLabel = p.ariaLabel;
    this.item.command = p.command;
    this.item.backgroundColor = p.background
      ? new vscode.ThemeColor(`statusBarItem.${p.background}Background`)
      : undefined;
    if (this.relevant || noSdk) this.item.show();
    else this.item.hide();
    // "3 s ago" must keep counting while it is on screen; nothing ticks when it is not.
    const needsTick = this.relevant && s.state === 'validated';
    if (needsTick && !this.ticker) this.ticker = setInterval(() => this.render(), 5000);
    if (!needsTick && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  /** The environment changed (a setting): the item names it, so it is drawn again. */
  refresh(): void {
    this.render();
  }

  dispose(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.item.dispose();
  }
}
