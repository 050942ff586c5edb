// When the language server crashes, whether the client starts it again: yes, unless it has already
// been restarted 5 times within 3 minutes (then a server that dies on start-up would loop for ever;
// vscode-xml's ClientErrorHandler counts the same way). Pure, with an injected clock, so the counting
// is tested under node:test; no `vscode` import here.

export const MAX_RESTARTS = 5;
export const RESTART_WINDOW_MS = 3 * 60 * 1000;

export type CrashDecision = { restart: true } | { restart: false; crashes: number; withinMs: number };

export class RestartBudget {
  /** When each crash that led to a restart happened, oldest first, at most max + 1 kept. */
  private readonly crashes: number[] = [];

  constructor(
    private readonly now: () => number = Date.now,
    private readonly max = MAX_RESTARTS,
    private readonly windowMs = RESTART_WINDOW_MS,
  ) {}

  /** Records a crash now and says whether to restart the server. */
  crashed(): CrashDecision {
    const t = this.now();
    this.crashes.push(t);
    if (this.crashes.length <= this.max) return { restart: true };
    const first = this.crashes[0] as number;
    const withinMs = t - first;
    if (withinMs <= this.windowMs) return { restart: false, crashes: this.crashes.length, withinMs };
    // The oldest crash is out of the window: forget it, and keep going.
    this.crashes.shift();
    return { restart: true };
  }

  /** A deliberate restart (new API key, user command) starts the count afresh. */
  reset(): void {
    this.crashes.length = 0;
  }
}

/** The sentence shown when the budget is spent; the client adds a "Show Log" action. */
export function gaveUpMessage(d: Extract<CrashDecision, { restart: false }>): string {
  const minutes = Math.max(1, Math.round(d.withinMs / 60000));
  return `eForms: the language server crashed ${d.crashes} times in ${minutes === 1 ? 'about a minute' : `${minutes} minutes`} and will not be restarted. Check the log, then run "Developer: Reload Window" to try again.`;
}
