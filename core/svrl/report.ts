// Reading of SVRL (Schematron Validation Report Language) reports, as the Central Validation Service
// and the official eForms SDK rules produce them. Parsing only: placing the assertions on a notice is
// svrl-mapping.ts. It reads through core/xml-index (the project's one XML parser), matching SVRL
// elements by namespace URI, whatever prefix the report uses. No `vscode` import here, and no I/O.

import {
  findAttribute,
  INPUT_LIMITS,
  indexXml,
  textContent,
  type XmlElement,
  type XmlIndex,
} from '../notice';
import { clip } from '../text';
import type { NodeRef } from '../xpath';

export const SVRL_NS = 'http://purl.oclc.org/dsdl/svrl';

export interface SvrlDiagnosticReference {
  /** `diagnostic` attribute (e.g. `ND-Company_BT-514-Organization-Company`). */
  diagnostic: string;
  /** `see` attribute (e.g. `field:BT-24-Lot`, `node:ND-Organizations`). */
  see: string;
  /** Trimmed text: a path relative to the assertion's location (e.g. `cac:TenderingProcess`). */
  path: string;
}

export interface SvrlAssertion {
  kind: 'failed-assert' | 'successful-report';
  id: string;
  location: string;
  /** As written (ERROR, WARN, INFO, or anything else). */
  role: string;
  flag?: string;
  test: string;
  /** Trimmed `svrl:text`: translated message, or a raw key such as `rule|text|BR-BT-00024-0178`. */
  text: string;
  diagnosticReferences: SvrlDiagnosticReference[];
  /**
   * The failing node itself, when this tool's engine found it (never in a report read from text): the
   * mapping places the finding there without reading `location` back, as long as the index still has
   * the node at that offset.
   */
  node?: NodeRef;
}

export interface SvrlReport {
  /** prefix -> namespace URI, from `svrl:ns-prefix-in-attribute-values`. */
  namespaces: Map<string, string>;
  assertions: SvrlAssertion[];
  /** `phase` and `title` of `svrl:schematron-output`, when present. */
  phase?: string;
  title?: string;
  /**
   * Assertions the report holds beyond the most one notice's findings may number
   * (INPUT_LIMITS.findings): counted, not read. The mapping says how many with one finding of its own.
   */
  omitted?: number;
}

/**
 * The longest an assertion's field is kept, in characters: beyond any the official reports hold (in the
 * SDK's samples and the real notices' reports: texts of 409 characters, locations of 226, a test of
 * 113,469), and short enough that a report of megabyte-long values does not become megabyte-long
 * messages, diagnostics and lines of output. A longer value is cut with `…`.
 */
const FIELD_CHARS = { name: 200, path: 4000, test: 262_144, text: 2000 } as const;

/** Thrown when the text is not an SVRL report at all (not XML, or another root element). */
export class SvrlFormatError extends Error {
  override name = 'SvrlFormatError';
}

function attr(index: XmlIndex, el: XmlElement, local: string): string | undefined {
  const a = findAttribute(el, local);
  return a === undefined ? undefined : decodeAttribute(index, a.valueStart, a.valueEnd);
}

function decodeAttribute(index: XmlIndex, start: number, end: number): string {
  // Attribute-value normalization (XML 1.0 §3.3.3): literal tabs and line breaks read as spaces;
  // character references to them (&#10;) stay, which textContent-style decoding gives after this.
  const raw = index.text.slice(start, end);
  const spaced = /[\t\r\n]/.test(raw) ? raw.replace(/\r\n|[\t\r\n]/g, ' ') : raw;
  return spaced.indexOf('&') < 0 ? spaced : decodeEntities(spaced);
}

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (_m, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    }
    return ref === 'lt' ? '<' : ref === 'gt' ? '>' : ref === 'amp' ? '&' : ref === 'quot' ? '"' : "'";
  });
}

function describe(index: XmlIndex, offset: number): string {
  const p = index.positionAt(offset);
  return `line ${p.line + 1}, column ${p.character + 1}`;
}

/** The first child of `el` that is `svrl:<local>`. */
function svrlChild(index: XmlIndex, el: XmlElement, local: string): XmlElement | undefined {
  for (const c of el.children) {
    const child = index.element(c) as XmlElement;
    if (child.local === local && child.ns === SVRL_NS) return child;
  }
  return undefined;
}

