// Time as the validation scheduler sees it: now, timers, and today's date. Injected, so that tests
// drive debounce and back-off with a fake clock instead of waiting; nothing here schedules by itself.

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** `YYYY-MM-DD` (UTC) at the clock's now: the day the SDK lifecycle is judged on. */
export function todayOf(clock: Clock): string {
  return new Date(clock.now()).toISOString().slice(0, 10);
}
