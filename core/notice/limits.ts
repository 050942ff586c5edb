// The size limits of every kind of input the tools accept, in one table, so that the CLI, the language
// server and the sandbox refuse the same sizes with the same words, and the README can state them.
// Each limit has a reason: it is far above any real notice or report, and low enough that one hostile
// input cannot exhaust memory or time. No `vscode` import here, and no I/O.

const KiB = 1024;
const MiB = 1024 * 1024;

export interface InputLimit {
  /** What the limit is about, as a user reads it ("notice", "SVRL location"). */
  readonly what: string;
  readonly max: number;
  readonly unit: 'bytes' | 'characters' | 'parts' | 'entries' | 'elements' | 'milliseconds';
}

export const INPUT_LIMITS = {
  /**
   * A notice's XML: the largest official sample is 1.7 MB; eNotices2 refuses large notices. The sandbox
   * refuses more (413 or 400), and the CLI refuses before sending.
   */
  noticeBytes: { what: 'notice', max: 30 * MiB, unit: 'bytes' },
  /**
   * A notice validated by the SDK rules on this machine (`validate --local`): no service in the way, so
   * the limit is what one run can hold. 5,000 lots of cn_24_maximal are about 115 MB and run in seconds
   * (issue 19); beyond 160 MB the model of the notice would pass 1.5 GB of memory.
   */
  localNoticeBytes: { what: 'notice validated locally', max: 160 * MiB, unit: 'bytes' },
  /**
   * Elements of a notice validated locally: the rules' model of a notice costs about 150 bytes an
   * element, and 160 MB of `<a/>` are 40 million elements. 5,000 lots of cn_24_maximal are 1.5 million.
   */
  localNoticeElements: { what: 'notice validated locally', max: 5_000_000, unit: 'elements' },
  /**
   * An SVRL report read by `eforms check` and from the CVS: the largest sample is 307 KB, and a failure
   * of every rule on every lot of a 30 MB notice (the CVS's own limit) is some tens of MB. Reading a
   * report costs about ten times its size in memory.
   */
  svrlBytes: { what: 'SVRL report', max: 64 * MiB, unit: 'bytes' },
  /**
   * The findings kept of one notice's report: the rules' 40,000 failures on a 10,000-lot notice fit; a
   * report with more is read up to this many, and one more finding says how many were left out, so that
   * a hostile report of millions of assertions cannot hold the editor's or the terminal's memory.
   */
  findings: { what: 'findings of one notice', max: 50_000, unit: 'entries' },
  /**
   * One SVRL `location` or diagnostic path: real ones are under 1,000 characters. A longer one is not
   * evaluated; its finding is shown on the root element, saying so.
   */
  svrlLocationChars: { what: 'SVRL location', max: 8 * KiB, unit: 'characters' },
  /** A caller's value echoed inside a message (an element name, an id, a locale): cut with `…`. */
  echoChars: { what: 'value shown in a message', max: 80, unit: 'characters' },
  /** The JSON body of a CVS validation request: the notice in base64 plus the options. */
  cvsRequestBytes: { what: 'CVS request body', max: 41 * MiB, unit: 'bytes' },
  /** A whole multipart submission to the sandbox's eNotices2: the notice plus its metadata. */
  multipartBytes: { what: 'multipart request', max: 31 * MiB, unit: 'bytes' },
  /** The metadata part of a submission. */
  metadataBytes: { what: 'metadata part', max: 64 * KiB, unit: 'bytes' },
  /** noticeAuthorLocale: a BCP 47 tag or a two-letter language code. */
  localeChars: { what: 'noticeAuthorLocale', max: 35, unit: 'characters' },
  /** noticeAuthorEmail, as RFC 5321 bounds an address. */
  emailChars: { what: 'noticeAuthorEmail', max: 254, unit: 'characters' },
  /** Time the sandbox waits for a whole request (headers and body) before it answers 408. */
  requestMs: { what: 'request', max: 120_000, unit: 'milliseconds' },
  /** A Maven repository's `maven-metadata.xml` for the SDK: ~10 KB today, a few hundred versions. */
  sdkMetadataBytes: { what: 'SDK version list (maven-metadata.xml)', max: 1 * MiB, unit: 'bytes' },
  /** A published `.sha1`: 40 hex digits, perhaps followed by the file name. */
  sdkChecksumBytes: { what: 'SDK checksum (.sha1)', max: 1 * KiB, unit: 'bytes' },
  /** The SDK jar: 1.15.1's is ~20 MB. */
  sdkArchiveBytes: { what: 'SDK archive', max: 200 * MiB, unit: 'bytes' },
  /** What the SDK jar unpacks to, in all: 1.15.1 unpacks to ~100 MB. */
  sdkUnpackedBytes: { what: 'unpacked SDK archive', max: 1024 * MiB, unit: 'bytes' },
  /** One file of the SDK jar, unpacked: the largest of 1.15.1 (fields.json) is 2 MB. */
  sdkEntryBytes: { what: 'file in the SDK archive', max: 256 * MiB, unit: 'bytes' },
  /** Files and folders in the SDK jar: 1.15.1 has ~1,100. */
  sdkEntries: { what: 'SDK archive', max: 50_000, unit: 'entries' },
  /** One part of a path in the SDK jar, in UTF-8 bytes: what file systems accept (the SDK's longest: 64). */
  sdkNameBytes: { what: 'name in the SDK archive', max: 255, unit: 'bytes' },
  /** A download from the SDK repository fails when no byte arrives for this long (it may take longer in all). */
  sdkStallMs: { what: 'SDK repository silence', max: 30_000, unit: 'milliseconds' },
  /** An SDK release's fields/fields.json: 2 MB in SDK 1.15. */
  sdkFieldsBytes: { what: 'SDK fields file', max: 64 * MiB, unit: 'bytes' },
  /** One notice-types/*.json file of an SDK release: the largest is 230 KB in SDK 1.15. */
  sdkNoticeTypeBytes: { what: 'SDK notice type file', max: 16 * MiB, unit: 'bytes' },
  /** One translations/*.xml file of an SDK release: the largest is 1.6 MB in SDK 1.15. */
  sdkTranslationBytes: { what: 'SDK translation file', max: 32 * MiB, unit: 'bytes' },
  /** One .sch file of an SDK release: the largest is 1.4 MB in SDK 1.15. */
  sdkSchematronBytes: { what: 'SDK Schematron file', max: 32 * MiB, unit: 'bytes' },
  /** One codelists/ file of an SDK release (.gc or codelists.json): the largest is 1.2 MB in SDK 1.15. */
  sdkCodelistBytes: { what: 'SDK code list file', max: 32 * MiB, unit: 'bytes' },
  /** An SDK release's VERSION file: one line. */
  sdkVersionFileBytes: { what: 'SDK VERSION file', max: 1 * KiB, unit: 'bytes' },
  /** One entry of the compiled-rule cache (one SDK phase): about 10 MB for the largest 1.15 phase. */
  ruleCacheBytes: { what: 'compiled-rule cache entry', max: 256 * MiB, unit: 'bytes' },
  /**
   * The time one validation by the SDK's rules may take (default; eforms.validation.timeBudgetMs,
   * --time-budget): a run still going after it is stopped, its worker replaced, and the front end says
   * that the rules did not check the notice, naming the budget. The slowest 1.15 phase runs in under 5 s
   * on a large notice.
   */
  ruleTimeBudgetMs: { what: 'SDK rules run', max: 60_000, unit: 'milliseconds' },
} as const satisfies Record<string, InputLimit>;

