// What the EFX tests share: the SDK releases of ../shared that ship view templates, their fields.json,
// the namespaces an XPath of theirs uses, and a way to run an XPath on a notice with the project's own
// engine (core/schematron), which serves here as the independent judge of the translator's output.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SDK_NAMESPACES } from '../../core/authoring/sdk-paths';
import { type EfxSymbols, symbolsFromFieldsJson } from '../../core/efx';
import { indexXml } from '../../core/notice/xml-index';
import { compile, Runtime, type Scope, XPathUnsupportedError } from '../../core/xpath/compile';
import { XDocument } from '../../core/xpath/document';
import { parseXPath } from '../../core/xpath/parser';
import { type Item, parseDate } from '../../core/xpath/values';
import { SHARED_DIR } from '../support/shared-data';

export const SDK_ROOT = join(SHARED_DIR, 'eforms-sdk');

/** The SDK release folders of ../shared that have a `view-templates/` folder. */
export function releasesWithTemplates(): string[] {
  if (!existsSync(SDK_ROOT)) return [];
  return readdirSync(SDK_ROOT)
    .map((v) => join(SDK_ROOT, v))
    .filter((dir) => existsSync(join(dir, 'view-templates')));
}

export function templateFiles(release: string): string[] {
  return readdirSync(join(release, 'view-templates'))
    .filter((f) => f.endsWith('.efx'))
    .sort();
}

const symbolCache = new Map<string, EfxSymbols>();
export function symbolsOf(release: string): EfxSymbols {
  let s = symbolCache.get(release);
  if (!s) {
    s = symbolsFromFieldsJson(JSON.parse(readFileSync(join(release, 'fields', 'fields.json'), 'utf8')));
    symbolCache.set(release, s);
  }
  return s;
}

/** The SDK prefixes (cbc, cac, efac…) and the two XPath ones the translator writes (xs, fn). */
export const XPATH_NAMESPACES: ReadonlyMap<string, string> = new Map([
  ...Object.entries(SDK_NAMESPACES),
  ['xs', 'http://www.w3.org/2001/XMLSchema'],
  ['fn', 'http://www.w3.org/2005/xpath-functions'],
  ['efx', 'http://data.europa.eu/p27/eforms-business-rules/efx'],
]);

export function parsesAsXPath(xpath: string): void {
  parseXPath(xpath, XPATH_NAMESPACES);
}

/** A notice loaded in the schematron engine, to run translated XPath on. */
export class NoticeRunner {
  readonly doc: XDocument;
  readonly rt = new Runtime();
  constructor(xml: string) {
    this.doc = new XDocument(indexXml(xml));
    this.rt.reset(this.doc, parseDate('2024-01-15Z'));
  }
  /** undefined when the engine lacks a function the expression uses (an engine gap, not an error). */
  run(xpath: string, item: Item): Item[] | undefined {
    const scope: Scope = { globals: new Map(), locals: new Map(), nextSlot: { n: 0 } };
    let fn: ReturnType<typeof compile>;
    try {
      fn = compile(parseXPath(xpath, XPATH_NAMESPACES), this.rt, scope);
    } catch (e) {
      if (e instanceof XPathUnsupportedError) return undefined;
      throw e;
    }
    return fn({ item, pos: 1, size: 1 });
  }
}
