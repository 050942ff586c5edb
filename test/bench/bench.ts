// `npm run bench`: runs every benchmark section and prints one table with the machine it ran on.
// A section is a module exporting an array of BenchSection (bench-kit.ts); adding one is one line in
// SECTIONS below; `npm run bench -- WORD…` runs only the sections whose name contains a word. Figures are medians after warm-up; the README quotes them with date and machine.

import { cpus, loadavg } from 'node:os';
import { agrifoodBenchSection } from './agrifood-bench';
import { authoringSection } from './authoring-bench';
import { type BenchSection, isRow, type Row } from './bench-kit';
import { indexSections } from './index-bench';
import { lspSections } from './lsp-bench';
import { regexSections } from './regex-bench';
import { renderSections } from './render-bench';
import { reportSections } from './report-bench';
import { rulesScalingSections } from './rules-scaling-bench';
import { scalingSections } from './scaling-bench';
import { schematronSections } from './schematron-bench';
import { sdkPipelineSections } from './sdk-pipeline-bench';

const SECTIONS: BenchSection[] = [
  ...indexSections,
  ...reportSections,
  ...lspSections,
  agrifoodBenchSection,
  authoringSection,
  ...scalingSections,
  ...schematronSections,
  ...rulesScalingSections,
  ...sdkPipelineSections,
  ...regexSections,
  ...renderSections,
];

function formatValue(row: Row): string {
  const v = row.value;
  const digits = v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return `${v.toFixed(digits)} ${row.unit}`;
}

function printRows(rows: Row[]): void {
  const width = Math.max(...rows.map((r) => r.name.length), 10);
  for (const r of rows) {
    console.log(`  ${r.name.padEnd(width)}  ${formatValue(r).padStart(12)}${r.note ? `   ${r.note}` : ''}`);
  }
}

/** Any flat records: one column per key, numbers rounded for reading. */
function printTable(rows: object[]): void {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown): string =>
    typeof v === 'number'
      ? Number.isInteger(v)
        ? String(v)
        : v.toFixed(v >= 100 ? 0 : 2)
      : v === undefined
        ? ''
        : String(v);
  const cells = rows.map((r) => keys.map((k) => cell((r as Record<string, unknown>)[k])));
  const widths = keys.map((k, i) => Math.max(k.length, ...cells.map((c) => c[i].length)));
  console.log(`  ${keys.map((k, i) => k.padEnd(widths[i])).join('  ')}`);
  for (const c of cells) console.log(`  ${c.map((v, i) => v.padEnd(widths[i])).join('  ')}`);
}

async function main(): Promise<number> {
  const cpu = cpus();
  console.log('eForms notice tools — benchmarks');
  console.log(
    `machine: ${cpu[0]?.model ?? 'unknown cpu'} (${cpu.length} cores), load ${loadavg()[0].toFixed(2)}`,
  );
  console.log(`node ${process.version}, ${new Date().toISOString()}`);
  // `npm run bench -- rules lsp`: only the sections whose name contains one of the words.
  const only = process.argv.slice(2).map((w) => w.toLowerCase());
  let failed = 0;
  for (const section of SECTIONS) {
    if (only.length > 0 && !only.some((w) => section.name.toLowerCase().includes(w))) continue;
    console.log(`\n${section.name}`);
    const skip = section.skip?.();
    if (skip) {
      console.log(`  skipped: ${skip}`);
      continue;
    }
    try {
      const rows: object[] = await section.run();
      if (rows.every((r): r is Row => isRow(r))) printRows(rows as Row[]);
      else printTable(rows);
    } catch (e) {
      failed++;
      console.log(`  failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error(e);
    process.exitCode = 1;
  },
);
