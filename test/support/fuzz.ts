// Settings shared by the property-based tests (fast-check): a fixed seed, so that a run in CI is the same
// run every time and stays within its time, unless EFORMS_FUZZ_SEED asks for another one, and a number
// of runs scaled by EFORMS_FUZZ_RUNS (1 by default; raise it to fuzz longer locally). On failure
// fast-check's error names the seed, the path and the shrunk counterexample, so a failure can be replayed.

import type { Parameters } from 'fast-check';

export const FUZZ_SEED = Number(process.env.EFORMS_FUZZ_SEED ?? 20261124);
const SCALE = Math.max(0.01, Number(process.env.EFORMS_FUZZ_RUNS ?? 1) || 1);

export function fuzzParameters<T>(numRuns: number): Parameters<T> {
  return { seed: FUZZ_SEED, numRuns: Math.max(1, Math.round(numRuns * SCALE)), endOnFailure: false };
}
