// One preview render as a job: load (once per release) and render the notice's text in the language
// chosen from the request, the setting and the notice. The same function runs in the render worker
// (preview-worker.ts) and, when no worker can start, on the server's thread. It never throws: a
// failure is an answer with a message. No `vscode` import, no writes.

import { indexXml } from '../../core/notice';
import { loadPreviewSdk, type PreviewSdk, type RenderedNotice, renderNotice } from '../../core/preview';
import { noticeLanguage, previewLanguage } from './preview-language';

export interface PreviewJob {
  sdkDir: string;
  text: string;
  requested?: string;
  setting?: string;
}

export type PreviewJobResult =
  | { ok: true; rendered: RenderedNotice; ms: number }
  | { ok: false; message: string };

const sdks = new Map<string, Promise<PreviewSdk>>();

function sdkAt(dir: string): Promise<PreviewSdk> {
  let p = sdks.get(dir);
  if (!p) {
    p = loadPreviewSdk(dir);
    // A failed load is not kept: the folder may be fixed, and the next job tries again.
    p.catch(() => sdks.delete(dir));
    sdks.set(dir, p);
  }
  return p;
}

export async function runPreviewJob(job: PreviewJob): Promise<PreviewJobResult> {
  try {
    const sdk = await sdkAt(job.sdkDir);
    const started = performance.now();
    const index = indexXml(job.text);
    const language = previewLanguage(
      { requested: job.requested, setting: job.setting, notice: noticeLanguage(index) },
      sdk.languages,
    );
    const rendered = renderNotice(index, sdk, { language });
    return { ok: true, rendered, ms: Math.round(performance.now() - started) };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}
