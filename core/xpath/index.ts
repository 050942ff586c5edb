// Room: the one XPath engine. One parser and one evaluator over the notice's index serve the SDK rules,
// SVRL locations, SDK field paths and EFX; no other module parses XPath text. No `vscode` import here,
// no I/O.

export {
  type Compiled,
  type Ctx,
  compile,
  compileBoolean,
  ebv,
  Runtime,
  type Scope,
  XPathTimeLimitError,
  XPathUnsupportedError,
} from './compile';
export {
  ATTRIBUTE,
  DOCUMENT,
  docOrder,
  ELEMENT,
  type NodeRef,
  nameId,
  nodeRef,
  TEXT,
  XDocument,
  XNode,
} from './document';
export { LocationReader, LocationUnsupported, type LocNode } from './locate';
export { type Ast, AXES, KIND_TESTS, type NodeTest, parseXPath, XPathSyntaxError } from './parser';
export { addAxis, contextualize, joinPaths } from './paths';
export { type Reach, ruleReach } from './reach';
export { isBalanced, splitOutsideBrackets, splitTopLevel } from './text';
export { parseDate, parseDateTime, quoted, XPathDynamicError } from './values';
