// What the publication feature shows, as data: the My Notices view, the open reports and the
// submissions under way. Part of the extension's API (EformsExtensionApi.publication) for the in-editor
// tests and other extensions. Types only: it imports nothing from client/, so no module cycle runs
// through it.

import type { Notice } from '../../core/services';

export interface NoticesFilter {
  statuses: string[];
  author?: string;
  submittedAfter?: string;
  submittedBefore?: string;
  id?: string;
}

export interface NoticesSnapshot {
  total: number;
  filter: NoticesFilter;
  notices: (Notice & { businessId: string })[];
  problem?: string;
  /** The status groups shown, in order. */
  groups: string[];
  nextRefreshSeconds: number | undefined;
}

/** What the publication feature shows now. */
export interface PublicationSnapshot {
  tree: NoticesSnapshot;
  /** Business ids whose report view is open. */
  reports: string[];
  /** Report diagnostics now on each open notice (uri → count). */
  reportDiagnostics: Record<string, number>;
  /** Uris of the notices being submitted now. */
  submitting: string[];
}
