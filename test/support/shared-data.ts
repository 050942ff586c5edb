// Locates the read-only data in ../shared (the eForms SDK, its samples, the agri-food samples). Tests
// that need it skip, saying so, when it is absent: the data is never copied into the project. In CI
// (`CI` set) an absence is an error instead, so that SDK-backed tests can never vanish silently from a
// run that reports green.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The project root (out/test/support/ -> three levels up once compiled). */
export const PROJECT_ROOT = resolve(__dirname, '..', '..', '..');

/** ../shared beside the project, or $EFORMS_SHARED_DIR. */
export const SHARED_DIR = process.env.EFORMS_SHARED_DIR ?? resolve(PROJECT_ROOT, '..', 'shared');

export const SAMPLES_DIR = join(SHARED_DIR, 'eforms-sdk-samples');
export const SDK_DIR = join(SHARED_DIR, 'eforms-sdk', '1.15.1');
export const AGRIFOOD_SAMPLES_DIR = join(SHARED_DIR, 'agrifood-samples');

/** Thrown (in CI) instead of skipping: the run must fail when its shared data is missing. */
export class SharedDataMissing extends Error {
  constructor(readonly dir: string) {
    super(
      `${dir} is absent and CI is set: the tests that read it would be skipped silently. Provide ../shared (or EFORMS_SHARED_DIR) in CI.`,
    );
    this.name = 'SharedDataMissing';
  }
}

/**
 * undefined when `dir` exists, else the skip message for node:test's `{ skip }` option. When `env.CI`
 * is set and not "false"/"0", an absent `dir` throws SharedDataMissing, which fails the test file.
 */
export function skipUnless(dir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (existsSync(dir)) return undefined;
  if (inCi(env)) throw new SharedDataMissing(dir);
  return `${dir} is absent: skipped (it is read from ../shared, never copied)`;
}

/** True when running in CI: GitHub Actions, GitLab and most others set CI=true. */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}
