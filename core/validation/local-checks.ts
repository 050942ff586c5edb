// The checks that need no service and run on every keystroke: well-formedness (`xml-syntax`), a DOCTYPE
// declaration (`doctype`) and the notice's `cbc:CustomizationID` (`customization-id`). They read an
// XmlIndex only, so they stay as fast as the index. No `vscode` import here, and no I/O.

import type { Finding, Range } from '../findings';
import type { XmlIndex } from '../notice';
import {
  type CustomizationIdResult,
  decodeSimpleEntities,
  findCustomizationId,
  parseCustomizationId,
} from '../notice';

export const XML_SYNTAX = 'xml-syntax';
export const CUSTOMIZATION_ID = 'customization-id';
export const DOCTYPE = 'doctype';

/**
 * Local findings of an eForms notice. Only the first well-formedness error is reported: what a parser
 * says after it is mostly a consequence of it, and a list of echoes hides the one to fix.
 */
export function localFindings(index: XmlIndex): Finding[] {
  const out: Finding[] = [];
  const first = index.errors[0];
  if (first) out.push(syntaxFinding(index, first.offset, first.message));
  const dt = index.doctype;
  // Accepted as XML, but not what a notice holds: its entities are not expanded here (the rules would
  // read `&name;` where the service reads its text, or refuse the declaration).
  if (dt)
    out.push(
      local(
        DOCTYPE,
        'warning',
        dt.internalSubset
          ? "eForms notices have no DOCTYPE declaration, and the entities this one declares are not expanded here, so the checks read other text than TED may: remove it, writing each entity's text where the entity is used."
          : "eForms notices have no DOCTYPE declaration, and TED's services may refuse a notice that has one: remove it.",
        rangeOf(index, dt.start, dt.start + '<!DOCTYPE'.length),
      ),
    );
  const root = index.element(0);
  if (!root) return out;
  const cid = findCustomizationId(index);
  if (!cid) {
    // An unclosed root while typing may simply not have reached its children yet.
    if (first && root.end < 0 && root.children.length === 0) return out;
    out.push(
      local(
        CUSTOMIZATION_ID,
        'error',
        'The notice has no cbc:CustomizationID: add <cbc:CustomizationID>eforms-sdk-MAJOR.MINOR</cbc:CustomizationID> (e.g. eforms-sdk-1.15) as a child of the root element.',
        rangeOf(index, root.start + 1, root.nameEnd),
      ),
    );
    return out;
  }
  const parsed: CustomizationIdResult = parseCustomizationId(decodeSimpleEntities(cid.text));
  if (!parsed.ok) {
    const [s, e] = trimmed(index.text, cid.contentStart, cid.contentEnd);
    const range = s < e ? rangeOf(index, s, e) : rangeOf(index, cid.element.start + 1, cid.element.nameEnd);
    out.push(local(CUSTOMIZATION_ID, 'error', parsed.problem, range));
  }
  return out;
}

function syntaxFinding(index: XmlIndex, offset: number, message: string): Finding {
  const text = index.text;
  const at = Math.max(0, Math.min(offset, text.length));
  // One character wide so that editors draw a visible squiggle, except at a line end or the text end.
  const c = text.charCodeAt(at);
  const end = at < text.length && c !== 0x0a && c !== 0x0d ? at + 1 : at;
  const clean = message.trim() || 'The XML is not well-formed.';
  return local(XML_SYNTAX, 'error', clean, rangeOf(index, at, end));
}

function trimmed(text: string, start: number, end: number): [number, number] {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s] ?? '')) s++;
  while (e > s && /\s/.test(text[e - 1] ?? '')) e--;
  return [s, e];
}

function rangeOf(index: XmlIndex, start: number, end: number): Range {
  return { start: index.positionAt(start), end: index.positionAt(end) };
}

function local(id: string, severity: Finding['severity'], message: string, range: Range): Finding {
  return { id, severity, message, location: '', range, source: 'local', resolved: true };
}
