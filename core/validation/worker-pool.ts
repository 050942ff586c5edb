// A small pool of worker threads that run the SDK's rules (validation-worker.ts), and the Validator
// that hands jobs to it. The language server uses one worker, so typing never waits on the rules; the
// CLI uses `--jobs N`. Aborting a job's signal removes it from the queue, or flips the shared flag the
// running worker polls. A worker that dies fails its job and is replaced on the next one. No `vscode`
// import here.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SdkSources } from '../sdk';
import { SdkError, type SdkErrorFields, type SdkErrorKind } from '../sdk';
import { noticeSubTypeOf } from './local-validator';
import type { EngineReport, ValidationInput, Validator } from './validator';

/** The request without what cannot cross threads (the index, the signal, callbacks). */
export type WorkerInput = Omit<ValidationInput, 'index' | 'bytes' | 'signal' | 'isCancelled'>;
export type WorkerSources = Omit<SdkSources, 'download'> & {
  download?: Omit<NonNullable<SdkSources['download']>, 'signal' | 'onProgress'>;
};

export interface JobMessage {
  id: number;
  text: string;
  input: WorkerInput;
  sources: WorkerSources;
  ruleCacheDir?: string;
  /** Int32Array(1) over it: 1 means "stop". */
  cancel: SharedArrayBuffer;
}

export type ResultMessage =
  | { id: number; ok: true; report: EngineReport }
  | { id: number; ok: false; sdk: { kind: SdkErrorKind; fields: SdkErrorFields } }
  | { id: number; ok: false; name: string; message: string };

interface Job {
  msg: JobMessage;
  /** The rule set the job needs (release, phase, mode): a worker that compiled it runs it at once. */
  affinity: string;
  resolve(r: EngineReport): void;
  reject(e: unknown): void;
}

/** The worker script beside this module (out/core/validation/) or beside the bundle (dist/). */
export function workerScript(): string {
  return join(__dirname, 'validation-worker.js');
}

export class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job>();
  private readonly queue: Job[] = [];
  /** The rule sets each worker has compiled (compiling a phase costs far more than running it). */
  private readonly warm = new Map<Worker, Set<string>>();
  private nextId = 1;
  private closed = false;

  constructor(
    readonly size = 1,
    private readonly script = workerScript(),
  ) {}

  run(
    text: string,
    input: WorkerInput,
    sources: WorkerSources,
    ruleCacheDir?: string,
    signal?: AbortSignal,
    affinity = '',
  ): Promise<EngineReport> {
    if (this.closed) return Promise.reject(new SdkError('engine', { reason: 'the worker pool is closed' }));
    // A broken installation fails each run with a reason, never the caller's thread.
    if (!existsSync(this.script))
      return Promise.reject(
        new SdkError('engine', { reason: `the worker script ${this.script} is missing` }),
      );
    if (signal?.aborted) return Promise.reject(abortError());
    const cancel = new SharedArrayBuffer(4);
    const msg: JobMessage = { id: this.nextId++, text, input, sources, ruleCacheDir, cancel };
    return new Promise<EngineReport>((resolve, reject) => {
      const job: Job = { msg, affinity, resolve, reject };
      signal?.addEventListener(
        'abort',
        () => {
          const at = this.queue.indexOf(job);
          if (at >= 0) {
            this.queue.splice(at, 1);
            reject(abortError());
          } else Atomics.store(new Int32Array(cancel), 0, 1);
        },
        { once: true },
      );
      this.queue.push(job);
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const j of this.queue.splice(0)) j.reject(abortError());
    const all = [...this.idle.splice(0), ...this.busy.keys()];
    await Promise.all(all.map((w) => w.terminate()));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      // An idle worker that already compiled what a queued job needs takes that job first.
      let w: Worker | undefined;
      let at = -1;
      for (const candidate of this.idle) {
        const warm = this.warm.get(candidate);
        at = warm ? this.queue.findIndex((j) => warm.has(j.affinity)) : -1;
        if (at >= 0) {
          w = candidate;
          this.idle.splice(this.idle.indexOf(candidate), 1);
          break;
        }
      }
      if (!w) {
        // Else the first job no busy worker is warm for: two workers should not compile the same phase.
        const busyWarm = [...this.busy.keys()].map((b) => this.warm.get(b));
        at = pickCold(this.queue, busyWarm);
        w = this.idle.pop();
        if (!w) {
          if (this.busy.size >= this.size) return;
          w = this.spawn();
        }
      }
      const [job] = this.queue.splice(at, 1) as [Job];
      this.busy.set(w, job);
      const warm = this.warm.get(w) ?? new Set<string>();
      this.warm.set(w, warm);
      warm.add(job.affinity);
      w.postMessage(job.msg);
    }
  }

  private spawn(): Worker {
    const w = new Worker(this.script);
    w.on('message', (m: ResultMessage) => {
      const job = this.busy.get(w);
      this.busy.delete(w);
      if (!this.closed) this.idle.push(w);
      if (job) settle(job, m);
      this.pump();
    });
    const died = (reason: string) => {
      const job = this.busy.get(w);
      this.busy.delete(w);
      const at = this.idle.indexOf(w);
      if (at >= 0) this.idle.splice(at, 1);
      this.warm.delete(w);
      job?.reject(new SdkError('engine', { reason }));
      if (!this.closed) this.pump();
    };
    w.on('error', (e) => died(`the rules worker failed (${String(e?.message ?? e).slice(0, 200)})`));
    w.on('exit', (code) => {
      if (this.busy.has(w) || this.idle.includes(w)) died(`the rules worker exited (${code})`);
    });
    return w;
  }
}

