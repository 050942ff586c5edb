// The Central Validation Service as a Validator: the notice's exact bytes go to the service, and the
// answer must be an SVRL report, or the call fails with a CvsError of kind `bad-answer`. The transport
// is injectable so the scheduler's tests drive a fake service. The API key goes only to the transport.
// No `vscode` import here.

import {
  CvsError,
  type ValidateNoticeOptions,
  type ValidateNoticeResult,
  validateNotice,
} from '../cvs-client';
import { minorOf } from '../sdk/sdk-folder';
import { parseSvrl, SvrlFormatError, type SvrlReport } from '../svrl';
import type { EngineReport, ValidationInput, Validator } from './validator';

export type CvsTransport = (o: ValidateNoticeOptions) => Promise<ValidateNoticeResult>;

export class CvsValidator implements Validator {
  readonly engine = 'cvs' as const;

  constructor(private readonly o: { baseUrl: string; apiKey: string | undefined; send?: CvsTransport }) {}

  async validate(input: ValidationInput): Promise<EngineReport> {
    const send = this.o.send ?? validateNotice;
    const { svrl } = await send({
      baseUrl: this.o.baseUrl,
      apiKey: this.o.apiKey,
      notice: input.bytes,
      language: input.language,
      validationMode: input.mode,
      // The service takes MAJOR.MINOR: a pin such as `1.15.1` or `eforms-sdk-1.15` is cut to it.
      eFormsSdkVersion: minorOf(input.sdkVersion) ?? input.sdkVersion,
      timeoutMs: input.timeoutMs,
      signal: input.signal,
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
      );
    }
    return { engine: 'cvs', report, svrl, sdkVersion: input.sdkVersion, notEvaluated: [] };
  }
}
