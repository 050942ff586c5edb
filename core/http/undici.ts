// undici, loaded on first use rather than when core/http is imported: `eforms validate --local` and
// the other offline commands import this room (error types, environments) but send no request, and
// loading undici cost them about 25 ms of every start. Only the modules that send requests (or build
// their bodies) call `undici()`. It must never hold state of its own: Node's module cache (or the
// bundle's) keeps the one instance.

/** The undici module, required on first call. */
export function undici(): typeof import('undici') {
  return require('undici') as typeof import('undici');
}
