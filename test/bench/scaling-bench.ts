// Scaling on adversarial shapes (issue 12): the time per MB of each pass over hostile input at 1×, 10×
// and 100× the size, for many attributes, many siblings, deep nesting, long names, many findings and
// long tables. A linear pass keeps its per-MB cost flat (goal: within 2× from 1× to 100×); a quadratic
// one grows 100-fold. saxes, run on the same XML in the same run, is the reference for the index rows,
// at 1× and 10× only: it is itself quadratic in nesting depth (88 s for 0.5 MB of nested elements), so
// 10× is skipped when 1× already takes more than 100 ms.

import { SaxesParser } from 'saxes';
import { formatFindings } from '../../cli/output-formats';
import { toTextTable } from '../../core/agrifood/export';
import { indexXml } from '../../core/notice/xml-index';
import { mapSvrl } from '../../core/svrl/mapping';
import type { SvrlAssertion } from '../../core/svrl/report';
import { runCvsValidation } from '../../sandbox/cvs/validator';
import { type BenchSection, median } from './bench-kit';

const VALID_CN_HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2"
 xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<cbc:CustomizationID>eforms-sdk-1.15</cbc:CustomizationID>`;

interface Shape {
  shape: string;
  pass: string;
  /** Items at 1× (0.05 to 0.5 MB of input, so that 100× stays within a few seconds). */
  base: number;
  /** The input for n items, and the pass to time over it; returns its size in bytes. */
  make(n: number): { bytes: number; run: () => unknown; saxes?: () => unknown };
}

const saxesOf = (text: string) => () => {
  const p = new SaxesParser({ xmlns: true, position: true });
  p.on('error', () => undefined);
  p.write(text).close();
};

const failure = (location: string): SvrlAssertion => ({
  kind: 'failed-assert',
  id: 'R',
  location,
  role: 'ERROR',
  test: 'false()',
  text: 'wrong',
  diagnosticReferences: [],
});

export const SHAPES: Shape[] = [
  {
    shape: 'many attributes (one start tag)',
    pass: 'indexXml',
    base: 5_000,
    make(n) {
      const text = `<r ${Array.from({ length: n }, (_, k) => `a${k}="v"`).join(' ')}/>`;
      return { bytes: text.length, run: () => indexXml(text), saxes: saxesOf(text) };
    },
  },
  {
    shape: 'many siblings (<cbc:Note/>)',
    pass: 'indexXml',
    base: 5_000,
    make(n) {
      const text = `<r xmlns:cbc="urn:cbc">${'<cbc:Note/>'.repeat(n)}</r>`;
      return { bytes: text.length, run: () => indexXml(text), saxes: saxesOf(text) };
    },
  },
  {
    shape: 'deep nesting (<a> inside <a>)',
    pass: 'indexXml + every children list',
    base: 7_000,
    make(n) {
      const text = `${'<a>'.repeat(n)}${'</a>'.repeat(n)}`;
      const run = () => {
        const index = indexXml(text);
        let c = 0;
        for (const e of index.elements) c += e.children.length;
        return c;
      };
      return { bytes: text.length, run, saxes: saxesOf(text) };
    },
  },
  {
    shape: 'deep nesting, stray end tags',
    pass: 'indexXml (recovery)',
    base: 3_500,
    make(n) {
      const text = `${'<a>'.repeat(n)}${'</b>'.repeat(n)}`;
      return { bytes: text.length, run: () => indexXml(text) };
    },
  },
  {
    shape: 'long name (one unclosed element)',
    pass: 'indexXml + its error message',
    base: 200_000,
    make(n) {
      const text = `<${'x'.repeat(n)}>`;
      return { bytes: text.length, run: () => indexXml(text).errors[0].message.length, saxes: saxesOf(text) };
    },
  },
  {
    shape: "many '<' in one attribute value",
    pass: 'indexXml',
    base: 200_000,
    make(n) {
      const text = `<r a="${'<'.repeat(n)}"/>`;
      return { bytes: text.length, run: () => indexXml(text) };
    },
  },
  {
    shape: 'many findings on many siblings',
    pass: 'mapSvrl (positional locations)',
    base: 1_000,
    make(n) {
      const text = `<r>${'<x/>'.repeat(n)}</r>`;
      const index = indexXml(text);
      const report = {
        namespaces: new Map<string, string>(),
        assertions: Array.from({ length: n }, (_, k) => failure(`/r/x[${k + 1}]`)),
      };
      // Bytes: the notice and the report as SVRL would carry them (about 120 bytes per assertion).
      return { bytes: text.length + n * 120, run: () => mapSvrl(index, report) };
    },
  },
  {
    shape: 'many findings, // locations over deep nesting',
    pass: 'mapSvrl (descendant steps)',
    base: 5_000,
    make(n) {
      const text = `<r>${'<a>'.repeat(n)}<leaf/>${'</a>'.repeat(n)}</r>`;
      const index = indexXml(text);
      const report = {
        namespaces: new Map<string, string>(),
        assertions: Array.from({ length: 50 }, (_, k) => failure(`//a[${k + 1}]//leaf`)),
      };
      return { bytes: text.length, run: () => mapSvrl(index, report) };
    },
  },
  {
    shape: 'many findings, text output',
    pass: 'formatFindings text (sanitised)',
    base: 4_000,
    make(n) {
      const text = `<r>${'<x/>'.repeat(n)}</r>`;
      const findings = mapSvrl(indexXml(text), {
        namespaces: new Map(),
        assertions: Array.from({ length: n }, (_, k) => ({
          ...failure(`/r/x[${k + 1}]`),
          text: 'm\u001b[31m\u202e',
        })),
      });
      const out = formatFindings(findings, 'notice.xml', 'text');
      return { bytes: out.length, run: () => formatFindings(findings, 'notice.xml', 'text') };
    },
  },
  {
    shape: 'many failing siblings (sandbox CVS)',
    pass: 'runCvsValidation',
    base: 1_000,
    make(n) {
      const text = `${VALID_CN_HEAD}${'<cbc:Note/>'.repeat(n)}</ContractNotice>`;
      const bytes = Buffer.from(text);
      return { bytes: bytes.length, run: () => runCvsValidation(bytes, { now: Date.UTC(2025, 0, 1) }) };
    },
  },
  {
    shape: 'long table (agri-food rows)',
    pass: 'toTextTable',
    base: 10_000,
    make(n) {
      const rows = Array.from({ length: n }, (_, k) => [`DE`, `row ${k}`, '€123.45', '\u001b[2J']);
      const bytes = toTextTable(['ms', 'name', 'price', 'x'], rows).length;
      return { bytes, run: () => toTextTable(['ms', 'name', 'price', 'x'], rows) };
    },
  },
];

