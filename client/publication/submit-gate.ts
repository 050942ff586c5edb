// The decision before a submission, apart from VS Code so that it is tested as plain logic: whether to
// ask at all, why, and which button is the safe one. With errors (as counted by the editor's own
// findings), or when no engine could validate the notice, or when the notice goes to production, the
// user is asked; the safe choice ("Review errors" or "Cancel") always comes first, so that it is the
// dialog's default. A production submission always names the notice and the environment.
// Never submits, never shows anything: client/publication/submit.ts acts on the answer.

import type { EnvironmentName } from '../../core/http';
import { NS, textContent, type XmlIndex } from '../../core/notice';

/** What the pre-submit check found: the editor's findings for the current text, and what failed. */
export interface SubmitCheck {
  errors: number;
  warnings: number;
  /** Engines that could not validate (no SDK, service down…), worded for the user. */
  problems: string[];
  /** True when at least one engine answered for this text (so `errors` means something). */
  answered: boolean;
}

export type SubmitGate =
  | { ask: false }
  | {
      ask: true;
      reason: 'errors' | 'unvalidated' | 'production';
      message: string;
      detail: string;
      /** The buttons in order: the safe one first (the default), then the one that submits. */
      safe: string;
      proceed: string;
    };

export const REVIEW_ERRORS = 'Review errors';
export const SUBMIT_ANYWAY = 'Submit anyway';
/** Not "Cancel": VS Code adds its own Cancel to a modal dialog, for Escape. */
export const CANCEL = "Don't submit";

const ENVIRONMENT_LABEL: Record<EnvironmentName, string> = {
  production: 'PRODUCTION (TED: the notice is published for real)',
  preview: 'the preview environment',
  sandbox: 'the local sandbox',
  custom: 'the custom environment',
};

/**
 * Whether to ask before submitting `notice` (its title or id) to `environment`, from the check's
 * findings. `force` (a caller that said "submit anyway" already) skips the questions about errors,
 * never the production one.
 */
export function submitGate(o: {
  notice: string;
  environment: EnvironmentName;
  check: SubmitCheck;
  force?: boolean;
}): SubmitGate {
  const { check } = o;
  const production = o.environment === 'production';
  const where = ENVIRONMENT_LABEL[o.environment];
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  if (!o.force && check.errors > 0)
    return {
      ask: true,
      reason: 'errors',
      message: `"${o.notice}" has ${plural(check.errors, 'error')}: submit it to ${where} anyway?`,
      detail: `The editor shows ${plural(check.errors, 'error')}${check.warnings ? ` and ${plural(check.warnings, 'warning')}` : ''} for this notice. eNotices2 will create it but not submit it for publication.${problemsLine(check)}`,
      safe: REVIEW_ERRORS,
      proceed: SUBMIT_ANYWAY,
    };
  if (!o.force && !check.answered)
    return {
      ask: true,
      reason: 'unvalidated',
      message: `"${o.notice}" could not be validated: submit it to ${where} anyway?`,
      detail: `No validation engine answered.${problemsLine(check)}`,
      safe: CANCEL,
      proceed: SUBMIT_ANYWAY,
    };
  if (production)
    return {
      ask: true,
      reason: 'production',
      message: `Publish "${o.notice}" on ${where}?`,
      detail: `The notice goes to eNotices2 production and, once valid, is published on TED. ${check.errors > 0 ? `It has ${plural(check.errors, 'error')}.` : 'The editor shows no error.'}${problemsLine(check)}`,
      safe: CANCEL,
      proceed: 'Publish',
    };
  return { ask: false };
}

function problemsLine(check: SubmitCheck): string {
  return check.problems.length ? ` Not every check ran: ${check.problems.join('; ')}.` : '';
}

/** The name a dialog gives the notice: its title (BT-21, the procedure's name), else its id. */
export function noticeName(index: XmlIndex, fallback: string): string {
  const root = index.elements[0];
  if (!root) return fallback;
  for (const c of root.children) {
    const project = index.elements[c];
    if (project.local !== 'ProcurementProject' || project.ns !== NS.cac) continue;
    for (const n of project.children) {
      const name = index.elements[n];
      if (name.local !== 'Name' || name.ns !== NS.cbc) continue;
      const title = textContent(index, name).replace(/\s+/g, ' ').trim();
      if (title) return title.length > 80 ? `${title.slice(0, 79)}…` : title;
    }
  }
  return fallback;
}
