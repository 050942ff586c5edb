// Reads an SDK's Schematron (`schematrons/<mode>/complete-validation.sch` and the files it includes):
// the ns declarations, the schema-level lets, the phases, and, for one phase, its active patterns with
// their lets, rules, asserts/reports and the diagnostics they name. Expressions stay text here; the
// XPath is parsed elsewhere. Reads only the files of the SDK folder it is given. No `vscode` import.

import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  attributeValue,
  findAttribute,
  indexXml,
  textContent,
  type XmlElement,
  type XmlIndex,
} from '../notice';
import { isInside, readSdkFile, SdkFileError } from '../sdk';

export const SCH_NS = 'http://purl.oclc.org/dsdl/schematron';

export interface SchLet {
  name: string;
  value: string;
}

export interface SchAssert {
  kind: 'assert' | 'report';
  id: string;
  role: string;
  flag?: string;
  test: string;
  /** Diagnostic ids (`diagnostics` attribute, space-separated). */
  diagnostics: string[];
  /** Trimmed text of the assert, usually a message key such as `rule|text|BR-BT-00024-0178`. */
  text: string;
}

export interface SchRule {
  context: string;
  lets: SchLet[];
  asserts: SchAssert[];
}

export interface SchPattern {
  id: string;
  lets: SchLet[];
  rules: SchRule[];
}

export interface SchDiagnostic {
  id: string;
  see: string;
  /** Trimmed text (a path relative to the assertion's location). */
  text: string;
}

export interface SchPhase {
  title: string;
  /** prefix -> URI, in declaration order. */
  namespaces: [string, string][];
  lets: SchLet[];
  phase: string;
  patterns: SchPattern[];
  diagnostics: SchDiagnostic[];
  /** Every phase id the schema declares (to word an unknown phase). */
  phases: string[];
}

/**
 * Thrown when the files are missing or not Schematron; `kind` says which. `missing-include`: the root
 * file exists but names a file (`file`) that does not.
 */
export class SchematronReadError extends Error {
  override name = 'SchematronReadError';
  constructor(
    readonly kind: 'missing' | 'missing-include' | 'malformed' | 'unknown-phase',
    readonly path: string,
    detail: string,
    readonly phases: string[] = [],
    readonly file?: string,
  ) {
    super(detail);
  }
}

/**
 * How a release selects the rules of a notice subtype. The layout changed between SDK releases:
 * - `no-phases` (up to 1.9): no `<phase>`; every rule context tests `$noticeSubType` itself, so every
 *   pattern runs (the reference runs SchXslt without a phase, i.e. `#ALL`);
 * - `subtype-phases` (1.10): `<phase id="16">`;
 * - `eforms-phases` (1.11 on, 2.0 too): `<phase id="eforms-16">`.
 */
export type RuleLayout = 'no-phases' | 'subtype-phases' | 'eforms-phases';

/** The layout of a release's rules, decided from the phase ids its `complete-validation.sch` declares. */
export function layoutOfPhases(phases: readonly string[]): RuleLayout {
  if (phases.length === 0) return 'no-phases';
  return phases.every((p) => p.startsWith('eforms-')) ? 'eforms-phases' : 'subtype-phases';
}

/** Reads only the root file of a mode and says its layout and its phases. */
export function readRuleLayout(
  sdkDir: string,
  mode: 'static' | 'dynamic',
): { layout: RuleLayout; phases: string[] } {
  const path = schematronPath(sdkDir, mode);
  const index = readIndexed(sdkDir, path);
  const root = index.elements[0];
  if (!root || root.ns !== SCH_NS || root.local !== 'schema') {
    throw new SchematronReadError('malformed', path, 'the root element is not a Schematron <schema>');
  }
  const phases = schKids(index, root, 'phase').map((p) => attr(index, p, 'id') ?? '');
  return { layout: layoutOfPhases(phases), phases };
}

export function schematronPath(sdkDir: string, mode: 'static' | 'dynamic'): string {
  return join(sdkDir, 'schematrons', mode, 'complete-validation.sch');
}

/**
 * A file of the release as untrusted input: regular, inside the release, under the size cap. A file that
 * another one includes and that is missing is named with the file that includes it.
 */
function readSchFile(sdkDir: string, path: string, includedFrom?: string): string {
  try {
    return readSdkFile(sdkDir, path, 'sdkSchematronBytes');
  } catch (e) {
    const missing = !(e instanceof SdkFileError) || e.problem === 'missing';
    if (missing && includedFrom !== undefined)
      throw new SchematronReadError('missing-include', includedFrom, (e as Error).message, [], path);
    if (e instanceof SdkFileError)
      throw new SchematronReadError(e.problem === 'missing' ? 'missing' : 'malformed', path, e.message);
    throw new SchematronReadError('missing', path, (e as Error).message);
  }
}

function readIndexed(sdkDir: string, path: string, includedFrom?: string): XmlIndex {
  const text = readSchFile(sdkDir, path, includedFrom);
  const index = indexXml(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (index.errors.length > 0) {
    throw new SchematronReadError('malformed', path, `not well-formed XML: ${index.errors[0].message}`);
  }
  return index;
}

function attr(index: XmlIndex, el: XmlElement, name: string): string | undefined {
  const a = findAttribute(el, name);
  return a === undefined ? undefined : attributeValue(index, a);
}

function schKids(index: XmlIndex, el: XmlElement, local?: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) {
    const k = index.elements[c];
    if (k.ns === SCH_NS && (local === undefined || k.local === local)) out.push(k);
  }
  return out;
}

