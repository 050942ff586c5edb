// The on-disk cache of agri-food answers: one file per URL (named by its SHA-256), written atomically,
// read back only while younger than the time to live. The folder is passed in (the extension's
// globalStorageUri, ~/.cache/eforms for the CLI). A damaged file is a miss, never an error.

import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface CachedAnswer {
  body: string;
  storedAt: number;
}

export class ResponseCache {
  private readonly dir: string;

  constructor(
    root: string,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.dir = join(root, 'agrifood');
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  private file(url: string): string {
    return join(this.dir, `${createHash('sha256').update(url).digest('hex')}.json`);
  }

  async get(url: string): Promise<CachedAnswer | undefined> {
    if (!this.enabled) return undefined;
    let text: string;
    try {
      text = await readFile(this.file(url), 'utf8');
    } catch {
      return undefined;
    }
    // First line: header {url, storedAt}; the rest: the body as the service sent it.
    const nl = text.indexOf('\n');
    try {
      const head = JSON.parse(text.slice(0, nl)) as { url?: unknown; storedAt?: unknown };
      if (head.url !== url || typeof head.storedAt !== 'number') return undefined;
      const age = this.now() - head.storedAt;
      if (age < 0 || age > this.ttlMs) return undefined;
      return { body: text.slice(nl + 1), storedAt: head.storedAt };
    } catch {
      return undefined;
    }
  }

  async set(url: string, body: string): Promise<void> {
    if (!this.enabled) return;
    const target = this.file(url);
    const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      await mkdir(this.dir, { recursive: true });
      await writeFile(tmp, `${JSON.stringify({ url, storedAt: this.now() })}\n${body}`, 'utf8');
      await rename(tmp, target);
    } catch {
      // A cache that cannot be written only costs a request next time.
      await rm(tmp, { force: true }).catch(() => undefined);
    }
  }

  /** Forgets every cached answer (the "Refresh" commands). */
  async clear(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
