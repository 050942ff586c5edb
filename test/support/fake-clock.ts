// A clock for the scheduler's tests: time moves only when a test advances it, firing due timers in
// order and letting promises settle after each, so debounce and back-off are tested without waiting.

import type { Clock } from '../../server/validation-scheduler';

export class FakeClock implements Clock {
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private next = 1;

  constructor(public t = 1_000_000) {}

  now = () => this.t;
  setTimeout = (fn: () => void, ms: number) => {
    const id = this.next++;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  };
  clearTimeout = (h: unknown) => {
    this.timers = this.timers.filter((x) => x.id !== h);
  };
  /** Moves time forward, firing due timers in order, letting promises settle after each. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const due = this.timers[0];
      if (!due || due.at > end) break;
      this.timers.shift();
      this.t = due.at;
      due.fn();
      await settle();
    }
    this.t = end;
    await settle();
  }
}

/** Lets pending promise callbacks and immediates run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}
