// TODO room comment

export { type Compiled, compile, ebv, Runtime, type Scope, XPathUnsupportedError } from './compile';
export { ATTRIBUTE, DOCUMENT, ELEMENT, TEXT, XDocument, XNode } from './document';
export { type Ast, parseXPath, XPathSyntaxError } from './parser';
export { isBalanced, splitOutsideBrackets, splitTopLevel } from './text';
export { parseDate, XPathDynamicError } from './values';
