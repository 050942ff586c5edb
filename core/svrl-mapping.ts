// Places SVRL assertions on the text of a notice: resolves each `location` XPath (every step form seen
// in SVRL: `cac:X[2]`, `*:X[namespace-uri()='…'][1]`, `Q{uri}X[1]`, no index = first, `@attr`) through
// the report's prefix declarations against an XmlIndex, matching by namespace URI, never by prefix.
// No `vscode` import here.

import type { Finding } from './finding';
import type { SvrlReport } from './svrl';
import type { XmlIndex } from './xml-index';

export interface ResolvedLocation {
  /** Index into XmlIndex.elements of the selected element (the owner element for an attribute step). */
  element: number;
  /** Index into that element's attributes when the last step is `@attr`. */
  attribute?: number;
}

/**
 * Resolves an absolute SVRL location against the index; null when any step selects nothing.
 * `namespaces` maps prefixes to URIs (from the report).
 */
export function resolveLocation(
  _index: XmlIndex,
  _location: string,
  _namespaces: Map<string, string>,
): ResolvedLocation | null {
  throw new Error('not implemented yet');
}

/** Every assertion of the report as a Finding on the notice; none is dropped. */
export function mapSvrl(_index: XmlIndex, _report: SvrlReport): Finding[] {
  throw new Error('not implemented yet');
}
