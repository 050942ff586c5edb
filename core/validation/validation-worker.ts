// Entry of a worker thread that runs the SDK's rules (LocalSdkValidator) off the caller's thread. It
// receives a job (the notice's text and the request), answers with the EngineReport or the error's
// kind and fields, and polls a shared flag so that a newer edit stops a run in the middle. Bundled as
// dist/validation-worker.js beside server.js and cli.js. No `vscode` import here.

import { parentPort, workerData } from 'node:worker_threads';
import { indexFromTable, indexXml } from '../notice';
import { SdkError } from '../sdk';
import { LocalSdkValidator } from './local-validator';
import type { JobMessage, ResultMessage, WorkerData } from './worker-pool';

const validators = new Map<string, LocalSdkValidator>();

/** Jobs run in turn, in the order they came: a batch's pool sends the next one ahead (prefetch). */
let turn: Promise<void> = Promise.resolve();

parentPort?.on('message', (job: JobMessage) => {
  turn = turn
    .then(() => run(job))
    .then((m) => {
      parentPort?.postMessage(m);
      codeCacheReady();
    })
    .catch((e: unknown) => {
      // As before the turns: what cannot be answered (a report that cannot be sent) ends the worker,
      // and the pool fails that job and queues the next one again. The turns go on for no one.
      setImmediate(() => {
        throw e;
      });
    });
});

/**
 * Tells the bundle's entry (cli/code-cache-loader.ts, absent when run from out/) that the code a job
 * runs is compiled: V8's code cache written now holds it. Once; a worker is terminated, never exits.
 */
function codeCacheReady(): void {
  const ready = (globalThis as Record<symbol, unknown>)[Symbol.for('eforms.codeCacheReady')];
  if (typeof ready === 'function') ready();
}

async function run(job: JobMessage): Promise<ResultMessage> {
  const flag = new Int32Array(job.cancel);
  const cancelled = () => Atomics.load(flag, 0) === 1;
  try {
    const id = JSON.stringify([job.sources, job.ruleCacheDir]);
    let v = validators.get(id);
    if (!v) {
      v = new LocalSdkValidator({
        sources: job.sources,
        ruleCacheDir: job.ruleCacheDir,
        perPhaseRules: process.env.EFORMS_RULES_PER_PHASE === '1',
        // An editor's pool sends each edit's text here: the next run re-evaluates only what the edit can
        // reach (EFORMS_RULES_INCREMENTAL=0: every run in full, as the bench compares).
        incremental:
          (workerData as WorkerData | undefined)?.incremental === true &&
          process.env.EFORMS_RULES_INCREMENTAL !== '0',
      });
      validators.set(id, v);
    }
    const index = indexFromTable(job.text, job.table, job.errors, job.doctype) ?? indexXml(job.text);
    const report = await v.validate({
      ...job.input,
      index,
      bytes: new Uint8Array(0),
      isCancelled: cancelled,
    });
    return { id: job.id, ok: true, report };
  } catch (err) {
    if (err instanceof SdkError)
      return { id: job.id, ok: false, sdk: { kind: err.kind, fields: err.fields } };
    const e = err as Error;
    return {
      id: job.id,
      ok: false,
      name: e?.name ?? 'Error',
      message: String(e?.message ?? err).slice(0, 500),
    };
  }
}
