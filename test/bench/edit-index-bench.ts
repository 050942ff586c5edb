// Bench section: the main-thread CPU cost of indexing one edit for its two consumers (validation, then
// authoring), the old way and the new, in the same run. Before issue 16 the scheduler and the authoring
// handlers each called the XML index builder on every new version; now both ask server/index-cache's
// DocumentIndexes, which indexes each version once. Every round is a new version with other text (a
// character typed, then deleted), so the new way really indexes once and hits once, never twice from
// the cache. CPU time, not wall clock: other processes share the machine; the garbage collector's
// time counts, since the old way leaves twice the garbage. Listed in lsp-bench.ts.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexXml } from '../../core/notice/xml-index';
import { DocumentIndexes } from '../../server/index-cache';
import { SAMPLES_DIR } from '../support/shared-data';
import { type BenchSection, median, type Row } from './bench-kit';

const NOTICES = ['cn_24_maximal.xml', 'cn_24_maximal_100_lots.xml'];
const BLOCKS = 9;
const EDITS_PER_BLOCK = 8;

/**
 * CPU milliseconds per call of each function: the median, over `BLOCKS` interleaved blocks, of a block's
 * CPU time divided by its `EDITS_PER_BLOCK` calls. A block, not a single call, so that the garbage each
 * way leaves (twice as many indexes the old way) is mostly collected, and paid for, inside its own
 * block; interleaved, with the order alternating, so that both ways share the machine's moments.
 */
function cpuPerCall(fns: (() => unknown)[]): number[] {
  for (const fn of fns) for (let k = 0; k < EDITS_PER_BLOCK; k++) fn();
  const perCall: number[][] = fns.map(() => []);
  for (let b = 0; b < BLOCKS; b++) {
    for (let m = 0; m < fns.length; m++) {
      const k = b % 2 === 0 ? m : fns.length - 1 - m;
      const t = process.cpuUsage();
      for (let e = 0; e < EDITS_PER_BLOCK; e++) fns[k]();
      const d = process.cpuUsage(t);
      perCall[k].push((d.user + d.system) / 1000 / EDITS_PER_BLOCK);
    }
  }
  return perCall.map(median);
}

/** The notice and the same notice with one character typed in its last text node, as one edit leaves it. */
function versions(file: string): [string, string] {
  const text = readFileSync(join(SAMPLES_DIR, 'notices', file), 'utf8');
  const at = text.lastIndexOf('</cbc:');
  return [text, `${text.slice(0, at)}x${text.slice(at)}`];
}

/** Rows for one notice: each way's median CPU per edit, what the shared index saves, and their ratio. */
function measure(file: string): Row[] {
  const texts = versions(file);
  const uri = `file:///bench/${file}`;
  const cache = new DocumentIndexes();
  // The new way must really share: the second consumer gets the very index the first one built, and it
  // is the index the builder gives (same elements), so the figure below is not of a cache that skips work.
  const first = cache.get(uri, -1, texts[1]);
  if (cache.get(uri, -1, texts[1]) !== first) throw new Error('DocumentIndexes did not share the index');
  if (first.elements.length !== indexXml(texts[1]).elements.length)
    throw new Error('DocumentIndexes and indexXml disagree on the element count');
  let oldVersion = 0;
  let newVersion = 0;
  let oneVersion = 0;
  const [twice, once, single] = cpuPerCall([
    () => {
      const text = texts[++oldVersion % 2];
      indexXml(text); // the scheduler's index of the new version
      indexXml(text); // the authoring handlers' own index of it
    },
    () => {
      const v = ++newVersion;
      const text = texts[v % 2];
      cache.get(uri, v, text); // the scheduler
      cache.get(uri, v, text); // the authoring handlers: the same version, from the cache
    },
    // For reference: one call of the builder, what the new way should cost.
    () => indexXml(texts[++oneVersion % 2]),
  ]);
  const kb = Buffer.byteLength(texts[0]) / 1024;
  return [
    {
      name: `${file} (${kb.toFixed(0)} KB): old, indexXml twice`,
      value: twice,
      unit: 'ms CPU',
      note: 'validation, then authoring, each its own index',
    },
    {
      name: `${file}: new, DocumentIndexes once`,
      value: once,
      unit: 'ms CPU',
      note: 'one index per version, shared',
    },
    { name: `${file}: for reference, indexXml once`, value: single, unit: 'ms CPU' },
    {
      name: `${file}: saved per edit`,
      value: twice - once,
      unit: 'ms CPU',
      note: `new / old ${(once / twice).toFixed(2)}`,
    },
  ];
}

export const editIndexSections: BenchSection[] = [
  {
    name: `Edit path: indexing one edit for validation and authoring, old (twice) vs new (once), median of ${BLOCKS} blocks of ${EDITS_PER_BLOCK} edits`,
    skip: () =>
      NOTICES.every((f) => existsSync(join(SAMPLES_DIR, 'notices', f)))
        ? undefined
        : `the SDK samples (${NOTICES.join(', ')}) are absent from ${SAMPLES_DIR}`,
    async run(): Promise<Row[]> {
      return NOTICES.flatMap(measure);
    },
  },
];
