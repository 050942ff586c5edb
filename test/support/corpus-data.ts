// The SDK sample pairs (notices/X.xml with reports/X.svrl) and what the corpus tests know about each
// report, read by plain string search: the expected truth never comes from the tool under test.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLES_DIR } from './shared-data';

export interface SamplePair {
  name: string;
  noticePath: string;
  reportPath: string;
}

export interface RawReference {
  see: string;
  path: string;
}

export interface RawAssertion {
  id: string;
  location: string;
  role: string;
  references: RawReference[];
}

export function samplePairs(): SamplePair[] {
  const reports = join(SAMPLES_DIR, 'reports');
  if (!existsSync(reports)) return [];
  return readdirSync(reports)
    .filter((f) => f.endsWith('.svrl'))
    .map((f) => {
      const name = f.slice(0, -'.svrl'.length);
      return { name, noticePath: join(SAMPLES_DIR, 'notices', `${name}.xml`), reportPath: join(reports, f) };
    })
    .filter((p) => existsSync(p.noticePath));
}

/** Number of assertions, counted as the brief says: occurrences of the two start tags. */
export function countAssertions(svrl: string): number {
  return svrl.split('<svrl:failed-assert').length - 1 + (svrl.split('<svrl:successful-report').length - 1);
}

/** prefix -> URI from the report's declarations, by regular expression. */
export function rawNamespaces(svrl: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const m of svrl.matchAll(/<svrl:ns-prefix-in-attribute-values\s+prefix="([^"]*)"\s+uri="([^"]*)"/g)) {
    map.set(m[1], m[2]);
  }
  return map;
}

function attrs(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of tag.matchAll(/([\w:-]+)="([^"]*)"/g)) out[a[1]] = a[2];
  return out;
}

/** The assertions in document order, with their diagnostic references, by regular expression. */
export function rawAssertions(svrl: string): RawAssertion[] {
  const out: RawAssertion[] = [];
  const re =
    /<svrl:(failed-assert|successful-report)\b([^>]*?)(\/>|>([\s\S]*?)<\/svrl:(?:failed-assert|successful-report)>)/g;
  for (const m of svrl.matchAll(re)) {
    const a = attrs(m[2]);
    const body = m[4] ?? '';
    const references = [
      ...body.matchAll(/<svrl:diagnostic-reference\b([^>]*)>\s*<svrl:text>([^<]*)<\/svrl:text>/g),
    ].map((r) => ({ see: attrs(r[1]).see ?? '', path: r[2].trim() }));
    out.push({ id: a.id ?? '', location: a.location ?? '', role: a.role ?? '', references });
  }
  return out;
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}
