// The command-line tool's view of the outside world: output streams and environment, passed in so that
// tests can run commands in-process. No `vscode` import here.

import { type ParseArgsConfig, parseArgs } from 'node:util';

export interface CliIo {
  out(text: string): void;
  /**
   * Writes these bytes to stdout as they are, no line break added: large data made piece by piece (a
   * batch's JSON). Absent when stdout is a terminal, whose text goes through the sanitiser (`out`).
   */
  outBytes?(bytes: Uint8Array): void;
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

/** Edit distance (insertions, deletions, substitutions, adjacent swaps), for "did you mean". */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The candidate closest to a mistyped word, when it is close enough to be what was meant (at most a
 * third of its letters off, and never more than 3), or a candidate that starts with it.
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const d = distance(w, c.toLowerCase());
    if (d < bestD) {
      best = c;
      bestD = d;
    }
  }
  if (best !== undefined && bestD <= Math.min(3, Math.max(1, Math.floor(w.length / 3)))) return best;
  const prefixed = candidates.filter((c) => w.length >= 2 && c.toLowerCase().startsWith(w));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

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
    // A mistyped option gets the option that was most likely meant.
    const unknown = /^Unknown option '(--?[^'=]+)/.exec(first)?.[1];
    const names = Object.entries(config.options ?? {}).map(([n, o]) =>
      unknown?.startsWith('--') || !o.short ? `--${n}` : `-${o.short}`,
    );
    const meant = unknown ? didYouMean(unknown, names) : undefined;
    throw new UsageError(
      `${/[.!?]$/.test(first) ? first : `${first}.`}${meant ? ` Did you mean ${meant}?` : ''} Run 'eforms ${command} --help' for usage.`,
    );
  }
}

type ParsedResults<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T>>;
