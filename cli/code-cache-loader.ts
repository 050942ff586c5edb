#!/usr/bin/env node
// The small entry of a bundle (dist/cli.js for dist/cli-main.js, dist/validation-worker.js for
// dist/validation-worker-main.js, named by scripts/build.mjs): it runs the real bundle beside it compiled
// with V8's code cache, kept in the user's cache folder (`<cache>/eforms/code/`), so that a start does not
// parse and compile megabytes of JavaScript again (Node 20 has no module.enableCompileCache). The cache
// is written once the bundle has run (the CLI at exit, a worker after its first answer), so it holds the
// functions that run used. A cache file is untrusted input: read only when it is a regular file under
// the cap, used only when its header names this very bundle (the sha256 of its text), Node, V8,
// architecture and V8 flags and the sha256 of its bytes matches (V8 does not check its own checksum in
// release builds); V8 then rejects data that does not fit the source. Whatever fails, the bundle is
// compiled without the cache and behaves the same. The CLI's entry also sets the CLI's V8 flags (speed
// only). This module must never change what the bundle does, and imports nothing but Node's built-ins:
// it runs before the bundle is loaded. EFORMS_CODE_CACHE=0 turns the cache off.

import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire, Module } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

/** Bumped whenever the file's layout changes. */
const FORMAT = 1;
/** Above this a cache file is not read (the CLI's is about 2 MB). */
export const CODE_CACHE_MAX_BYTES = 64 * 1024 * 1024;
/** What a bundle calls when it has done enough work to be worth caching (a worker: after its first job). */
export const CODE_CACHE_READY = Symbol.for('eforms.codeCacheReady');
/**
 * What a bundle calls, with a name, when it has done a kind of work whose code the cache should hold:
 * the CLI once it has run the SDK rules in its own thread. V8 caches the functions a run compiled, and
 * a batch's main thread never runs the rules (its workers do): a cache made by a batch left a single
 * notice's start compiling the whole rule engine again, every time, since a cache that is used is not
 * written again. A run that did a kind of work its cache does not cover writes it again (V8's new data
 * holds what it read from the cache too), naming the kinds it covers in the header.
 */
export const CODE_CACHE_COVERS = Symbol.for('eforms.codeCacheCovers');

/** The folder of the code caches, beside the SDK cache (`$EFORMS_SDK_CACHE/../code`), or undefined when off. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.EFORMS_CODE_CACHE?.trim() === '0') return undefined;
  const pinned = env.EFORMS_SDK_CACHE?.trim();
  if (pinned) return join(dirname(pinned), 'code');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'eforms', 'code');
}

/**
 * What a cache file must say to be used for a bundle: its name and the sha256 of its text (V8 itself
 * checks only the source's length), and the runtime's versions.
 */
export function bundleIdentity(bundle: string, source: string | Uint8Array, v8Flags = ''): string {
  return JSON.stringify({
    format: FORMAT,
    bundle: basename(bundle),
    source: createHash('sha256').update(source).digest('hex'),
    node: process.version,
    v8: process.versions.v8,
    arch: process.arch,
    ...(v8Flags ? { v8Flags } : {}),
  });
}

/**
 * One file per bundle and set of V8 flags: V8 rejects code cached under other flags, so the worker a
 * CLI starts (under CLI_V8_FLAGS) and the one the language server starts (under V8's defaults) each
 * keep their own instead of replacing each other's at every start.
 */
export function codeCacheFile(dir: string, bundle: string, v8Flags = ''): string {
  const tag = v8Flags ? `.${createHash('sha256').update(v8Flags).digest('hex').slice(0, 12)}` : '';
  return join(dir, `${basename(bundle).replace(/[^0-9A-Za-z._-]/g, '_')}${tag}.${process.arch}.v8cache`);
}

const digestOf = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** O_NONBLOCK where the platform has it: opening a FIFO must not wait for a writer. */
const NONBLOCK = (constants as { O_NONBLOCK?: number }).O_NONBLOCK ?? 0;

/**
 * The cached data for `bundle` in `dir`, or undefined when absent, foreign, stale or damaged. The file
 * is one header line `{"identity":…,"digest":…,"covers":[…]}` and then V8's bytes.
 */
export function readCodeCache(
  dir: string,
  bundle: string,
  identity: string,
  v8Flags = '',
): Buffer | undefined {
  return readCodeCacheEntry(dir, bundle, identity, v8Flags)?.data;
}

/** readCodeCache, with the kinds of work the run that wrote it had done (CODE_CACHE_COVERS). */
export function readCodeCacheEntry(
  dir: string,
  bundle: string,
  identity: string,
  v8Flags = '',
): { data: Buffer; covers: string[] } | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(codeCacheFile(dir, bundle, v8Flags), constants.O_RDONLY | NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > CODE_CACHE_MAX_BYTES) return undefined;
    const buf = Buffer.allocUnsafe(st.size);
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, null);
      if (n === 0) return undefined; // shrunk while read
      at += n;
    }
    const nl = buf.indexOf(10);
    if (nl < 0 || nl > 4096) return undefined;
    const head = JSON.parse(buf.toString('utf8', 0, nl)) as {
      identity?: unknown;
      digest?: unknown;
      covers?: unknown;
    };
    if (typeof head !== 'object' || head === null) return undefined;
    if (head.identity !== identity) return undefined;
    const data = buf.subarray(nl + 1);
    if (data.length === 0 || head.digest !== digestOf(data)) return undefined;
    const covers = Array.isArray(head.covers)
      ? head.covers.filter((c): c is string => typeof c === 'string')
      : [];
    return { data, covers };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes the cache for `bundle` (a temporary file renamed into place); a failure only costs speed. */
