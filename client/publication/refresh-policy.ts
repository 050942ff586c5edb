// When "My Notices" refreshes by itself: sooner while a notice is SUBMITTED (the short window in which
// Stop Publication is still possible), at the configured interval while one is PUBLISHING, never when
// nothing moves or the setting is 0. Pure: no `vscode` import.

/** While a notice is SUBMITTED, refresh at least this often (seconds). */
export const SUBMITTED_REFRESH_SECONDS = 5;

/** Seconds until the next automatic refresh, or undefined for none. */
export function autoRefreshDelay(statuses: Iterable<string>, settingSeconds: number): number | undefined {
  if (!(settingSeconds > 0)) return undefined;
  let publishing = false;
  for (const s of statuses) {
    if (s === 'SUBMITTED') return Math.min(settingSeconds, SUBMITTED_REFRESH_SECONDS);
    if (s === 'PUBLISHING') publishing = true;
  }
  return publishing ? settingSeconds : undefined;
}

/** Whether the filter narrows the list (the empty view then says so, and offers to clear it). */
export function isFiltered(f: {
  statuses: readonly string[];
  author?: string;
  submittedAfter?: string;
  submittedBefore?: string;
  id?: string;
}): boolean {
  return Boolean(f.statuses.length || f.author || f.submittedAfter || f.submittedBefore || f.id);
}
