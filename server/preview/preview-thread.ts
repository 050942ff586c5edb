// The render thread of the preview: one worker (preview-worker.js beside this module, or beside the
// bundle in dist/), started on the first render, that keeps each release's SDK loaded. When no worker
// can start (the script is missing, the platform refuses), jobs run on the calling thread instead, so
// the preview still works. A worker that dies fails its jobs with a message and is replaced on the next.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type PreviewJob, type PreviewJobResult, runPreviewJob } from './preview-job';

export class PreviewThread {
  private worker: Worker | undefined;
  private unavailable = false;
  private readonly pending = new Map<number, (r: PreviewJobResult) => void>();
  private nextId = 1;

  constructor(
    private readonly log: (m: string) => void,
    private readonly script = join(__dirname, 'preview-worker.js'),
  ) {}

  /** Whether jobs run on the worker (false: on this thread). */
  get threaded(): boolean {
    return this.start() !== undefined;
  }

  run(job: PreviewJob): Promise<PreviewJobResult> {
    const w = this.start();
    if (!w) return runPreviewJob(job);
    return new Promise((resolve) => {
      const id = this.nextId++;
      this.pending.set(id, resolve);
      w.postMessage({ id, job });
    });
  }

  private start(): Worker | undefined {
    if (this.worker) return this.worker;
    if (this.unavailable) return undefined;
    if (!existsSync(this.script)) {
      this.unavailable = true;
      this.log(`preview: ${this.script} is missing; previews render on the server's thread`);
      return undefined;
    }
    try {
      const w = new Worker(this.script);
      w.on('message', (m: { id: number; result: PreviewJobResult }) => {
        const done = this.pending.get(m.id);
        this.pending.delete(m.id);
        done?.(m.result);
      });
      const lost = (why: string) => {
        if (this.worker === w) this.worker = undefined;
        for (const [id, done] of [...this.pending]) {
          this.pending.delete(id);
          done({ ok: false, message: `the preview's render thread stopped (${why})` });
        }
      };
      w.on('error', (e) => lost(e.message));
      w.on('exit', (code) => lost(`exit code ${code}`));
      this.worker = w;
      return w;
    } catch (err) {
      this.unavailable = true;
      this.log(
        `preview: no render thread (${(err as Error).message}); previews render on the server's thread`,
      );
      return undefined;
    }
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.unavailable = true;
    if (w) await w.terminate();
  }
}
