// Throughput of the XML position index on the largest SDK sample (cn_24_maximal_100_lots.xml, 1.7 MB),
// beside the two parsers it replaces: fast-xml-parser's validator and saxes with namespaces and
// positions (what a position-tracking index would otherwise be built on). Same file, same run.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { SaxesParser } from 'saxes';
import { indexXml } from '../../core/xml-index';
import { SAMPLES_DIR, skipUnless } from '../support/shared-data';
import { type BenchSection, interleavedMedians, type Row } from './bench-kit';

const FILE = join(SAMPLES_DIR, 'notices', 'cn_24_maximal_100_lots.xml');

function saxesPass(text: string): number {
  const parser = new SaxesParser({ xmlns: true, position: true });
  let elements = 0;
  parser.on('opentag', () => {
    elements++;
  });
  parser.write(text).close();
  return elements;
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
      const [index, fxp, saxes] = interleavedMedians(
        [() => indexXml(text), () => XMLValidator.validate(text), () => saxesPass(text)],
        15,
        3,
      );
      const rate = (ms: number): number => mb / (ms / 1000);
      return [
        {
          name: `indexXml (${elements} elements)`,
          value: rate(index),
          unit: 'MB/s',
          note: `${index.toFixed(1)} ms`,
        },
        {
          name: 'fast-xml-parser XMLValidator.validate',
          value: rate(fxp),
          unit: 'MB/s',
          note: `${fxp.toFixed(1)} ms`,
        },
        { name: 'saxes (xmlns, position)', value: rate(saxes), unit: 'MB/s', note: `${saxes.toFixed(1)} ms` },
        { name: 'indexXml / saxes', value: saxes / index, unit: '×', note: 'goal ≥ 3×' },
        { name: 'indexXml / fast-xml-parser', value: fxp / index, unit: '×' },
      ];
    },
  },
];
