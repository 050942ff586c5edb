// The crash guard of the long-lived processes (the language server, the sandbox): an exception that
// nothing caught, or a promise rejection that nothing handled, is logged with its stack and the process
// goes on serving, instead of exiting and taking every open editor or test client with it. Each request
// handler has its own guard too (server.ts's runSafe, the sandbox's per-request one); this is the net
// under them. It never logs anything but the error, and never exits.

/** Installs the guard; returns the function that removes it. */
export function installCrashGuard(log: (message: string) => void, what: string): () => void {
  const report = (kind: string, err: unknown) => {
    const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
    try {
      log(`${what}: ${kind} (the ${what} keeps running): ${detail}`);
    } catch {
      // Logging itself failed (a closed pipe): there is nowhere left to say it.
    }
  };
  const onException = (err: unknown) => report('an uncaught exception', err);
  const onRejection = (err: unknown) => report('an unhandled promise rejection', err);
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
}
