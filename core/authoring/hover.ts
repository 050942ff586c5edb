// The hover of a notice: for the element or attribute under the cursor, its field or node id, label and
// description in the user's language, its type, whether this notice subtype requires or forbids it, its
// code list and the label of the code written, the rules about it and a link to its documentation; for
// an identifier (ORG-0001), what it names. Markdown only: each editor renders it. No `vscode` import here.

import type { Range } from '../findings';
import type { XmlIndex } from '../notice';
import { attributeValue } from '../notice';
import { captionOf, entityOf, INTERNAL_ID, noticeFacts, placeAt, rangeOf } from './notice-facts';
import type { Entry, SdkKnowledge } from './sdk-knowledge';
import { canonicalName, directText } from './sdk-paths';

export interface AuthoringHover {
  markdown: string;
  range: Range;
}

/** The TED developer documentation of a field. */
export function fieldDocUrl(fieldId: string): string {
  return `https://docs.ted.europa.eu/eforms/latest/reference/business-terms/index.html#${encodeURIComponent(fieldId)}`;
}

/** The documentation of a business rule (the SDK's rules are listed per field on that page). */
export function ruleDocUrl(ruleId: string): string {
  return `https://docs.ted.europa.eu/eforms/latest/reference/business-rules/index.html#${encodeURIComponent(ruleId)}`;
}

const MAX_RULES = 8;

export function hoverAt(
  index: XmlIndex,
  sdk: SdkKnowledge | undefined,
  offset: number,
  language: string,
): AuthoringHover | undefined {
  const place = placeAt(index, offset);
  if (!place) return undefined;
  const facts = noticeFacts(index, sdk);
  const lines: string[] = [];
  let range: Range;
  let value: string | undefined;
  let entry: Entry | undefined;
  const e = place.element;
  switch (place.kind) {
    case 'attribute-name':
    case 'attribute-value': {
      const a = place.attribute;
      entry = sdk?.identify(index, e, a.local);
      range =
        place.kind === 'attribute-value'
          ? rangeOf(index, a.valueStart, a.valueEnd)
          : rangeOf(index, a.start, a.nameEnd);
      value = attributeValue(index, a);
      break;
    }
    case 'text': {
      if (e.children.length > 0) return undefined;
      entry = sdk?.identify(index, e);
      value = directText(index, e);
      const at = index.text.indexOf(value, e.startTagEnd);
      range = value && at >= 0 ? rangeOf(index, at, at + value.length) : rangeOf(index, offset, offset);
      break;
    }
    default:
      entry = sdk?.identify(index, e);
      range = rangeOf(index, e.start + 1, e.nameEnd);
      value = e.children.length === 0 ? directText(index, e) : undefined;
  }

  // An identifier: what it names, whatever the SDK says about the element.
  if (value && INTERNAL_ID.test(value) && place.kind === 'text') {
    const occs = facts.byId.get(value) ?? [];
    const def = occs.find((o) => o.definition);
    if (def && sdk) {
      const { element, node } = entityOf(index, sdk, def);
      const caption = captionOf(index, sdk, element, node?.id);
      const line = index.positionAt(def.start).line + 1;
      lines.push(
        `**${value}** → ${canonicalName(element)}${node ? ` (${node.id})` : ''}${caption ? `: ${caption}` : ''} · line ${line}`,
      );
    } else if (def) lines.push(`**${value}** is defined on line ${index.positionAt(def.start).line + 1}`);
    else lines.push(`**${value}** is not defined in this notice.`);
    const refs = occs.filter((o) => !o.definition).length;
    lines.push(`${refs} reference${refs === 1 ? '' : 's'} in this notice.`);
    lines.push('');
  }

  if (!sdk) {
    if (lines.length === 0) return undefined;
    return { markdown: lines.join('\n\n').trim(), range };
  }
  if (!entry) {
    if (lines.length === 0) return undefined;
    return { markdown: lines.join('\n\n').trim(), range };
  }
  if (entry.kind === 'node') {
    const n = entry.node;
    lines.push(
      `**${entry.id}**${n?.businessEntityId ? ` · ${n.businessEntityId}` : ''}${n?.repeatable ? ' · repeatable' : ''}`,
    );
    if (n?.identifierFieldId) lines.push(`Identified by \`${n.identifierFieldId}\``);
    return { markdown: lines.join('\n\n').trim(), range };
  }
  const f = entry.field;
  if (!f) return undefined;
  const label = sdk.fieldLabel(f.id, language);
  lines.push(`**${f.id}** · ${label} · \`${f.type}\``);
  const description = sdk.fieldDescription(f.id, language);
  if (description && description !== label) lines.push(description);
  const subtype = facts.subtype;
  const p = sdk.presence(f.id, subtype);
  const where = subtype ? `notice subtype ${subtype}` : 'this notice (no subtype declared)';
  const presence: string[] = [];
  if (p.forbidden === 'always') presence.push(`**Forbidden** in ${where}.`);
  else if (p.mandatory === 'always') presence.push(`**Mandatory** in ${where}.`);
  if (p.mandatory === 'conditional')
    presence.push(`Mandatory in ${where} when ${p.mandatoryWhen.map((c) => `\`${c}\``).join(' or ')}.`);
  if (p.forbidden === 'conditional')
    presence.push(`Forbidden in ${where} when ${p.forbiddenWhen.map((c) => `\`${c}\``).join(' or ')}.`);
  if (presence.length === 0) presence.push(`Optional in ${where}.`);
  lines.push(presence.join(' '));
  const cl = sdk.codeListOf(f, subtype);
  if (cl) {
    const tailored = cl.id !== cl.general ? ` (for this subtype: \`${cl.id}\`)` : '';
    lines.push(`Code list: \`${cl.general}\`${tailored}`);
    if (value) {
      const known = sdk.codeList(cl.id) ?? sdk.codeList(cl.general);
      const codeLabel = sdk.codeLabel(cl.id, value, language) ?? sdk.codeLabel(cl.general, value, language);
      if (codeLabel) lines.push(`\`${value}\`: ${codeLabel}`);
      else if (known) lines.push(`\`${value}\` is not a code of \`${known.id}\`.`);
    }
  } else if (f.presetValue !== undefined) lines.push(`Fixed value: \`${f.presetValue}\``);
  if (f.pattern?.value) lines.push(`Pattern: \`${f.pattern.value}\``);
  const rules = sdk.rulesOf(f);
  if (rules.length > 0) {
    const shown = rules.slice(0, MAX_RULES).map((r) => `[${r}](${ruleDocUrl(r)})`);
    lines.push(
      `Rules: ${shown.join(', ')}${rules.length > MAX_RULES ? ` and ${rules.length - MAX_RULES} more` : ''}`,
    );
  }
  lines.push(`[${f.btId ?? f.id} in the TED documentation](${fieldDocUrl(f.id)})`);
  return { markdown: lines.join('\n\n').trim(), range };
}
