// The messages between the notice preview's panel and its page, and the shapes they carry. Types only,
// importing nothing: the page's bundle (media/preview/) and its type check include this file without
// any of node's or the renderer's types. Validation of what the page sends is in preview-logic.ts.

/** A rendered line as the webview draws it: no ranges, an id the panel can map back. */
export interface WireLine {
  id: string;
  number?: string;
  label: string;
  value: string;
  flagged?: boolean;
  /** True when the line shows a place in the notice (clicking it selects that place). */
  linked: boolean;
  children: WireLine[];
}

export interface WireNotice {
  subtype: string;
  sdkVersion: string;
  language: string;
  languages: string[];
  lines: WireLine[];
  problems: { message: string; templateLine?: number }[];
}

/** What the page keeps (vscode.setState) for the serializer to restore the panel after a reload. */
export interface PanelState {
  uri: string;
  /** The picker's choice, if one was made in this panel. */
  language?: string;
}

/** panel -> webview. */
export type HostMessage =
  | {
      type: 'render';
      version: number;
      notice: WireNotice;
      title: string;
      state: PanelState;
      highlight?: string;
    }
  /** The latest render failed: the page keeps the previous one and shows why. */
  | { type: 'error'; message: string }
  | { type: 'highlight'; id: string | null }
  /** In-editor tests: the page runs the same handler a click on that line runs. */
  | { type: 'testClick'; id: string };

/** webview -> panel. */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'select'; id: string }
  | { type: 'language'; language: string }
  | { type: 'rendered'; version: number; lines: number }
  | { type: 'highlighted'; id: string | null };
