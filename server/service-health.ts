// The health of one validation engine as seen by the scheduler: consecutive retryable failures and
// the back-off they impose (doubling, capped), a failure no retry can fix until the settings change
// (a refused key, an insecure URL, no SDK), and request options the engine refused as such. Holds no
// timers and no documents: the scheduler asks it whether to run and tells it how a run ended.

import type { ValidationStatusParams } from '../core/protocol';
import { backoffDelay, type RetryRule } from '../core/validation';

export class ServiceHealth {
  private failures = 0;
  private backoffUntil = 0;
  /** The failure that started the current back-off: every notice waiting on it reports it too. */
  private backoffStatus?: ValidationStatusParams;
  private blocked?: ValidationStatusParams;
  private rejected?: { fingerprint: string; status: ValidationStatusParams };

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {}

  get failing(): boolean {
    return this.failures > 0;
  }

  /** Forgets every failure: settings changed, or a request succeeded. */
  reset(): void {
    this.failures = 0;
    this.backoffUntil = 0;
    this.backoffStatus = undefined;
    this.blocked = undefined;
    this.rejected = undefined;
  }

  /** Why a request with these options must not be made at all, if so. */
  refusal(fingerprint: string): ValidationStatusParams | undefined {
    if (this.blocked) return this.blocked;
    if (this.rejected?.fingerprint === fingerprint) return this.rejected.status;
    return undefined;
  }

  /** Milliseconds still to wait before the next request, and the status that explains the wait. */
  wait(now: number): { ms: number; status?: ValidationStatusParams } {
    return { ms: Math.max(0, this.backoffUntil - now), status: this.backoffStatus };
  }

  /** Records a failure; returns the back-off delay when the same request may be retried later. */
  failed(
    retry: Exclude<RetryRule, 'never'>,
    fingerprint: string,
    status: ValidationStatusParams,
    now: number,
  ): number | undefined {
    if (retry === 'settings-change') {
      this.blocked = status;
      return undefined;
    }
    if (retry === 'options-change') {
      this.rejected = { fingerprint, status };
      return undefined;
    }
    this.failures++;
    this.backoffStatus = status;
    const delay = backoffDelay(this.failures, this.baseMs, this.maxMs);
    this.backoffUntil = now + delay;
    return delay;
  }
}
