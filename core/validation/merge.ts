// Findings of both engines, shown once: when the SDK rules and the CVS report the same rule on the
// same node, the CVS's finding stays (the service is the authority) and the local one is dropped; and
// the findings of a document now: the local checks, the version warning, and each engine's latest
// answer placed (again, when the text moved on) on the current text. Pure; no `vscode` import here.

import type { Finding } from '../findings';
import type { XmlIndex } from '../notice';
import { type SdkVersionRange, versionRangeFinding } from '../services';
import { placeFindings } from './pipeline';
import { rejectionFinding } from './service-rejection';
import type { EngineName, EngineReport } from './validator';

/** An engine's latest answer about a document, and its findings as last placed. */
export interface EngineResult {
  /** The engine's report, or undefined when the service refused the notice itself (`rejection`). */
  report?: EngineReport;
  /** The service's explanation of a 400 for this notice: one finding where it points. */
  rejection?: string;
  /** Language of the report's messages: the words the mapping appends follow it. */
  language: string;
  /** Findings of `report` placed on `mappedText`; re-placed when the text moves on (cached here). */
  findings: Finding[];
  mappedText: string;
}

/**
 * Everything to show on the document now. Each result is placed again only when `text` differs from
 * the text it was placed on; a placement that throws leaves that engine without findings (`onError`).
 */
export function currentFindings(
  index: XmlIndex,
  text: string,
  local: readonly Finding[],
  range: SdkVersionRange | undefined,
  results: Partial<Record<EngineName, EngineResult>>,
  onError: (err: unknown) => void = () => undefined,
  /** `YYYY-MM-DD`: with it, the dates of a dated version range count (the SDK lifecycle). */
  today?: string,
): Finding[] {
  const version = versionRangeFinding(index, range, { today });
  const checks = version ? [...local, version] : [...local];
  const placed: Record<EngineName, Finding[]> = { cvs: [], local: [] };
  for (const engine of ['local', 'cvs'] as const) {
    const r = results[engine];
    if (!r) continue;
    if (r.mappedText !== text) {
      try {
        r.findings = r.report
          ? placeFindings(index, r.report, r.language)
          : [rejectionFinding(index, r.rejection ?? '')];
      } catch (err) {
        onError(err);
        r.findings = [];
      }
      r.mappedText = text;
    }
    placed[engine] = r.findings;
  }
  const engines = mergeEngineFindings(placed.local, placed.cvs);
  return engines.length ? [...checks, ...engines] : checks;
}

export function mergeEngineFindings(local: readonly Finding[], cvs: readonly Finding[]): Finding[] {
  if (cvs.length === 0) return [...local];
  const seen = new Set(cvs.map(sameKey));
  return [...local.filter((f) => !seen.has(sameKey(f))), ...cvs];
}

/** Rule and node, by the range the node occupies: both engines may spell the same location differently. */
function sameKey(f: Finding): string {
  const { start: a, end: b } = f.range;
  return `${f.id}\u0000${a.line}:${a.character}-${b.line}:${b.character}`;
}
