// The validation chain, once: a notice's text is indexed, its SDK version read (the pinned one, else
// the one its cbc:CustomizationID declares), handed to a Validator, and the SVRL it returns is placed
// on the text as findings. Identical requests are answered from a bounded cache. Never schedules,
// never words an error for a front end, never logs the API key. No `vscode` import here.

import type { Finding } from '../findings';
import { declaredSdkVersion, indexXml, type NoticeKind, noticeKindOf, type XmlIndex } from '../notice';
import type { ValidationMode } from '../settings';
import { mapSvrl } from '../svrl';
import { ValidationCache, validationCacheKey } from './cache';
import { localFindings } from './local-checks';
import type { EngineReport, ValidationInput, Validator } from './validator';

export interface PreparedNotice {
  text: string;
  /** The bytes the CVS receives: the file's own bytes when read from disk, else the text in UTF-8. */
  bytes: Uint8Array;
  index: XmlIndex;
  kind: NoticeKind | undefined;
  /** Well-formedness and cbc:CustomizationID, available at once. */
  local: Finding[];
}

export function prepareNotice(text: string, bytes?: Uint8Array): PreparedNotice {
  const index = indexXml(text);
  return {
    text,
    bytes: bytes ?? Buffer.from(text, 'utf8'),
    index,
    kind: noticeKindOf(index),
    local: localFindings(index),
  };
}

export interface RequestSettings {
  language: string;
  mode: ValidationMode;
  /** The user's pin (`1.15`, `1.15.1`, `eforms-sdk-1.15`); '' to follow the notice. */
  sdkVersion: string;
  timeoutMs: number;
  today?: string;
  /** false: the report's SVRL text is not wanted (ValidationInput.svrl). */
  svrl?: boolean;
}

/** The SDK version a notice is validated with: the pin, else what the notice declares, else ''. */
export function requestedSdkVersion(index: XmlIndex, pin: string): { sdkVersion: string; pinned: boolean } {
  if (pin.trim()) return { sdkVersion: pin.trim(), pinned: true };
  return { sdkVersion: declaredSdkVersion(index) ?? '', pinned: false };
}

export function inputFor(
  notice: Pick<PreparedNotice, 'index' | 'bytes'>,
  s: RequestSettings,
  signal?: AbortSignal,
): ValidationInput {
  return {
    index: notice.index,
    bytes: notice.bytes,
    language: s.language,
    mode: s.mode,
    ...requestedSdkVersion(notice.index, s.sdkVersion),
    timeoutMs: s.timeoutMs,
    signal,
    today: s.today,
    ...(s.svrl === false ? { svrl: false } : {}),
  };
}

/** The report's findings placed on the notice; SDK findings carry the release that produced them. */
export function placeFindings(index: XmlIndex, r: EngineReport, language?: string): Finding[] {
  // The words the mapping appends follow the report's language.
  const found = mapSvrl(index, r.report, { language });
  if (r.engine === 'cvs') return found;
  for (const f of found) {
    f.source = 'sdk';
    f.sdkVersion = r.sdkVersion;
  }
  return found;
}

export interface ValidationOutcome extends EngineReport {
  findings: Finding[];
}

/**
 * One Validator behind a cache of its reports. The key covers the exact bytes and every option that
 * changes the answer (and the validator's own identity: its URL or its SDK folder).
 */
export class ValidationPipeline {
  private readonly cache: ValidationCache<EngineReport>;
  /** false with no entries (the CLI's batch): no key is worked out, a sha256 of every notice's bytes. */
  private readonly caching: boolean;

  constructor(
    readonly validator: Validator,
    /** What besides the input changes the answer: the service URL, or the SDK location. */
    private readonly identity: string,
    cacheEntries = 64,
  ) {
    this.caching = cacheEntries > 0;
    this.cache = new ValidationCache<EngineReport>(
      cacheEntries,
      64 * 1024 * 1024,
      (r) => r.svrl.length + 256,
    );
  }

  get engine(): EngineReport['engine'] {
    return this.validator.engine;
  }

  keyOf(input: ValidationInput): string {
    return validationCacheKey(input.bytes, {
      baseUrl: `${this.validator.engine}:${this.identity}:${input.today ?? ''}${input.svrl === false ? '\u0000without svrl' : ''}`,
      language: input.language,
      validationMode: input.mode,
      // A pin is sent to the CVS and changes how the SDK rules choose (and report) their release: a
      // pinned 1.15 is not the same request as a notice that declares 1.15.
      eFormsSdkVersion: `${input.pinned ? 'pinned:' : ''}${input.sdkVersion}`,
    });
  }

  cached(input: ValidationInput): EngineReport | undefined {
    return this.caching ? this.cache.get(this.keyOf(input)) : undefined;
  }

  async report(input: ValidationInput): Promise<EngineReport> {
    if (!this.caching) return this.validator.validate(input);
    const key = this.keyOf(input);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const r = await this.validator.validate(input);
    this.cache.set(key, r);
    return r;
  }

  /** The whole chain for callers that need no scheduling (CLI, submit). */
  async validate(input: ValidationInput): Promise<ValidationOutcome> {
    const r = await this.report(input);
    return { ...r, findings: placeFindings(input.index, r, input.language) };
  }
}
