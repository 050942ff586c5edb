// One XmlIndex per open document version, shared by the validation scheduler and the authoring
// handlers: an edit is indexed once on the server's main thread, not once per consumer. (The validation
// worker still indexes its own copy: it cannot share this memory.) It never indexes anything but the
// text it is given, and holds at most MAX_DOCUMENTS indexes, the most recently used, of at most MAX_CHARS
// characters in all (an index costs about twice its text); a closed document's is dropped at once.

import { indexXml, type XmlIndex } from '../core/notice';

const MAX_DOCUMENTS = 32;
/** 64 Mi characters: a few large notices (a 1,000-lot one is 23 million) or many small ones. */
export const MAX_CHARS = 64 * 1024 * 1024;

interface Entry {
  version: number;
  text: string;
  index: XmlIndex;
}

export class DocumentIndexes {
  /** uri -> its latest indexed version; Map order is use order (oldest first). */
  private readonly entries = new Map<string, Entry>();
  /** The characters of every text held. */
  private chars = 0;

  /**
   * The index of this version of the document. The text is compared too: a version number alone could
   * be reused by a client that reopens a document with other content.
   */
  get(uri: string, version: number, text: string): XmlIndex {
    const hit = this.entries.get(uri);
    if (hit && hit.version === version && hit.text === text) {
      this.entries.delete(uri);
      this.entries.set(uri, hit);
      return hit.index;
    }
    const index = indexXml(text);
    this.forget(uri);
    this.entries.set(uri, { version, text, index });
    this.chars += text.length;
    // The newest is kept whatever its size; older ones go, least recently used first.
    while (this.entries.size > 1 && (this.entries.size > MAX_DOCUMENTS || this.chars > MAX_CHARS)) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.forget(oldest);
    }
    return index;
  }

  /** Drops a document's index (closed, or pushed out). */
  forget(uri: string): void {
    const e = this.entries.get(uri);
    if (!e) return;
    this.chars -= e.text.length;
    this.entries.delete(uri);
  }

  /** How many documents' indexes are held. */
  get size(): number {
    return this.entries.size;
  }
}

/** The server's one cache (one language server per process). */
export const documentIndexes = new DocumentIndexes();
