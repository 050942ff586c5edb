// Completes findings with what the SDK and the notice know, once, for every front end: the element
// each finding is placed on, the documentation link of a business rule, and the other fields the rule
// involves located in the notice (with their labels). The server maps the result to diagnostics and
// the CLI to JSON and SARIF; neither adds anything afterwards. Pure: no I/O, no `vscode` import.

import type { Finding, RelatedPlace } from '../findings';
import type { XmlIndex } from '../notice';
import { ruleDocUrl } from './hover';
import { locateField } from './notice-facts';
import type { SdkKnowledge } from './sdk-knowledge';

/** Related places per finding: more would bury the one the rule is about. */
export const MAX_RELATED = 3;

/** The ids of the SDK's business rules, the ones the TED documentation lists. */
const BUSINESS_RULE = /^BR-[A-Z]+-\d{5}-\d{4}$/;

export interface CompletionContext {
  index: XmlIndex;
  /** The SDK the notice is served with; without it, no related places (links and nodes still). */
  sdk?: SdkKnowledge;
  /** Language of the field labels. */
  language?: string;
}

/** The same findings, each completed (new objects; the input is left as it is). */
export function completeFindings(findings: readonly Finding[], c: CompletionContext): Finding[] {
  if (findings.length === 0) return [];
  // Element by start offset, built once: a notice may have thousands of findings and of elements.
  const starts = new Map<number, string>();
  for (const e of c.index.elements) if (!starts.has(e.start)) starts.set(e.start, e.qname);
  return findings.map((f) => completeOne(f, c, starts));
}

export function completeFinding(f: Finding, c: CompletionContext): Finding {
  return completeFindings([f], c)[0] as Finding;
}

function completeOne(f: Finding, c: CompletionContext, starts: Map<number, string>): Finding {
  const out: Finding = { ...f };
  const node = elementAt(c.index, f, starts);
  if (node && out.node === undefined) out.node = node;
  if (!BUSINESS_RULE.test(f.id)) return out;
  out.help = ruleDocUrl(f.id);
  const rule = c.sdk?.ruleFields(f.id);
  if (!c.sdk || !rule || rule.involved.length === 0) return out;
  const related: RelatedPlace[] = [];
  for (const id of rule.involved.slice(0, MAX_RELATED)) {
    const e = locateField(c.index, c.sdk, id);
    if (!e) continue;
    related.push({
      range: { start: c.index.positionAt(e.start), end: c.index.positionAt(e.nameEnd) },
      message: `${id} · ${c.sdk.fieldLabel(id, c.language ?? 'en')}`,
    });
  }
  if (related.length > 0) out.related = related;
  return out;
}

/** The element whose start tag the finding starts on (placements start at `<`), if any. */
function elementAt(index: XmlIndex, f: Finding, starts: Map<number, string>): string | undefined {
  if (!f.resolved) return undefined;
  let offset: number;
  try {
    offset = index.offsetAt(f.range.start.line, f.range.start.character);
  } catch {
    return undefined;
  }
  return starts.get(offset);
}
