#!/usr/bin/env node
// `eforms`: the command-line tool, a thin layer over core/. Each subcommand lives in cli/commands/.
// No `vscode` import here.

import { type CliIo, EXIT_FAILURE, UsageError } from './io';
import { commands } from './registry';

const HELP = `eforms — tools for EU eForms notices

Usage: eforms <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join('\n')}

Run 'eforms <command> --help' for a command's options.
Environment: EFORMS_API_KEY holds the API key of the services.`;

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(HELP);
    return name ? 0 : EXIT_FAILURE;
  }
  if (name === '--version') {
    io.out(VERSION);
    return 0;
  }
  const entry = commands[name];
  if (!entry) {
    io.err(`eforms: unknown command '${name}'. Run 'eforms --help'.`);
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
  const io: CliIo = {
    out: (t) => process.stdout.write(`${t}\n`),
    err: (t) => process.stderr.write(`${t}\n`),
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
      process.stderr.write(`eforms: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exitCode = EXIT_FAILURE;
    },
  );
}
