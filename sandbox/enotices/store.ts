// The emulated eNotices2 notice store: one record per notice (business id), its notice XML and SVRL,
// persisted under <dataDir>/enotices so that a restarted sandbox still has every notice it ever
// acknowledged. Every write is atomic (temp file + fsync + rename + directory fsync) and happens before
// the caller answers. The publication clock lives here too: a SUBMITTED notice reads as PUBLISHING after
// one step and PUBLISHED after two, derived from its submission time and ctx.now(), so tests that drive
// the clock need no timers. Never imports client or server code.

import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { NOTICE_STATUSES } from '../../core/services';

/**
 * What a stored notice is, apart from the clock. VALIDATION_FAILED: created, validation failed, final
 * (TED's lifecycle). DRAFT: what earlier sandboxes stored for the same case; still read back as it was.
 */
export type StoredStatus = 'DRAFT' | 'VALIDATION_FAILED' | 'SUBMITTED' | 'STOPPED';

export interface StoredNotice {
  businessId: string;
  id: string;
  versionId: string;
  procedureId: string;
  /** Hash of the API key that submitted it: search and the other operations see only these. */
  account: string;
  noticeAuthor: string;
  noticeAuthorLocale: string;
  noticeType: string;
  legalBasis: string;
  languages: string[];
  stored: StoredStatus;
  /** Epoch ms. */
  submittedAt: number;
  updatedAt: number;
  stoppedAt?: number;
  /** Sequence number from which the publication id (OJ S number) is made. */
  seq: number;
  errors: number;
  warnings: number;
}

export type NoticeStatusName = (typeof NOTICE_STATUSES)[number];

/** The Notice model of the spec, as search answers it. */
export interface NoticeView {
  id: string;
  versionId: string;
  procedureId: string;
  status: NoticeStatusName;
  updatedAt: string;
  submittedAt: string;
  publicationId?: string;
  publicationDate?: string;
  noticeType: string;
  legalBasis: string;
  languages: string[];
  noticeAuthor: string;
  expectedPublicationDate?: string;
}

/** Accounts are keyed by a hash: the store never holds an API key. */
export function accountOf(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 24);
}

/**
 * A notice file without its record older than this is an orphan of a submission that was interrupted
 * (killed between its writes): younger ones may belong to another sandbox writing the same folder now.
 */
const ORPHAN_AGE_MS = 60_000;

export class NoticeStore {
  private readonly dir: string;
  private readonly notices = new Map<string, StoredNotice>();
  private seq = 0;

  constructor(
    dataDir: string,
    /** Milliseconds per clock step (SUBMITTED -> PUBLISHING -> PUBLISHED). */
    readonly stepMs: number,
  ) {
    this.dir = join(dataDir, 'enotices');
    mkdirSync(this.dir, { recursive: true });
    for (const name of readdirSync(this.dir)) {
      const file = join(this.dir, name);
      // A temp file is a write that never reached its rename: it was never acknowledged.
      if (name.includes('.tmp-')) {
        try {
          unlinkSync(file);
        } catch {
          // another sandbox on the same folder may have renamed it meanwhile
        }
        continue;
      }
      if (!name.endsWith('.json')) continue;
      try {
        const rec = JSON.parse(readFileSync(file, 'utf8')) as StoredNotice;
        if (typeof rec.businessId === 'string' && typeof rec.account === 'string') {
          this.notices.set(rec.businessId, rec);
          this.seq = Math.max(this.seq, rec.seq ?? 0);
        }
      } catch {
        // An unreadable record is skipped, not fatal: the rest of the store stays usable.
      }
    }
    this.removeOrphans();
  }

  /**
   * Deletes notice XML and SVRL files whose record was never written: the record is the commit point,
   * so they belong to no acknowledged notice, and nothing else would ever remove them.
   */
  private removeOrphans(): void {
    const now = Date.now();
    for (const name of readdirSync(this.dir)) {
      const m = /^(.+)\.(xml|svrl)$/.exec(name);
      if (!m || this.notices.has(m[1])) continue;
      const file = join(this.dir, name);
      try {
        if (now - statSync(file).mtimeMs < ORPHAN_AGE_MS) continue;
        unlinkSync(file);
      } catch {
        // gone already, or not ours to delete: the store works without it either way
      }
    }
  }

  get(businessId: string): StoredNotice | undefined {
    return this.notices.get(businessId);
  }

  has(businessId: string): boolean {
    return this.notices.has(businessId);
  }

  all(): StoredNotice[] {
    return [...this.notices.values()];
  }

