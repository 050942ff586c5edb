// A writable copy of an SDK release in a temporary folder, for tests that add a generated file to it.
// A copy, not links: the tools read an SDK's files only inside the release's own folder once links are
// resolved, so a folder of links into ../shared would be refused (as a hostile one must be).

import { chmodSync, copyFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Copies `from` into `to` (files made writable), leaving out the top-level entries in `except`. */
export function copySdkRelease(from: string, to: string, except: readonly string[] = []): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    if (except.includes(name)) continue;
    const src = join(from, name);
    const dst = join(to, name);
    if (statSync(src).isDirectory()) copySdkRelease(src, dst);
    else {
      copyFileSync(src, dst);
      chmodSync(dst, 0o644);
    }
  }
}
