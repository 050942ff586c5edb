// Which documents the language server is told about: only eForms notices. Once a document was opened
// on the server it stays synchronised until it closes, even while an edit breaks its root (the server
// must see the broken text to clear or update its diagnostics). Pure bookkeeping over document keys:
// no `vscode` import, so it is tested under node:test.

/** What to do with a change: forward it, open the document on the server first, or drop it. */
export type ChangeAction = 'send' | 'open' | 'drop';

export class NoticeSync<D> {
  private readonly synced = new Set<string>();

  constructor(
    private readonly keyOf: (doc: D) => string,
    private readonly isNotice: (doc: D) => boolean,
  ) {}

  /** didOpen: true when it goes to the server. */
  open(doc: D): boolean {
    if (!this.isNotice(doc)) return false;
    this.synced.add(this.keyOf(doc));
    return true;
  }

  change(doc: D): ChangeAction {
    if (this.synced.has(this.keyOf(doc))) return 'send';
    if (!this.isNotice(doc)) return 'drop';
    this.synced.add(this.keyOf(doc));
    return 'open';
  }

  /** didClose: true when the server knew the document. */
  close(doc: D): boolean {
    return this.synced.delete(this.keyOf(doc));
  }

  isSynced(doc: D): boolean {
    return this.synced.has(this.keyOf(doc));
  }
}
