// The disk cache of the rules. Format 7 (the release table, below): one file per release (SDK version and
// folder), layout and mode. Format 3 (first): one JSON file per phase with every parsed expression,
// still read and written by the per-phase path (`loadRuleSet(key, { shared: false })`, the bench's
// "before"). Each carries a fingerprint of the release, its layout, the .sch files (path, size and
// mtime) and its format, so that rules prepared from different releases or layouts never mix. A stale,
// foreign or corrupt entry is ignored and rewritten; a write goes to a temporary file renamed into
// place, so a reader never sees half a file. Never reads outside the cache dir it is given. An entry is
// untrusted input: it is read only when it is a regular file under the cap of the limits table (never a
// FIFO or a link to a device), and used only when its shape checks (a per-phase entry: its digest and
// prepared-shape.ts; a release entry: its header's shape and every byte range). No `vscode` import here.

import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  readSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { INPUT_LIMITS } from '../notice';
import { openRegularFile, readRegularFileBytes } from '../sdk';
import { parseXPath } from '../xpath';
import type { PreparedPhase } from './engine';
import { isDiagnostic, isPreparedPhase, isStrArray } from './prepared-shape';
import type { NotEvaluated, RuleLayout, RuleSetKey } from './rule-set';
import type { SchDiagnostic, SchPhase } from './schema';
import { schematronFiles } from './schema';

/** Bumped whenever the prepared form or the parser's output changes. */
const FORMAT = 3;

function fingerprint(key: RuleSetKey, layout: RuleLayout): string {
  const h = createHash('sha256');
  h.update(
    `${FORMAT}\u0000${key.sdkDir}\u0000${key.sdkVersion}\u0000${layout}\u0000${key.mode}\u0000${key.phase}`,
  );
  for (const f of schematronFiles(key.sdkDir, key.mode)) {
    const s = statSync(f);
    h.update(`\u0000${f}\u0000${s.size}\u0000${s.mtimeMs}`);
  }
  return h.digest('hex');
}

/** The sha256 of an entry's prepared phase as JSON: what was written, read back the same. */
export function digest(preparedJson: string): string {
  return createHash('sha256').update(preparedJson).digest('hex');
}

/** A name made safe for a file name. */
const safe = (s: string): string => s.replace(/[^0-9A-Za-z._-]/g, '_');

/**
 * The folder of a release's entries, by version and SDK folder: two folders holding the same version
 * (a download and a named folder) each keep their own.
 */
function releaseDir(cacheDir: string, key: Pick<RuleSetKey, 'sdkDir' | 'sdkVersion'>): string {
  const folder = createHash('sha256').update(key.sdkDir).digest('hex').slice(0, 12);
  return join(cacheDir, `${safe(key.sdkVersion)}-${folder}`);
}

function entryPath(cacheDir: string, key: RuleSetKey, layout: RuleLayout): string {
  return join(releaseDir(cacheDir, key), layout, key.mode, `${safe(key.phase)}.json`);
}

export function readPrepared(
  cacheDir: string,
  key: RuleSetKey,
  layout: RuleLayout,
): PreparedPhase | undefined {
  try {
    const path = entryPath(cacheDir, key, layout);
    const raw = readRegularFileBytes(path, INPUT_LIMITS.ruleCacheBytes.max, 'rule cache entry').toString(
      'utf8',
    );
    const entry = JSON.parse(raw) as { fingerprint?: unknown; digest?: unknown; prepared?: unknown };
    if (typeof entry !== 'object' || entry === null || entry.fingerprint !== fingerprint(key, layout))
      return undefined;
    // A damaged entry (a bit flipped, a value changed by hand) no longer matches the digest written.
    if (entry.digest !== digest(JSON.stringify(entry.prepared ?? null))) return undefined;
    // One mismatch anywhere and the entry is rebuilt (and rewritten) from the SDK.
    return isPreparedPhase(entry.prepared, key) ? (entry.prepared as PreparedPhase) : undefined;
  } catch {
    return undefined;
  }
}

