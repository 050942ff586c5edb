// The table of subcommands. One entry per subcommand; each lives in cli/commands/.

import { check } from './commands/check';
import { lsp } from './commands/lsp';
import { sandbox } from './commands/sandbox';
import { validate } from './commands/validate';
import type { Command } from './io';

export interface CommandEntry {
  summary: string;
  run: Command;
}

export const commands: Record<string, CommandEntry> = {
  check: { summary: 'map an SVRL report you already have onto a notice (offline)', run: check },
  validate: { summary: 'validate notices with the Central Validation Service', run: validate },
  lsp: { summary: 'run the language server (--stdio) for any LSP editor', run: lsp },
  sandbox: { summary: 'serve the emulated services on loopback', run: sandbox },
};
