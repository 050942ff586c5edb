// TODO room comment
export { type Finding, type Range, type Severity, sortByPosition } from './finding';