export function writePrepared(
  cacheDir: string,
  key: RuleSetKey,
  layout: RuleLayout,
  prepared: PreparedPhase,
): void {
  const path = entryPath(cacheDir, key, layout);
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(join(path, '..'), { recursive: true });
    const body = JSON.stringify(prepared);
    writeFileSync(
      tmp,
      `{"fingerprint":${JSON.stringify(fingerprint(key, layout))},"digest":"${digest(body)}","prepared":${body}}`,
    );
    renameSync(tmp, path);
  } catch {
    // A cache that cannot be written only costs the next start its speed.
    try {
      unlinkSync(tmp);
    } catch {
      // nothing was written
    }
  }
}

// Format 8: one file per release (SDK version and folder), layout and mode, shared by its phases. The
// stage files recur across phases, so a pattern is kept once (as its JSON text) and a phase is a list of
// references into them; diagnostics are kept once by id. Then the parsed tree of each distinct
// expression (the JSON of { ast } or { error }, with its own byte range; a pattern lists its
// expressions' trees by index, in engine.ts's patternKeys order): reading one back
// costs a third to a half of parsing its text again (measured over the 12,929 distinct expressions of
// SDK 1.15.1: JSON.parse 96–114 ms, parseXPath 217–365 ms), and a tree is decoded only when its
// expression is first compiled. The trees are the parser's output: bump RELEASE_FORMAT whenever
// it changes (the fingerprint also holds a few canary expressions' trees, which catch a changed tree
// shape that was not bumped). A phase also keeps the rules and asserts that cannot be compiled, so
// that a start from the cache need not compile every rule to name them. Writers of one file take turns
// (a lock directory), each adding its phases to what is there, so that two workers filling the cache at
// once both keep theirs.

// Format 9 adds `leads`: for each distinct tree, the element names its leading steps require (engine.ts
// leadingNames, flat [ns, local, …]), so that a rule whose context names an element the notice lacks is
// skipped without decoding its tree. Optional: a file without it is read as before.
// Format 10: the header is two lines, `{fingerprint, digest}` and then what the digest covers (the
// fields below) as written, so a reader checks those bytes as they are instead of writing a 4 MB header
// out again to check it; and `leads` name each namespace by its index in `leadNs` (with the URIs spelt
// out, the leading names were 3.2 MB of the header of a release holding every phase: the header of
// SDK 1.15.1's 51 phases went from 3.9 to 1.5 MB, about 10 ms of a single notice's start). Reading the
// whole file (34 MB then) is most of what such a start still pays over a file of one phase.
// Format 11 adds `splits`: the trees of the two parts of each tree that is a rule context
// `P[$noticeSubType = '16']` (engine.ts constantFilter), P and the predicate, each kept as a tree of its
// own (P once for the fifty phases that repeat it with their own subtype); flat, [tree, P, predicate, …]
// in ascending tree order (an array for each of 13,000 trees cost a cold start more to read). A phase read
// back compiles such a context from its parts, keyed by their trees, without decoding the whole tree:
// a further phase of a batch then decodes and compiles almost none of its contexts. Optional, like
// `leads`: a file without it is read as before.
// Format 12: the body is read in blocks, when first needed, each checked against its own CRC-32 in the
// header (`block`, `blocks`); the first line names the header's length. One notice's start reads the
// header, its phase's patterns and the trees it compiles, about 7 of SDK 1.15.1's 35 MB: reading and
// checking the whole file was 25 ms of a 0.35 s start. A damaged block gives no text: a pattern
// that is not there makes the phase be rebuilt from the SDK, a tree that is not there is parsed again
// from its expression, and an update starts from an empty file.
// Format 13: a phase's rules not evaluated name their cause (`unsupported`).
const RELEASE_FORMAT = 13;

