// `eforms lsp` (being written).
import type { CliIo } from '../io';

export async function lsp(_args: string[], io: CliIo): Promise<number> {
  io.err('not implemented yet');
  return 2;
}
