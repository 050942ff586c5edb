// The Central Validation Service as a Validator: the notice's exact bytes go to the service, and the
// answer must be an SVRL report, or the call fails with a CvsError of kind `bad-answer`. The transport
// is injectable so the scheduler's tests drive a fake service. The API key goes only to the transport.
// No `vscode` import here.

import type { Dispatcher } from 'undici';
import { minorOf } from '../sdk';
import { CvsError, type ValidateNoticeOptions, type ValidateNoticeResult, validateNotice } from '../services';
import { parseSvrl, SvrlFormatError, type SvrlReport } from '../svrl';
import type { EngineReport, ValidationInput, Validator } from './validator';

export type CvsTransport = (o: ValidateNoticeOptions) => Promise<ValidateNoticeResult>;

export class CvsValidator implements Validator {
  readonly engine = 'cvs' as const;

  constructor(
    private readonly o: {
      baseUrl: string;
      apiKey: string | undefined;
      send?: CvsTransport;
      /** Default: the process's dispatcher (core/http: the proxy from the environment). */
      dispatcher?: Dispatcher;
    },
  ) {}

  async validate(input: ValidationInput): Promise<EngineReport> {
    const send = this.o.send ?? validateNotice;
    const { svrl } = await send({
      baseUrl: this.o.baseUrl,
      apiKey: this.o.apiKey,
      notice: input.bytes,
      language: input.language,
      validationMode: input.mode,
      // Only a pin is sent (cut to MAJOR.MINOR; the client writes `eforms-sdk-MAJOR.MINOR`): without it
      // the service reads the notice's own cbc:CustomizationID, as the clients known to work rely on.
      eFormsSdkVersion: input.pinned ? (minorOf(input.sdkVersion) ?? input.sdkVersion) : undefined,
      timeoutMs: input.timeoutMs,
      signal: input.signal,
      ...(this.o.dispatcher ? { dispatcher: this.o.dispatcher } : {}),
    });
    let report: SvrlReport;
    try {
      report = parseSvrl(svrl);
    } catch (err) {
      const detail = err instanceof SvrlFormatError ? err.message : String(err);
      throw new CvsError(
        'bad-answer',
        `The validation service at ${this.o.baseUrl} answered with a report that cannot be read (${detail.slice(0, 120)}): retrying later.`,
        true,
        200,
        { origin: this.o.baseUrl },
      );
    }
    return { engine: 'cvs', report, svrl, sdkVersion: input.sdkVersion, notEvaluated: [] };
  }
}
