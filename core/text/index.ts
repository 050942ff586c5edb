// TODO room comment
export { clip, terminalLine, terminalText } from './terminal-text';