export type InputKind = keyof typeof INPUT_LIMITS;

/** `30 MB`, `8,192 characters`: a limit as a sentence states it. */
export function describeLimit(kind: InputKind): string {
  const l = INPUT_LIMITS[kind];
  if (l.unit === 'bytes') {
    if (l.max >= MiB) return `${l.max / MiB} MB`;
    if (l.max >= KiB) return `${l.max / KiB} KB`;
    return `${l.max} bytes`;
  }
  if (l.unit === 'milliseconds') return `${l.max / 1000} s`;
  return `${l.max.toLocaleString('en-US')} ${l.unit}`;
}

/**
 * The message for an input over its limit: what, how large, the limit, and what to do. It follows a
 * colon ("cannot use the notice x.xml: …"), so it starts in lower case.
 */
export function overLimitMessage(kind: InputKind, size?: number): string {
  const l = INPUT_LIMITS[kind];
  const actual =
    size === undefined
      ? ''
      : l.unit === 'bytes'
        ? ` (${size >= MiB ? `${(size / MiB).toFixed(1)} MB` : `${size} bytes`})`
        : ` (${size.toLocaleString('en-US')} ${l.unit})`;
  return `the ${l.what} is larger than ${describeLimit(kind)}${actual}, the most this tool accepts: make it smaller.`;
}
