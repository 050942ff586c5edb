// Throughput of the XML position index on the largest SDK sample (cn_24_maximal_100_lots.xml, 1.7 MB),
// beside the two parsers it replaces: fast-xml-parser's validator and saxes with namespaces and
// positions (what a position-tracking index would otherwise be built on). Same file, same run, same
// method for all three: CPU time (not wall clock: the machine is shared), medians of interleaved rounds.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { SaxesParser } from 'saxes';
import { indexXml } from '../../core/notice/xml-index';
import { SAMPLES_DIR, skipUnless } from '../support/shared-data';
import { type BenchSection, median, type Row } from './bench-kit';

const FILE = join(SAMPLES_DIR, 'notices', 'cn_24_maximal_100_lots.xml');

/** saxes configured as a position-tracking index would use it; returns the number of elements seen. */
export function saxesPass(text: string): number {
  const parser = new SaxesParser({ xmlns: true, position: true });
  let elements = 0;
  parser.on('opentag', () => {
    elements++;
  });
  parser.write(text).close();
  return elements;
}

/** CPU milliseconds (user + system, all threads, so GC helpers count too) of one call. */
function cpuMs(fn: () => unknown): number {
  const t = process.cpuUsage();
  fn();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
}

/**
 * Median CPU time of each function over `rounds` interleaved rounds after `warmup` untimed ones: CPU time
 * is what the code costs whatever else runs on the machine, and interleaving gives every candidate the
 * same share of cache and frequency disturbances.
 */
export function interleavedCpuMedians(fns: (() => unknown)[], rounds: number, warmup: number): number[] {
  for (let k = 0; k < warmup; k++) for (const fn of fns) fn();
  const times: number[][] = fns.map(() => []);
  for (let r = 0; r < rounds; r++) {
    // Alternate the order, so that no candidate always runs right after the same other one's garbage.
    for (let m = 0; m < fns.length; m++) {
      const k = r % 2 === 0 ? m : fns.length - 1 - m;
      times[k].push(cpuMs(fns[k]));
    }
  }
  return times.map(median);
}

export const indexSections: BenchSection[] = [
  {
    name: 'XML index (cn_24_maximal_100_lots.xml)',
    skip: () => skipUnless(SAMPLES_DIR),
    async run(): Promise<Row[]> {
      const bytes = readFileSync(FILE);
      const text = bytes.toString('utf8');
      const mb = bytes.length / 1e6;
      const elements = indexXml(text).elements.length;
      if (elements !== saxesPass(text)) throw new Error('indexXml and saxes disagree on the element count');
      const [index, fxp, saxes] = interleavedCpuMedians(
        [() => indexXml(text), () => XMLValidator.validate(text), () => saxesPass(text)],
        31,
        5,
      );
      const rate = (ms: number): number => mb / (ms / 1000);
      return [
        {
          name: `indexXml (${elements} elements)`,
          value: rate(index),
          unit: 'MB/s',
          note: `${index.toFixed(1)} ms CPU`,
        },
        {
          name: 'fast-xml-parser XMLValidator.validate',
          value: rate(fxp),
          unit: 'MB/s',
          note: `${fxp.toFixed(1)} ms CPU`,
        },
        {
          name: 'saxes (xmlns, position)',
          value: rate(saxes),
          unit: 'MB/s',
          note: `${saxes.toFixed(1)} ms CPU`,
        },
        { name: 'indexXml / saxes', value: saxes / index, unit: '×', note: 'goal ≥ 3×' },
        { name: 'indexXml / fast-xml-parser', value: fxp / index, unit: '×' },
      ];
    },
  },
];
