// The command-line tool's view of the outside world: output streams and environment, passed in so that
// tests can run commands in-process. No `vscode` import here.

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Exit codes shared by every subcommand. */
export const EXIT_OK = 0;
/** The notice has errors (validate/check), or the operation was refused by the service. */
export const EXIT_FINDINGS = 1;
/** Usage error or service failure. */
export const EXIT_FAILURE = 2;

export class UsageError extends Error {}

export type Command = (args: string[], io: CliIo) => Promise<number>;
