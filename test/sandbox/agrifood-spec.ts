// Reads the contract itself (../shared/specs/agrifood-data-api.md): data endpoints with their
// parameters and record names, listing paths, and the fields of every record with their types, so
// that tests compare the client and the sandbox with the spec's text, not with each other.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED_DIR } from '../support/shared-data';

export const SPEC_FILE = join(SHARED_DIR, 'specs', 'agrifood-data-api.md');
export const specSkip = existsSync(SPEC_FILE) ? undefined : `${SPEC_FILE} is absent: skipped`;

export interface SpecEndpoint {
  path: string;
  record: string;
  params: { name: string; type: string }[];
  listings: string[];
}

export interface SpecSpec {
  endpoints: SpecEndpoint[];
  listings: Set<string>;
  /** Record name -> field -> S | I | N | S? (nullable) */
  records: Map<string, Map<string, string>>;
}

export function readSpec(): SpecSpec {
  const text = readFileSync(SPEC_FILE, 'utf8');
  const endpoints: SpecEndpoint[] = [];
  const listings = new Set<string>();
  const re = /\*\*GET (\/api\/\S+)\*\* -> (\w+)\[\]\s*\nParameters: ([^\n]*)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const [, path, record, paramText] = m as unknown as [string, string, string, string];
    const params: { name: string; type: string }[] = [];
    const own: string[] = [];
    // Parameters are "name TYPE (note)", separated by commas outside parentheses.
    let depth = 0;
    let cur = '';
    const parts: string[] = [];
    for (const ch of paramText) {
      if (ch === '(') depth++;
      if (ch === ')') depth--;
      if (ch === ',' && depth === 0) {
        parts.push(cur);
        cur = '';
      } else cur += ch;
    }
    parts.push(cur);
    let lastListing = '';
    for (const part of parts) {
      const pm = /^\s*(\w+) (S\[\]|I\[\]|S|I)(?=[\s,(.]|$)/.exec(part);
      if (pm) params.push({ name: pm[1] as string, type: pm[2] as string });
      for (const lm of part.matchAll(/\((?:[^()]*?)(\/api\/[\w/]+|\.\.\.\/\w+)/g)) {
        let p = lm[1] as string;
        if (p.startsWith('...')) p = lastListing.replace(/\/\w+$/, '') + p.slice(3);
        else lastListing = p;
        own.push(p);
      }
      for (const lm of part.matchAll(/list at (\/api\/[\w/]+)/g)) own.push(lm[1] as string);
    }
    for (const l of own) listings.add(l);
    endpoints.push({ path, record, params, listings: own });
  }
  for (const m of text.matchAll(/\| GET (\/api\/[\w/]+) \|/g)) listings.add(m[1] as string);

  const records = new Map<string, Map<string, string>>();
  const common = new Map<string, string>();
  const commonSection = text.slice(
    text.indexOf('### Common price record'),
    text.indexOf('### Records per endpoint'),
  );
  for (const m of commonSection.matchAll(/^\| (\w+) \| (S|I|N)\b/gm))
    common.set(m[1] as string, m[2] as string);
  const perEndpoint = text.slice(text.indexOf('### Records per endpoint'), text.indexOf('### Error record'));
  for (const m of perEndpoint.matchAll(/^\| (\w+) \| ([^|]+) \|$/gm)) {
    const [, name, cell] = m as unknown as [string, string, string];
    if (name === 'Record') continue;
    const fields = new Map<string, string>();
    if (cell.includes('PRICE-COMMON')) for (const [k, v] of common) fields.set(k, v);
    const flat = cell.replace(/\([^)]*\)/g, '');
    for (const f of flat.matchAll(/`?(\w+)`? (S or null|S|I|N)\b/g)) {
      fields.set(f[1] as string, f[2] === 'S or null' ? 'S?' : (f[2] as string));
    }
    records.set(name, fields);
  }
  return { endpoints, listings, records };
}
