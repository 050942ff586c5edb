// Bench section: time from a didChange to the publishDiagnostics of the local diagnostics, through the
// real language server (dist/server.js) over stdio, on a small notice and on the SDK's 1.7 MB 100-lot
// sample, median of N edits (goal < 20 ms). Side by side, in the same run: the same local pipeline
// in-process with our index, and with fast-xml-parser's XMLValidator in place of the index for the
// well-formedness check (the alternative). Also the case where service findings are on screen and must
// be re-placed on every edit (mapSvrl on a fresh index). Listed in bench.ts (`npm run bench`), with the
// edit path's indexing, old way and new (edit-index-bench.ts), and its CPU in the server
// (edit-server-bench.ts).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { noticeKindOf } from '../../core/notice/kind';
import { indexXml } from '../../core/notice/xml-index';
import { localFindings } from '../../core/validation/local-checks';
import { docUri, LspSession } from '../support/lsp-session';
import { startHarness, TEST_API_KEY } from '../support/sandbox-harness';
import { PROJECT_ROOT, SAMPLES_DIR } from '../support/shared-data';
import { type BenchSection, interleavedMedians, median, type Row } from './bench-kit';
import { editIndexSections } from './edit-index-bench';
import { editServerSections } from './edit-server-bench';

const GOAL_MS = 20;

interface Notice {
  name: string;
  path: string;
  edits: number;
}

const SMALL: Notice = {
  name: 'invalid-cn.xml, 9 KB',
  path: join(PROJECT_ROOT, 'test', 'fixtures', 'notices', 'invalid-cn.xml'),
  edits: 40,
};
const LARGE: Notice = {
  name: 'cn_24_maximal_100_lots.xml, 1.7 MB',
  path: join(SAMPLES_DIR, 'notices', 'cn_24_maximal_100_lots.xml'),
  edits: 20,
};

/** An edit point inside the last text node of the notice: typing there keeps the notice well-formed. */
function editPoint(text: string): number {
  return text.lastIndexOf('</cbc:');
}

/** Times N edits (type a character, delete it, ...) from didChange to the publish of that version. */
async function timeEdits(s: LspSession, uri: string, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const { text } = s.textOf(uri);
    const at = editPoint(text);
    const mark = s.mark;
    const t0 = performance.now();
    const version = i % 2 === 0 ? await s.edit(uri, at, at, 'x') : await s.edit(uri, at - 1, at, '');
    await s.nextPublish(uri, mark, `publish of version ${version}`, (p) => p.version === version);
    times.push(performance.now() - t0);
  }
  return times;
}

async function serverMedian(text: string, n: number): Promise<number> {
  // Local diagnostics only (no key, manual runs): what every keystroke costs.
  const s = await LspSession.start({ settings: { validation: { run: 'manual' } } });
  try {
    const uri = docUri('bench.xml');
    const mark = s.mark;
    await s.open(uri, text);
    await s.nextPublish(uri, mark, 'first publish');
    await timeEdits(s, uri, 3);
    return median(await timeEdits(s, uri, n));
  } finally {
    await s.stop();
  }
}

/** With the service's findings on screen, every edit also re-places them on the new text (mapSvrl). */
async function serverWithFindingsMedian(text: string, n: number): Promise<{ ms: number; findings: number }> {
  const h = await startHarness();
  const s = await LspSession.start({
    apiKey: TEST_API_KEY,
    settings: {
      environment: 'sandbox',
      sandboxUrl: h.origin,
      validation: { debounceMs: 600000, timeoutMs: 300000 },
    },
  });
  try {
    const uri = docUri('bench-remote.xml');
    const mark = s.mark;
    await s.open(uri, text);
    await s.nextPublish(uri, mark, 'first publish');
    await s.validateNow(uri);
    const done = await s.nextStatus(
      mark,
      'validated',
      (x) => x.uri === uri && ['validated', 'error', 'offline'].includes(x.state),
      300000,
    );
    if (done.state !== 'validated') throw new Error(done.message ?? done.state);
    await timeEdits(s, uri, 3);
    return { ms: median(await timeEdits(s, uri, n)), findings: done.errors + done.warnings + done.infos };
  } finally {
    await s.stop();
    await h.close();
  }
}

function section(notice: Notice): BenchSection {
  return {
    name: `Live validation, ${notice.name}: didChange -> publishDiagnostics (median of ${notice.edits} edits)`,
    skip: () => (existsSync(notice.path) ? undefined : `${notice.path} is absent`),
    async run(): Promise<Row[]> {
      const text = readFileSync(notice.path, 'utf8');
      const at = editPoint(text);
      const edited = `${text.slice(0, at)}x${text.slice(at)}`;
      let flip = false;
      const next = () => {
        flip = !flip;
        return flip ? edited : text;
      };
      const [ours, alternative] = interleavedMedians(
        [
          () => {
            const index = indexXml(next());
            if (noticeKindOf(index)) localFindings(index);
          },
          () => XMLValidator.validate(next()),
        ],
        notice.edits,
      );
      const server = await serverMedian(text, notice.edits);
      const remote = await serverWithFindingsMedian(text, notice.edits);
      return [
        {
          name: 'server over stdio: local diagnostics',
          value: server,
          unit: 'ms',
          note: `goal < ${GOAL_MS} ms`,
        },
        {
          name: 'server over stdio: + service findings re-placed',
          value: remote.ms,
          unit: 'ms',
          note: `${remote.findings} findings re-placed on each edit`,
        },
        { name: 'in-process: indexXml + local checks', value: ours, unit: 'ms' },
        {
          name: 'in-process alternative: fast-xml-parser XMLValidator',
          value: alternative,
          unit: 'ms',
          note: `well-formedness only; ${(alternative / ours).toFixed(1)}× ours`,
        },
      ];
    },
  };
}

// The edit path's indexing, old way and new, and its main-thread CPU in the server, beside the live figures.
export const lspSections: BenchSection[] = [
  section(SMALL),
  section(LARGE),
  ...editIndexSections,
  ...editServerSections,
];