export function writeCodeCache(
  dir: string,
  bundle: string,
  identity: string,
  data: Buffer,
  v8Flags = '',
  covers: readonly string[] = [],
): void {
  const path = codeCacheFile(dir, bundle, v8Flags);
  const tmp = `${path}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    const head = JSON.stringify({ identity, digest: digestOf(data), covers });
    writeFileSync(tmp, Buffer.concat([Buffer.from(`${head}\n`, 'utf8'), data]));
    renameSync(tmp, path);
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing was written
    }
  }
}

/**
 * Runs `bundle` as a CommonJS module whose `require.main` is itself, compiled with the cache of `dir`
 * when it holds a valid one; `v8Flags` are the flags this isolate runs under besides V8's defaults.
 * Returns whether V8 took the cache (for the tests).
 */
export function runBundle(bundle: string, dir: string | undefined, v8Flags = ''): { cacheUsed: boolean } {
  // Read as bytes: the identity hashes them as they are (the same digest as the text's UTF-8, without
  // encoding 3 MB again), and an ASCII bundle (a minified one) is decoded as Latin-1, several times
  // faster than UTF-8 and the same text.
  const bytes = readFileSync(bundle);
  // A hashbang is valid only at the very start of a script: kept as a comment, so lines do not move.
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8').replace(/^#!/, '//');
  const identity = dir ? bundleIdentity(bundle, bytes, v8Flags) : '';
  const cached = dir ? readCodeCacheEntry(dir, bundle, identity, v8Flags) : undefined;
  const script = new Script(Module.wrap(source), { filename: bundle, cachedData: cached?.data });
  const cacheUsed = cached !== undefined && script.cachedDataRejected === false;
  // The kinds of work the cache in use covers, and those this run has done (CODE_CACHE_COVERS).
  const covered = new Set(cacheUsed ? cached.covers : []);
  const done = new Set<string>();
  let written = false;
  const save = (): void => {
    if (written || !dir) return;
    if (cacheUsed && [...done].every((w) => covered.has(w))) return;
    written = true;
    try {
      const covers = [...new Set([...covered, ...done])].sort();
      writeCodeCache(dir, bundle, identity, script.createCachedData(), v8Flags, covers);
    } catch {
      // a cache that cannot be made only costs the next start its speed
    }
  };
  (globalThis as Record<symbol, unknown>)[CODE_CACHE_READY] = save;
  (globalThis as Record<symbol, unknown>)[CODE_CACHE_COVERS] = (what: string): void => {
    done.add(what);
  };
  process.once('exit', save);
  const m = new Module(bundle, require.main);
  m.filename = bundle;
  m.paths = (Module as unknown as { _nodeModulePaths(d: string): string[] })._nodeModulePaths(
    dirname(bundle),
  );
  const req = createRequire(bundle) as NodeJS.Require & { main: unknown };
  req.main = m;
  const fn = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: Module,
    filename: string,
    dirname: string,
  ) => void;
  fn.call(m.exports, m.exports, req, m, bundle, dirname(bundle));
  m.loaded = true;
  return { cacheUsed };
}

/**
 * The CLI's V8 flags: its optimising compiler (TurboFan) takes a function only after four times V8's
 * default run (`--interrupt-budget`, 67,584 bytes of bytecode executed). Most CLI runs are short (one
 * notice), and there TurboFan's work never paid back: a cold `validate --local` of one notice spent
 * about 0.25 s of CPU compiling functions it would call a few more times, on a second core a small
 * machine does not have (0.43–0.45 against 0.32–0.35 s wall on 2 cores; docs/rule-engine.md). The
 * functions of a long run (a batch, a 5,000-lot notice) still reach it, a little later. The language
 * server keeps V8's defaults: it lives for hours, and its rules worker should reach optimised code
 * within a few edits.
 */
export const CLI_V8_FLAGS = '--interrupt-budget=270336';

/**
 * Set by the CLI's entry for the workers it starts (a worker thread starts with a copy of its parent's
 * environment): the flags their isolate runs under too, since V8's flags belong to the process.
 */
export const V8_FLAGS_ENV = 'EFORMS_BUNDLE_V8_FLAGS';

/** Set by scripts/build.mjs to the file name of the bundle this entry runs (`cli-main.js`). */
declare const __CODE_CACHE_MAIN__: string | undefined;

if (typeof __CODE_CACHE_MAIN__ === 'string') {
  let v8Flags: string;
  if (__CODE_CACHE_MAIN__ === 'cli-main.js') {
    // Before the bundle is compiled: the code cache it reads was made under these flags.
    setFlagsFromString(CLI_V8_FLAGS);
    process.env[V8_FLAGS_ENV] = CLI_V8_FLAGS;
    v8Flags = CLI_V8_FLAGS;
  } else {
    // A worker: its process's flags, as the CLI's entry recorded them (none in the language server).
    v8Flags = process.env[V8_FLAGS_ENV] === CLI_V8_FLAGS ? CLI_V8_FLAGS : '';
  }
  runBundle(join(__dirname, __CODE_CACHE_MAIN__), codeCacheDir(), v8Flags);
}
