// Findings of both engines, shown once: when the SDK rules and the CVS report the same rule on the
// same node, the CVS's finding stays (the service is the authority) and the local one is dropped.
// Pure; no `vscode` import here.

import type { Finding } from '../findings';

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