/** The body's blocks: small enough that a start reads little past what it needs (its reads cluster). */
const BLOCK = 64 * 1024;

/** A phase in the release file: the SchPhase with its patterns as indexes into `patterns`. */
export interface CachedPhase extends Omit<SchPhase, 'patterns' | 'diagnostics'> {
  patterns: number[];
  notEvaluated: NotEvaluated[];
}

/** The release's distinct patterns, each the JSON text of a SchPattern, decoded only when asked for. */
export interface PatternTexts {
  readonly length: number;
  at(i: number): string;
}

export interface ReleaseEntry {
  /** This entry's number among those the process read: the engine keys what it compiles from its trees by it. */
  serial: number;
  patterns: PatternTexts;
  /** For pattern i and its j-th expression (engine.ts's patternKeys order), the JSON of its tree, or ''. */
  tree(i: number, j: number): string;
  /** The element names tree (i, j)'s leading steps require, flat [ns, local, …]; undefined when the file has none. */
  lead(i: number, j: number): string[] | undefined;
  /** The trees (as treeText's refs) of the two parts of context tree (i, j), when it has them (format 11). */
  split(i: number, j: number): readonly [number, number] | undefined;
  /** The JSON of distinct tree `ref`. */
  treeText(ref: number): string;
  /** How many trees each pattern keeps. */
  treeCounts: number[];
  /** Every diagnostic an assert of a kept phase names, once. */
  diagnostics: SchDiagnostic[];
  phases: Record<string, CachedPhase>;
  /** False once a block read from the file was damaged or cut short (its texts read as ''). */
  intact(): boolean;
}

/** What an update writes: the patterns and their trees as plain texts (`trees[i][j]` for `patterns[i]`). */
export interface ReleaseDraft
  extends Omit<
    ReleaseEntry,
    'serial' | 'patterns' | 'tree' | 'lead' | 'treeCounts' | 'split' | 'treeText' | 'intact'
  > {
  patterns: string[];
  trees: string[][];
  /** `leads[i][j]`: tree (i, j)'s required names (ReleaseEntry.lead), or undefined when unknown. */
  leads: (string[] | undefined)[][];
  /** `splits[i][j]`: the JSON of the two parts of context tree (i, j) (ReleaseEntry.split), if any. */
  splits: (readonly [string, string] | undefined)[][];
}

type ReleaseKey = Pick<RuleSetKey, 'sdkDir' | 'sdkVersion' | 'mode'>;

/** The header fields of a release file that its digest covers, as read (untrusted) or written. */
interface ReleaseHead {
  ranges?: unknown;
  trees?: unknown;
  treeRefs?: unknown;
  /** The namespace URIs `leads` name by index. */
  leadNs?: unknown;
  /** For each distinct tree, flat [namespace index, local name, …]. */
  leads?: unknown;
  /** [tree, the ref of its base, the ref of its predicate, …], trees ascending (format 11). */
  splits?: unknown;
  diagnostics?: unknown;
  phases?: unknown;
  /** The size of the body's blocks, and the CRC-32 of each (format 12). */
  block?: unknown;
  blocks?: unknown;
}

function releaseFingerprint(key: ReleaseKey, layout: RuleLayout): string {
  const h = createHash('sha256');
  h.update(`${RELEASE_FORMAT}\u0000${key.sdkDir}\u0000${key.sdkVersion}\u0000${layout}\u0000${key.mode}`);
  h.update(parserCanary());
  for (const f of schematronFiles(key.sdkDir, key.mode)) {
    const s = statSync(f);
    h.update(`\u0000${f}\u0000${s.size}\u0000${s.mtimeMs}`);
  }
  return h.digest('hex');
}

function releasePath(cacheDir: string, key: ReleaseKey, layout: RuleLayout): string {
  return join(releaseDir(cacheDir, key), layout, `${key.mode}.rules`);
}

