// The language server's `eforms/renderPreview` request: renders the open notice's current text with
// core/preview, on the SDK release the notice declares (eforms.sdk.path and the download cache, chosen
// as the authoring help chooses: the pinned or declared version, else the newest), in the language
// asked for. The render itself runs on a worker thread (preview-thread.ts), one job per document at a
// time: a newer request for the same document supersedes an older one that has not started, and a
// cancelled request is not rendered, so typing fast renders only the latest text and hover or
// completion never wait on a large notice. It never throws past run-safe. Words for errors are in English
// sentences for any LSP client; `kind` lets a client word them itself.

import type { CancellationToken, Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { declaredSdkVersion, indexXml, noticeKindOf } from '../../core/notice';
import { previewRelease } from '../../core/preview';
import {
  type RenderPreviewParams,
  RenderPreviewRequest,
  type RenderPreviewResult,
} from '../../core/protocol';
import { availableSdkReleases, chooseSdkRelease, compareSdkVersions, type SdkRelease } from '../../core/sdk';
import type { EformsSettings } from '../../core/settings';
import { runSafeAsync } from '../run-safe';
import { PreviewThread } from './preview-thread';

export interface PreviewDeps {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  settings: (uri: string) => Promise<EformsSettings>;
  log: (message: string) => void;
  sdkCacheRoot?: string;
}

export class Preview {
  private readonly thread: PreviewThread;
  /** Per document, the render job under way. */
  private readonly inflight = new Map<string, Promise<unknown>>();
  private readonly releases = new Map<string, SdkRelease[]>();
  /** Per document, the number of the latest request: an older one still waiting gives way. */
  private readonly latest = new Map<string, number>();
  private seq = 0;

  constructor(private readonly d: PreviewDeps) {
    this.thread = new PreviewThread(d.log);
  }

  /** Stops the render thread (server shutdown). */
  dispose(): Promise<void> {
    return this.thread.close();
  }

  register(): void {
    this.d.connection.onRequest(RenderPreviewRequest.type, (p, token) =>
      runSafeAsync<RenderPreviewResult>(
        this.d.log,
        'render preview',
        { error: 'The preview could not be rendered: see the eForms log.', kind: 'failed' },
        () => this.render(p, token),
      ),
    );
  }

  /** eforms.sdk.path or the cache changed: list the releases again (loaded releases stay cached). */
  settingsChanged(): void {
    this.releases.clear();
  }

  forget(uri: string): void {
    this.latest.delete(uri);
  }

  async render(p: RenderPreviewParams, token?: CancellationToken): Promise<RenderPreviewResult> {
    const uri = typeof p?.uri === 'string' ? p.uri : '';
    const mine = ++this.seq;
    this.latest.set(uri, mine);
    const superseded = (): RenderPreviewResult | undefined =>
      token?.isCancellationRequested || this.latest.get(uri) !== mine
        ? { error: 'A newer preview request replaced this one.', kind: 'superseded' }
        : undefined;
    const doc = this.d.documents.get(uri);
    if (!doc)
      return { error: `${uri || 'The document'} is not open in the language server.`, kind: 'no-document' };
    const s = await this.d.settings(uri);
    const first = indexXml(doc.getText().slice(0, 64 * 1024));
    if (noticeKindOf(first) === undefined)
      return {
        error: 'This file is not an eForms notice: there is nothing to preview.',
        kind: 'not-a-notice',
      };
    const release = this.choose(s, declaredSdkVersion(first));
    if ('error' in release) return release;
    // Let the messages already queued (a newer edit, a cancellation) be read before the work starts.
    await new Promise<void>((r) => setImmediate(r));
    const gave = superseded();
    if (gave) return gave;
    // One job per document on the render thread at a time: a request that waited for the one before it
    // gives way if a newer one came meanwhile, so a burst of edits renders the first and the last only.
    const before = this.inflight.get(uri);
    if (before) {
      await before;
      const gone = superseded();
      if (gone) return gone;
    }
    const current = this.d.documents.get(uri);
    if (!current) return { error: `${uri} was closed.`, kind: 'no-document' };
    const version = current.version;
    const job = this.thread.run({
      sdkDir: release.dir,
      text: current.getText(),
      requested: typeof p.language === 'string' ? p.language : undefined,
      setting: s.preview.language,
    });
    this.inflight.set(uri, job);
    const r = await job.finally(() => {
      if (this.inflight.get(uri) === job) this.inflight.delete(uri);
    });
    if (!r.ok) {
      this.d.log(`preview of ${uri} failed: ${r.message}`);
      return { error: `The preview could not be rendered: ${r.message}`, kind: 'failed' };
    }
    if (r.ms > 200) this.d.log(`preview of ${uri} took ${r.ms} ms (SDK ${release.version})`);
    const rendered = release.note
      ? { ...r.rendered, problems: [{ message: release.note }, ...r.rendered.problems] }
      : r.rendered;
    return { ...rendered, version, ms: r.ms };
  }

  private choose(
    s: EformsSettings,
    declared: string | undefined,
  ): { dir: string; version: string; note?: string } | { error: string; kind: 'no-sdk' | 'version-missing' } {
    const cacheRoot = this.d.sdkCacheRoot ?? '';
    const key = `${s.sdk.path}\u0000${cacheRoot}`;
    let releases = this.releases.get(key);
    if (!releases) {
      releases = availableSdkReleases({ path: s.sdk.path, cacheRoot }).sort((a, b) =>
        compareSdkVersions(b.version, a.version),
      );
      this.releases.set(key, releases);
    }
    const newest = releases[0];
    if (!newest)
      return {
        error:
          'The preview needs an eForms SDK release on this machine: set eforms.sdk.path to the folder of one (or of several).',
        kind: 'no-sdk',
      };
    const pick = chooseSdkRelease(releases, { pinned: s.validation.sdkVersion, declared });
    // As the authoring help does: without a declared version, or with one not on disk (and no pin),
    // the newest release renders; the result names the release used. A release without view templates
    // (a trimmed copy) gives way to the newest that has them, as `eforms render` does.
    const first = pick.ok
      ? pick.release
      : pick.kind === 'no-version' || (pick.kind === 'version-missing' && !s.validation.sdkVersion)
        ? newest
        : undefined;
    if (first) {
      const chosen = previewRelease(first, releases);
      if (!chosen)
        return {
          error: `No eForms SDK release on this machine has view templates (view-templates/*.efx): the preview needs one, such as a complete release downloaded with eForms: New Notice or named in eforms.sdk.path.`,
          kind: 'no-sdk',
        };
      return { dir: chosen.release.dir, version: chosen.release.version, note: chosen.note };
    }
    return {
      error: `The SDK ${!pick.ok && pick.kind === 'version-missing' ? pick.wanted : ''} pinned in eforms.validation.sdkVersion is not in eforms.sdk.path.`,
      kind: 'version-missing',
    };
  }
}
