// The one way a language-server handler runs: what it throws is logged once and the server goes on,
// answering a fallback where the client awaits an answer. A server must survive any message, as
// VS Code's own servers do (json-language-features' runSafeAsync).

function describe(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

function failed(what: string, err: unknown): string {
  return `eForms language server: ${what} failed (ignored, the server keeps running): ${describe(err)}`;
}

/** Runs a notification's handler: nothing is answered, so a failure is only logged. */
export function runSafe(log: (message: string) => void, what: string, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    log(failed(what, err));
  }
}

/** Runs a request's handler: a failure is logged and the client gets `fallback`. */
export async function runSafeAsync<T>(
  log: (message: string) => void,
  what: string,
  fallback: T,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    log(failed(what, err));
    return fallback;
  }
}
