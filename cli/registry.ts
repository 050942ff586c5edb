// The table of subcommands. One entry per subcommand; each lives in cli/commands/.

import { check } from './commands/check';
import { convert } from './commands/convert';
import { lsp } from './commands/lsp';
import { prices } from './commands/prices';
import { render } from './commands/render';
import { report } from './commands/report';
import { sandbox } from './commands/sandbox';
import { search } from './commands/search';
import { stop } from './commands/stop';
import { submit } from './commands/submit';
import { validate } from './commands/validate';
import { versions } from './commands/versions';
import type { Command } from './io';

export interface CommandEntry {
  summary: string;
  run: Command;
}

export const commands: Record<string, CommandEntry> = {
  check: { summary: 'map an SVRL report you already have onto a notice (offline)', run: check },
  validate: { summary: 'validate notices with the Central Validation Service', run: validate },
  versions: {
    summary: 'the SDK versions accepted for publication (and whether a notice uses one)',
    run: versions,
  },
  submit: { summary: 'submit a notice to eNotices2 for publication', run: submit },
  report: { summary: 'fetch the validation report of a submitted notice', run: report },
  search: { summary: 'list your notices in eNotices2', run: search },
  stop: { summary: 'stop the publication of a SUBMITTED notice', run: stop },
  render: { summary: 'render a notice as TED publishes it (HTML or text, offline)', run: render },
  convert: { summary: 'convert a legacy TED XML notice to eForms', run: convert },
  prices: { summary: 'agri-food market prices by sector (table, CSV, JSON, summaries)', run: prices },
  lsp: { summary: 'run the language server (--stdio) for any LSP editor', run: lsp },
  sandbox: { summary: 'serve the emulated services on loopback', run: sandbox },
};
