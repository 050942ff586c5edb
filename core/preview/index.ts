// Room: the notice as TED publishes it, rendered offline from the SDK's view templates (EFX, via
// core/efx) with the one XPath engine (core/xpath) over the notice's index (core/notice): the render
// contract (RenderedNotice), the release loader, HTML and text output. No `vscode` import here; the
// only I/O is reading an SDK release folder.

export { escapeHtml, renderHtml, renderText } from './html';
export { type ChosenPreviewSdk, previewRelease, previewSdkFor } from './release';
export {
  LINE_TIME_LIMIT_MS,
  type RenderedLine,
  type RenderedNotice,
  type RenderOptions,
  renderNotice,
} from './render';
export {
  loadPreviewSdk,
  PREVIEW_SDK_LIMITS,
  type PreviewField,
  type PreviewSdk,
  PreviewSdkError,
} from './sdk';
