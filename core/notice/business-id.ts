// The eNotices2 business id of a notice: `{noticeId}-{versionId}`, a UUID followed by a two-digit
// version (`52fe3748-f475-4381-9dbf-31ebb08889e8-01`). Pure string rules; no I/O, no `vscode` import.

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const UUID_RE = new RegExp(`^${UUID}$`);
const VERSION_RE = /^\d{2}$/;
const BUSINESS_ID_RE = new RegExp(`^(${UUID})-(\\d{2})$`);

export interface BusinessIdParts {
  noticeId: string;
  versionId: string;
}

export function isNoticeId(s: string): boolean {
  return UUID_RE.test(s);
}

export function isVersionId(s: string): boolean {
  return VERSION_RE.test(s);
}

export function isBusinessId(s: string): boolean {
  return BUSINESS_ID_RE.test(s);
}

/** The two halves of a business id, or undefined when it is not one. */
export function parseBusinessId(s: string): BusinessIdParts | undefined {
  const m = BUSINESS_ID_RE.exec(s.trim());
  return m ? { noticeId: m[1], versionId: m[2] } : undefined;
}

/** Why `s` is not a business id, in words a user can act on; undefined when it is one. */
export function businessIdProblem(s: string): string | undefined {
  const t = s.trim();
  if (t === '')
    return 'The business id is empty: it is the notice id and its version, e.g. 52fe3748-f475-4381-9dbf-31ebb08889e8-01.';
  if (isBusinessId(t)) return undefined;
  if (isNoticeId(t))
    return `"${short(t)}" is a notice id without its version: append the two-digit cbc:VersionID, e.g. ${t}-01.`;
  return `"${short(t)}" is not a business id: expected the notice id (a UUID) followed by - and the two-digit version, e.g. 52fe3748-f475-4381-9dbf-31ebb08889e8-01.`;
}

/** The business id of a notice, or the reason its identifiers cannot form one. */
export function businessIdOf(
  noticeId: string,
  versionId: string,
): { businessId: string } | { problem: string } {
  const n = noticeId.trim();
  const v = versionId.trim();
  if (!isNoticeId(n))
    return {
      problem: n
        ? `cbc:ID (schemeName="notice-id") "${short(n)}" is not a UUID.`
        : 'The notice has no cbc:ID with schemeName="notice-id".',
    };
  if (!isVersionId(v))
    return {
      problem: v
        ? `cbc:VersionID "${short(v)}" must be two digits (01, 02, …).`
        : 'The notice has no cbc:VersionID.',
    };
  return { businessId: `${n}-${v}` };
}

function short(s: string): string {
  // Ids end up inside messages; a pasted document must not flood them.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must go.
  const clean = s.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return clean.length > 60 ? `${clean.slice(0, 57)}…` : clean;
}