/**
 * The job a worker that is warm for nothing queued should take: the first whose rule set no busy
 * worker has loaded; else the first of the rule set with the most queued notices, where loading it a
 * second time is shared by the most work. A worker never waits while jobs are queued.
 */
export function pickCold(
  queue: readonly { affinity: string }[],
  busyWarm: readonly (ReadonlySet<string> | undefined)[],
): number {
  const cold = queue.findIndex((j) => !busyWarm.some((set) => set?.has(j.affinity)));
  if (cold >= 0 || busyWarm.length === 0) return Math.max(0, cold);
  const counts = new Map<string, number>();
  for (const j of queue) counts.set(j.affinity, (counts.get(j.affinity) ?? 0) + 1);
  let best = 0;
  let most = 0;
  for (const [i, j] of queue.entries()) {
    const n = counts.get(j.affinity) ?? 0;
    if (n > most) {
      most = n;
      best = i;
    }
  }
  return best;
}

function settle(job: Job, m: ResultMessage): void {
  // A job aborted while its worker was finishing is never answered: a newer one took over.
  if (m.ok && Atomics.load(new Int32Array(job.msg.cancel), 0) === 1) job.reject(abortError());
  else if (m.ok) job.resolve(m.report);
  else if ('sdk' in m) job.reject(new SdkError(m.sdk.kind, m.sdk.fields));
  else if (m.name === 'AbortError') job.reject(abortError());
  else job.reject(new SdkError('engine', { reason: m.message }));
}

function abortError(): Error {
  const e = new Error('The run was cancelled by a newer edit.');
  e.name = 'AbortError';
  return e;
}

/** The SDK's rules as a Validator whose work happens in a WorkerPool. */
export class WorkerValidator implements Validator {
  readonly engine = 'local' as const;

  constructor(
    private readonly pool: WorkerPool,
    private readonly sources: WorkerSources,
    private readonly ruleCacheDir?: string,
  ) {}

  validate(input: ValidationInput): Promise<EngineReport> {
    const { index, bytes: _b, signal, isCancelled: _c, ...rest } = input;
    return this.pool.run(index.text, rest, this.sources, this.ruleCacheDir, signal, affinityOf(input));
  }
}

/** What decides the rule set a notice needs, as far as it can be read without resolving the SDK. */
export function affinityOf(input: Pick<ValidationInput, 'index' | 'sdkVersion' | 'mode'>): string {
  return `${input.sdkVersion}|${noticeSubTypeOf(input.index) ?? ''}|${input.mode}`;
}
