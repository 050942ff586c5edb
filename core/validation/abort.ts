// The one error a cancelled validation run ends with, wherever it was cancelled (in this thread or in a
// worker): callers tell it by its name, AbortError, as they do for fetch. No I/O.

/** The error of a run cancelled by a newer edit. */
export function abortError(): Error {
  const e = new Error('The run was cancelled by a newer edit.');
  e.name = 'AbortError';
  return e;
}
