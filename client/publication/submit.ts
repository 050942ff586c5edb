// "eForms: Submit Notice": checks the notice first with what the editor shows (the language server runs
// every engine the settings enable on the current text and answers the diagnostics it publishes:
// NoticeFindingsRequest; without a server, the CVS through core/validation's pipeline), asks when it
// has errors with "Review errors" as the default button, always asks before production (naming the
// notice and the environment: submit-gate.ts decides), asks once per workspace for the author e-mail
// and locale, submits with progress, and shows the outcome (SUBMITTED, or created but not submitted
// with its report). A notice already being submitted cannot be submitted again meanwhile. Never
// retries a submission.

import * as vscode from 'vscode';
import { indexXml, readNoticeIdentity } from '../../core/notice';
import { NoticeFindingsRequest } from '../../core/protocol';
import { EnoticesError } from '../../core/services';
import { REPORT_LANGUAGES } from '../../core/settings';
import { cvsPipeline, prepareNotice, validateOnce } from '../../core/validation';
import { markVersionExists } from '../authoring/version-exists';
import { Commands, Views } from '../command-ids';
import type { ExtensionState } from '../extension-state';
import { wordFailure } from '../failure-wording';
import { emailProblem, emailValidation, localeChoices } from './author';
import { enoticesClient, showFailure } from './connection';
import { noticeName, type SubmitCheck, submitGate } from './submit-gate';

export interface SubmitArgs {
  /** The notice (default: the active editor's document). */
  uri?: string | vscode.Uri;
  email?: string;
  locale?: string;
  /**
   * true: submit even with errors, without asking about them; false: cancel when there are errors.
   * Production always asks (tests of other environments pass it to skip the error question).
   */
  submitAnyway?: boolean;
  /**
   * `default`: answer the pre-submit dialog as pressing Enter does, with its default (first) button,
   * without showing it (the in-editor tests prove that the safe choice is the default).
   */
  dialog?: 'default';
}

/** A submission the pre-submit check stopped: why, and the count the check saw. */
export interface SubmitRefusal {
  submitted: false;
  reason: 'errors' | 'unvalidated' | 'production';
  errors: number;
  /** The button the dialog's answer was (the safe one when the user cancelled or pressed Enter). */
  answer: string | undefined;
}

export interface SubmitOutcome {
  businessId: string;
  success: boolean;
}

const EMAIL_KEY = 'eforms.publication.authorEmail';
const LOCALE_KEY = 'eforms.publication.authorLocale';

export class SubmitFlow {
  /** Uris of the notices being submitted now. */
  readonly inFlight = new Set<string>();

  constructor(
    private readonly state: ExtensionState,
    private readonly onSubmitted: () => void,
  ) {}

  async run(args: SubmitArgs = {}): Promise<SubmitOutcome | SubmitRefusal | undefined> {
    const doc = await this.document(args.uri);
    if (!doc) {
      void vscode.window.showWarningMessage('eForms: open the eForms notice (XML) to submit first.');
      return undefined;
    }
    const key = doc.uri.toString();
    if (this.inFlight.has(key)) {
      void vscode.window.showInformationMessage('eForms: this notice is already being submitted.');
      return undefined;
    }
    this.inFlight.add(key);
    try {
      return await this.submit(doc, args);
    } finally {
      this.inFlight.delete(key);
    }
  }

  private async document(uri: SubmitArgs['uri']): Promise<vscode.TextDocument | undefined> {
    if (uri) return vscode.workspace.openTextDocument(typeof uri === 'string' ? vscode.Uri.parse(uri) : uri);
    return vscode.window.activeTextEditor?.document;
  }

