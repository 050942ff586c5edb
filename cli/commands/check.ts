// `eforms check` (being written).
import type { CliIo } from '../io';

export async function check(_args: string[], io: CliIo): Promise<number> {
  io.err('not implemented yet');
  return 2;
}