/**
 * The trees the parser gives a few expressions that use most of its node kinds: when a build of the
 * parser changes its output without RELEASE_FORMAT being bumped, the cached trees are not used.
 */
let canary: string | undefined;
function parserCanary(): string {
  if (canary === undefined) {
    const ns = new Map([['cbc', 'urn:c']]);
    const texts = [
      "/*/cbc:A[@b = 'x' and not(cbc:C)]/(cbc:D | ..//cbc:E)[1]",
      'for $x in cbc:A, $y in $x/@b return if ($x castable as xs:integer) then -$x * 2 else ()',
      'every $x in (1 to 3) satisfies matches(string($x), "^[0-9]+$") or cbc:A/text() << cbc:B',
      'count(../cbc:A[last()]) idiv 2 >= 1.5 and 1e3 ne 2 and current-date() = xs:date("2024-01-01")',
    ];
    canary = texts
      .map((t) => {
        try {
          return JSON.stringify(parseXPath(t, ns));
        } catch (e) {
          return `error: ${(e as Error)?.message}`;
        }
      })
      .join('\n');
  }
  return canary;
}

function isCachedPhase(v: unknown, patterns: number): v is CachedPhase {
  const p = v as CachedPhase;
  return (
    typeof p === 'object' &&
    p !== null &&
    typeof p.title === 'string' &&
    typeof p.phase === 'string' &&
    Array.isArray(p.namespaces) &&
    Array.isArray(p.lets) &&
    isStrArray(p.phases) &&
    Array.isArray(p.notEvaluated) &&
    p.notEvaluated.every(
      (n: unknown) =>
        typeof n === 'object' &&
        n !== null &&
        typeof (n as NotEvaluated).ruleId === 'string' &&
        typeof (n as NotEvaluated).reason === 'string' &&
        (n as NotEvaluated).cause === 'unsupported',
    ) &&
    Array.isArray(p.patterns) &&
    p.patterns.every((i) => Number.isInteger(i) && i >= 0 && i < patterns)
  );
}

/**
 * The text of bytes [from, to): decoded as Latin-1 when they are all ASCII (the same string, several
 * times faster than UTF-8; a cold start decodes some 6 MB of patterns and trees), else as UTF-8.
 */
function textOf(buf: Buffer, from: number, to: number): string {
  return buf.toString(isAscii(buf.subarray(from, to)) ? 'latin1' : 'utf8', from, to);
}

/** `length` bytes of the file at `position`, or undefined when it has fewer there (cut short) or fails. */
function readAt(fd: number, position: number, length: number): Buffer | undefined {
  const out = Buffer.allocUnsafe(length);
  let total = 0;
  try {
    while (total < length) {
      const n = readSync(fd, out, total, length - total, position + total);
      if (n === 0) return undefined;
      total += n;
    }
  } catch {
    return undefined;
  }
  return out;
}

/** Descriptors of release files whose entries are no longer reachable. */
const closer = new FinalizationRegistry<ReleaseBody>((body) => body.close());

/**
 * The body of a release file, read block by block when first needed through a descriptor kept open (a
 * file replaced by another writer stays readable as it was), each block checked against its CRC-32.
 * The descriptor is closed once every block is read, or when its entry is collected.
 */
class ReleaseBody {
  readonly #blocks: (Buffer | null | undefined)[];
  #unread: number;
  #fd: number | undefined;
  #intact = true;