  private async submit(
    doc: vscode.TextDocument,
    args: SubmitArgs,
  ): Promise<SubmitOutcome | SubmitRefusal | undefined> {
    const text = doc.getText();
    const id = readNoticeIdentity(text);
    if (!id.ok) {
      void vscode.window.showErrorMessage(`eForms: cannot submit: ${id.problem}`);
      return undefined;
    }
    const businessId = id.identity.businessId;
    if (!businessId) {
      void vscode.window.showErrorMessage(`eForms: cannot submit: ${id.identity.businessIdProblem}`);
      return undefined;
    }
    const client = await enoticesClient(this.state, { prompt: true, scope: doc.uri });
    if (!client) {
      void vscode.window.showWarningMessage('eForms: submitting needs your eNotices2 API key.');
      return undefined;
    }
    const bytes = Buffer.from(text, 'utf8');

    const check = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `eForms: validating ${businessId} before submitting…`,
      },
      () => this.validate(doc, bytes),
    );
    const environment = this.state.settings(doc.uri).environment;
    const gate = submitGate({
      notice: noticeName(indexXml(text), businessId),
      environment,
      check,
      force: args.submitAnyway === true,
    });
    this.state.log.info(
      `pre-submit check of ${businessId}: ${check.errors} errors, ${check.warnings} warnings${check.problems.length ? `; ${check.problems.join('; ')}` : ''}`,
    );
    if (gate.ask) {
      const refused = (answer: string | undefined): SubmitRefusal => ({
        submitted: false,
        reason: gate.reason,
        errors: check.errors,
        answer,
      });
      if (args.submitAnyway === false && gate.reason !== 'production') return refused(undefined);
      // The safe choice first: in a modal dialog the first button that is not the close affordance is
      // the default one (Enter). None is marked as the close affordance: VS Code then adds its own
      // Cancel (Escape), and would otherwise make "Submit anyway" the first, default, button.
      const buttons = [{ title: gate.safe }, { title: gate.proceed }];
      const pick =
        args.dialog === 'default'
          ? buttons[0]
          : await vscode.window.showWarningMessage(
              gate.message,
              { modal: true, detail: gate.detail },
              ...buttons,
            );
      if (pick?.title !== gate.proceed) {
        if (pick?.title === gate.safe && gate.reason === 'errors' && args.dialog !== 'default')
          void vscode.commands.executeCommand('workbench.actions.view.problems');
        return refused(pick?.title);
      }
    }

    const author = await this.author(args);
    if (!author) return undefined;

    let result: Awaited<ReturnType<typeof client.submit>>;
    try {
      result = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `eForms: submitting ${businessId} to eNotices2…`,
        },
        () => client.submit(bytes, { noticeAuthorEmail: author.email, noticeAuthorLocale: author.locale }),
      );
    } catch (err) {
      void showFailure(this.state, err, 'Submitting the notice');
      if (err instanceof EnoticesError && err.kind === 'already-exists') {
        markVersionExists(this.state, doc);
        // It may be this very submission, sent before: the list shows it.
        this.onSubmitted();
      }
      return undefined;
    }
    this.state.log.info(
      `submitted ${businessId}: ${result.success ? 'SUBMITTED' : 'created, not submitted'}`,
    );
    this.onSubmitted();
    if (result.success) {
      void vscode.window
        .showInformationMessage(`eForms: ${businessId} is SUBMITTED for publication.`, 'Show My Notices')
        .then((p) => p && vscode.commands.executeCommand(`${Views.myNotices}.focus`));
    } else {
      void vscode.window
        .showWarningMessage(
          `eForms: ${businessId} was created but NOT submitted: validation failed. Fix it, increase cbc:VersionID and submit again.`,
          'Open Validation Report',
        )
        .then(
          (p) =>
            p &&
            vscode.commands.executeCommand(Commands.openValidationReport, {
              businessId,
              uri: doc.uri.toString(),
            }),
        );
    }
    return { businessId, success: result.success };
  }

  /**
   * What the editor shows for the current text: the language server runs every enabled engine now and
   * answers the diagnostics it publishes. Without a server, the CVS's findings (the former check).
   */
  private async validate(doc: vscode.TextDocument, bytes: Buffer): Promise<SubmitCheck> {
    const r = await this.state
      .serverRequest(NoticeFindingsRequest.type, { uri: doc.uri.toString() })
      .catch((err: unknown) => {
        this.state.log.warn(`the pre-submit check could not ask the language server: ${String(err)}`);
        return undefined;
      });
    if (r?.ok) {
      const count = (sev: number) => r.diagnostics.filter((d) => d.severity === sev).length;
      const problems = r.engines.flatMap((e) =>
        e.problem ? [`${e.engine === 'cvs' ? 'the validation service' : 'the SDK rules'}: ${e.problem}`] : [],
      );
      return {
        errors: count(1),
        warnings: count(2),
        problems,
        answered: r.engines.some((e) => !e.problem),
      };
    }
    const cvs = await this.validateWithCvs(doc, bytes);
    return {
      errors: cvs.errors,
      warnings: 0,
      problems: cvs.problem ? [cvs.problem] : [],
      answered: !cvs.problem,
    };
  }

  /** Errors the CVS finds now, or why it could not be asked. */
  private async validateWithCvs(
    doc: vscode.TextDocument,
    bytes: Buffer,
  ): Promise<{ errors: number; problem?: string }> {
    const s = this.state.settings(doc.uri);
    const baseUrl = this.state.urls(doc.uri).cvs;
    // The same pipeline as live validation: the notice's own SDK version unless a setting pins one.
    const notice = prepareNotice(doc.getText(), bytes);
    const pipeline = cvsPipeline({
      baseUrl,
      apiKey: await this.state.apiKey(),
      dispatcher: this.state.dispatcher(),
    });
    // The same one-shot entry as the CLI: the engines' findings count (today the CVS's; the local
    // checks stay out, as eNotices2 judges by the service's rules).
    const r = await validateOnce(notice, pipeline, s.validation);
    switch (r.outcome) {
      case 'validated':
        return { errors: r.report.findings.filter((f) => f.severity === 'error').length };
      case 'notice-refused':
        return { errors: 0, problem: wordFailure(r.error, 'Validating').message };
      case 'not-sent':
        return {
          errors: 0,
          problem:
            r.verdict.reason === 'malformed'
              ? 'the notice is not well-formed XML'
              : r.verdict.reason === 'too-large'
                ? `the notice is ${(r.verdict.bytes / 1048576).toFixed(1)} MB, above what the validation service is sent`
                : r.verdict.reason,
        };
      case 'failed':
        return {
          errors: 0,
          problem:
            r.failure.class === 'cancelled'
              ? 'cancelled'
              : wordFailure(r.failure.cause.error, 'Validating').message,
        };
    }
  }

  private async author(args: SubmitArgs): Promise<{ email: string; locale: string } | undefined> {
    const ws = this.state.context.workspaceState;
    let email = args.email?.trim() || ws.get<string>(EMAIL_KEY);
    if (!email || emailProblem(email)) {
      email = await askEmail(email ?? '');
      if (!email) return undefined;
    }
    let locale = args.locale?.trim() || ws.get<string>(LOCALE_KEY);
    if (!locale) {
      const picked = await vscode.window.showQuickPick(localeChoices(REPORT_LANGUAGES), {
        title: 'Notice author',
        placeHolder: 'Language of the notice author (remembered for this workspace)',
        matchOnDescription: true,
        ignoreFocusOut: true,
      });
      if (!picked) return undefined;
      locale = picked.code;
    }
    await ws.update(EMAIL_KEY, email.trim());
    await ws.update(LOCALE_KEY, locale);
    return { email: email.trim(), locale };
  }
}

/** The author e-mail, asked with a box that says nothing is wrong before anything was typed. */
function askEmail(initial: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const box = vscode.window.createInputBox();
    box.title = 'Notice author';
    box.prompt = 'E-mail of the person responsible for the notice (required; remembered for this workspace)';
    box.placeholder = 'name@example.org';
    box.value = initial;
    box.ignoreFocusOut = true;
    let typed = initial !== '';
    box.validationMessage = emailValidation(box.value, typed);
    let done = false;
    const finish = (v: string | undefined) => {
      if (done) return;
      done = true;
      resolve(v);
      box.dispose();
    };
    box.onDidChangeValue((v) => {
      typed = true;
      box.validationMessage = emailValidation(v, typed);
    });
    box.onDidAccept(() => {
      const problem = emailProblem(box.value);
      if (problem) box.validationMessage = problem;
      else finish(box.value.trim());
    });
    box.onDidHide(() => finish(undefined));
    box.show();
  });
}
