// The command-line tool's view of the outside world: output streams and environment, passed in so that
// tests can run commands in-process. No `vscode` import here.

import { type ParseArgsConfig, parseArgs } from 'node:util';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Rewrites one progress line on a terminal's stderr; absent when stderr is not a terminal. */
  progress?(text: string): void;
}

/** Exit codes shared by every subcommand. */
export const EXIT_OK = 0;
/** The notice has errors (validate/check), or the operation was refused by the service. */
export const EXIT_FINDINGS = 1;
/** Usage error or service failure. */
export const EXIT_FAILURE = 2;

export class UsageError extends Error {}

export type Command = (args: string[], io: CliIo) => Promise<number>;

/**
 * node:util's parseArgs for a subcommand: its own errors (unknown option, missing value) become usage
 * errors that end with the command's help hint, so every subcommand reports them the same way.
 */
export function parseCommandLine<T extends ParseArgsConfig>(command: string, config: T): ParsedResults<T> {
  try {
    return parseArgs(config);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    // Node appends advice about positionals starting with '-' to "Unknown option": not what users need.
    const first = (e as Error).message.split('\n')[0].replace(/\. To specify a positional argument.*$/, '.');
    throw new UsageError(
      `${/[.!?]$/.test(first) ? first : `${first}.`} Run 'eforms ${command} --help' for usage.`,
    );
  }
}

type ParsedResults<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T>>;
