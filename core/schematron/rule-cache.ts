// The disk cache of prepared phases: one JSON file per release (SDK version and folder), layout, mode
// and phase, holding the schema content and every parsed expression, with a fingerprint of the
// release, its layout, the .sch files (path, size and mtime) and this engine's format, so that rules
// prepared from different releases or layouts never mix. A stale, foreign or corrupt entry is ignored and rewritten; a write goes to a
// temporary file renamed into place, so a reader never sees half a file. No `vscode` import here.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PreparedPhase } from './engine';
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
    const raw = readFileSync(entryPath(cacheDir, key, layout), 'utf8');
    const entry = JSON.parse(raw) as { fingerprint?: string; prepared?: PreparedPhase };
    if (entry.fingerprint !== fingerprint(key, layout) || !entry.prepared?.schema || !entry.prepared.parsed)
      return undefined;
    return entry.prepared;
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
    writeFileSync(tmp, JSON.stringify({ fingerprint: fingerprint(key, layout), prepared }));
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
