// Bench sections of the SDK rules in the product (issue 9's integration): the throughput of
// `eforms validate --local` (dist/cli.js as a child process) over every official sample notice, with one
// worker and with two, side by side in the same run; and the time from a didChange to the SDK's
// diagnostics through the real language server (dist/server.js) on cn_24_maximal.xml and the 100-lot
// sample, which includes its debounce (SDK_RULES_DEBOUNCE_MS) (issue 19's goals: < 40 ms and < 120 ms), with the
// incremental rule runs and without them (EFORMS_RULES_INCREMENTAL=0) one after the other. Listed in
// bench.ts (`npm run bench`).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SDK_RULES_DEBOUNCE_MS } from '../../server/validation-scheduler';
import { docUri, LspSession } from '../support/lsp-session';
import { PROJECT_ROOT, SAMPLES_DIR, SDK_DIR } from '../support/shared-data';
import { type BenchSection, median, type Row } from './bench-kit';

const NOTICES = join(SAMPLES_DIR, 'notices');
/** Issue 19: edit -> SDK diagnostics, debounce included. */
const EDIT_GOAL_MS = 40;
const EDIT_GOAL_100_LOTS_MS = 120;
/** Each sample this many times: enough notices that start-up does not decide the figure. */
const REPEAT = 4;

const skip = () =>
  !existsSync(SDK_DIR)
    ? `${SDK_DIR} is absent`
    : !existsSync(NOTICES)
      ? `${NOTICES} is absent`
      : !existsSync(join(PROJECT_ROOT, 'dist', 'cli.js'))
        ? 'dist/ is not built (npm run build)'
        : undefined;

/** `eforms validate --local` of the build in `dist` over `files`, JSON out, a fixed day (both runs below). */
function validateLocalArgs(dist: string, files: string[], jobs: number): string[] {
  return [
    join(dist, 'cli.js'),
    'validate',
    '--local',
    '--sdk-dir',
    SDK_DIR,
    '--today',
    '2024-06-01',
    '--jobs',
    String(jobs),
    '--format',
    'json',
    ...files,
  ];
}

function cliRun(files: string[], jobs: number, cache: string): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, validateLocalArgs(join(PROJECT_ROOT, 'dist'), files, jobs), {
    env: { ...process.env, EFORMS_SDK_CACHE: cache },
    maxBuffer: 512 * 1024 * 1024,
    encoding: 'utf8',
  });
  const ms = performance.now() - t0;
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`eforms validate --local exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  return ms;
}

const throughput: BenchSection = {
  name: `eforms validate --local: notices per second over the ${'official samples'} ×${REPEAT} (whole command, warm rule cache)`,
  skip,
  async run(): Promise<Row[]> {
    const work = mkdtempSync(join(tmpdir(), 'bench-local-'));
    try {
      const cache = join(work, 'sdk');
      const samples = readdirSync(NOTICES)
        .filter((f) => f.endsWith('.xml'))
        .map((f) => join(NOTICES, f));
      const files = Array.from({ length: REPEAT }, () => samples).flat();
      cliRun(samples, 2, cache); // fills the on-disk rule cache for every phase the samples use
      const one: number[] = [];
      const two: number[] = [];
      for (let i = 0; i < 3; i++) {
        one.push(cliRun(files, 1, cache));
        two.push(cliRun(files, 2, cache));
      }
      const rate = (ms: number) => files.length / (ms / 1000);
      const r1 = rate(median(one));
      const r2 = rate(median(two));
      // One phase only (the subtype-16 contract notices): the steady cost per notice once compiled.
      const phase16 = samples.filter((f) => /[/\\]cn_24_(minimal|maximal|open)\.xml$/.test(f));
      const many = Array.from({ length: 16 }, () => phase16).flat();
      const one16: number[] = [];
      const two16: number[] = [];
      for (let i = 0; i < 3; i++) {
        one16.push(cliRun(many, 1, cache));
        two16.push(cliRun(many, 2, cache));
      }
      const q1 = many.length / (median(one16) / 1000);
      const q2 = many.length / (median(two16) / 1000);
      const perDay = (r: number) => `a day's ~3,000 notices in ${Math.round(3000 / r)} s`;
      return [
        { name: `1 worker (${files.length} notices)`, value: r1, unit: 'notices/s', note: perDay(r1) },
        {
          name: `2 workers (${files.length} notices)`,
          value: r2,
          unit: 'notices/s',
          note: `${(r2 / r1).toFixed(2)}× one worker; ${perDay(r2)}`,
        },
        {
          name: `one phase (eforms-16), 1 worker (${many.length} notices)`,
          value: q1,
          unit: 'notices/s',
          note: perDay(q1),
        },
        {
          name: `one phase (eforms-16), 2 workers (${many.length} notices)`,
          value: q2,
          unit: 'notices/s',
          note: `${(q2 / q1).toFixed(2)}× one worker; ${perDay(q2)}`,
        },
      ];
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};

