// Micro-benchmark of the XML position index alone, for tuning it: CPU-time medians of indexXml, saxes
// (xmlns, position) and fast-xml-parser's validator, interleaved in one process on one file.
// Run: `node out/test/bench/index-micro.js [file] [rounds]` after `npx tsc -p .`. Not part of `npm run bench`.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { indexXml } from '../../core/notice/xml-index';
import { SAMPLES_DIR } from '../support/shared-data';
import { interleavedCpuMedians, saxesPass } from './index-bench';

function main(): void {
  const file = process.argv[2] ?? join(SAMPLES_DIR, 'notices', 'cn_24_maximal_100_lots.xml');
  const rounds = Number(process.argv[3] ?? 41);
  const bytes = readFileSync(file);
  const text = bytes.toString('utf8');
  const mb = bytes.length / 1e6;
  const [index, saxes, fxp] = interleavedCpuMedians(
    [() => indexXml(text), () => saxesPass(text), () => XMLValidator.validate(text)],
    rounds,
    5,
  );
  const rate = (ms: number): string => `${(mb / (ms / 1000)).toFixed(1)} MB/s (${ms.toFixed(2)} ms CPU)`;
  console.log(`indexXml          ${rate(index)}`);
  console.log(`saxes             ${rate(saxes)}`);
  console.log(`fast-xml-parser   ${rate(fxp)}`);
  console.log(`indexXml / saxes  ${(saxes / index).toFixed(2)}x`);
}

main();
