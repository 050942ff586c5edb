// Reading the files named on the command line: one friendly sentence for each way that can fail, so
// every subcommand says "cannot read the notice x.xml: no such file" the same way (the path once). A
// folder stands for the notices in it; a --sdk-dir that holds no SDK is named as the problem. No
// `vscode` import; nothing here writes.

import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { INPUT_LIMITS, type InputKind, indexXml, noticeKindOf, overLimitMessage } from '../core/notice';
import { listSdkReleases } from '../core/sdk';
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
  // A UTF-16 file (Windows tools save XML so) has a byte-order mark of its own: its first byte is not
  // UTF-8, and "line 1, column 1 holds 0xFF" would not say what the file is.
  const utf16 =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? 'UTF-16LE'
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? 'UTF-16BE'
        : '';
  if (utf16)
    throw new InputFileError(
      `the ${what} ${terminalName(path)} is ${utf16} text (it starts with a UTF-16 byte-order mark). eForms notices and SVRL reports are UTF-8: save the file as UTF-8`,
    );
  if (!isUtf8(bytes)) {
    const at = firstNonUtf8(bytes);
    const byte = bytes[at]?.toString(16).toUpperCase().padStart(2, '0');
    const { line, column } = positionOfByte(bytes, at);
    throw new InputFileError(
      `the ${what} ${terminalName(path)} is not UTF-8 text: line ${line}, column ${column} holds a byte (0x${byte}) that is not UTF-8. eForms notices and SVRL reports are UTF-8: save the file as UTF-8 (a Latin-1 or Windows-1252 file shows this at its first accented letter)`,
    );
  }
  const text = UTF8.decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The offset of the first byte that does not belong to well-formed UTF-8 (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF), for bytes that isUtf8 refused; a sequence cut by the end of
 * the bytes counts from its lead byte.
 */
function firstNonUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i] as number;
    if (c < 0x80) {
      i++;
      continue;
    }
    const trail = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (trail < 0 || i + trail >= b.length) return i;
    for (let k = 1; k <= trail; k++) if (((b[i + k] as number) & 0xc0) !== 0x80) return i;
    const c1 = b[i + 1] as number;
    // The second byte's narrower ranges: overlong three- and four-byte forms, surrogates, past U+10FFFF.
    if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 > 0x9f)) return i;
    if ((c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 > 0x8f)) return i;
    i += trail + 1;
  }
  return b.length;
}