/**
 * Median CPU milliseconds (user + system, so GC threads count) of `runs` calls; `warm` first makes one
 * untimed call. CPU time, not wall clock: the machine is shared, and another process's load is not ours.
 */
function timed(fn: () => unknown, runs: number, warm = true): number {
  if (warm) fn();
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t = process.cpuUsage();
    fn();
    const d = process.cpuUsage(t);
    times.push((d.user + d.system) / 1000);
  }
  return median(times);
}

export const scalingSections: BenchSection[] = [
  {
    name: 'Scaling on adversarial shapes (ms per MB of input; goal: 100× within 2× of 1×)',
    async run(): Promise<object[]> {
      const rows: object[] = [];
      for (const s of SHAPES) {
        const perMb: number[] = [];
        const saxes: (number | string)[] = ['', ''];
        let mb100 = 0;
        for (const scale of [1, 10, 100]) {
          const input = s.make(s.base * scale);
          const mb = input.bytes / 1e6;
          perMb.push(timed(input.run, scale === 1 ? 9 : scale === 10 ? 5 : 3, scale < 100) / mb);
          if (scale === 100) mb100 = mb;
          if (input.saxes && scale === 1) saxes[0] = timed(input.saxes, 3) / mb;
          if (input.saxes && scale === 10)
            saxes[1] = (saxes[0] as number) * (mb / 10) < 100 ? timed(input.saxes, 1) / mb : 'skipped';
        }
        rows.push({
          shape: s.shape,
          pass: s.pass,
          'MB at 100×': mb100,
          '1×': perMb[0],
          '10×': perMb[1],
          '100×': perMb[2],
          '100×/1×': perMb[2] / perMb[0],
          'saxes 1×': saxes[0],
          'saxes 10×': saxes[1],
        });
      }
      return rows;
    },
  },
];
