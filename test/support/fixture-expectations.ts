// Test support: what a fixture notice's header comment says the service reports (`expect: ROLE ID
// LOCATION` lines), and where each location is in the text, found by plain text search (the nth
// `<prefix:Local` after the parent's start, by local name so that any prefix matches): an independent
// truth for the positions the server publishes, never computed through the index.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './shared-data';

export const NOTICES = join(PROJECT_ROOT, 'test', 'fixtures', 'notices');

export function fixtureText(name: string): string {
  return readFileSync(join(NOTICES, name), 'utf8');
}

export interface Expectation {
  role: 'ERROR' | 'WARN' | 'INFO';
  id: string;
  location: string;
}

export function expectationsOf(text: string): Expectation[] {
  return [...text.matchAll(/expect: (ERROR|WARN|INFO) (\S+) (\S+)/g)].map((m) => ({
    role: m[1] as Expectation['role'],
    id: m[2] ?? '',
    location: m[3] ?? '',
  }));
}

/** Offset of the element (its `<`) or attribute (its name) an absolute SVRL location points at. */
export function offsetOfLocation(text: string, location: string): number {
  let pos = 0;
  for (const step of location.split('/').filter(Boolean)) {
    if (step.startsWith('@')) {
      const tagEnd = text.indexOf('>', pos);
      const re = new RegExp(`\\s(${step.slice(1)})\\s*=`, 'g');
      re.lastIndex = pos;
      const m = re.exec(text);
      if (!m || m.index > tagEnd) throw new Error(`attribute ${step} not found for ${location}`);
      return m.index + 1;
    }
    const m = /^(?:[\w.-]+:)?([\w.-]+)(?:\[(\d+)\])?$/.exec(step);
    if (!m) throw new Error(`unsupported step ${step}`);
    const local = m[1] ?? '';
    let n = Number(m[2] ?? '1');
    const re = new RegExp(`<(?:[\\w.-]+:)?${local}[\\s/>]`, 'g');
    re.lastIndex = pos;
    let found: RegExpExecArray | null = null;
    while (n-- > 0) {
      found = re.exec(text);
      if (!found) throw new Error(`step ${step} of ${location} not found`);
    }
    pos = found?.index ?? pos;
  }
  return pos;
}
