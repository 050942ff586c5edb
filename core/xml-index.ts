// A position-tracking index of an XML document: every element with its namespace URI, the offsets of
// its start tag, name and attributes, and its parent, so that SVRL locations can be resolved to exact
// text ranges. It works on the JavaScript string (UTF-16), so offsets are the columns LSP counts.
// It never throws on malformed input: it records the first well-formedness errors and indexes what it can.
// No `vscode` import here.

export interface XmlAttribute {
  /** Qualified name as written (`listName`, `xsi:type`). */
  qname: string;
  local: string;
  /** Namespace URI; '' for unprefixed attributes (they are in no namespace). */
  ns: string;
  /** Offset of the first character of the attribute name. */
  start: number;
  /** Offset just after the attribute name. */
  nameEnd: number;
  /** Offsets of the value, without the quotes. */
  valueStart: number;
  valueEnd: number;
}

export interface XmlElement {
  /** Qualified name as written. */
  qname: string;
  local: string;
  /** Namespace URI resolved through the in-scope xmlns declarations; '' when none. */
  ns: string;
  /** Offset of the `<` of the start tag. */
  start: number;
  /** Offset just after the element name in the start tag. */
  nameEnd: number;
  /** Offset just after the `>` of the start tag (or of `/>`). */
  startTagEnd: number;
  /** Offset just after the end tag, or after `/>`; -1 when the element was never closed. */
  end: number;
  /** Index of the parent in `XmlIndex.elements`, -1 for the root. */
  parent: number;
  /** Indexes of the child elements, in document order. */
  children: number[];
  attributes: XmlAttribute[];
}

export interface XmlSyntaxError {
  message: string;
  /** Offset where the problem was detected. */
  offset: number;
}

export interface XmlIndex {
  text: string;
  /** Elements in document order; elements[0] is the root when there is one. */
  elements: XmlElement[];
  /** Well-formedness errors, first one first; empty for a well-formed document. */
  errors: XmlSyntaxError[];
  /** Zero-based line and UTF-16 column of an offset. */
  positionAt(offset: number): { line: number; character: number };
}

export function indexXml(_text: string): XmlIndex {
  throw new Error('not implemented yet');
}
