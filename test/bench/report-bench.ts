// Reading the largest SDK sample report and placing all its assertions on its notice: what the
// language server does when a validation answer arrives. Goal: under 5 ms for parse + map.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { indexXml } from '../../core/notice/xml-index';
import { mapSvrl } from '../../core/svrl/mapping';
import { parseSvrl } from '../../core/svrl/report';
import { SAMPLES_DIR, skipUnless } from '../support/shared-data';
import { type BenchSection, interleavedMedians, type Row } from './bench-kit';

function largestReport(): { name: string; svrl: string; notice: string; kb: number } {
  const dir = join(SAMPLES_DIR, 'reports');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.svrl'))
    .map((f) => ({ f, size: statSync(join(dir, f)).size }))
    .sort((a, b) => b.size - a.size);
  const { f, size } = files[0];
  const name = f.slice(0, -'.svrl'.length);
  return {
    name,
    svrl: readFileSync(join(dir, f), 'utf8'),
    notice: readFileSync(join(SAMPLES_DIR, 'notices', `${name}.xml`), 'utf8'),
    kb: Math.round(size / 1024),
  };
}

export const reportSections: BenchSection[] = [
  {
    name: 'SVRL report → findings (largest sample report)',
    skip: () => skipUnless(SAMPLES_DIR),
    async run(): Promise<Row[]> {
      const { name, svrl, notice, kb } = largestReport();
      const index = indexXml(notice);
      const report = parseSvrl(svrl);
      const count = mapSvrl(index, report).length;
      const [parse, map, all] = interleavedMedians(
        [
          () => parseSvrl(svrl),
          () => mapSvrl(index, report),
          () => mapSvrl(indexXml(notice), parseSvrl(svrl)),
        ],
        30,
        10,
      );
      return [
        { name: `parseSvrl ${name}.svrl (${kb} KB)`, value: parse, unit: 'ms' },
        { name: `mapSvrl: ${count} assertions onto the notice`, value: map, unit: 'ms' },
        { name: 'parse + index notice + map', value: all, unit: 'ms', note: 'goal < 5 ms' },
      ];
    },
  },
];