  constructor(
    fd: number,
    private readonly start: number,
    private readonly size: number,
    private readonly block: number,
    private readonly crcs: number[],
  ) {
    this.#fd = fd;
    this.#blocks = new Array(crcs.length);
    this.#unread = crcs.length;
    if (this.#unread === 0) this.close();
  }

  get intact(): boolean {
    return this.#intact;
  }

  close(): void {
    if (this.#fd === undefined) return;
    try {
      closeSync(this.#fd);
    } catch {
      // already closed
    }
    this.#fd = undefined;
  }

  /** Block k, checked; null when damaged or unreadable (then never read again). */
  #at(k: number): Buffer | null {
    let b = this.#blocks[k];
    if (b !== undefined) return b;
    const from = k * this.block;
    const read =
      this.#fd === undefined
        ? undefined
        : readAt(this.#fd, this.start + from, Math.min(this.block, this.size - from));
    b = read !== undefined && crc32(read) === this.crcs[k] ? read : null;
    if (b === null) this.#intact = false;
    this.#blocks[k] = b;
    if (--this.#unread === 0) this.close();
    return b;
  }

  /** The text of body bytes [from, to), or '' when a block it lies in is damaged. */
  text(from: number, to: number): string {
    if (to <= from) return '';
    const first = Math.floor(from / this.block);
    const last = Math.floor((to - 1) / this.block);
    const base = first * this.block;
    if (first === last) {
      const b = this.#at(first);
      return b === null ? '' : textOf(b, from - base, to - base);
    }
    const parts: Buffer[] = [];
    for (let k = first; k <= last; k++) {
      const b = this.#at(k);
      if (b === null) return '';
      parts.push(b);
    }
    return textOf(Buffer.concat(parts), from - base, to - base);
  }
}

let entriesRead = 0;

/**
 * The release's entry, or undefined when absent, stale, foreign or not of this shape. The file is a
 * line naming its fingerprint, the length of the header and the header's digest; the header (JSON: the
 * byte range of each pattern and tree, phases, diagnostics, the blocks' checksums); then the body of
 * pattern texts and trees, read when first needed: a phase decodes only its own patterns and the trees
 * it compiles, not the release's.
 */
export function readRelease(cacheDir: string, key: ReleaseKey, layout: RuleLayout): ReleaseEntry | undefined {
  let file: { fd: number; size: number };
  try {
    file = openRegularFile(
      releasePath(cacheDir, key, layout),
      INPUT_LIMITS.ruleCacheBytes.max,
      'rule cache entry',
    );
  } catch {
    return undefined;
  }
  let body: ReleaseBody | undefined;
  let kept = false;
  try {
    const { fd, size } = file;
    const first = readAt(fd, 0, Math.min(size, 4096));
    const nl = first ? first.indexOf(10) : -1;
    if (first === undefined || nl < 0) return undefined;
    const id = JSON.parse(textOf(first, 0, nl)) as { fingerprint?: string; head?: unknown; digest?: unknown };
    if (id.fingerprint !== releaseFingerprint(key, layout)) return undefined;
    const headBytes = id.head;
    if (!Number.isInteger(headBytes) || (headBytes as number) < 2) return undefined;
    const bodyStart = nl + 1 + (headBytes as number) + 1;
    if (bodyStart > size) return undefined;
    const headBuf = readAt(fd, nl + 1, (headBytes as number) + 1);
    if (headBuf === undefined || headBuf[headBuf.length - 1] !== 10) return undefined;
    const headLine = headBuf.subarray(0, headBuf.length - 1);
    if (id.digest !== rawDigest(headLine)) return undefined;
    const head = JSON.parse(textOf(headLine, 0, headLine.length)) as ReleaseHead;
    const { ranges, trees, treeRefs, leadNs, leads, splits, diagnostics, phases, block, blocks } = head;
    const bodySize = size - bodyStart;
    if (!Number.isInteger(block) || (block as number) < 1024 || (block as number) > 1 << 24) return undefined;
    if (
      !Array.isArray(blocks) ||
      blocks.length !== Math.ceil(bodySize / (block as number)) ||
      !blocks.every((c) => Number.isInteger(c) && c >= 0 && c <= 0xffffffff)
    )
      return undefined;
    // Closed below (finally) unless the entry is returned.
    const read = new ReleaseBody(fd, bodyStart, bodySize, block as number, blocks as number[]);
    body = read;
    const inBody = (v: unknown): v is [number, number][] =>
      Array.isArray(v) &&
      v.every(
        (r) =>
          Array.isArray(r) &&
          Number.isInteger(r[0]) &&
          Number.isInteger(r[1]) &&
          r[0] >= 0 &&
          r[0] <= r[1] &&
          r[1] <= bodySize,
      );
    if (!inBody(ranges) || !inBody(trees)) return undefined;
    if (!Array.isArray(treeRefs) || treeRefs.length !== ranges.length) return undefined;
    const isRef = (r: unknown) => Number.isInteger(r) && (r as number) >= 0 && (r as number) < trees.length;
    if (!treeRefs.every((refs) => Array.isArray(refs) && refs.every(isRef))) return undefined;
    const refsOf = treeRefs as number[][];
    const nsCount = isStrArray(leadNs) ? leadNs.length : -1;
    const isLead = (l: unknown): boolean => {
      if (!Array.isArray(l) || l.length % 2 !== 0) return false;
      for (let k = 0; k < l.length; k += 2) {
        const at = l[k];
        if (!Number.isInteger(at) || at < 0 || at >= nsCount || typeof l[k + 1] !== 'string') return false;
      }
      return true;
    };
    if (
      leads !== undefined &&
      !(Array.isArray(leads) && leads.length === trees.length && leads.every(isLead))
    )
      return undefined;
    const leadsOf = leads as (number | string)[][] | undefined;
    // Each tree's parts at [2 × tree, 2 × tree + 1], -1 for none.
    let partsOf: Int32Array | undefined;
    if (splits !== undefined) {
      if (!Array.isArray(splits) || splits.length % 3 !== 0) return undefined;
      partsOf = new Int32Array(trees.length * 2).fill(-1);
      for (let k = 0; k < splits.length; k += 3) {
        const ref = splits[k];
        const base = splits[k + 1];
        const cond = splits[k + 2];
        if (!isRef(ref) || !isRef(base) || !isRef(cond)) return undefined;
        if (k > 0 && ref <= splits[k - 3]) return undefined;
        partsOf[2 * ref] = base;
        partsOf[2 * ref + 1] = cond;
      }
    }
    const treeText = (ref: number): string => {
      const span = trees[ref];
      return span ? read.text(span[0], span[1]) : '';
    };
    const nsOf = leadNs as string[];
    if (!Array.isArray(diagnostics) || !diagnostics.every(isDiagnostic)) return undefined;
    if (typeof phases !== 'object' || phases === null) return undefined;
    for (const p of Object.values(phases)) if (!isCachedPhase(p, ranges.length)) return undefined;
    // Each text decoded once: every phase names most of the release's patterns (a worker loading 25
    // phases would otherwise decode about 150 MB), and the loader keys its patterns by these texts.
    const textsOf = (spans: [number, number][]): PatternTexts => {
      const texts: (string | undefined)[] = new Array(spans.length);
      return {
        length: spans.length,
        at: (i) => {
          let t = texts[i];
          if (t === undefined) {
            const [from, to] = spans[i] as [number, number];
            t = read.text(from, to);
            texts[i] = t;
          }
          return t;
        },
      };
    };
    const entry: ReleaseEntry = {
      serial: ++entriesRead,
      patterns: textsOf(ranges),
      treeCounts: refsOf.map((t) => t.length),
      tree: (i, j) => {
        const ref = refsOf[i]?.[j];
        return ref === undefined ? '' : treeText(ref);
      },
      treeText,
      split: (i, j) => {
        const ref = refsOf[i]?.[j];
        const base = ref === undefined || partsOf === undefined ? -1 : (partsOf[2 * ref] as number);
        return base < 0 ? undefined : [base, partsOf?.[2 * (ref as number) + 1] as number];
      },
      lead: (i, j) => {
        const ref = refsOf[i]?.[j];
        const l = ref === undefined ? undefined : leadsOf?.[ref];
        return l?.map((v, k) => (k % 2 === 0 ? (nsOf[v as number] as string) : (v as string)));
      },
      diagnostics: diagnostics as SchDiagnostic[],
      phases: phases as Record<string, CachedPhase>,
      intact: () => read.intact,
    };
    closer.register(entry, read);
    kept = true;
    return entry;
  } catch {
    return undefined;
  } finally {
    // Kept open only for the body of an entry returned.
    if (!kept) {
      if (body !== undefined) body.close();
      else closeSync(file.fd);
    }
  }
}

/**
 * A release file of this header and body: the first line names the fingerprint, the header's length
 * and its CRC-32; the header holds the CRC-32 of each block of the body. A byte changed anywhere (a
 * namespace prefix, a let, a phase's list, a tree), any change of up to 32 bits in a row, and all but
 * one in 2^32 of other damage no longer match, and what it touches is rebuilt from the SDK instead of
 * running rules that would silently find nothing. It guards against damage, not against a writer
 * (whoever can write the file can compute any checksum), so a CRC serves as a sha256 did, in a tenth
 * of the time.
 */
export function releaseFile(fingerprint: string, content: ReleaseHead, body: Buffer): Buffer {
  const blocks: number[] = [];
  for (let at = 0; at < body.length; at += BLOCK) blocks.push(crc32(body.subarray(at, at + BLOCK)));
  const line = Buffer.from(releaseHeadLine({ ...content, block: BLOCK, blocks }), 'utf8');
  const id = JSON.stringify({ fingerprint, head: line.length, digest: rawDigest(line) });
  return Buffer.concat([Buffer.from(`${id}\n`, 'utf8'), line, Buffer.from('\n'), body]);
}

/** The digest of the header line's bytes, as they are in the file. */
function rawDigest(bytes: Buffer): string {
  return `crc32:${crc32(bytes).toString(16)}`;
}

/** The second header line: the fields the digest covers, in this order. */
export function releaseHeadLine(content: ReleaseHead): string {
  return JSON.stringify({
    ranges: content.ranges,
    trees: content.trees,
    treeRefs: content.treeRefs,
    leadNs: content.leadNs,
    leads: content.leads,
    splits: content.splits,
    diagnostics: content.diagnostics,
    phases: content.phases,
    block: content.block,
    blocks: content.blocks,
  });
}

function releaseText(fingerprint: string, d: ReleaseDraft): Buffer {
  const bodies: Buffer[] = [];
  let at = 0;
  const place = (texts: string[]): [number, number][] =>
    texts.map((t) => {
      const b = Buffer.from(t, 'utf8');
      bodies.push(b);
      at += b.length;
      return [at - b.length, at];
    });
  const ranges = place(d.patterns);
  // An expression's tree is kept once however many patterns hold it (a pattern refers to it by index).
  const distinct = new Map<string, number>();
  const treeRefs = d.patterns.map((_, i) =>
    (d.trees[i] ?? []).map((t) => {
      let ref = distinct.get(t);
      if (ref === undefined) {
        ref = distinct.size;
        distinct.set(t, ref);
      }
      return ref;
    }),
  );
  // The parts of split contexts are trees too, after every tree a pattern lists.
  const refOf = (t: string): number => {
    let ref = distinct.get(t);
    if (ref === undefined) {
      ref = distinct.size;
      distinct.set(t, ref);
    }
    return ref;
  };
  const listed = distinct.size;
  const splitRefs: ([number, number] | [])[] = [];
  for (const [i, refs] of treeRefs.entries())
    for (const [j, ref] of refs.entries()) {
      const parts = d.splits[i]?.[j];
      if (parts !== undefined && splitRefs[ref] === undefined)
        splitRefs[ref] = [refOf(parts[0]), refOf(parts[1])];
    }
  const trees = place([...distinct.keys()]);
  // A tree's required names are a function of the tree: those of its first occurrence serve every one.
  const leads: (string[] | undefined)[] = new Array(distinct.size).fill(undefined);
  for (const [i, refs] of treeRefs.entries())
    for (const [j, ref] of refs.entries()) leads[ref] ??= d.leads[i]?.[j];
  // A part that no pattern lists is never a rule's context: it requires no name.
  for (let ref = listed; ref < distinct.size; ref++) leads[ref] = [];
  // Namespaces by index: a dozen URIs, each repeated in thousands of contexts' names.
  const leadNs: string[] = [];
  const nsIndex = new Map<string, number>();
  const compact = (l: string[]): (number | string)[] =>
    l.map((v, k) => {
      if (k % 2 === 1) return v;
      let at = nsIndex.get(v);
      if (at === undefined) {
        at = leadNs.push(v) - 1;
        nsIndex.set(v, at);
      }
      return at;
    });
  // Written only when every tree's names are known (an older file's trees may come without).
  const known = leads.every((l) => l !== undefined);
  const compacted = known ? leads.map((l) => compact(l as string[])) : undefined;
  const content: ReleaseHead = {
    ranges,
    trees,
    treeRefs,
    leadNs: compacted ? leadNs : undefined,
    leads: compacted,
    splits: splitRefs.flatMap((parts, ref) => (parts.length === 2 ? [ref, ...parts] : [])),
    diagnostics: d.diagnostics,
    phases: d.phases,
  };
  return releaseFile(fingerprint, content, Buffer.concat(bodies));
}

/** `f(i, j)` for tree j of each pattern i the entry keeps: the draft's lists from what was read. */
function perTree<T>(read: ReleaseEntry, f: (i: number, j: number) => T): T[][] {
  return Array.from({ length: read.patterns.length }, (_, i) =>
    Array.from({ length: read.treeCounts[i] ?? 0 }, (_, j) => f(i, j)),
  );
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Adds to the release's file under its lock: `update` gets what the file holds now (or an empty entry)
 * and returns what to write. A lock left by a killed process is taken over after a minute; a lock
 * not obtained within a few seconds skips the write (the next start only loses speed).
 */
export function updateRelease(
  cacheDir: string,
  key: ReleaseKey,
  layout: RuleLayout,
  update: (now: ReleaseDraft) => ReleaseDraft,
): void {
  const path = releasePath(cacheDir, key, layout);
  const lock = `${path}.lock`;
  try {
    mkdirSync(join(path, '..'), { recursive: true });
  } catch {
    return;
  }
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      mkdirSync(lock);
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > 60_000) rmdirSync(lock);
      } catch {
        // taken or released meanwhile
      }
      Atomics.wait(pause, 0, 0, 25);
      continue;
    }
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    try {
      const read = readRelease(cacheDir, key, layout);
      const kept: ReleaseDraft | undefined = read && {
        diagnostics: read.diagnostics,
        phases: read.phases,
        patterns: Array.from({ length: read.patterns.length }, (_, i) => read.patterns.at(i)),
        trees: perTree(read, (i, j) => read.tree(i, j)),
        leads: perTree(read, (i, j) => read.lead(i, j)),
        splits: perTree(read, (i, j) => {
          const s = read.split(i, j);
          return s && ([read.treeText(s[0]), read.treeText(s[1])] as const);
        }),
      };
      // A file with a damaged block is not carried over: its phases would refer to texts it lost.
      const now: ReleaseDraft =
        kept && read?.intact()
          ? kept
          : { patterns: [], trees: [], leads: [], splits: [], diagnostics: [], phases: {} };
      writeFileSync(tmp, releaseText(releaseFingerprint(key, layout), update(now)));
      renameSync(tmp, path);
    } catch {
      try {
        unlinkSync(tmp);
      } catch {
        // nothing was written
      }
    } finally {
      try {
        rmdirSync(lock);
      } catch {
        // removed by a process that judged it stale
      }
    }
    return;
  }
}
