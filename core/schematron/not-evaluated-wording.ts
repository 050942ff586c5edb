// The sentence about the SDK rules that the local engine could not evaluate on a notice, from each
// entry's cause and fields (NotEvaluated), never from the engine's own account, which names XPath error
// codes. A value the rules could not read comes first, as the buyer can correct it; rules outside what
// the engine reads are named, as the CVS still checks them. One sentence for every front end: the
// command line prints it, and the language server's log line (which the editor's status points to)
// carries it, so a buyer reads the same words in both.

import type { NotEvaluated } from './rule-set';

/** What a value should have been, by the XSD type a rule read it as. */
const TYPE_WORDS: Record<string, string> = {
  'xs:date': 'a date',
  'xs:dateTime': 'a date and time',
  'xs:time': 'a time',
  'xs:double': 'a number',
  'xs:float': 'a number',
  'xs:decimal': 'a number',
  'xs:integer': 'a whole number',
  'xs:boolean': "'true' or 'false'",
  'xs:duration': 'a duration',
  'xs:dayTimeDuration': 'a duration',
  'xs:yearMonthDuration': 'a duration',
};

/** Rule ids named in one part of the sentence; the count says how many more. */
const MAX_IDS = 5;
/** Parts of the sentence (distinct values, then the other causes). */
const MAX_PARTS = 6;

/**
 * One sentence about the rules not evaluated, or undefined when there are none: "3 rules could not be
 * checked: 'tomorrow' is not a date (BR-BT-00738-0053, BR-BT-01311-0156)."
 */
export function describeNotEvaluated(list: readonly NotEvaluated[]): string | undefined {
  if (list.length === 0) return undefined;
  if (list.some((n) => n.cause === 'no-phase'))
    return 'no rule could be checked here: the notice names no subtype (cbc:SubTypeCode in efac:NoticeSubType), so no phase of the rules applies.';
  const byValue = new Map<string, { value: string; type: string; ids: string[] }>();
  const unsupported: string[] = [];
  const failed = new Map<string, string[]>();
  for (const n of list) {
    if (n.cause === 'invalid-value' && n.value !== undefined && n.type !== undefined) {
      const key = `${n.type}\u0000${n.value}`;
      const group = byValue.get(key) ?? { value: n.value, type: n.type, ids: [] };
      group.ids.push(n.ruleId);
      byValue.set(key, group);
    } else if (n.cause === 'unsupported') unsupported.push(n.ruleId);
    else failed.set(n.reason, [...(failed.get(n.reason) ?? []), n.ruleId]);
  }
  const parts: string[] = [];
  for (const g of byValue.values())
    parts.push(`'${g.value}' is not ${TYPE_WORDS[g.type] ?? `a valid ${g.type}`} (${ids(g.ids)})`);
  if (unsupported.length > 0)
    parts.push(
      `${ids(unsupported)} ${distinct(unsupported) === 1 ? 'uses' : 'use'} XPath that this tool does not evaluate yet (the validation service checks ${distinct(unsupported) === 1 ? 'it' : 'them'})`,
    );
  for (const [reason, ruleIds] of failed) parts.push(`${ids(ruleIds)} stopped on an error: ${reason}`);
  const shown = parts.slice(0, MAX_PARTS);
  const more = parts.length > MAX_PARTS ? `; and ${parts.length - MAX_PARTS} more` : '';
  const n = list.length;
  return `${n} rule${n === 1 ? '' : 's'} could not be checked here: ${shown.join('; ')}${more}.`;
}

function distinct(ruleIds: readonly string[]): number {
  return new Set(ruleIds).size;
}

/** Distinct ids in order, at most MAX_IDS, then how many more. */
function ids(ruleIds: readonly string[]): string {
  const unique = [...new Set(ruleIds)];
  const shown = unique.slice(0, MAX_IDS).join(', ');
  return unique.length > MAX_IDS ? `${shown} and ${unique.length - MAX_IDS} more` : shown;
}
