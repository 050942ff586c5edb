// What every emulated service shares: the valid API keys, the data folder, the fault switches and the
// clock. The sandbox never imports client or server code.

import type { IncomingMessage, ServerResponse } from 'node:http';

/** The key `eforms sandbox` accepts when it is started without any --api-key. */
export const SANDBOX_DEMO_KEY = 'sandbox-demo-key';

export interface SandboxContext {
  /** Keys accepted as valid (with an eNotices2 account). */
  apiKeys: ReadonlySet<string>;
  /** Folder where stateful services persist (created on demand). */
  dataDir: string;
  /**
   * Fault switches that tests turn on through `POST /_sandbox/faults` (body `{"on": [...], "off": [...]}`).
   * Names are `service.fault`, e.g. `enotices.key-unverifiable`, `agrifood.error-500`.
   */
  faults: Set<string>;
  /** Milliseconds since the epoch; tests may replace it to drive state clocks. */
  now(): number;
  /** Origin the sandbox listens on, e.g. http://127.0.0.1:8723 (set once listening). */
  origin: string;
  /**
   * The official SDK rules, when the sandbox has an SDK: the SVRL report for a notice, or undefined
   * when no release fits it (the CVS emulation then answers with its own rules).
   */
  sdkRules?(
    notice: Buffer,
    o: { language: string; mode: 'static' | 'dynamic'; sdkVersion?: string },
  ): Promise<string | undefined>;
}

/** One emulated service, mounted under `prefix` (`/cvs`, `/esenders`, `/agrifood`). */
export interface SandboxService {
  prefix: string;
  /** `path` is the request path below the prefix (starting with `/`), without the query string. */
  handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<void>;
  close?(): Promise<void>;
}
