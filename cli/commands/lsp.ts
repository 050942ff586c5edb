// `eforms lsp`: runs the eForms language server for any LSP editor over stdio, node IPC or a socket.
// It is the very server module that dist/server.js runs (server/server.ts startServer), not a copy.
// The API key comes from EFORMS_API_KEY of this process only.

import { startServer } from '../../server/server';
import { type CliIo, UsageError } from '../io';

const USAGE = `Usage: eforms lsp --stdio | --node-ipc | --socket=PORT

Runs the eForms language server: local checks of eForms notices while typing, and validation by the
Central Validation Service after a pause (settings: the 'eforms' section, asked through
workspace/configuration). The API key is read from the environment variable EFORMS_API_KEY; without
it only local checks run.`;

const TRANSPORTS = ['--stdio', '--node-ipc'];

export async function lsp(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(USAGE);
    return 0;
  }
  const transport = args.filter(
    (a) => TRANSPORTS.includes(a) || /^--socket=\d+$/.test(a) || /^--pipe=.+/.test(a),
  );
  const unknown = args.filter((a) => !transport.includes(a) && !a.startsWith('--clientProcessId'));
  if (unknown.length) throw new UsageError(`unknown option ${unknown[0]}\n${USAGE}`);
  if (transport.length !== 1) throw new UsageError(`choose one transport\n${USAGE}`);
  // createConnection reads the transport from process.argv, which holds these same arguments.
  const connection = startServer({ apiKey: io.env.EFORMS_API_KEY?.trim() });
  await new Promise<void>((resolve) => connection.onExit(resolve));
  return 0;
}
