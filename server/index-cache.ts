// One XmlIndex per open document version, shared by the validation scheduler and the authoring
// handlers: an edit is indexed once on the server's main thread, not once per consumer. (The validation
// worker still indexes its own copy: it cannot share this memory.) It never indexes anything but the
// text it is given, and holds at most MAX_DOCUMENTS indexes, the most recently used.

import { indexXml, type XmlIndex } from '../core/notice';

const MAX_DOCUMENTS = 32;

interface Entry {
  version: number;
  text: string;
  index: XmlIndex;
}

export class DocumentIndexes {
  /** uri -> its latest indexed version; Map order is use order (oldest first). */
  private readonly entries = new Map<string, Entry>();

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
    this.entries.delete(uri);
    this.entries.set(uri, { version, text, index });
    if (this.entries.size > MAX_DOCUMENTS) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return index;
  }

  forget(uri: string): void {
    this.entries.delete(uri);
  }
}

/** The server's one cache (one language server per process). */
export const documentIndexes = new DocumentIndexes();
