// A small pool of worker threads that run the SDK's rules (validation-worker.ts), and the Validator
// that hands jobs to it. The language server and the sandbox use one worker (plus one spare, see
// below), so no server thread ever evaluates a rule; the CLI uses `--jobs N`. Aborting a job's signal
// removes it from the queue, or flips the shared flag the running worker polls; a worker that does not
// answer within ABORT_GRACE_MS (a rule stuck in one expression, a RegExp that cannot be interrupted) is
// terminated and replaced. A job past its time budget is stopped the same way and fails with a
// RuleBudgetError naming the budget. A job that waits while every worker has been busy for SPARE_AFTER_MS
// gets a spare worker, so one stuck notice never holds the others. A worker that dies fails its job and
// is replaced on the next one. A batch's pool (`prefetch`) gives each busy worker its next job ahead, so
// that it never waits for this thread between notices; a job held ahead is queued again, never failed,
// when its worker is stopped or dies. No `vscode` import here.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type ElementTable, tableData, type XmlIndex, type XmlSyntaxError } from '../notice';
import type { SdkSources } from '../sdk';
import { SdkError, type SdkErrorFields, type SdkErrorKind } from '../sdk';
import { abortError } from './abort';
import { checkElementCount, noticeSubTypeOf } from './local-validator';
import type { EngineReport, ValidationInput, Validator } from './validator';

/** The request without what cannot cross threads (the index, the signal, callbacks). */
export type WorkerInput = Omit<ValidationInput, 'index' | 'bytes' | 'signal' | 'isCancelled'>;
export type WorkerSources = Omit<SdkSources, 'download'> & {
  download?: Omit<NonNullable<SdkSources['download']>, 'signal' | 'onProgress'>;
};

export interface JobMessage {
  id: number;
  text: string;
  /**
   * The index the caller made of `text` (tableData) and its errors, when it had one: the worker reads
   * the notice from it instead of scanning the text again.
   */
  table?: ElementTable;
  errors?: XmlSyntaxError[];
  /** And its DOCTYPE declaration, which the table does not hold. */
  doctype?: XmlIndex['doctype'];
  input: WorkerInput;
  sources: WorkerSources;
  ruleCacheDir?: string;
  /** Int32Array(1) over it: 1 means "stop". */
  cancel: SharedArrayBuffer;
}

/** What each worker is started with. */
export interface WorkerData {
  incremental: boolean;
}

export type ResultMessage =
  | { id: number; ok: true; report: EngineReport }
  | { id: number; ok: false; sdk: { kind: SdkErrorKind; fields: SdkErrorFields } }
  | { id: number; ok: false; name: string; message: string };

interface Job {
  msg: JobMessage;
  /** The rule set the job needs (release, phase, mode): a worker that compiled it runs it at once. */
  affinity: string;
  /** Milliseconds the run may take once a worker has it; 0: no budget. */
  budgetMs: number;
  /** When a worker took it (performance.now()), for the spare worker. */
  startedAt?: number;
  /** The budget's timer, and the grace timer after an abort. */
  timers: NodeJS.Timeout[];
  resolve(r: EngineReport): void;
  reject(e: unknown): void;
}

/** Rule sets remembered per worker for affinity (a phase is one; the SDK has about 50 per mode). */
const MAX_WARM = 128;

/** How long a worker asked to stop may take to answer before it is terminated. */
export const ABORT_GRACE_MS = 500;
/** How long every worker must have been busy before a waiting job gets a spare worker. */
export const SPARE_AFTER_MS = 1500;

/** A run stopped because it took longer than its budget: the front ends word it with the budget. */
export class RuleBudgetError extends SdkError {
  constructor(readonly budgetMs: number) {
    super('time-budget', { budgetMs });
  }
}

/** The worker script beside this module (out/core/validation/) or beside the bundle (dist/). */
export function workerScript(): string {
  return join(__dirname, 'validation-worker.js');
}

