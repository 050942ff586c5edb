// What a benchmark section is, and the timing helpers every section shares: warm-up, then the median
// of several runs, so that one slow run (a GC, another process) does not decide the figure.

export interface Row {
  /** What was measured, e.g. `indexXml` or `saxes (xmlns, position)`. */
  name: string;
  value: number;
  unit: string;
  /** The goal or a comparison, e.g. `goal ≥ 3× saxes` or `2.7× saxes`. */
  note?: string;
}

/**
 * A section of `npm run bench`. Its rows are either Row (printed as `name  value unit  note`) or any
 * flat record (printed as a table of its keys), so that sections keep the row shape that suits them.
 */
export interface BenchSection {
  name: string;
  /** A message when the section cannot run here (data absent), else undefined. */
  skip?(): string | undefined;
  run(): Promise<Row[] | object[]>;
}

export function isRow(r: object): r is Row {
  const x = r as Partial<Row>;
  return typeof x.name === 'string' && typeof x.value === 'number' && typeof x.unit === 'string';
}

/** Median of `runs` timed calls (ms) after `warmup` untimed ones. */
export function medianMs(fn: () => unknown, runs = 15, warmup = 3): number {
  for (let k = 0; k < warmup; k++) fn();
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(times);
}

/**
 * Medians of several functions timed in interleaved rounds, so that they share the machine's moments
 * of load instead of one of them getting all the quiet ones.
 */
export function interleavedMedians(fns: (() => unknown)[], rounds = 15, warmup = 3): number[] {
  for (let k = 0; k < warmup; k++) for (const fn of fns) fn();
  const times: number[][] = fns.map(() => []);
  for (let r = 0; r < rounds; r++) {
    fns.forEach((fn, k) => {
      const t = process.hrtime.bigint();
      fn();
      times[k].push(Number(process.hrtime.bigint() - t) / 1e6);
    });
  }
  return times.map(median);
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
