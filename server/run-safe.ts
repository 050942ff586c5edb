// The one way a language-server handler runs: what it throws is logged once and the server goes on,
// answering a fallback where the client awaits an answer. A server must survive any message, as
// VS Code's own servers do (json-language-features' runSafeAsync). A request the client cancelled is
// answered "request cancelled" (LSP error -32800), never with a result computed for a stale question:
// the token is checked before the work (after one turn of the event loop, so that a `$/cancelRequest`
// sent right behind the request is read first) and again after it.

import { type CancellationToken, LSPErrorCodes, ResponseError } from 'vscode-languageserver';

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

/** The answer to a cancelled request (LSP's RequestCancelled, -32800). */
export function cancelled(): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled');
}

/**
 * Runs a request's handler: a failure is logged and the client gets `fallback`; a request cancelled
 * before or while it ran gets `cancelled()`. `fn` receives the token to stop early in long work.
 */
export async function runSafeAsync<T>(
  log: (message: string) => void,
  what: string,
  fallback: T,
  fn: (token?: CancellationToken) => Promise<T>,
  token?: CancellationToken,
): Promise<T | ResponseError<void>> {
  if (token) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (token.isCancellationRequested) return cancelled();
  }
  try {
    const result = await fn(token);
    return token?.isCancellationRequested ? cancelled() : result;
  } catch (err) {
    if (token?.isCancellationRequested) return cancelled();
    log(failed(what, err));
    return fallback;
  }
}