function readLets(index: XmlIndex, el: XmlElement): SchLet[] {
  return schKids(index, el, 'let').map((l) => ({
    name: attr(index, l, 'name') ?? '',
    value: attr(index, l, 'value') ?? '',
  }));
}

function readPattern(index: XmlIndex, el: XmlElement): SchPattern {
  const rules: SchRule[] = [];
  for (const r of schKids(index, el, 'rule')) {
    const asserts: SchAssert[] = [];
    for (const a of schKids(index, r)) {
      if (a.local !== 'assert' && a.local !== 'report') continue;
      const assert: SchAssert = {
        kind: a.local,
        id: attr(index, a, 'id') ?? '',
        role: attr(index, a, 'role') ?? '',
        test: attr(index, a, 'test') ?? '',
        diagnostics: (attr(index, a, 'diagnostics') ?? '').split(/\s+/).filter(Boolean),
        text: textContent(index, a).trim(),
      };
      const flag = attr(index, a, 'flag');
      if (flag !== undefined) assert.flag = flag;
      asserts.push(assert);
    }
    rules.push({ context: attr(index, r, 'context') ?? '', lets: readLets(index, r), asserts });
  }
  return { id: attr(index, el, 'id') ?? '', lets: readLets(index, el), rules };
}

/** The pattern id a file holds, read from its first start tags without parsing the whole file. */
function patternIdOf(sdkDir: string, path: string, includedFrom: string): string | undefined {
  const head = readSchFile(sdkDir, path, includedFrom).slice(0, 600);
  return /<(?:[\w-]+:)?pattern\b[^>]*\bid\s*=\s*["']([^"']+)["']/.exec(head)?.[1];
}

/** Reads the schema and the patterns active in `phase` (`#ALL` = every pattern). */
export function readSchematron(sdkDir: string, mode: 'static' | 'dynamic', phase: string): SchPhase {
  const path = schematronPath(sdkDir, mode);
  const index = readIndexed(sdkDir, path);
  const root = index.elements[0];
  if (!root || root.ns !== SCH_NS || root.local !== 'schema') {
    throw new SchematronReadError('malformed', path, 'the root element is not a Schematron <schema>');
  }
  const namespaces: [string, string][] = schKids(index, root, 'ns').map((n) => [
    attr(index, n, 'prefix') ?? '',
    attr(index, n, 'uri') ?? '',
  ]);
  const phases = schKids(index, root, 'phase').map((p) => attr(index, p, 'id') ?? '');
  let active: string[] | undefined;
  if (phase !== '#ALL') {
    const ph = schKids(index, root, 'phase').find((p) => attr(index, p, 'id') === phase);
    if (!ph) throw new SchematronReadError('unknown-phase', path, `no phase ${phase}`, phases);
    active = schKids(index, ph, 'active').map((a) => attr(index, a, 'pattern') ?? '');
  }
  const found = new Map<string, SchPattern>();
  // Every pattern in document order, for `#ALL`: patterns without an id, or sharing one, all run.
  const ordered: SchPattern[] = [];
  const dir = dirname(path);
  for (const el of schKids(index, root)) {
    if (el.local === 'pattern') {
      const pat = readPattern(index, el);
      found.set(pat.id, pat);
      ordered.push(pat);
    } else if (el.local === 'include') {
      const href = attr(index, el, 'href') ?? '';
      const file = join(dir, href);
      // An include that leaves the release (`../../…`, an absolute path) is refused by name.
      if (!isInside(resolve(sdkDir), resolve(file)))
        throw new SchematronReadError(
          'malformed',
          path,
          `the include "${href.slice(0, 200)}" leads outside the SDK release ${sdkDir}: it was not read`,
        );
      const id = patternIdOf(sdkDir, file, path);
      if (active && id !== undefined && !active.includes(id)) continue;
      const inc = readIndexed(sdkDir, file, path);
      const top = inc.elements[0];
      if (top?.ns === SCH_NS && top.local === 'pattern') {
        const pat = readPattern(inc, top);
        found.set(pat.id, pat);
        ordered.push(pat);
      }
    }
  }
  const diagnostics: SchDiagnostic[] = [];
  for (const d of schKids(index, root, 'diagnostics')) {
    for (const x of schKids(index, d, 'diagnostic')) {
      diagnostics.push({
        id: attr(index, x, 'id') ?? '',
        see: attr(index, x, 'see') ?? '',
        text: textContent(index, x).trim(),
      });
    }
  }
  const patterns: SchPattern[] = [];
  if (!active) patterns.push(...ordered);
  else
    for (const id of active) {
      const p = found.get(id);
      if (p) patterns.push(p);
    }
  const title = schKids(index, root, 'title')[0];
  return {
    title: title ? textContent(index, title).trim() : '',
    namespaces,
    lets: readLets(index, root),
    phase,
    patterns,
    diagnostics,
    phases,
  };
}

/** The files the rules of a mode are read from, for the cache's fingerprint. */
export function schematronFiles(sdkDir: string, mode: 'static' | 'dynamic'): string[] {
  const dir = dirname(schematronPath(sdkDir, mode));
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.sch'))
      .sort()
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}
