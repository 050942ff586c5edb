// Room: text that leaves the product for a terminal or a log: the one sanitiser, and clipping.
// No `vscode` import here, no I/O.
export { clip, terminalLine, terminalName, terminalText } from './terminal-text';
