// Locates the read-only data in ../shared (the eForms SDK, its samples, the agri-food samples). Tests
// that need it skip, saying so, when it is absent: the data is never copied into the project.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The project root (out/test/support/ -> three levels up once compiled). */
export const PROJECT_ROOT = resolve(__dirname, '..', '..', '..');

/** ../shared beside the project, or $EFORMS_SHARED_DIR. */
export const SHARED_DIR = process.env.EFORMS_SHARED_DIR ?? resolve(PROJECT_ROOT, '..', 'shared');

export const SAMPLES_DIR = join(SHARED_DIR, 'eforms-sdk-samples');
export const SDK_DIR = join(SHARED_DIR, 'eforms-sdk', '1.15.1');
export const AGRIFOOD_SAMPLES_DIR = join(SHARED_DIR, 'agrifood-samples');

/** undefined when `dir` exists, else the skip message for node:test's `{ skip }` option. */
export function skipUnless(dir: string): string | undefined {
  return existsSync(dir) ? undefined : `${dir} is absent: skipped (it is read from ../shared, never copied)`;
}