  /** Every version of a notice id, oldest version first. */
  versionsOf(noticeId: string): StoredNotice[] {
    return this.all()
      .filter((n) => n.id.toLowerCase() === noticeId.toLowerCase())
      .sort((a, b) => a.versionId.localeCompare(b.versionId));
  }

  hasProcedure(procedureId: string): boolean {
    return this.all().some((n) => n.procedureId === procedureId);
  }

  nextSeq(): number {
    return ++this.seq;
  }

  /** Stores a new notice: XML and SVRL first, the record last (the record is the commit point). */
  async create(rec: StoredNotice, xml: Buffer, svrl: string): Promise<void> {
    try {
      await this.atomicWrite(`${rec.businessId}.xml`, xml);
      await this.atomicWrite(`${rec.businessId}.svrl`, Buffer.from(svrl, 'utf8'));
      await this.atomicWrite(`${rec.businessId}.json`, Buffer.from(JSON.stringify(rec, null, 1)));
    } catch (err) {
      // A failed write leaves no half notice behind (a full disk, a folder made read-only).
      for (const ext of ['xml', 'svrl', 'json'])
        await unlink(join(this.dir, `${rec.businessId}.${ext}`)).catch(() => undefined);
      throw err;
    }
    this.notices.set(rec.businessId, rec);
  }

  /** Persists a changed record; on failure the in-memory record is left as it was. */
  async update(rec: StoredNotice, change: Partial<StoredNotice>): Promise<void> {
    const next = { ...rec, ...change };
    await this.atomicWrite(`${rec.businessId}.json`, Buffer.from(JSON.stringify(next, null, 1)));
    Object.assign(rec, change);
  }

  /** The stored SVRL, or undefined when the report file is absent. */
  async svrl(businessId: string): Promise<string | undefined> {
    try {
      return await readFile(join(this.dir, `${businessId}.svrl`), 'utf8');
    } catch {
      return undefined;
    }
  }

  /** Status as of `now`: the publication clock applied to a SUBMITTED notice. */
  statusAt(rec: StoredNotice, now: number): NoticeStatusName {
    if (rec.stored !== 'SUBMITTED') return rec.stored;
    const elapsed = now - rec.submittedAt;
    if (elapsed < this.stepMs) return 'SUBMITTED';
    if (elapsed < 2 * this.stepMs) return 'PUBLISHING';
    return 'PUBLISHED';
  }

  view(
    rec: StoredNotice,
    now: number,
    family: 'v2' | 'legacy',
  ): NoticeView | Omit<NoticeView, 'noticeAuthor'> {
    const status = this.statusAt(rec, now);
    const publishAt = rec.submittedAt + 2 * this.stepMs;
    let updatedAt = rec.updatedAt;
    if (status === 'PUBLISHING') updatedAt = Math.max(updatedAt, rec.submittedAt + this.stepMs);
    if (status === 'PUBLISHED') updatedAt = Math.max(updatedAt, publishAt);
    const v: NoticeView = {
      id: rec.id,
      versionId: rec.versionId,
      procedureId: rec.procedureId,
      status,
      updatedAt: new Date(updatedAt).toISOString(),
      submittedAt: new Date(rec.submittedAt).toISOString(),
      noticeType: rec.noticeType,
      legalBasis: rec.legalBasis,
      languages: rec.languages,
      noticeAuthor: rec.noticeAuthor,
    };
    if (status === 'PUBLISHED') {
      v.publicationDate = new Date(publishAt).toISOString().slice(0, 10);
      v.publicationId = `${String(rec.seq).padStart(8, '0')}-${new Date(publishAt).getUTCFullYear()}`;
    }
    if (status === 'SUBMITTED' || status === 'PUBLISHING')
      v.expectedPublicationDate = new Date(publishAt).toISOString().slice(0, 10);
    if (family === 'legacy') {
      const { noticeAuthor: _a, expectedPublicationDate: _e, ...rest } = v;
      return rest;
    }
    return v;
  }

  /** Moment the notice was published, for the publishedAfter/Before criteria. */
  publishedAt(rec: StoredNotice, now: number): number | undefined {
    return this.statusAt(rec, now) === 'PUBLISHED' ? rec.submittedAt + 2 * this.stepMs : undefined;
  }

  private async atomicWrite(name: string, data: Buffer): Promise<void> {
    const target = join(this.dir, name);
    const tmp = join(this.dir, `${name}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await rename(tmp, target);
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
    // The rename itself must survive a power cut: sync the directory entry.
    const dh = await open(this.dir, 'r');
    try {
      await dh.sync();
    } catch {
      // Some filesystems refuse fsync on directories; the rename is still atomic there.
    } finally {
      await dh.close();
    }
  }
}
