// The disk cache of prepared phases: one JSON file per release (SDK version and folder), layout, mode
// and phase, holding the schema content and every parsed expression, with a fingerprint of the
// release, its layout, the .sch files (path, size and mtime) and this engine's format, so that rules
// prepared from different releases or layouts never mix. A stale, foreign or corrupt entry is ignored
// and rewritten; a write goes to a temporary file renamed into place, so a reader never sees half a
// file. An entry is untrusted input: it is read only when it is a regular file under the cap of the
// limits table (never a FIFO or a link to a device), and used only when its digest and its whole shape
// check (prepared-shape.ts). No `vscode` import here.

import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INPUT_LIMITS } from '../notice';
import { readRegularFileBytes } from '../sdk';
import type { PreparedPhase } from './engine';
import { isPreparedPhase } from './prepared-shape';
import type { RuleLayout, RuleSetKey } from './rule-set';
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

function entryPath(cacheDir: string, key: RuleSetKey, layout: RuleLayout): string {
  const safe = (s: string): string => s.replace(/[^0-9A-Za-z._-]/g, '_');
  // Two folders holding the same version (a download and a named folder) each keep their entry.
  const folder = createHash('sha256').update(key.sdkDir).digest('hex').slice(0, 12);
  return join(cacheDir, `${safe(key.sdkVersion)}-${folder}`, layout, key.mode, `${safe(key.phase)}.json`);
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
