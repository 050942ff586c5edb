// Results of the validation service for content already validated, keyed by a sha256 of the exact bytes
// sent and every request option that changes the answer, so identical content never costs a second
// call. The API key is deliberately not part of the key (it does not change the report) and is never
// stored. Bounded by entries and by characters; least recently used first out. No `vscode` import here.

import { createHash } from 'node:crypto';

export interface ValidationRequestOptions {
  baseUrl: string;
  language: string;
  validationMode: string;
  /** '' when the service default applies. */
  eFormsSdkVersion: string;
}

export function validationCacheKey(notice: Uint8Array, o: ValidationRequestOptions): string {
  const h = createHash('sha256');
  h.update(notice);
  // JSON keeps fields apart: no value can forge another field's boundary.
  h.update(JSON.stringify([o.baseUrl, o.language, o.validationMode, o.eFormsSdkVersion]));
  return h.digest('hex');
}

export class ValidationCache<T> {
  private readonly entries = new Map<string, { value: T; size: number }>();
  private total = 0;

  /** `sizeOf` measures an entry (e.g. the SVRL length) for the `maxSize` bound. */
  constructor(
    private readonly maxEntries = 64,
    private readonly maxSize = 256 * 1024 * 1024,
    private readonly sizeOf: (v: T) => number = () => 1,
  ) {}

  get(key: string): T | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    // Re-inserting moves it to the most-recent end of the Map's insertion order.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  set(key: string, value: T): void {
    const size = this.sizeOf(value);
    if (size > this.maxSize) return;
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.size;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, size });
    this.total += size;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.total <= this.maxSize) break;
      this.entries.delete(k);
      this.total -= e.size;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }
}
