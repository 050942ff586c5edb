// The regular expressions of the SDK releases in ../shared/eforms-sdk/ that the current XSD regex
// translator (core/xpath/values.ts) rejects although Saxon-HE accepts them: XPath 3 non-capturing groups
// `(?:…)` and multi-character escapes inside a class. Pending the linear-time regex engine
// (core/xpath/xsd-regex.ts): once it lands, empty these lists (sdk-coverage.test.ts fails until then).

const EMAIL = '^[a-zA-Z0-9][a-zA-Z0-9._%+-]*@(?:[a-zA-Z0-9-]+\\.)+[a-zA-Z]{2,63}$';
const DATE =
  '^(?:(?:(?:(?:1[6-9]|[2-9]\\d)\\d{2})-(?:(?:(?:0[13578]|1[02]))-31|(?:(?:0[13-9]|1[0-2])-(?:29|30))))|(?:(?:(?:(?:(?:1[6-9]|[2-9]\\d)(?:0[48]|[2468][048]|[13579][26])|(?:(?:16|[2468][048]|[3579][26])00)))-02-29))|(?:(?:(?:1[6-9]|[2-9]\\d)\\d{2})-(?:(?:0[1-9])|(?:1[0-2]))-(?:0[1-9]|1\\d|2[0-8])))(Z|[-+]((0[0-9]|1[0-3]):([03]0|45)|14:00))$';
const URL =
  '((^(http|HTTP|https|HTTPS|ftp|FTP|ftps|FTPS|sftp|SFTP)://)|(^(w|W){3}(\\d)?\\.))[\\w\\?!\\./:;,\\-_=#+*%@"\\(\\)&]+';

/** Regex, pending: patterns the current translator rejects, by release (to remove once core/xpath/xsd-regex.ts lands). */
export const REGEX_PENDING: Record<string, string[]> = {
  '1.7.5': [EMAIL, DATE],
  '1.8.5': [EMAIL, DATE],
  '1.9.5': [URL],
  '1.10.5': [URL],
};

/** True when a notEvaluated reason is a translation failure of a pending pattern. */
export function isRegexPending(version: string, reason: string): boolean {
  return reason.includes('FORX0002') && (REGEX_PENDING[version] ?? []).some((p) => reason.includes(`'${p}'`));
}