export class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job>();
  /** The job each busy worker was given ahead (prefetch): it runs it next; its budget starts then. */
  private readonly ahead = new Map<Worker, Job>();
  private readonly queue: Job[] = [];
  /** The rule sets each worker has compiled (compiling a phase costs far more than running it). */
  private readonly warm = new Map<Worker, Set<string>>();
  /** Workers terminated by the pool: whatever they still send is ignored. */
  private readonly stopped = new WeakSet<Worker>();
  private spareTimer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private closed = false;

  /**
   * `size` workers run jobs side by side; `spares` more are started only while every worker has been
   * busy with one job for SPARE_AFTER_MS and a job waits (a stuck run), and stop once idle.
   */
  constructor(
    private size_ = 1,
    private readonly script = workerScript(),
    private readonly spares = 0,
    /**
     * Workers keep each rule set's last run and re-evaluate only what the next text can change: for an
     * editor, whose runs are successive versions of one document. A batch of other notices only pays
     * for it (the CLI leaves it off).
     */
    private readonly incremental = false,
    /**
     * Give each busy worker its next job while it runs one: a batch's worker then never waits for this
     * thread (busy placing and completing the last findings) between notices. Not for an editor, whose
     * newest edit should go to the first free worker.
     */
    private readonly prefetch = false,
  ) {}

  /** How many workers run jobs side by side (spares aside). */
  get size(): number {
    return this.size_;
  }

  /**
   * Lowers (or raises) how many workers run side by side, for the jobs queued from now on: a batch
   * knows how many help only once it has read its notices (validate.ts's usefulJobs).
   */
  resize(size: number): void {
    this.size_ = Math.max(1, Math.floor(size));
  }

  /**
   * Starts one worker now, before any job, so that loading its bundle overlaps what the caller still
   * does (reading a batch's notices). Idle, it never keeps the process alive.
   */
  prestart(): void {
    if (this.closed || this.workers > 0 || !existsSync(this.script)) return;
    const w = this.spawn();
    w.unref();
    this.idle.push(w);
  }

  /** Workers alive (busy or idle): for tests and the status. */
  get workers(): number {
    return this.idle.length + this.busy.size;
  }

  /** Runs the rules on a notice: its text, or the index the caller made of it (then sent along). */
  run(
    notice: string | XmlIndex,
    input: WorkerInput,
    sources: WorkerSources,
    ruleCacheDir?: string,
    signal?: AbortSignal,
    affinity = '',
    budgetMs = 0,
  ): Promise<EngineReport> {
    if (this.closed) return Promise.reject(new SdkError('engine', { reason: 'the worker pool is closed' }));
    // A broken installation fails each run with a reason, never the caller's thread.
    if (!existsSync(this.script))
      return Promise.reject(
        new SdkError('engine', { reason: `the worker script ${this.script} is missing` }),
      );
    if (signal?.aborted) return Promise.reject(abortError());
    const cancel = new SharedArrayBuffer(4);
    const msg: JobMessage =
      typeof notice === 'string'
        ? { id: this.nextId++, text: notice, input, sources, ruleCacheDir, cancel }
        : {
            id: this.nextId++,
            text: notice.text,
            table: tableData(notice.table),
            errors: notice.errors,
            doctype: notice.doctype,
            input,
            sources,
            ruleCacheDir,
            cancel,
          };
    return new Promise<EngineReport>((resolve, reject) => {
      const job: Job = { msg, affinity, budgetMs, timers: [], resolve, reject };
      signal?.addEventListener(
        'abort',
        () => {
          const at = this.queue.indexOf(job);
          if (at >= 0) {
            this.queue.splice(at, 1);
            reject(abortError());
            return;
          }
          Atomics.store(new Int32Array(cancel), 0, 1);
          // A worker inside one long expression never polls the flag: it is stopped for real.
          const w = this.workerOf(job);
          if (w) job.timers.push(setTimeout(() => this.stop(w, job, abortError()), ABORT_GRACE_MS));
        },
        { once: true },
      );
      this.queue.push(job);
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.spareTimer) clearTimeout(this.spareTimer);
    for (const j of this.queue.splice(0)) j.reject(abortError());
    for (const j of [...this.busy.values(), ...this.ahead.values()]) {
      clearTimers(j);
      j.reject(abortError());
    }
    const all = [...this.idle.splice(0), ...this.busy.keys()];
    this.busy.clear();
    this.ahead.clear();
    for (const w of all) this.stopped.add(w);
    await Promise.all(all.map((w) => w.terminate()));
  }

  private workerOf(job: Job): Worker | undefined {
    for (const [w, j] of this.busy) if (j === job) return w;
    return undefined;
  }

  /** Terminates `w` if it still runs `job`, fails the job with `error`, and lets the queue go on. */
  private stop(w: Worker, job: Job, error: Error): void {
    if (this.busy.get(w) !== job) return;
    this.busy.delete(w);
    this.requeueAhead(w);
    this.warm.delete(w);
    this.stopped.add(w);
    clearTimers(job);
    void w.terminate();
    job.reject(error);
    if (!this.closed) this.pump();
  }

  /** Whether a waiting job may start a spare worker now, else when to look again. */
  private spareDue(): boolean {
    if (this.busy.size >= this.size + this.spares) return false;
    const now = performance.now();
    let due = Number.POSITIVE_INFINITY;
    for (const j of this.busy.values()) due = Math.min(due, (j.startedAt ?? now) + SPARE_AFTER_MS);
    if (due <= now) return true;
    if (!this.spareTimer && Number.isFinite(due)) {
      this.spareTimer = setTimeout(
        () => {
          this.spareTimer = undefined;
          if (!this.closed) this.pump();
        },
        Math.max(1, due - now),
      );
      this.spareTimer.unref();
    }
    return false;
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
          if (this.busy.size >= this.size && (this.spares === 0 || !this.spareDue())) {
            this.fillAhead();
            return;
          }
          w = this.spawn();
        }
      }
      const [job] = this.queue.splice(at, 1) as [Job];
      this.remember(w, job);
      this.begin(w, job);
      w.ref();
      w.postMessage(job.msg);
    }
  }

  /** The rule sets `w` has loaded, for affinity. */
  private remember(w: Worker, job: Job): void {
    const warm = this.warm.get(w) ?? new Set<string>();
    this.warm.set(w, warm);
    // Bounded: a worker remembers the last rule sets it compiled, not every one ever asked for.
    if (warm.size >= MAX_WARM) warm.delete(warm.values().next().value as string);
    warm.add(job.affinity);
  }

  /** `w` runs `job` now: its time (the spare worker's clock) and its budget start. */
  private begin(w: Worker, job: Job): void {
    this.busy.set(w, job);
    job.startedAt = performance.now();
    if (job.budgetMs > 0)
      job.timers.push(setTimeout(() => this.stop(w, job, new RuleBudgetError(job.budgetMs)), job.budgetMs));
  }

  /**
   * prefetch: each busy worker without a job ahead gets one, of a rule set it has loaded if one is
   * queued, else as an idle worker would choose. The worker runs it as soon as it answers the current
   * one (validation-worker.ts takes its jobs in turn).
   */
  private fillAhead(): void {
    if (!this.prefetch) return;
    for (const w of this.busy.keys()) {
      if (this.queue.length === 0) return;
      if (this.ahead.has(w)) continue;
      const warm = this.warm.get(w);
      let at = warm ? this.queue.findIndex((j) => warm.has(j.affinity)) : -1;
      if (at < 0)
        at = pickCold(
          this.queue,
          [...this.busy.keys()].filter((b) => b !== w).map((b) => this.warm.get(b)),
        );
      const [job] = this.queue.splice(at, 1) as [Job];
      this.ahead.set(w, job);
      this.remember(w, job);
      w.postMessage(job.msg);
    }
  }

  /** The job `w` held ahead goes back to the front of the queue (its worker is gone), or fails if aborted. */
  private requeueAhead(w: Worker): void {
    const job = this.ahead.get(w);
    if (!job) return;
    this.ahead.delete(w);
    if (Atomics.load(new Int32Array(job.msg.cancel), 0) === 1) job.reject(abortError());
    else this.queue.unshift(job);
  }

  private spawn(): Worker {
    const w = new Worker(this.script, { workerData: { incremental: this.incremental } satisfies WorkerData });
    w.on('message', (m: ResultMessage) => {
      if (this.stopped.has(w)) return;
      const job = this.busy.get(w);
      this.busy.delete(w);
      if (job) clearTimers(job);
      const next = this.ahead.get(w);
      if (next && !this.closed) {
        // The worker has started the job it held ahead.
        this.ahead.delete(w);
        this.begin(w, next);
      } else if (!this.closed) {
        // A spare worker beyond the pool's size goes once nothing waits for it and no run is stuck
        // (while one is, it stays for the next notice); an idle one never keeps the process alive.
        const now = performance.now();
        const stuck = [...this.busy.values()].some((j) => now - (j.startedAt ?? now) >= SPARE_AFTER_MS);
        if (this.queue.length === 0 && this.idle.length + this.busy.size >= this.size && !stuck) {
          this.stopped.add(w);
          this.warm.delete(w);
          void w.terminate();
        } else {
          w.unref();
          this.idle.push(w);
        }
      }
      if (job) settle(job, m);
      this.pump();
    });
    const died = (reason: string) => {
      if (this.stopped.has(w)) return;
      const job = this.busy.get(w);
      if (job) clearTimers(job);
      this.busy.delete(w);
      this.requeueAhead(w);
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

function clearTimers(job: Job): void {
  for (const t of job.timers.splice(0)) clearTimeout(t);
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

/** The SDK's rules as a Validator whose work happens in a WorkerPool. */
export class WorkerValidator implements Validator {
  readonly engine = 'local' as const;

  constructor(
    private readonly pool: WorkerPool,
    private readonly sources: WorkerSources,
    private readonly ruleCacheDir?: string,
    /** Milliseconds one notice's run may take (eforms.validation.timeBudgetMs, --time-budget); 0: none. */
    private readonly budgetMs = 0,
  ) {}

  async validate(input: ValidationInput): Promise<EngineReport> {
    // Here, before its table is copied to a worker.
    checkElementCount(input.index);
    const { index, bytes: _b, signal, isCancelled: _c, ...rest } = input;
    return this.pool.run(
      index,
      rest,
      this.sources,
      this.ruleCacheDir,
      signal,
      affinityOf(input),
      this.budgetMs,
    );
  }
}

/** What decides the rule set a notice needs, as far as it can be read without resolving the SDK. */
export function affinityOf(input: Pick<ValidationInput, 'index' | 'sdkVersion' | 'mode'>): string {
  // Cut: the pool keeps affinities per worker, and a notice may hold a subtype code of megabytes.
  return `${input.sdkVersion.slice(0, 40)}|${(noticeSubTypeOf(input.index) ?? '').slice(0, 40)}|${input.mode}`;
}
