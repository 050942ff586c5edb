// The table of subcommands. One entry per subcommand; each lives in cli/commands/. A command's module
// (and what it imports: the HTTP client, the language server, the renderer…) is loaded when that
// command runs, not at every start: `eforms validate --local` never loads the sandbox or the LSP.
// Never import a command module statically here.

import type { Command } from './io';

export interface CommandEntry {
  summary: string;
  run: Command;
}

/** A command run from its module, required on first use (esbuild bundles it as a lazy module). */
function lazy<M>(load: () => M, pick: (m: M) => Command): Command {
  return (args, io) => pick(load())(args, io);
}

export const commands: Record<string, CommandEntry> = {
  check: {
    summary: 'map an SVRL report you already have onto a notice (offline)',
    run: lazy(
      () => require('./commands/check') as typeof import('./commands/check'),
      (m) => m.check,
    ),
  },
  validate: {
    summary: 'validate notices with the Central Validation Service',
    run: lazy(
      () => require('./commands/validate') as typeof import('./commands/validate'),
      (m) => m.validate,
    ),
  },
  versions: {
    summary: 'the SDK versions accepted for publication (and whether a notice uses one)',
    run: lazy(
      () => require('./commands/versions') as typeof import('./commands/versions'),
      (m) => m.versions,
    ),
  },
  submit: {
    summary: 'submit a notice to eNotices2 for publication',
    run: lazy(
      () => require('./commands/submit') as typeof import('./commands/submit'),
      (m) => m.submit,
    ),
  },
  report: {
    summary: 'fetch the validation report of a submitted notice',
    run: lazy(
      () => require('./commands/report') as typeof import('./commands/report'),
      (m) => m.report,
    ),
  },
  search: {
    summary: 'list your notices in eNotices2',
    run: lazy(
      () => require('./commands/search') as typeof import('./commands/search'),
      (m) => m.search,
    ),
  },
  stop: {
    summary: 'stop the publication of a SUBMITTED notice',
    run: lazy(
      () => require('./commands/stop') as typeof import('./commands/stop'),
      (m) => m.stop,
    ),
  },
  render: {
    summary: 'render a notice as TED publishes it (HTML or text, offline)',
    run: lazy(
      () => require('./commands/render') as typeof import('./commands/render'),
      (m) => m.render,
    ),
  },
  convert: {
    summary: 'convert a legacy TED XML notice to eForms',
    run: lazy(
      () => require('./commands/convert') as typeof import('./commands/convert'),
      (m) => m.convert,
    ),
  },
  prices: {
    summary: 'agri-food market prices by sector (table, CSV, JSON, summaries)',
    run: lazy(
      () => require('./commands/prices') as typeof import('./commands/prices'),
      (m) => m.prices,
    ),
  },
  lsp: {
    summary: 'run the language server (--stdio) for any LSP editor',
    run: lazy(
      () => require('./commands/lsp') as typeof import('./commands/lsp'),
      (m) => m.lsp,
    ),
  },
  sandbox: {
    summary: 'serve the emulated services on loopback',
    run: lazy(
      () => require('./commands/sandbox') as typeof import('./commands/sandbox'),
      (m) => m.sandbox,
    ),
  },
};
