// Writes the SVRL report of the emulated CVS in the shape of the official reports: the same root
// attributes, the same `svrl:ns-prefix-in-attribute-values` list, active patterns, fired rules and
// failed assertions with their diagnostic references. Everything taken from a notice or a rule is
// escaped; this module never emits anything that is not well-formed XML.
// The report says in its text that it comes from the sandbox's own rules (its title and a comment), so
// that nobody takes its verdict for the official one: with an SDK the sandbox answers the official
// report instead (sandbox/sdk-rules.ts).

import { SVRL_NAMESPACES } from './notice-tree';
import type { Role } from './rules';

export interface FailedAssert {
  id: string;
  location: string;
  role: Role;
  flag?: string;
  test: string;
  text: string;
  diagnostic?: { id: string; see: string; path: string };
}

export type ReportEntry =
  | { kind: 'active-pattern'; id: string }
  | { kind: 'fired-rule'; context: string }
  | ({ kind: 'failed-assert' } & FailedAssert);

const SVRL_NS = 'http://purl.oclc.org/dsdl/svrl';

/** The title of the sandbox's own reports: what a reader of the report (or of a view of it) sees. */
export const SANDBOX_RULES_TITLE = 'Sandbox rules, not the official SDK rules';
/** The comment at the top of the sandbox's own reports: why, and how to get the official rules. */
export const SANDBOX_RULES_NOTE =
  "Sandbox rules, not the official SDK rules: the sandbox's own 45 hand-written rules answered, because it has no eForms SDK. Name one with the sdk-dir option of eforms sandbox, or download one into the cache, for the official rules.";

export function writeSvrl(phase: string, entries: readonly ReportEntry[]): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svrl:schematron-output xmlns:svrl="${SVRL_NS}" phase="${attr(phase)}" title="${attr(SANDBOX_RULES_TITLE)}">`,
    // A comment may not hold two hyphens in a row.
    `   <!-- ${SANDBOX_RULES_NOTE.replace(/-(?=-)/g, '- ')} -->`,
  ];
  for (const [prefix, uri] of SVRL_NAMESPACES) {
    out.push(`   <svrl:ns-prefix-in-attribute-values prefix="${prefix}" uri="${attr(uri)}"/>`);
  }
  for (const e of entries) {
    if (e.kind === 'active-pattern') out.push(`   <svrl:active-pattern id="${attr(e.id)}"/>`);
    else if (e.kind === 'fired-rule') out.push(`   <svrl:fired-rule context="${attr(e.context)}"/>`);
    else {
      const flag = e.flag ? ` flag="${attr(e.flag)}"` : '';
      out.push(
        `   <svrl:failed-assert${flag} id="${attr(e.id)}" location="${attr(e.location)}" role="${attr(e.role)}" test="${attr(e.test)}">`,
        `      <svrl:text>${text(e.text)}</svrl:text>`,
      );
      if (e.diagnostic) {
        out.push(
          `      <svrl:diagnostic-reference diagnostic="${attr(e.diagnostic.id)}" see="${attr(e.diagnostic.see)}">`,
          `         <svrl:text>${text(e.diagnostic.path)}</svrl:text>`,
          '      </svrl:diagnostic-reference>',
        );
      }
      out.push('   </svrl:failed-assert>');
    }
  }
  out.push('</svrl:schematron-output>', '');
  return out.join('\n');
}

/** Characters XML 1.0 cannot carry (C0 controls but tab and line ends, U+FFFE/FFFF, lone surrogates). */
function isXmlChar(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0x20) return c === 0x09 || c === 0x0a || c === 0x0d;
  if (c === 0xfffe || c === 0xffff) return false;
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = s.charCodeAt(i + 1);
    return next >= 0xdc00 && next <= 0xdfff;
  }
  if (c >= 0xdc00 && c <= 0xdfff) {
    const prev = s.charCodeAt(i - 1);
    return prev >= 0xd800 && prev <= 0xdbff;
  }
  return true;
}

/** Replaces what XML cannot carry so that the report stays well-formed whatever a notice holds. */
export function xmlSafe(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += isXmlChar(s, i) ? s[i] : '\ufffd';
  return out;
}

export function text(s: string): string {
  return xmlSafe(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values are always written in double quotes, so `'` stays as the official reports print it. */
export function attr(s: string): string {
  return text(s)
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}
