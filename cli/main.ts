#!/usr/bin/env node
// `eforms`: the command-line tool, a thin layer over core/. Each subcommand lives in cli/commands/.
// No `vscode` import here.

import { terminalText } from '../core/text';
import { environmentHelp } from './environment';
import { type CliIo, didYouMean, EXIT_FAILURE, UsageError } from './io';
import { commands } from './registry';

const HELP = `eforms — tools for EU eForms notices

Usage: eforms <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join('\n')}

Run 'eforms <command> --help' for a command's options.

Environment variables, read by every command:
${environmentHelp()}`;

export async function main(argv: string[], given: CliIo): Promise<number> {
  // Messages are for people at a terminal: whatever a file or a service put in them is escaped.
  const io: CliIo = { ...given, err: (t) => given.err(terminalText(t)) };
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(HELP);
    return name ? 0 : EXIT_FAILURE;
  }
  if (name === '--version') {
    io.out(VERSION);
    return 0;
  }
  // The name is what the user typed: `eforms constructor` names no command, not Object's constructor.
  const entry = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!entry) {
    const meant = didYouMean(name, Object.keys(commands));
    io.err(
      `eforms: unknown command '${name}'.${meant ? ` Did you mean '${meant}'?` : ''} Run 'eforms --help'.`,
    );
    return EXIT_FAILURE;
  }
  try {
    return await entry.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`eforms ${name}: ${err.message}`);
      return EXIT_FAILURE;
    }
    io.err(`eforms ${name}: ${err instanceof Error ? err.message : String(err)}`);
    return EXIT_FAILURE;
  }
}

declare const __VERSION__: string | undefined;
const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : 'dev';

if (require.main === module) {
  // A reader that goes away (`eforms check ... | head -1`) is not an error of the command: stop writing
  // and exit with the command's own status, which says what it found, not a stack trace and 1.
  const closed = { out: false, err: false };
  process.stdout.on('error', () => {
    closed.out = true;
  });
  process.stderr.on('error', () => {
    closed.err = true;
  });
  const io: CliIo = {
    // Output piped to a file or a program is data and stays as it is (findings and tables are escaped
    // by core/output-formats whatever the stream); a terminal gets every line through the sanitiser.
    out: (t) => {
      if (!closed.out) process.stdout.write(`${process.stdout.isTTY ? terminalText(t) : t}\n`);
    },
    ...(process.stdout.isTTY
      ? {}
      : {
          outBytes: (b: Uint8Array) => {
            if (!closed.out) process.stdout.write(b);
          },
        }),
    err: (t) => {
      if (!closed.err) process.stderr.write(`${terminalText(t)}\n`);
    },
    env: process.env,
    cwd: process.cwd(),
    ...(process.stderr.isTTY
      ? {
          progress: (t: string) =>
            process.stderr.write(`\r\x1b[K${t.slice(0, (process.stderr.columns || 80) - 1)}`),
        }
      : {}),
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      // `lsp` and `sandbox` keep running; they resolve only when they are done.
      process.exitCode = code;
    },
    (err) => {
      if (!closed.err)
        process.stderr.write(terminalText(`eforms: ${err instanceof Error ? err.stack : String(err)}\n`));
      process.exitCode = EXIT_FAILURE;
    },
  );
}
