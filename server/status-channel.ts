// What validation tells the editor and the log, and how often: one status per change of state, the
// CVS's story and the SDK rules' story deduplicated apart, each status with where the notice's SDK
// stands at TED once the service's range is known; one log line per refusal reason and document, so
// that a pause in typing adds no line each time. It decides nothing about when to validate, and words
// nothing itself (status-wording.ts does); no message it carries holds the API key.

import { declaredSdkVersion, type XmlIndex } from '../core/notice';
import type { ValidationStatusParams } from '../core/protocol';
import { type SdkVersionRange, sdkLifecycle } from '../core/services';
import type { EngineName } from '../core/validation';
import { refusalLine } from './status-wording';

export interface StatusOutlet {
  status(s: ValidationStatusParams): void;
  log(message: string): void;
}

export class StatusChannel {
  /** Per engine, the last status sent (as JSON). */
  private readonly last: Record<EngineName, string> = { cvs: '', local: '' };
  private lastRefusal = '';

  /**
   * @param notice the index and accepted range of an open notice, for its SDK's lifecycle
   * @param today `YYYY-MM-DD` now
   */
  constructor(
    private readonly out: StatusOutlet,
    private readonly notice: (uri: string) => { index: XmlIndex; range?: SdkVersionRange } | undefined,
    private readonly today: () => string,
  ) {}

  /** Sends a status only when it differs from the last one: repeated identical failures make no storm. */
  send(status: ValidationStatusParams): void {
    const p = this.withLifecycle(status);
    const key = JSON.stringify(p);
    const engine = p.engine ?? 'cvs';
    if (key === this.last[engine]) return;
    this.last[engine] = key;
    this.out.status(p);
  }

  /** A run refused before it started: logged once per reason and document, and sent. */
  refused(engine: EngineName, uri: string, status: ValidationStatusParams): void {
    const line = refusalLine(engine, uri, status.message);
    if (line !== this.lastRefusal) this.out.log(line);
    this.lastRefusal = line;
    this.send(status);
  }

  /** The next refusal is logged again, even for the same reason (something may have changed). */
  forgetRefusals(): void {
    this.lastRefusal = '';
  }

  /** The status, with where the notice's SDK stands at TED once the service's range is known. */
  private withLifecycle(p: ValidationStatusParams): ValidationStatusParams {
    const s = p.uri ? this.notice(p.uri) : undefined;
    if (!s?.range || p.sdkLifecycle) return p;
    return { ...p, sdkLifecycle: sdkLifecycle(declaredSdkVersion(s.index), s.range, [], this.today()) };
  }
}
