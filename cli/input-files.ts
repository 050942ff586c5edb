// Reading the files named on the command line: one friendly sentence for each way that can fail, so
// every subcommand says "cannot read the notice x.xml: no such file" the same way. No `vscode` import.

import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';
import { INPUT_LIMITS, type InputKind, overLimitMessage } from '../core/notice';
import { terminalName } from '../core/text';
import { UsageError } from './io';

/** A named input file cannot be read or is not text: one line for the user, exit status 2. */
export class InputFileError extends UsageError {}

/**
 * The file's exact bytes (sent as they are to the services). A file over its limit (a notice by default)
 * is refused: a regular file before it is read, anything else (`/dev/stdin`, a FIFO, `/dev/zero`) once
 * the bytes actually read pass the limit, so no source is read past it. The services would refuse it
 * anyway, with a status that reads like a settings problem.
 */
export function readInputFile(
  cwd: string,
  path: string,
  what: string,
  limit: InputKind = 'noticeBytes',
): Buffer {
  const max = INPUT_LIMITS[limit].max;
  const shown = terminalName(path);
  let fd: number;
  try {
    fd = openSync(platformPath(cwd, path), 'r');
  } catch (e) {
    throw new InputFileError(`cannot read the ${what} ${shown}: ${reasonOf(e)}`);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new InputFileError(`cannot read the ${what} ${shown}: it is a directory`);
    if (st.isFile() && st.size > max)
      throw new InputFileError(`cannot use the ${what} ${shown}: ${overLimitMessage(limit, st.size)}`);
    const chunks: Buffer[] = [];
    let total = 0;
    const buf = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, buf.length, null);
      } catch (e) {
        // A stream opened non-blocking by another process: wait for it the plain way, once per chunk.
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
          continue;
        }
        throw new InputFileError(`cannot read the ${what} ${shown}: ${reasonOf(e)}`);
      }
      if (n === 0) break;
      total += n;
      // Counted as read, whatever stat said: a stream, a device or a file that grows stops here.
      if (total > max)
        throw new InputFileError(`cannot use the ${what} ${shown}: ${overLimitMessage(limit)}`);
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

function reasonOf(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT'
    ? 'no such file'
    : code === 'EISDIR'
      ? 'it is a directory'
      : code === 'EACCES'
        ? 'permission denied'
        : (e as Error).message;
}

/**
 * The path to open. Node decodes the command line as UTF-8, so a file name that is not UTF-8 arrives
 * with U+FFFD in it and names no file; where the platform keeps the raw arguments (Linux:
 * /proc/self/cmdline), the argument's own bytes are used instead, as a Buffer path.
 */
export function platformPath(
  cwd: string,
  path: string,
  rawArgs: () => Buffer[] = processArgBytes,
): string | Buffer {
  const full = resolve(cwd, path);
  if (!path.includes('\ufffd')) return full;
  const raw = rawArgs().find((a) => !isUtf8(a) && a.toString('utf8') === path);
  if (!raw) return full;
  return isAbsolute(path) ? raw : Buffer.concat([Buffer.from(`${resolve(cwd)}${sep}`), raw]);
}

function processArgBytes(): Buffer[] {
  if (process.platform !== 'linux') return [];
  try {
    const all = readFileSync('/proc/self/cmdline');
    const out: Buffer[] = [];
    let start = 0;
    for (let i = 0; i < all.length; i++)
      if (all[i] === 0) {
        out.push(all.subarray(start, i));
        start = i + 1;
      }
    return out;
  } catch {
    return [];
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
      `the ${what} ${terminalName(path)} is not UTF-8 text (eForms notices and SVRL reports are UTF-8)`,
    );
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
