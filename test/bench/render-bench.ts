// Bench section: rendering with the SDK 1.15.1 view templates (core/preview), cn_24_maximal.xml and the
// 100-lot notice, cold (a fresh process: SDK release loaded, template translated and compiled, labels
// read, first render) and warm (median after warm-up), plus a re-render after an edit (index + render,
// what the preview does on a keystroke). Goals: cn_24_maximal under 50 ms warm, 100 lots under 500 ms.
// Then award notices generated from can_24_minimal with 100 to 400 lots, whose template joins every
// tender with every contract and result: one render each with the 2 s a template line gets, and the
// lines it left out, beside a render without the limit (the previous behaviour; 400 lots took 31 s).

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexXml } from '../../core/notice';
import { LINE_TIME_LIMIT_MS, loadPreviewSdk, renderNotice } from '../../core/preview';
import { SAMPLES_DIR, SDK_DIR } from '../support/shared-data';
import { hundredLots } from './authoring-bench';
import { type BenchSection, median, medianMs, type Row } from './bench-kit';
import { awardNotice } from './rules-scaling-bench';

const MAXIMAL = join(SAMPLES_DIR, 'notices', 'cn_24_maximal.xml');

/** Load + first render in a new process, as the CLI or a fresh language server pays it (ms). */
function coldMs(xml: string): number {
  const script = `
const { loadPreviewSdk, renderNotice } = require(${JSON.stringify(join(__dirname, '..', '..', 'core', 'preview'))});
const xml = require('node:fs').readFileSync(0, 'utf8');
const t = process.hrtime.bigint();
loadPreviewSdk(${JSON.stringify(SDK_DIR)}).then((sdk) => {
  renderNotice(xml, sdk, { language: 'en' });
  process.stdout.write(String(Number(process.hrtime.bigint() - t) / 1e6));
});`;
  const r = spawnSync(process.execPath, ['-e', script], { input: xml, encoding: 'utf8' });
  return Number(r.stdout);
}

/** Median CPU time (user + system) of this process per call: other processes' load does not count. */
function medianCpuMs(fn: () => unknown, runs: number): number {
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    const c = process.cpuUsage();
    fn();
    const d = process.cpuUsage(c);
    times.push((d.user + d.system) / 1000);
  }
  return median(times);
}

export const renderSections: BenchSection[] = [
  {
    name: 'Render with the view templates (SDK 1.15.1, labels in English)',
    skip: () =>
      existsSync(SDK_DIR) && existsSync(MAXIMAL) ? undefined : `${SDK_DIR} or ${MAXIMAL} is absent`,
    async run(): Promise<Row[]> {
      const sdk = await loadPreviewSdk(SDK_DIR);
      const rows: Row[] = [];
      for (const [name, xml, goal, runs] of [
        ['cn_24_maximal.xml', readFileSync(MAXIMAL, 'utf8'), 50, 15],
        ['cn_24_maximal_100_lots.xml', hundredLots(), 500, 5],
      ] as const) {
        const index = indexXml(xml);
        rows.push({
          name: `${name}: cold (new process, load + first render)`,
          value: coldMs(xml),
          unit: 'ms',
        });
        const warm = () => renderNotice(index, sdk, { language: 'en' });
        rows.push({
          name: `${name}: warm render`,
          value: medianMs(warm, runs, 3),
          unit: 'ms',
          note: `goal < ${goal} ms`,
        });
        rows.push({
          name: `${name}: warm render, CPU time of this process`,
          value: medianCpuMs(warm, runs),
          unit: 'ms',
          note: 'what a loaded machine leaves of the wall time',
        });
        rows.push({
          name: `${name}: after an edit (index + render)`,
          value: medianMs(() => renderNotice(indexXml(`${xml} `), sdk, { language: 'en' }), runs, 2),
          unit: 'ms',
        });
      }
      const award = readFileSync(join(SAMPLES_DIR, 'notices', 'can_24_minimal.xml'), 'utf8');
      // The award template's first renders, not timed: the first of the rows below paid for them.
      const small = indexXml(awardNotice(award, 20));
      for (let k = 0; k < 5; k++) renderNotice(small, sdk, { language: 'en' });
      for (const lots of [100, 200, 400]) {
        const index = indexXml(awardNotice(award, lots));
        const once = (limit: number) => {
          const t = process.hrtime.bigint();
          const r = renderNotice(index, sdk, { language: 'en', lineTimeLimitMs: limit });
          const ms = Number(process.hrtime.bigint() - t) / 1e6;
          return { ms, leftOut: r.problems.filter((p) => p.message.includes('was left out')).length };
        };
        const limited = once(LINE_TIME_LIMIT_MS);
        rows.push({
          name: `award notice, ${lots} lots: render, ${LINE_TIME_LIMIT_MS / 1000} s a template line`,
          value: limited.ms,
          unit: 'ms',
          note: `${limited.leftOut} line(s) left out`,
        });
        if (lots <= 200) {
          const unlimited = once(Number.POSITIVE_INFINITY);
          rows.push({
            name: `award notice, ${lots} lots: render without a limit (before)`,
            value: unlimited.ms,
            unit: 'ms',
            note: `${(unlimited.ms / limited.ms).toFixed(1)}× the limited render`,
          });
        }
      }
      return rows;
    },
  },
];
