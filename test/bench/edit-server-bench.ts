// Bench section: what one edit costs the language server's main thread, measured in the real server
// (dist/server.js over stdio) as the kernel counts it (/proc/<pid>/task/<pid>/stat), not by the wall
// clock, which other processes on a shared machine distort. Each edit is followed, as in an editor, by
// the outline request (textDocument/documentSymbol), which the authoring handlers answer from the
// document's index: before issue 16 they built their own index of each version, so an edit was
// indexed twice on the main thread; now both share one. Run the same file against an older build to
// compare (the figures are in docs/rule-engine.md). Listed in lsp-bench.ts; Linux only.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { docUri, LspSession } from '../support/lsp-session';
import { SAMPLES_DIR } from '../support/shared-data';
import type { BenchSection, Row } from './bench-kit';

const NOTICES: { file: string; edits: number }[] = [
  { file: 'cn_24_maximal.xml', edits: 60 },
  { file: 'cn_24_maximal_100_lots.xml', edits: 30 },
];
const WARMUP_EDITS = 5;
/** Kernel clock ticks per second (getconf CLK_TCK; 100 on Linux for x86 and arm64). */
const TICKS_PER_S = 100;

/** CPU milliseconds (user + system) a thread of a process has used; the main thread's id is the pid. */
function threadCpuMs(pid: number, tid = pid): number {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_S;
}

/** The same for the whole process, its worker and garbage-collector threads included. */
function processCpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const g = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return ((Number(g[11]) + Number(g[12])) * 1000) / TICKS_PER_S;
}

/** One edit (type a character, or delete it), its diagnostics published, then the outline asked for. */
async function editAndOutline(s: LspSession, uri: string, i: number): Promise<void> {
  const { text } = s.textOf(uri);
  const at = text.lastIndexOf('</cbc:');
  const mark = s.mark;
  const version = i % 2 === 0 ? await s.edit(uri, at, at, 'x') : await s.edit(uri, at - 1, at, '');
  await s.nextPublish(uri, mark, `publish of version ${version}`, (p) => p.version === version);
  const symbols = await s.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
  if (!Array.isArray(symbols) || symbols.length === 0) throw new Error('the outline came back empty');
}

async function measure(file: string, edits: number): Promise<Row[]> {
  const text = readFileSync(join(SAMPLES_DIR, 'notices', file), 'utf8');
  // Local diagnostics only (no key, manual runs, no SDK): the work every keystroke costs the main thread.
  const s = await LspSession.start({ settings: { validation: { run: 'manual' } } });
  try {
    // The session keeps its child process to itself; its pid is all this bench reads.
    const pid = (s as unknown as { child: { pid?: number } }).child.pid;
    if (pid === undefined) throw new Error('the server has no pid');
    const uri = docUri(`bench-edit-${file}`);
    const mark = s.mark;
    await s.open(uri, text);
    await s.nextPublish(uri, mark, 'first publish');
    for (let i = 0; i < WARMUP_EDITS; i++) await editAndOutline(s, uri, i);
    const main0 = threadCpuMs(pid);
    const all0 = processCpuMs(pid);
    for (let i = 0; i < edits; i++) await editAndOutline(s, uri, WARMUP_EDITS + i);
    const main = (threadCpuMs(pid) - main0) / edits;
    const all = (processCpuMs(pid) - all0) / edits;
    return [
      {
        name: `${file}: main thread, per edit + outline`,
        value: main,
        unit: 'ms CPU',
        note: `${edits} edits; ±${(1000 / TICKS_PER_S / edits).toFixed(2)} ms from the kernel's tick`,
      },
      { name: `${file}: whole server process, per edit + outline`, value: all, unit: 'ms CPU' },
    ];
  } finally {
    await s.stop();
  }
}

export const editServerSections: BenchSection[] = [
  {
    name: 'Edit path through the server: main-thread CPU of didChange -> publishDiagnostics -> documentSymbol',
    skip: () =>
      !existsSync('/proc/self/task')
        ? 'needs /proc (Linux)'
        : NOTICES.every((n) => existsSync(join(SAMPLES_DIR, 'notices', n.file)))
          ? undefined
          : `the SDK samples are absent from ${SAMPLES_DIR}`,
    async run(): Promise<Row[]> {
      const rows: Row[] = [];
      for (const n of NOTICES) rows.push(...(await measure(n.file, n.edits)));
      return rows;
    },
  },
];
