// Reading the files of an SDK release as untrusted input: only regular files, only inside the release's
// own folder once every link is resolved, and never more bytes than the limits table allows. A FIFO, a
// device (a link to /dev/zero), a file too large or a path that leaves the release is refused with one
// SdkFileError naming the file. It never opens a file in a way that can block (O_NONBLOCK), and never
// trusts the size `stat` reports: it counts the bytes it reads. No `vscode` import here.

import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { INPUT_LIMITS, type InputKind } from '../notice';

export type SdkFileProblem = 'missing' | 'outside' | 'not-regular' | 'too-large' | 'unreadable';

/** An SDK file the tools refuse to read: `file` names it, `problem` says why. */
export class SdkFileError extends Error {
  override name = 'SdkFileError';
  constructor(
    readonly problem: SdkFileProblem,
    readonly file: string,
    detail: string,
  ) {
    super(detail);
  }
}

/** True when `child` (a resolved path) is `root` or lies under it. */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

const NONBLOCK = (constants as { O_NONBLOCK?: number }).O_NONBLOCK ?? 0;

/**
 * A regular file opened for reading, at most `max` bytes by its size: the descriptor and the size
 * `fstat` reports (a reader still counts what it reads). The caller closes it. Throws SdkFileError.
 */
export function openRegularFile(path: string, max: number, what = 'file'): { fd: number; size: number } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new SdkFileError(
      code === 'ENOENT' ? 'missing' : 'unreadable',
      path,
      `The ${what} ${path} cannot be read (${code ?? (e as Error).message}).`,
    );
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      throw new SdkFileError(
        'not-regular',
        path,
        `The ${what} ${path} is not a regular file: it was not read.`,
      );
    if (st.size > max) throw tooLarge(path, what, max);
    return { fd, size: st.size };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/**
 * The bytes of a regular file, at most `max` of them, counted as read (a file that grows, or whose
 * size `stat` misreports, is still cut off). Throws SdkFileError.
 */
export function readRegularFileBytes(path: string, max: number, what = 'file'): Buffer {
  const { fd, size } = openRegularFile(path, max, what);
  try {
    // One buffer of the size the file says (plus one byte, to see it grow), read in place: a large
    // file (the rule cache's release file is tens of MB, read by every worker) is never held twice.
    let out = Buffer.allocUnsafe(Math.min(size, max) + 1);
    let total = 0;
    for (;;) {
      if (total === out.length) {
        // The file grew since fstat: grow the buffer, never past the limit plus one byte.
        const bigger = Buffer.allocUnsafe(Math.min(out.length * 2, max + 1));
        out.copy(bigger, 0, 0, total);
        out = bigger;
      }
      let n: number;
      try {
        n = readSync(fd, out, total, out.length - total, null);
      } catch (e) {
        throw new SdkFileError(
          'unreadable',
          path,
          `The ${what} ${path} cannot be read (${(e as Error).message}).`,
        );
      }
      if (n === 0) break;
      total += n;
      if (total > max) throw tooLarge(path, what, max);
    }
    return out.subarray(0, total);
  } finally {
    closeSync(fd);
  }
}

function tooLarge(path: string, what: string, max: number): SdkFileError {
  return new SdkFileError(
    'too-large',
    path,
    `The ${what} ${path} is larger than ${max >= 1 << 20 ? `${max / (1 << 20)} MB` : `${max} bytes`}, the most this tool reads: it was not read.`,
  );
}

/**
 * The text of `file`, a file of the release in `releaseDir`, read under the limit `kind` of the limits
 * table. `file` may be absolute or relative to the release; after resolving links it must lie inside
 * the release's own folder (itself resolved). Throws SdkFileError naming the file.
 */
export function readSdkFile(releaseDir: string, file: string, kind: InputKind): string {
  const limit = INPUT_LIMITS[kind];
  const path = resolve(releaseDir, file);
  let root: string;
  let real: string;
  try {
    root = realpathSync(releaseDir);
  } catch (e) {
    throw new SdkFileError(
      'missing',
      releaseDir,
      `The SDK folder ${releaseDir} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`,
    );
  }
  try {
    real = realpathSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new SdkFileError(
      code === 'ENOENT' ? 'missing' : 'unreadable',
      path,
      `The ${limit.what} ${path} cannot be read (${code ?? (e as Error).message}).`,
    );
  }
  if (!isInside(root, real))
    throw new SdkFileError(
      'outside',
      path,
      `The ${limit.what} ${path} leads outside the SDK release ${releaseDir} (to ${real}): it was not read.`,
    );
  const bytes = readRegularFileBytes(real, limit.max, limit.what);
  if (bytes.length > limit.max) throw tooLarge(path, limit.what, limit.max);
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