/** CPU time of a process and all its threads so far, in ms (Linux /proc; 0 elsewhere). */
function processCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime (fields 14 and 15 of the line), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * Median time from a didChange to the SDK diagnostics of that version, over `edits` edits after 5, and
 * the server's CPU time per edit (every thread: on a loaded machine wall time mostly measures waiting).
 */
async function editMedian(
  text: string,
  edits: number,
  incremental: boolean,
): Promise<{ wall: number; cpu: number }> {
  const work = mkdtempSync(join(tmpdir(), 'bench-lsp-sdk-'));
  // The server's worker reads it when it starts: 0 runs every rule in full, as before issue 19.
  const saved = process.env.EFORMS_RULES_INCREMENTAL;
  process.env.EFORMS_RULES_INCREMENTAL = incremental ? '1' : '0';
  const s = await LspSession.start({
    settings: { validation: { engine: 'local' }, sdk: { path: SDK_DIR } },
    sdkCacheRoot: join(work, 'sdk'),
  });
  if (saved === undefined) delete process.env.EFORMS_RULES_INCREMENTAL;
  else process.env.EFORMS_RULES_INCREMENTAL = saved;
  try {
    const uri = docUri('bench-sdk.xml');
    await s.open(uri, text);
    await s.nextLocalStatus(
      0,
      'first SDK run',
      (x) => x.state === 'validated' || x.state === 'error',
      120000,
    );
    const at = text.lastIndexOf('</cbc:');
    let inserted = '';
    const times: number[] = [];
    // The session keeps its child process to itself; the bench reads its CPU time from /proc.
    const pid = (s as unknown as { child: { pid?: number } }).child.pid;
    let cpu0 = 0;
    for (let i = 0; i < edits + 5; i++) {
      if (i === 5) cpu0 = processCpuMs(pid);
      // Each edit leaves a text never seen before, so no answer comes from the cache.
      const next = String(i);
      const mark = s.mark;
      const t0 = performance.now();
      await s.edit(uri, at, at + inserted.length, next);
      inserted = next;
      await s.nextLocalStatus(
        mark,
        `SDK result of edit ${i}`,
        (x) => x.state === 'validated' || x.state === 'error',
        120000,
      );
      if (i >= 5) times.push(performance.now() - t0);
    }
    return { wall: median(times), cpu: (processCpuMs(pid) - cpu0) / edits };
  } finally {
    await s.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

const editToDiagnostics: BenchSection = {
  name: 'Live SDK rules: didChange -> SDK diagnostics through the server, incremental against full runs (cn_24_maximal, 100 lots)',
  skip,
  async run(): Promise<Row[]> {
    const rows: Row[] = [];
    for (const [file, goal, edits] of [
      ['cn_24_maximal.xml', EDIT_GOAL_MS, 20],
      ['cn_24_maximal_100_lots.xml', EDIT_GOAL_100_LOTS_MS, 12],
    ] as const) {
      const text = readFileSync(join(NOTICES, file), 'utf8');
      // One after the other in the same minutes: the load of the machine is about the same for both.
      const full = await editMedian(text, edits, false);
      const incremental = await editMedian(text, edits, true);
      rows.push(
        {
          name: `${file}: edit -> SDK diagnostics, every rule run (debounce ${SDK_RULES_DEBOUNCE_MS} ms included)`,
          value: full.wall,
          unit: 'ms',
          note: `median of ${edits} edits; server CPU ${full.cpu.toFixed(1)} ms an edit`,
        },
        {
          name: `${file}: edit -> SDK diagnostics, incremental (debounce ${SDK_RULES_DEBOUNCE_MS} ms included)`,
          value: incremental.wall,
          unit: 'ms',
          note: `server CPU ${incremental.cpu.toFixed(1)} ms an edit (${(full.cpu / incremental.cpu).toFixed(2)}× less); goal < ${goal} ms`,
        },
      );
    }
    return rows;
  },
};

/** The whole command once, with its peak resident memory (all threads) from /usr/bin/time. */
function cliRunMeasured(
  files: string[],
  jobs: number,
  cache: string,
  env: Record<string, string> = {},
  dist = join(PROJECT_ROOT, 'dist'),
): { ms: number; peakMb: number; cpuMs: number } {
  const t0 = performance.now();
  const r = spawnSync(
    '/usr/bin/time',
    ['-f', 'PEAK_KB=%M CPU_S=%U+%S', process.execPath, ...validateLocalArgs(dist, files, jobs)],
    {
      env: { ...process.env, EFORMS_SDK_CACHE: cache, ...env },
      maxBuffer: 512 * 1024 * 1024,
      encoding: 'utf8',
    },
  );
  const ms = performance.now() - t0;
  const peak = /PEAK_KB=(\d+)/.exec(r.stderr ?? '');
  const cpu = /CPU_S=([\d.]+)\+([\d.]+)/.exec(r.stderr ?? '');
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`eforms validate --local exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  return {
    ms,
    peakMb: peak ? Number(peak[1]) / 1024 : Number.NaN,
    // User plus system time of the process and its threads: what a loaded machine does not inflate.
    cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : Number.NaN,
  };
}

/**
 * EFORMS_BENCH_BASE=<folder of another checkout, built>: its dist/ runs beside this one in the same
 * section (the previous engine, side by side in the same minutes).
 */
function baseDist(): string | undefined {
  const base = process.env.EFORMS_BENCH_BASE?.trim();
  return base && existsSync(join(base, 'dist', 'cli.js')) ? join(base, 'dist') : undefined;
}

/**
 * Issue 19: a batch over every phase of SDK 1.15.1 (each sample notice's subtype code rewritten to each
 * phase's subtype, two notices per phase), `--jobs 2`, and one cold single-notice run; the release
 * table (phases share compiled expressions, one cache file per release, a single notice in the calling
 * thread) against the previous approach (EFORMS_RULES_PER_PHASE=1: each phase compiled whole in each
 * worker from its own 7 MB cache file), side by side in the same run. Goals: >= 60 notices/s and
 * < 600 MB peak; a cold single notice < 0.35 s.
 */
const everyPhase: BenchSection = {
  name: 'eforms validate --local over every phase of SDK 1.15.1 (2 notices per phase, --jobs 2), and one cold notice: release table vs per phase',
  skip: () => skip() ?? (existsSync('/usr/bin/time') ? undefined : '/usr/bin/time is absent'),
  async run(): Promise<Row[]> {
    const work = mkdtempSync(join(tmpdir(), 'bench-phases-'));
    try {
      const sch = readFileSync(join(SDK_DIR, 'schematrons', 'static', 'complete-validation.sch'), 'utf8');
      const subtypes = [...sch.matchAll(/<phase id="eforms-([^"]+)"/g)].map((m) => m[1] as string);
      const bases = ['cn_24_maximal.xml', 'can_24_minimal.xml'].map((f) =>
        readFileSync(join(NOTICES, f), 'utf8'),
      );
      const files: string[] = [];
      for (const st of subtypes)
        for (const [i, base] of bases.entries()) {
          const f = join(work, `n-${st}-${i}.xml`);
          writeFileSync(
            f,
            base.replace(/(<efac:NoticeSubType>\s*<cbc:SubTypeCode[^>]*>)[^<]*(<)/, `$1${st}$2`),
          );
          files.push(f);
        }
      const rows: Row[] = [];
      const base = baseDist();
      const variants: [string, Record<string, string>, string | undefined][] = [
        ['per phase (before)', { EFORMS_RULES_PER_PHASE: '1' }, undefined],
        ...(base
          ? [['previous build (EFORMS_BENCH_BASE)', {}, base] as [string, Record<string, string>, string]]
          : []),
        ['release table', {}, undefined],
      ];
      for (const [label, env, dist] of variants) {
        const cache = join(work, label.replace(/\W+/g, '-'), 'sdk');
        cliRunMeasured(files, 2, cache, env, dist); // fills the rule cache (and the code cache)
        const runs = [cliRunMeasured(files, 2, cache, env, dist), cliRunMeasured(files, 2, cache, env, dist)];
        const best = runs.reduce((a, b) => (a.ms <= b.ms ? a : b));
        const single = [1, 2, 3].map(() =>
          cliRunMeasured([join(NOTICES, 'cn_24_maximal.xml')], 1, cache, env, dist),
        );
        const cpu = (xs: { cpuMs: number }[]) => Math.round(median(xs.map((x) => x.cpuMs)));
        rows.push(
          {
            name: `${label}: ${files.length} notices, ${subtypes.length} phases, --jobs 2`,
            value: files.length / (best.ms / 1000),
            unit: 'notices/s',
            note: `goal >= 60; CPU ${cpu(runs)} ms (all threads); peak ${Math.round(Math.max(...runs.map((r) => r.peakMb)))} MB (goal < 600)`,
          },
          {
            name: `${label}: one cold cn_24_maximal`,
            value: median(single.map((r) => r.ms)) / 1000,
            unit: 's',
            note: `goal < 0.35 s; CPU ${cpu(single)} ms; peak ${Math.round(Math.max(...single.map((r) => r.peakMb)))} MB`,
          },
        );
      }
      return rows;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};

export const sdkPipelineSections: BenchSection[] = [throughput, everyPhase, editToDiagnostics];
