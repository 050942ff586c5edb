// Reading the files named on the command line: one friendly sentence for each way that can fail, so
// every subcommand says "cannot read the notice x.xml: no such file" the same way. No `vscode` import.

import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { INPUT_LIMITS, type InputKind, overLimitMessage } from '../core/notice';
import { UsageError } from './io';

/** A named input file cannot be read or is not text: one line for the user, exit status 2. */
export class InputFileError extends UsageError {}

/**
 * The file's exact bytes (sent as they are to the services). A file over its limit (a notice by default)
 * is refused before it is read or sent: the services would refuse it anyway, with a status that reads
 * like a settings problem.
 */
export function readInputFile(
  cwd: string,
  path: string,
  what: string,
  limit: InputKind = 'noticeBytes',
): Buffer {
  let size = -1;
  try {
    size = statSync(resolve(cwd, path)).size;
  } catch {
    // readFileSync below says why in the usual words.
  }
  if (size > INPUT_LIMITS[limit].max)
    throw new InputFileError(`cannot use the ${what} ${path}: ${overLimitMessage(limit, size)}`);
  try {
    return readFileSync(resolve(cwd, path));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : (e as Error).message;
    throw new InputFileError(`cannot read the ${what} ${path}: ${reason}`);
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The text editors show: strict UTF-8, a leading byte-order mark dropped (positions count without it). */
export function decodeInputText(bytes: Uint8Array, path: string, what: string): string {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new InputFileError(
      `the ${what} ${path} is not UTF-8 text (eForms notices and SVRL reports are UTF-8)`,
    );
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
