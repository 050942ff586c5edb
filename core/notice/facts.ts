// Small facts of a notice read in one place, each with one meaning, for every room that needs them
// (authoring, the SVRL report's fit, the local validator's phase). Reading only: no I/O, no `vscode`.

import { NS } from './namespaces';
import { elementStartingAt, textContent, type XmlIndex } from './xml-index';

/**
 * The notice subtype (`16`, `E3`, `29`…): the trimmed text of the first non-empty
 * `efac:NoticeSubType/cbc:SubTypeCode` (both matched by namespace URI, whatever the notice's prefixes),
 * the code the SDK's rules choose their phase by (`eforms-<subtype>`). Undefined when the notice has none.
 * Other `SubTypeCode`s (another parent or namespace) are not the notice's subtype and are passed over.
 * Cost: a text search for the name, then the elements found there; the index is not walked.
 */
export function noticeSubType(index: XmlIndex): string | undefined {
  const text = index.text;
  const name = 'SubTypeCode';
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
    const lt = text.lastIndexOf('<', at);
    if (lt < 0 || text[lt + 1] === '/') continue;
    const k = elementStartingAt(index.table, lt);
    if (k < 0) continue;
    const el = index.element(k);
    if (el === undefined || el.local !== name || el.ns !== NS.cbc) continue;
    const parent = index.element(el.parent);
    if (parent?.local !== 'NoticeSubType' || parent.ns !== NS.efac) continue;
    const code = textContent(index, el).trim();
    if (code) return code;
  }
  return undefined;
}