/** Line and column (1-based; columns in UTF-16 units, as editors count) of a byte after valid UTF-8. */
function positionOfByte(b: Uint8Array, at: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    if (b[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  // A leading byte-order mark is not a column: editors do not show it.
  const from = line === 1 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  return { line, column: UTF8.decode(b.subarray(Math.max(lineStart, from), at)).length + 1 };
}

/** Enough of a file to hold the prolog and the root start tag of any real notice. */
const SNIFF_BYTES = 64 * 1024;
/** A folder walk stops here: a mistyped `/` must not read the whole disk. */
const MAX_FOLDER_FILES = 10_000;

/**
 * What a `.xml` file in a folder holds, from its first bytes: a notice; other XML (a root element that
 * is not a notice: a code list, a report), skipped without a word; or nothing readable as XML (empty,
 * no element, unreadable), which a folder of notices should not hide: a notice cut short by a failed
 * copy or download.
 */
function sniff(path: string): 'notice' | 'other-xml' | 'empty' | 'not-xml' {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(SNIFF_BYTES);
    const n = readSync(fd, buf, 0, SNIFF_BYTES, 0);
    const head = buf.subarray(0, n).toString('utf8');
    if (head.trim() === '') return 'empty';
    const index = indexXml(head);
    if (noticeKindOf(index) !== undefined) return 'notice';
    return index.element(0) ? 'other-xml' : 'not-xml';
  } catch {
    return 'not-xml';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Files named in one note; the count says how many more. */
const MAX_NAMED = 5;

function named(files: readonly string[]): string {
  const shown = files.slice(0, MAX_NAMED).join(', ');
  return files.length > MAX_NAMED ? `${shown} and ${files.length - MAX_NAMED} more` : shown;
}

/**
 * The files the arguments name: a file as it is (reading it later says what is wrong with it), a
 * folder as the eForms notices in it and its sub-folders (`*.xml` whose root is a notice; hidden
 * folders and node_modules skipped), sorted, relative to `cwd` when given so. A folder that holds no
 * notice is a usage error that names it. `note` hears, in a sentence, of `.xml` files that are empty or
 * not XML, and of a walk that stopped at its limit: what a folder of notices should not hide.
 */
export function expandInputPaths(
  cwd: string,
  args: readonly string[],
  note: (sentence: string) => void = () => {},
): string[] {
  const out: string[] = [];
  for (const arg of args) {
    // `""` would resolve to the current folder and validate everything in it: most likely a variable
    // that was not set (`eforms validate --local "$NOTICE"`).
    if (arg.trim() === '')
      throw new InputFileError(
        'an empty file name was given (a variable that is not set?): name a notice or a folder',
      );
    const abs = resolve(cwd, arg);
    let isDir = false;
    try {
      isDir = statSync(abs).isDirectory();
    } catch {
      // Not there: kept, so that reading it says "no such file" with the rest of the files' outcomes.
    }
    if (!isDir) {
      out.push(arg);
      continue;
    }
    const found: string[] = [];
    const empty: string[] = [];
    const notXml: string[] = [];
    let seen = 0;
    let stopped = false;
    // Each folder and file once, by device and inode: a link back to a folder already walked (`s -> .`,
    // `up -> ..`) walked it again and again, and two links to one file validated it twice.
    const visited = new Set<string>();
    const firstVisit = (st: { dev: number; ino: number }): boolean => {
      const id = `${st.dev}:${st.ino}`;
      if (visited.has(id)) return false;
      visited.add(id);
      return true;
    };
    const walk = (dir: string) => {
      let names: string[];
      try {
        names = readdirSync(dir).sort();
      } catch {
        return;
      }
      for (const name of names) {
        if (seen++ >= MAX_FOLDER_FILES) {
          stopped = true;
          return;
        }
        if (name.startsWith('.') || name === 'node_modules') continue;
        const p = join(dir, name);
        let st: ReturnType<typeof statSync>;
        try {
          st = statSync(p);
        } catch {
          continue;
        }
        if (!firstVisit(st)) continue;
        if (st.isDirectory()) walk(p);
        // Regular files only: opening a FIFO to look at it waits for a writer that may never come.
        else if (st.isFile() && /\.xml$/i.test(name)) {
          const kind = sniff(p);
          if (kind === 'notice') found.push(p);
          else if (kind === 'empty') empty.push(p);
          else if (kind === 'not-xml') notXml.push(p);
        }
      }
    };
    try {
      firstVisit(statSync(abs));
    } catch {
      // Checked above: it is a folder.
    }
    walk(abs);
    // Named as the user named the folder, so that the output reads like the command line.
    const asNamed = (f: string): string => join(arg, relative(abs, f));
    if (empty.length > 0)
      note(`${named(empty.map(asNamed))} ${empty.length === 1 ? 'is' : 'are'} empty: not validated`);
    if (notXml.length > 0)
      note(
        `${named(notXml.map(asNamed))} ${notXml.length === 1 ? 'holds' : 'hold'} no XML element: not validated (a notice cut short, or not XML)`,
      );
    if (stopped)
      note(
        `the folder ${arg} has more than ${MAX_FOLDER_FILES.toLocaleString('en')} entries: only the notices among the first ${MAX_FOLDER_FILES.toLocaleString('en')} are validated; name a smaller folder`,
      );
    if (found.length === 0)
      throw new InputFileError(
        `the folder ${arg} holds no eForms notice (no .xml file whose root is a notice)`,
      );
    for (const f of found) out.push(asNamed(f));
  }
  return out;
}

/** Checks a --sdk-dir before anything else: a wrong one is the problem, not the SDK "missing" later. */
export function checkSdkDir(cwd: string, dir: string, option = '--sdk-dir'): string {
  const abs = resolve(cwd, dir);
  let isDir = false;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    throw new InputFileError(`${option} ${dir}: no such folder`);
  }
  if (!isDir) throw new InputFileError(`${option} ${dir} is a file: name the folder of an SDK release`);
  if (listSdkReleases(abs).length === 0)
    throw new InputFileError(
      `${option} ${dir} holds no eForms SDK release (a release has fields/fields.json and schematrons/; a folder of releases has them in sub-folders named by version)`,
    );
  return abs;
}

/** A failure sentence about `file`, with the path said once (the sentences above already name it). */
export function aboutFile(file: string, sentence: string): string {
  return sentence.includes(file) ? sentence : `${file}: ${sentence}`;
}