/** One `svrl:failed-assert` or `svrl:successful-report`, its fields bounded (FIELD_CHARS). */
function assertionOf(index: XmlIndex, el: XmlElement): SvrlAssertion {
  const textEl = svrlChild(index, el, 'text');
  const assertion: SvrlAssertion = {
    kind: el.local === 'failed-assert' ? 'failed-assert' : 'successful-report',
    id: clip(attr(index, el, 'id') ?? '', FIELD_CHARS.name),
    location: clip((attr(index, el, 'location') ?? '').trim(), FIELD_CHARS.path),
    role: clip(attr(index, el, 'role') ?? '', FIELD_CHARS.name),
    test: clip(attr(index, el, 'test') ?? '', FIELD_CHARS.test),
    text: textEl === undefined ? '' : clip(textContent(index, textEl).trim(), FIELD_CHARS.text),
    diagnosticReferences: [],
  };
  const flag = attr(index, el, 'flag');
  if (flag !== undefined) assertion.flag = clip(flag, FIELD_CHARS.name);
  for (const c of el.children) {
    const ref = index.element(c) as XmlElement;
    if (ref.ns !== SVRL_NS || ref.local !== 'diagnostic-reference') continue;
    const refText = svrlChild(index, ref, 'text');
    assertion.diagnosticReferences.push({
      diagnostic: clip(attr(index, ref, 'diagnostic') ?? '', FIELD_CHARS.name),
      see: clip(attr(index, ref, 'see') ?? '', FIELD_CHARS.name),
      path: clip(textContent(index, refText ?? ref).trim(), FIELD_CHARS.path),
    });
  }
  return assertion;
}

/** Reads an SVRL report; throws SvrlFormatError when the text is not well-formed XML or not SVRL. */
export function parseSvrl(text: string): SvrlReport {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const index = indexXml(body);
  if (index.errors.length > 0) {
    const e = index.errors[0];
    throw new SvrlFormatError(
      `the SVRL report is not well-formed XML: ${e.message} (${describe(index, e.offset)})`,
    );
  }
  const root = index.element(0);
  if (root === undefined) throw new SvrlFormatError('not an SVRL report: the text holds no XML element');
  if (root.ns !== SVRL_NS || root.local !== 'schematron-output') {
    // Both come from the file, which may hold a name of megabytes: cut as every echoed value is.
    const max = INPUT_LIMITS.echoChars.max;
    const name = clip(root.qname, max);
    const found = root.ns ? `<${name}> in namespace ${clip(root.ns, max)}` : `<${name}> in no namespace`;
    throw new SvrlFormatError(
      `not an SVRL report: the root element is ${found}, expected <svrl:schematron-output> in namespace ${SVRL_NS}`,
    );
  }

  const report: SvrlReport = { namespaces: new Map(), assertions: [] };
  const phase = attr(index, root, 'phase');
  const title = attr(index, root, 'title');
  if (phase !== undefined) report.phase = phase;
  if (title !== undefined) report.title = title;

  // Read from the index's columns, each element made only when it is one of the assertions kept: a
  // report of a million assertions made a million objects before the first was read.
  const table = index.table;
  const names = table.names;
  const maxAssertions = INPUT_LIMITS.findings.max;
  let omitted = 0;
  // Assertions are children of the root in every SVRL we know; walking all elements also finds them
  // when a report wraps them, at no real cost.
  for (let k = 1; k < table.count; k++) {
    const name = names[table.name[k]];
    if (name.ns !== SVRL_NS) continue;
    if (name.local === 'ns-prefix-in-attribute-values') {
      const el = index.element(k) as XmlElement;
      const prefix = attr(index, el, 'prefix');
      const uri = attr(index, el, 'uri');
      if (prefix !== undefined && uri !== undefined) report.namespaces.set(prefix, uri);
      continue;
    }
    if (name.local !== 'failed-assert' && name.local !== 'successful-report') continue;
    if (report.assertions.length >= maxAssertions) {
      omitted++;
      continue;
    }
    report.assertions.push(assertionOf(index, index.element(k) as XmlElement));
  }
  if (omitted > 0) report.omitted = omitted;
  return report;
}
