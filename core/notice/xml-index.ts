// A position-tracking index of an XML document: every element with its namespace URI, the offsets of
// its start tag, name and attributes, and its parent, so that SVRL locations can be resolved to exact
// text ranges. It works on the JavaScript string (UTF-16), so offsets are the columns LSP counts.
// It never throws on malformed input: it records the first well-formedness errors and indexes what it can.
// No `vscode` import here, and no I/O.
//
// Why hand-written: the language server re-indexes the whole notice on every keystroke, so the scanner
// jumps between markup with indexOf, reads code units from a typed-array copy of the text, guesses each
// name from the document's own repetition and checks it 32 bits at a time, and compares end tags in
// place, instead of running a per-character state machine (saxes) or building a tree of values
// (fast-xml-parser). `npm run bench` measures it against both (goal: at least 3x saxes).

import { clip } from '../text';
import { INPUT_LIMITS } from './limits';

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
  /** Offset of the construct the problem concerns when it is elsewhere (the start tag of an unclosed element). */
  relatedOffset?: number;
}

/** An expanded name as a document writes it: the qualified name, its local part and namespace URI. */
export interface WrittenName {
  readonly qname: string;
  readonly local: string;
  /** '' when in no namespace. */
  readonly ns: string;
}

/**
 * The elements and attributes of an index as columns of numbers, by index in document order (the same
 * indexes as `XmlIndex.elements`). What reads every element of a large notice (the XPath data model)
 * reads these: typed arrays hold no objects for the collector to copy, where one object per element and
 * attribute was, with the indexing itself, a fifth of a rule run. Never mutate. The arrays may be longer
 * than `count`/`attributeCount`: read below those.
 */
export interface ElementTable {
  readonly count: number;
  /** Offset of the `<` of each element's start tag (its document order). */
  readonly start: Int32Array;
  readonly nameEnd: Int32Array;
  readonly startTagEnd: Int32Array;
  /** Offset just after the end tag or `/>`; -1 when the element was never closed. */
  readonly end: Int32Array;
  /** Index of the parent, -1 for a root. */
  readonly parent: Int32Array;
  /** Index of the last element of each element's subtree (itself when it has none). */
  readonly last: Int32Array;
  /** Each element's name: an index into `names`. */
  readonly name: Int32Array;
  /** Element k's attributes are attributes firstAttribute[k] to firstAttribute[k + 1] - 1. */
  readonly firstAttribute: Int32Array;
  readonly attributeCount: number;
  readonly attributeStart: Int32Array;
  readonly attributeNameEnd: Int32Array;
  readonly attributeValueStart: Int32Array;
  readonly attributeValueEnd: Int32Array;
  /** Each attribute's name: an index into `names` (namespace declarations have XMLNS_NS). */
  readonly attributeName: Int32Array;
  /** The document's distinct names, each qualified name with the namespace it resolved to. */
  readonly names: readonly WrittenName[];
}

export interface XmlIndex {
  text: string;
  /**
   * Elements in document order; elements[0] is the root when there is one. Made from `table` on the
   * first read, then the same objects on every read.
   */
  readonly elements: XmlElement[];
  /** The same elements as columns of numbers. */
  readonly table: ElementTable;
  /**
   * Element k (the same object as `elements[k]`), or undefined when there is none: what reads a few
   * elements (the root and its children) gets them without making an object for every element.
   */
  element(k: number): XmlElement | undefined;
  /** Well-formedness errors, first one first; empty for a well-formed document. */
  errors: XmlSyntaxError[];
  /**
   * The document type declaration (`<!DOCTYPE …>`, offsets of its `<` and past its `>`), when the text
   * has one: eForms notices do not, and entities its internal subset declares are not expanded here.
   */
  readonly doctype: { start: number; end: number; internalSubset: boolean } | undefined;
  /** Zero-based line and UTF-16 column of an offset. */
  positionAt(offset: number): { line: number; character: number };
  /** Offset of a zero-based line and UTF-16 column (clamped to the line and to the text). */
  offsetAt(line: number, character: number): number;
}

export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** More errors than this say nothing new (a binary file, a truncated paste): the rest are dropped. */
const MAX_ERRORS = 100;

/** A name or reference from the text as a message shows it: a 10 MB name must not make a 10 MB message. */
function shown(name: string): string {
  return clip(name, INPUT_LIMITS.echoChars.max);
}

/** A character as a message names it: printable ones quoted, the others by code point. */
function describeChar(c: number): string {
  return c < 32 || (c >= 0x7f && c <= 0x9f) || (c >= 0xd800 && c <= 0xdfff) || c >= 0xfffe
    ? `U+${c.toString(16).toUpperCase().padStart(4, '0')}`
    : `'${String.fromCharCode(c)}'`;
}

/** Whether XML 1.0 allows a character (production [2] Char); surrogates are judged in pairs elsewhere. */
function isXmlChar(code: number): boolean {
  return (
    code === 9 ||
    code === 10 ||
    code === 13 ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/**
 * The characters XML 1.0 forbids anywhere in a document are C0 controls other than tab, line feed and
 * carriage return, U+FFFE, U+FFFF, and surrogates that are not part of a pair. This class finds them,
 * and every surrogate besides: the pairs are told apart in code (forbiddenCharacters). One class, with
 * no look-around, is one regular-expression pass over the text, which costs far less than a check per
 * character in the scanner. The look-arounds that told pairs apart cost 2.6 ns a character on a text
 * with one character above U+00FF (V8 then stores it two bytes a character), against 1.2 ns for this
 * class: half the time of indexing the generated award notices.
 */
const FORBIDDEN_OR_SURROGATE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/g;

/** Past this many, forbidden characters are reported as one count (a binary file has millions). */
const MAX_CHAR_ERRORS = 5;

/** Up to this many attributes in one start tag, duplicates are looked for pairwise. */
const PAIRWISE_ATTRIBUTES = 8;

const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
const BANG = 33;
const DQUOTE = 34;
const HASH = 35;
const AMP = 38;
const SQUOTE = 39;
const SLASH = 47;
const COLON = 58;
const SEMI = 59;
const LT = 60;
const EQ = 61;
const GT = 62;
const QMARK = 63;
const LBRACKET = 91;
const RBRACKET = 93;
const BOM = 0xfeff;

/** ASCII name characters (XML NameChar restricted to ASCII); every code unit >= 128 counts as one. */
const NAME_CHAR = new Uint8Array(128);
/** ASCII name start characters. */
const NAME_START = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === COLON;
  NAME_START[c] = letter ? 1 : 0;
  NAME_CHAR[c] = letter || (c >= 48 && c <= 57) || c === 45 || c === 46 ? 1 : 0;
}

function isNameChar(c: number): boolean {
  return c >= 128 ? c !== BOM : NAME_CHAR[c] === 1;
}

function isNameStart(c: number): boolean {
  return c >= 128 ? c !== BOM : NAME_START[c] === 1;
}

function isWs(c: number): boolean {
  return c === SPACE || c === LF || c === TAB || c === CR;
}

/** Whether this machine stores a Uint16Array little-endian, as Buffer's 'utf16le' writes it. */
const LITTLE_ENDIAN = new Uint16Array(new Uint8Array([1, 0]).buffer)[0] === 1;

/** Kept between calls (indexXml is synchronous and never re-entered): one buffer per edit would load the GC. */
let unitBuffer: Buffer | undefined;
/** Above this many code units the buffer is not kept for the next call. */
const KEEP_UNITS = 8 * 1024 * 1024;

/**
 * The UTF-16 code units of the text in a typed array. Reading a typed array element costs about half
 * of a charCodeAt (which dispatches on the string's representation on every call: sliced, external,
 * two-byte...), and the native copy costs less than one charCodeAt pass over the text.
 * Valid until the next call.
 */
function codeUnits(text: string): Uint16Array {
  const n = text.length;
  if (LITTLE_ENDIAN && typeof Buffer !== 'undefined') {
    let bytes = unitBuffer;
    if (bytes === undefined || bytes.length < n * 2) {
      // Its own ArrayBuffer (not the shared pool), so the Uint16Array view starts aligned at byte 0.
      bytes = Buffer.allocUnsafeSlow(Math.max(n * 2, 64 * 1024));
      if (n <= KEEP_UNITS) unitBuffer = bytes;
    }
    bytes.write(text, 0, 'utf16le');
    return new Uint16Array(bytes.buffer, bytes.byteOffset, n);
  }
  const codes = new Uint16Array(n);
  for (let k = 0; k < n; k++) codes[k] = text.charCodeAt(k);
  return codes;
}

/**
 * Packed code units of the names of one index, in one Int32Array per call rather than two small typed
 * arrays per name (a typed array costs as much to create as scanning a few hundred characters).
 */
class PairPool {
  array = new Int32Array(2048);
  top = 0;

  /** Stores qname[from..] two code units per int, as an Int32Array view of the text reads them; returns where. */
  add(qname: string, from: number): number {
    const count = (qname.length - from) >> 1;
    if (this.top + count > this.array.length) {
      // Names created before keep the old array, which still holds their pairs.
      const bigger = new Int32Array(Math.max(this.array.length * 2, this.top + count));
      bigger.set(this.array.subarray(0, this.top));
      this.array = bigger;
    }
    const at = this.top;
    for (let k = 0; k < count; k++) {
      const u0 = qname.charCodeAt(from + 2 * k);
      const u1 = qname.charCodeAt(from + 2 * k + 1);
      this.array[at + k] = LITTLE_ENDIAN ? u0 | (u1 << 16) : (u0 << 16) | u1;
    }
    this.top += count;
    return at;
  }
}

/**
 * An interned name. Its code units are also kept packed two by two, so that an occurrence in the text
 * is checked 32 bits at a time through an Int32Array view of the text's code units.
 */
class Name {
  readonly prefix: string;
  readonly local: string;
  readonly length: number;
  private readonly pairs: Int32Array;
  /** Where units (0,1), (2,3)... are in `pairs`: how the text reads an occurrence at an even offset. */
  private readonly evenAt: number;
  /** Where units (1,2), (3,4)... are: an occurrence at an odd offset, whose unit 0 is compared alone. */
  private readonly oddAt: number;
  private readonly first: number;
  private readonly last: number;
  /** Namespace URI of the prefix, valid while `nsVersion` equals the index's binding version. */
  ns = '';
  nsVersion = -1;
  /** The element name that followed this one as its next sibling last time (a guess for the next time). */
  nextSibling: Name | undefined = undefined;
  /** The name of this element's first child last time. */
  firstChild: Name | undefined = undefined;
  /** The name of this element's first attribute last time. */
  firstAttribute: Name | undefined = undefined;
  /** The attribute that followed this one last time. */
  nextAttribute: Name | undefined = undefined;
  /** Its index in the table's names when it last resolved to `tableNs` (-1 before the first time). */
  tableId = -1;
  tableNs = '';

  constructor(
    readonly qname: string,
    colon: number,
    readonly hash: number,
    pool: PairPool,
  ) {
    this.prefix = colon >= 0 ? qname.slice(0, colon) : '';
    this.local = colon >= 0 ? qname.slice(colon + 1) : qname;
    this.length = qname.length;
    this.evenAt = pool.add(qname, 0);
    this.oddAt = pool.add(qname, 1);
    this.pairs = pool.array;
    this.first = qname.charCodeAt(0);
    this.last = qname.charCodeAt(qname.length - 1);
  }

  /** Whether the text holds this name at `at` (which must leave room for it: at + length <= text length). */
  matches(codes: Uint16Array, pairs: Int32Array, at: number): boolean {
    const len = this.length;
    const packed = this.pairs;
    let p = this.evenAt;
    let from = at;
    let rest = len;
    if ((at & 1) === 1) {
      if (codes[at] !== this.first) return false;
      p = this.oddAt;
      from = at + 1;
      rest = len - 1;
    }
    const base = (from >> 1) - p;
    const end = p + (rest >> 1);
    for (; p < end; p++) if (pairs[base + p] !== packed[p]) return false;
    return (rest & 1) === 0 || codes[at + len - 1] === this.last;
  }
}

/**
 * Interned names, looked up by a hash computed while scanning, so that a name seen before costs no
 * substring: a notice repeats a few hundred names tens of thousands of times.
 */
/** Offset just after the name the last `readName` call read: a slot, so that no name allocates a pair. */
let readNameEnd = 0;

/**
 * Reads the element or attribute name that starts at `j`: the guessed name when the text holds it
 * followed by a non-name character (one comparison pass), else by scanning, hashing and looking it up.
 * Sets `readNameEnd`.
 */
function readName(
  text: string,
  codes: Uint16Array,
  pairs: Int32Array,
  names: NameTable,
  j: number,
  n: number,
  guess: Name | undefined,
): Name {
  if (guess !== undefined) {
    const len = guess.length;
    if (j + len <= n && guess.matches(codes, pairs, j)) {
      const c = j + len < n ? codes[j + len] : -1;
      if (c < 128 ? NAME_CHAR[c] !== 1 : c === BOM) {
        readNameEnd = j + len;
        return guess;
      }
    }
  }
  const start = j;
  let colon = -1;
  let hash = 0;
  for (; j < n; j++) {
    const c = codes[j];
    if (c < 128 ? NAME_CHAR[c] === 0 : c === BOM) break;
    if (c === COLON && colon < 0) colon = j;
    hash = (Math.imul(hash, 31) + c) | 0;
  }
  readNameEnd = j;
  return names.get(text, codes, pairs, start, j, colon, hash);
}

class NameTable {
  private slots: (Name | undefined)[] = new Array(512).fill(undefined);
  private mask = 511;
  private count = 0;
  private readonly pool = new PairPool();

  get(
    text: string,
    codes: Uint16Array,
    pairs: Int32Array,
    start: number,
    end: number,
    colon: number,
    hash: number,
  ): Name {
    const len = end - start;
    let k = hash & this.mask;
    for (;;) {
      const slot = this.slots[k];
      if (slot === undefined) break;
      if (slot.hash === hash && slot.length === len && slot.matches(codes, pairs, start)) return slot;
      k = (k + 1) & this.mask;
    }
    const name = new Name(text.slice(start, end), colon >= 0 ? colon - start : -1, hash, this.pool);
    this.slots[k] = name;
    if (++this.count * 2 > this.mask) this.grow();
    return name;
  }

  private grow(): void {
    const old = this.slots;
    this.mask = this.mask * 2 + 1;
    this.slots = new Array(this.mask + 1).fill(undefined);
    for (const name of old) {
      if (name === undefined) continue;
      let k = name.hash & this.mask;
      while (this.slots[k] !== undefined) k = (k + 1) & this.mask;
      this.slots[k] = name;
    }
  }
}

/** Line-start table, built on first use (most edits never ask for a position). */
class LineTable {
  private starts: number[] | undefined;
  constructor(private readonly text: string) {}

  private table(): number[] {
    if (this.starts) return this.starts;
    const t = this.text;
    const starts = [0];
    // LSP (and vscode-languageserver-textdocument) count \r\n, \n and a lone \r as line ends.
    let cr = t.indexOf('\r');
    let lf = t.indexOf('\n');
    while (cr >= 0 || lf >= 0) {
      if (lf < 0 || (cr >= 0 && cr < lf)) {
        if (lf === cr + 1) {
          starts.push(lf + 1);
          lf = t.indexOf('\n', lf + 1);
        } else {
          starts.push(cr + 1);
        }
        cr = t.indexOf('\r', cr + 1);
      } else {
        starts.push(lf + 1);
        lf = t.indexOf('\n', lf + 1);
      }
    }
    this.starts = starts;
    return starts;
  }

  positionAt(offset: number): { line: number; character: number } {
    const starts = this.table();
    const o = Math.max(0, Math.min(offset | 0, this.text.length));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - starts[lo] };
  }

  offsetAt(line: number, character: number): number {
    const starts = this.table();
    if (line < 0) return 0;
    if (line >= starts.length) return this.text.length;
    const lineStart = starts[line];
    let lineEnd = line + 1 < starts.length ? starts[line + 1] : this.text.length;
    // The column never reaches into the line break.
    if (lineEnd > lineStart && this.text.charCodeAt(lineEnd - 1) === LF) lineEnd--;
    if (lineEnd > lineStart && this.text.charCodeAt(lineEnd - 1) === CR) lineEnd--;
    return Math.max(lineStart, Math.min(lineStart + Math.max(0, character), lineEnd));
  }
}

// Shared by every element without attributes / children (most of them): fewer allocations to collect.
// Frozen, so that a caller who pushes into one fails loudly instead of corrupting every element.
const EMPTY_ATTRIBUTES: XmlAttribute[] = Object.freeze([]) as unknown as XmlAttribute[];
const NO_CHILDREN: number[] = Object.freeze([]) as unknown as number[];

/**
 * An element as `XmlIndex.elements` gives it, made from the index's table on the first read of
 * `elements`. `children` is worked out on first use. The bookkeeping is in private (#) fields, so that
 * keys, spreads and JSON see the same data properties as before; toJSON puts `children` back where a
 * plain object had it.
 */
class IndexedElement implements XmlElement {
  #kids: number[] | undefined = undefined;
  readonly #table: ElementTable;
  readonly #at: number;

  constructor(
    public qname: string,
    public local: string,
    public ns: string,
    public start: number,
    public nameEnd: number,
    public startTagEnd: number,
    public end: number,
    public parent: number,
    public attributes: XmlAttribute[],
    table: ElementTable,
    at: number,
  ) {
    this.#table = table;
    this.#at = at;
  }

  /** Indexes of the child elements, in document order (the same array on every read). */
  get children(): number[] {
    if (this.#kids === undefined) this.#kids = childrenOf(this.#table, this.#at);
    return this.#kids;
  }

  set children(value: number[]) {
    this.#kids = value;
  }

  toJSON(): XmlElement {
    return {
      qname: this.qname,
      local: this.local,
      ns: this.ns,
      start: this.start,
      nameEnd: this.nameEnd,
      startTagEnd: this.startTagEnd,
      end: this.end,
      parent: this.parent,
      children: this.children,
      attributes: this.attributes,
    };
  }
}

/**
 * The index of the first element whose start tag begins at `offset` or after (`table.count` when none):
 * elements are in document order of their start, so it is found by halving.
 */
export function firstElementFrom(table: ElementTable, offset: number): number {
  const start = table.start;
  let lo = 0;
  let hi = table.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (start[mid] < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index of the element whose start tag begins exactly at `offset`, or -1. */
export function elementStartingAt(table: ElementTable, offset: number): number {
  const k = firstElementFrom(table, offset);
  return k < table.count && table.start[k] === offset ? k : -1;
}

/** The child elements of element k (of the document when k is -1), in document order. */
export function childrenOf(table: ElementTable, k: number): number[] {
  // The subtree is contiguous in document order: the first child follows the element, and each next
  // child follows the previous one's subtree. Jumping over subtrees keeps this linear in the number of
  // children, however deep the notice (a scan of the subtree was quadratic in its depth).
  const last = table.last;
  const to = k < 0 ? table.count - 1 : last[k];
  let kids = NO_CHILDREN;
  for (let c = k + 1; c <= to; c = last[c] + 1) {
    if (kids === NO_CHILDREN) kids = [];
    kids.push(c);
  }
  return kids;
}

/** Columns that grow as the scanner appends elements and attributes (see ElementTable). */
class GrowingTable implements ElementTable {
  count = 0;
  start: Int32Array;
  nameEnd: Int32Array;
  startTagEnd: Int32Array;
  end: Int32Array;
  parent: Int32Array;
  last: Int32Array;
  name: Int32Array;
  firstAttribute: Int32Array;
  attributeCount = 0;
  attributeStart: Int32Array;
  attributeNameEnd: Int32Array;
  attributeValueStart: Int32Array;
  attributeValueEnd: Int32Array;
  attributeName: Int32Array;
  readonly names: WrittenName[] = [];
  /** Names other than a Name's usual resolution (a prefix bound to another URI), by URI and qname. */
  readonly #otherNames = new Map<string, number>();

  /** No text holds more elements or attributes than this: each takes two characters at least (`<a`, ` a`). */
  readonly #most: number;
  readonly #textLength: number;

  constructor(textLength: number) {
    this.#most = (textLength >> 1) + 1;
    this.#textLength = textLength;
    // Notices run at about 40 characters per element: a first guess that rarely needs to grow.
    const elements = Math.min(this.#most, Math.max(64, textLength >> 5));
    this.start = new Int32Array(elements);
    this.nameEnd = new Int32Array(elements);
    this.startTagEnd = new Int32Array(elements);
    this.end = new Int32Array(elements);
    this.parent = new Int32Array(elements);
    this.last = new Int32Array(elements);
    this.name = new Int32Array(elements);
    this.firstAttribute = new Int32Array(elements + 1);
    const attributes = Math.min(this.#most, Math.max(64, textLength >> 6));
    this.attributeStart = new Int32Array(attributes);
    this.attributeNameEnd = new Int32Array(attributes);
    this.attributeValueStart = new Int32Array(attributes);
    this.attributeValueEnd = new Int32Array(attributes);
    this.attributeName = new Int32Array(attributes);
  }

  /** The index in `names` of this name resolved to `ns`. */
  nameOf(name: Name, ns: string): number {
    if (name.tableId >= 0 && name.tableNs === ns) return name.tableId;
    let id: number | undefined;
    if (name.tableId >= 0) {
      // The same qualified name in another namespace: rare, looked up by both.
      const key = `${ns} ${name.qname}`;
      id = this.#otherNames.get(key);
      if (id === undefined) {
        id = this.#add(name, ns);
        this.#otherNames.set(key, id);
      }
    } else id = this.#add(name, ns);
    name.tableId = id;
    name.tableNs = ns;
    return id;
  }

  #add(name: Name, ns: string): number {
    this.names.push({ qname: name.qname, local: name.local, ns });
    return this.names.length - 1;
  }

  /** Appends an element whose attributes are the last ones appended since `firstAttribute`; returns its index. */
  addElement(
    name: number,
    start: number,
    nameEnd: number,
    startTagEnd: number,
    end: number,
    parent: number,
    firstAttribute: number,
  ): number {
    const k = this.count;
    if (k === this.start.length) this.#growElements(start);
    this.name[k] = name;
    this.start[k] = start;
    this.nameEnd[k] = nameEnd;
    this.startTagEnd[k] = startTagEnd;
    this.end[k] = end;
    this.parent[k] = parent;
    this.last[k] = k;
    this.firstAttribute[k] = firstAttribute;
    this.firstAttribute[k + 1] = this.attributeCount;
    this.count = k + 1;
    return k;
  }

  /** Appends an attribute (its name is set when the tag is complete); returns its index. */
  addAttribute(start: number, nameEnd: number, valueStart: number, valueEnd: number): number {
    const a = this.attributeCount;
    if (a === this.attributeStart.length) this.#growAttributes(start);
    this.attributeStart[a] = start;
    this.attributeNameEnd[a] = nameEnd;
    this.attributeValueStart[a] = valueStart;
    this.attributeValueEnd[a] = valueEnd;
    this.attributeCount = a + 1;
    return a;
  }

  /**
   * The next length of columns full at `length` when the scanner is at offset `at`: what the rest of
   * the text will hold at the density read so far, with a twentieth to spare, but at most twice as long
   * and not past what any text can hold, and always an eighth longer at least. A dense hostile text
   * (`<a/>` 37 million times) gets columns of its size, not twice that.
   */
  #grownSize(length: number, at: number): number {
    const projected = Math.ceil(((length / Math.max(1, at)) * this.#textLength * 21) / 20) + 64;
    const most = Math.min(length * 2, this.#most);
    return Math.max(Math.min(projected, most), length + (length >> 3) + 64);
  }

  #growElements(at: number): void {
    const size = this.#grownSize(this.start.length, at);
    this.start = grown(this.start, size);
    this.nameEnd = grown(this.nameEnd, size);
    this.startTagEnd = grown(this.startTagEnd, size);
    this.end = grown(this.end, size);
    this.parent = grown(this.parent, size);
    this.last = grown(this.last, size);
    this.name = grown(this.name, size);
    this.firstAttribute = grown(this.firstAttribute, size + 1);
  }

  #growAttributes(at: number): void {
    const size = this.#grownSize(this.attributeStart.length, at);
    this.attributeStart = grown(this.attributeStart, size);
    this.attributeNameEnd = grown(this.attributeNameEnd, size);
    this.attributeValueStart = grown(this.attributeValueStart, size);
    this.attributeValueEnd = grown(this.attributeValueEnd, size);
    this.attributeName = grown(this.attributeName, size);
  }
}

function grown(a: Int32Array, size: number): Int32Array {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

/**
 * The table as plain data of its exact length, for another thread: a structured clone copies typed
 * arrays as they are, so a worker gets the index without scanning the text again (indexFromTable).
 */
export function tableData(t: ElementTable): ElementTable {
  return {
    count: t.count,
    start: t.start.slice(0, t.count),
    nameEnd: t.nameEnd.slice(0, t.count),
    startTagEnd: t.startTagEnd.slice(0, t.count),
    end: t.end.slice(0, t.count),
    parent: t.parent.slice(0, t.count),
    last: t.last.slice(0, t.count),
    name: t.name.slice(0, t.count),
    firstAttribute: t.firstAttribute.slice(0, t.count + 1),
    attributeCount: t.attributeCount,
    attributeStart: t.attributeStart.slice(0, t.attributeCount),
    attributeNameEnd: t.attributeNameEnd.slice(0, t.attributeCount),
    attributeValueStart: t.attributeValueStart.slice(0, t.attributeCount),
    attributeValueEnd: t.attributeValueEnd.slice(0, t.attributeCount),
    attributeName: t.attributeName.slice(0, t.attributeCount),
    names: t.names.map((n) => ({ qname: n.qname, local: n.local, ns: n.ns })),
  };
}

/**
 * The index of `text` from a table indexXml made of the same text in another thread (tableData) and
 * its errors; undefined when what came is not such a table, and the caller indexes the text itself.
 */
export function indexFromTable(
  text: string,
  table: unknown,
  errors: unknown,
  doctype: unknown,
): XmlIndex | undefined {
  if (!isTableData(table) || !Array.isArray(errors) || !isDoctype(doctype)) return undefined;
  return new TableIndex(text, table, errors as XmlSyntaxError[], new LineTable(text), doctype);
}

function isDoctype(d: unknown): d is XmlIndex['doctype'] {
  if (d === undefined) return true;
  if (typeof d !== 'object' || d === null) return false;
  const { start, end, internalSubset } = d as Record<string, unknown>;
  return Number.isInteger(start) && Number.isInteger(end) && typeof internalSubset === 'boolean';
}

function isTableData(t: unknown): t is ElementTable {
  if (typeof t !== 'object' || t === null) return false;
  const d = t as Record<string, unknown>;
  const count = d.count;
  const attributes = d.attributeCount;
  if (typeof count !== 'number' || typeof attributes !== 'number' || !Array.isArray(d.names)) return false;
  const sized = (key: string, length: number): boolean => {
    const a = d[key];
    return a instanceof Int32Array && a.length === length;
  };
  return (
    ['start', 'nameEnd', 'startTagEnd', 'end', 'parent', 'last', 'name'].every((k) => sized(k, count)) &&
    sized('firstAttribute', count + 1) &&
    ['attributeStart', 'attributeNameEnd', 'attributeValueStart', 'attributeValueEnd', 'attributeName'].every(
      (k) => sized(k, attributes),
    )
  );
}

/** What indexXml returns: the table, the errors, and the element objects made on first read. */
class TableIndex implements XmlIndex {
  #elements: XmlElement[] | undefined;
  /** Elements made one by one before `elements` was read, which then reuses them. */
  #some: Map<number, XmlElement> | undefined;

  constructor(
    readonly text: string,
    readonly table: ElementTable,
    readonly errors: XmlSyntaxError[],
    private readonly lines: LineTable,
    readonly doctype: XmlIndex['doctype'],
  ) {}

  get elements(): XmlElement[] {
    let all = this.#elements;
    if (all === undefined) {
      const t = this.table;
      all = new Array(t.count);
      for (let k = 0; k < t.count; k++) all[k] = this.#some?.get(k) ?? elementObject(t, k);
      this.#elements = all;
      this.#some = undefined;
    }
    return all;
  }

  element(k: number): XmlElement | undefined {
    if (this.#elements !== undefined) return this.#elements[k];
    if (!Number.isInteger(k) || k < 0 || k >= this.table.count) return undefined;
    if (this.#some === undefined) this.#some = new Map();
    let e = this.#some.get(k);
    if (e === undefined) {
      e = elementObject(this.table, k);
      this.#some.set(k, e);
    }
    return e;
  }

  positionAt(offset: number): { line: number; character: number } {
    return this.lines.positionAt(offset);
  }

  offsetAt(line: number, character: number): number {
    return this.lines.offsetAt(line, character);
  }
}

function elementObject(t: ElementTable, k: number): XmlElement {
  const names = t.names;
  const from = t.firstAttribute[k];
  const to = t.firstAttribute[k + 1];
  let attributes = EMPTY_ATTRIBUTES;
  if (to > from) {
    attributes = new Array(to - from);
    for (let a = from; a < to; a++) {
      const an = names[t.attributeName[a]];
      attributes[a - from] = {
        qname: an.qname,
        local: an.local,
        ns: an.ns,
        start: t.attributeStart[a],
        nameEnd: t.attributeNameEnd[a],
        valueStart: t.attributeValueStart[a],
        valueEnd: t.attributeValueEnd[a],
      };
    }
  }
  const en = names[t.name[k]];
  return new IndexedElement(
    en.qname,
    en.local,
    en.ns,
    t.start[k],
    t.nameEnd[k],
    t.startTagEnd[k],
    t.end[k],
    t.parent[k],
    attributes,
    t,
    k,
  );
}

export function indexXml(text: string): XmlIndex {
  const n = text.length;
  const codes = codeUnits(text);
  // The same code units read two at a time (aligned pairs), to compare names 32 bits at a time.
  const pairs = new Int32Array(codes.buffer, codes.byteOffset, n >> 1);
  const table = new GrowingTable(n);
  const errors: XmlSyntaxError[] = [];
  const lines = new LineTable(text);
  const names = new NameTable();
  // In-scope namespace bindings ('' = default namespace) and the log that undoes them at end tags.
  const bindings = new Map<string, string>([['xml', XML_NS]]);
  const undoPrefix: string[] = [];
  const undoUri: (string | undefined)[] = [];
  /** Open elements (indexes), innermost last, with the undo-log length at their start tag. */
  const stack: number[] = [];
  /** Names of the open elements, innermost last. */
  const openNames: Name[] = [];
  /** Name of the last child seen at each depth (index = number of open ancestors); undefined before the first. */
  const lastChildName: (Name | undefined)[] = [undefined];
  /** Changes whenever a binding does, so that a name's resolved namespace can be cached on the name. */
  let bindingsVersion = 0;
  /** The interned names of the start tag's attributes so far (for the duplicate check), and the
   * namespace each has before prefixes are resolved at the end of the tag. */
  const scratchNames: Name[] = [];
  const scratchNs: string[] = [];
  let scratchCount = 0;
  /** Searches of the open elements for a stray end tag's name that found none (each costs the depth). */
  let failedSearches = 0;
  const marks: number[] = [];
  let rootSeen = false;
  let rootClosed = false;
  let hasInternalSubset = false;
  let doctype: XmlIndex['doctype'];
  let nextAmp = -2;

  const err = (message: string, offset: number, relatedOffset?: number): void => {
    if (errors.length >= MAX_ERRORS) return;
    errors.push(relatedOffset === undefined ? { message, offset } : { message, offset, relatedOffset });
  };
  const lineOf = (offset: number): number => lines.positionAt(offset).line + 1;

  /** Checks the reference starting at `amp`; returns the offset after it (after `amp` when malformed). */
  const checkReference = (amp: number, limit: number): number => {
    let j = amp + 1;
    let c = j < limit ? text.charCodeAt(j) : -1;
    if (c === HASH) {
      j++;
      let hex = false;
      if (j < limit && text.charCodeAt(j) === 120 /* x */) {
        hex = true;
        j++;
      }
      const digitsStart = j;
      while (j < limit) {
        c = text.charCodeAt(j);
        const digit = (c >= 48 && c <= 57) || (hex && ((c >= 97 && c <= 102) || (c >= 65 && c <= 70)));
        if (!digit) break;
        j++;
      }
      if (j === digitsStart || j >= limit || text.charCodeAt(j) !== SEMI) {
        err("'&' does not start a valid character reference (write &amp; for a literal '&')", amp);
        return amp + 1;
      }
      // Leading zeros aside, more than 7 digits is past U+10FFFF; the parse stays short either way.
      let first = digitsStart;
      while (first < j - 1 && text.charCodeAt(first) === 48) first++;
      const code = j - first > 7 ? -1 : Number.parseInt(text.slice(first, j), hex ? 16 : 10);
      if (!isXmlChar(code)) {
        err(
          `the character reference ${shown(text.slice(amp, j + 1))} names a character XML 1.0 forbids (control characters other than tab, line feed and carriage return are not allowed, even escaped)`,
          amp,
        );
      }
      return j + 1;
    }
    if (c < 0 || !isNameStart(c)) {
      err("'&' must start an entity or character reference: write &amp; for a literal '&'", amp);
      return amp + 1;
    }
    j++;
    while (j < limit && isNameChar(text.charCodeAt(j))) j++;
    if (j >= limit || text.charCodeAt(j) !== SEMI) {
      err("'&' must start an entity or character reference: write &amp; for a literal '&'", amp);
      return amp + 1;
    }
    if (!hasInternalSubset && !NAMED_ENTITIES.has(text.slice(amp + 1, j))) {
      err(
        `undefined entity &${shown(text.slice(amp + 1, j))}; (only &lt; &gt; &amp; &quot; &apos; are predefined)`,
        amp,
      );
    }
    return j + 1;
  };

  /** Checks every `&` in [from, to) of character data. */
  const checkText = (from: number, to: number): void => {
    if (nextAmp !== -1 && nextAmp < from) nextAmp = text.indexOf('&', from);
    while (nextAmp !== -1 && nextAmp < to) {
      const after = checkReference(nextAmp, to);
      nextAmp = text.indexOf('&', after);
    }
  };

  /** Text outside the root element may only be white space. */
  const checkOutsideText = (from: number, to: number): void => {
    for (let j = from; j < to; j++) {
      const c = text.charCodeAt(j);
      if (!isWs(c) && !(j === 0 && c === BOM)) {
        err(rootSeen ? 'text after the root element' : 'text before the root element', j);
        return;
      }
    }
  };

  /** Ends the namespace declarations made since `mark`: each prefix gets back what it meant before. */
  const unbindTo = (mark: number): void => {
    while (undoPrefix.length > mark) {
      const p = undoPrefix.pop() as string;
      const uri = undoUri.pop();
      if (uri === undefined) bindings.delete(p);
      else bindings.set(p, uri);
      bindingsVersion++;
    }
  };

  const closeTop = (end: number): void => {
    const idx = stack.pop() as number;
    openNames.pop();
    const mark = marks.pop() as number;
    table.end[idx] = end;
    table.last[idx] = table.count - 1;
    unbindTo(mark);
    if (stack.length === 0) rootClosed = true;
  };

  const skipDoctype = (i: number): number => {
    // <!DOCTYPE name ExternalID? [internal subset]? > — quotes and the subset may hold '>'.
    let j = i + 9;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c === GT) return j + 1;
      if (c === DQUOTE || c === SQUOTE) {
        const q = text.indexOf(c === DQUOTE ? '"' : "'", j + 1);
        if (q < 0) break;
        j = q + 1;
        continue;
      }
      if (c === LBRACKET) {
        hasInternalSubset = true;
        j++;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === RBRACKET) break;
          if (d === DQUOTE || d === SQUOTE) {
            const q = text.indexOf(d === DQUOTE ? '"' : "'", j + 1);
            j = q < 0 ? n : q + 1;
          } else if (d === LT && text.startsWith('<!--', j)) {
            const e = text.indexOf('-->', j + 4);
            j = e < 0 ? n : e + 3;
          } else j++;
        }
        j++;
        continue;
      }
      j++;
    }
    err('unterminated DOCTYPE declaration', i);
    return n;
  };

  let i = 0;
  while (i < n) {
    // Between tags there is mostly a line break and some indentation: look at a few code units before
    // paying for a call to indexOf.
    let lt = i;
    const near = Math.min(i + 16, n);
    while (lt < near && codes[lt] !== LT) lt++;
    if (lt === near) lt = near < n ? text.indexOf('<', near) : -1;
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i) {
      if (stack.length === 0) checkOutsideText(i, textEnd);
      else checkText(i, textEnd);
    }
    if (lt < 0) break;
    i = lt;
    const c1 = i + 1 < n ? codes[i + 1] : -1;

    if (c1 === SLASH) {
      // End tag. Fast path: it closes the innermost open element, compared in place.
      if (stack.length > 0) {
        const name = openNames[stack.length - 1];
        const after = i + 2 + name.length;
        if (after < n && codes[after] === GT && name.matches(codes, pairs, i + 2)) {
          closeTop(after + 1);
          i = after + 1;
          continue;
        }
      }
      const top = stack.length > 0 ? openNames[stack.length - 1] : undefined;
      const topStart = stack.length > 0 ? table.start[stack[stack.length - 1]] : -1;
      let j = i + 2;
      while (j < n && isNameChar(text.charCodeAt(j))) j++;
      const nameStart = i + 2;
      const nameEnd = j;
      while (j < n && isWs(text.charCodeAt(j))) j++;
      let tagEnd: number;
      if (j < n && text.charCodeAt(j) === GT) tagEnd = j + 1;
      else {
        err(`end tag </${shown(text.slice(nameStart, nameEnd))}> is not closed with '>'`, j);
        tagEnd = j < n && text.charCodeAt(j) !== LT ? j + 1 : j;
      }
      if (nameEnd === nameStart) {
        err("'</' must be followed by the name of the element it closes", i);
        i = Math.max(tagEnd, i + 2);
        continue;
      }
      const name = text.slice(nameStart, nameEnd);
      if (top === undefined) {
        err(`end tag </${shown(name)}> has no matching start tag`, i);
      } else if (top.qname === name) {
        closeTop(tagEnd);
      } else {
        err(
          `end tag </${shown(name)}> does not match start tag <${shown(top.qname)}> opened at line ${lineOf(topStart)}`,
          i,
          topStart,
        );
        // Recover as editors expect: if an outer element has that name, the inner ones were left open.
        // A search that succeeds closes what it passes; one that fails costs the depth for nothing, so
        // after MAX_ERRORS of those stray end tags are only reported: the whole pass stays linear.
        let k = failedSearches < MAX_ERRORS ? stack.length - 1 : -1;
        while (k >= 0 && openNames[k].qname !== name) k--;
        if (k < 0) failedSearches++;
        if (k >= 0) {
          while (stack.length - 1 > k) {
            const innerStart = table.start[stack[stack.length - 1]];
            err(
              `element <${shown(openNames[stack.length - 1].qname)}> opened at line ${lineOf(innerStart)} is not closed`,
              i,
              innerStart,
            );
            closeTop(-1);
          }
          closeTop(tagEnd);
          rootClosed = stack.length === 0;
        }
      }
      i = tagEnd;
      continue;
    }

    if (c1 === BANG) {
      if (text.startsWith('<!--', i)) {
        const e = text.indexOf('-->', i + 4);
        if (e < 0) {
          err("unterminated comment: '<!--' has no matching '-->'", i);
          i = n;
        } else i = e + 3;
      } else if (text.startsWith('<![CDATA[', i)) {
        if (stack.length === 0) err('CDATA section outside the root element', i);
        const e = text.indexOf(']]>', i + 9);
        if (e < 0) {
          err("unterminated CDATA section: '<![CDATA[' has no matching ']]>'", i);
          i = n;
        } else i = e + 3;
      } else if (text.startsWith('<!DOCTYPE', i)) {
        if (rootSeen) err('DOCTYPE declaration after the root element', i);
        const start = i;
        i = skipDoctype(i);
        doctype ??= { start, end: i, internalSubset: hasInternalSubset };
      } else {
        err("'<!' must start a comment '<!--', a CDATA section '<![CDATA[' or a DOCTYPE", i);
        i += 2;
      }
      continue;
    }

    if (c1 === QMARK) {
      const e = text.indexOf('?>', i + 2);
      if (
        i > 0 &&
        text.startsWith('xml', i + 2) &&
        isWs(text.charCodeAt(i + 5)) &&
        !(i === 1 && text.charCodeAt(0) === BOM)
      ) {
        err('the XML declaration <?xml ...?> is only allowed at the very start of the file', i);
      }
      if (e < 0) {
        err("unterminated processing instruction: '<?' has no matching '?>'", i);
        i = n;
      } else i = e + 2;
      continue;
    }

    if (c1 < 0 || !isNameStart(c1)) {
      err("'<' must start a tag: write &lt; for a literal '<'", i);
      if (stack.length === 0) checkOutsideText(i, i + 1);
      i++;
      continue;
    }

    // Start tag.
    const start = i;
    let j = i + 1;
    // Notices repeat their structure: guess the name from what followed the previous sibling (or began
    // the parent) last time, and check the guess in one pass instead of scanning, hashing and checking.
    const depth = stack.length;
    const previous = lastChildName[depth];
    const guess =
      previous !== undefined ? previous.nextSibling : depth > 0 ? openNames[depth - 1].firstChild : undefined;
    const info = readName(text, codes, pairs, names, j, n, guess);
    j = readNameEnd;
    const nameEnd = j;
    if (previous !== undefined) previous.nextSibling = info;
    else if (depth > 0) openNames[depth - 1].firstChild = info;
    lastChildName[depth] = info;
    if (rootClosed)
      err(`a second root element <${shown(info.qname)}>: a document has exactly one root element`, start);
    const firstAttribute = table.attributeCount;
    let selfClosing = false;
    let startTagEnd = -1;
    let declaresNs = false;
    let attributePrefixed = false;
    let previousAttribute: Name | undefined;
    let seenAttributes: Set<Name> | undefined;
    const mark = undoPrefix.length;

    for (;;) {
      let hadWs = false;
      let c = -1;
      while (j < n) {
        c = codes[j];
        if (!isWs(c)) break;
        hadWs = true;
        j++;
      }
      if (j >= n) {
        err(`start tag <${shown(info.qname)}> is not closed with '>' before the end of the file`, j, start);
        startTagEnd = n;
        break;
      }
      if (c === GT) {
        startTagEnd = j + 1;
        break;
      }
      if (c === SLASH) {
        if (j + 1 < n && codes[j + 1] === GT) {
          startTagEnd = j + 2;
          selfClosing = true;
          break;
        }
        err("'/' in a start tag must be followed by '>'", j);
        j++;
        continue;
      }
      if (c === LT) {
        err(`start tag <${shown(info.qname)}> is not closed with '>'`, j, start);
        startTagEnd = j;
        break;
      }
      if (!isNameStart(c)) {
        err(`unexpected character ${describeChar(c)} in start tag <${shown(info.qname)}>`, j);
        j++;
        continue;
      }
      if (!hadWs) err('attributes must be separated by white space', j);
      // Attribute.
      const aStart = j;
      // Same guess as for element names: the attribute that followed the previous one (or began this
      // element's start tag) last time.
      const aGuess = previousAttribute === undefined ? info.firstAttribute : previousAttribute.nextAttribute;
      const aInfo = readName(text, codes, pairs, names, j, n, aGuess);
      j = readNameEnd;
      if (previousAttribute === undefined) info.firstAttribute = aInfo;
      else previousAttribute.nextAttribute = aInfo;
      previousAttribute = aInfo;
      const aNameEnd = j;
      while (j < n && isWs(codes[j])) j++;
      let valueStart: number;
      let valueEnd: number;
      if (j >= n || codes[j] !== EQ) {
        err(`attribute '${shown(aInfo.qname)}' has no value: write ${shown(aInfo.qname)}="..."`, aStart);
        valueStart = aNameEnd;
        valueEnd = aNameEnd;
      } else {
        j++;
        while (j < n && isWs(codes[j])) j++;
        const q = j < n ? codes[j] : -1;
        if (q !== DQUOTE && q !== SQUOTE) {
          err(`the value of attribute '${shown(aInfo.qname)}' must be in quotes`, j);
          valueStart = j;
          while (j < n) {
            const d = text.charCodeAt(j);
            if (isWs(d) || d === GT || d === LT || (d === SLASH && text.charCodeAt(j + 1) === GT)) break;
            j++;
          }
          valueEnd = j;
        } else {
          valueStart = j + 1;
          const close = text.indexOf(q === DQUOTE ? '"' : "'", valueStart);
          valueEnd = close < 0 ? n : close;
          j = close < 0 ? n : close + 1;
          // The first '>' at or after the current '<', found once per run of '<': no rescans of the text.
          let gtAfter = -2;
          for (let k = valueStart; k < valueEnd; k++) {
            const d = codes[k];
            if (d === LT) {
              err(`'<' is not allowed in the value of attribute '${shown(aInfo.qname)}': write &lt;`, k);
              // A '<' between the quotes of a complete value is just a bad character: keep the value.
              if (gtAfter !== -1 && gtAfter < k) gtAfter = text.indexOf('>', k);
              if (close >= 0 && (gtAfter < 0 || gtAfter > close)) continue;
              // Otherwise the closing quote is most likely missing: end the value (and the tag) before it.
              const gt = text.lastIndexOf('>', k);
              valueEnd = gt >= valueStart ? gt : k;
              j = valueEnd;
              break;
            }
            if (d === AMP) k = checkReference(k, valueEnd) - 1;
          }
          if (close < 0 && j === n)
            err(`the value of attribute '${shown(aInfo.qname)}' has no closing quote`, valueStart - 1);
        }
      }
      // Names are interned, so identity is equality. A few attributes are compared one by one; past
      // that a set keeps the check linear (100,000 attributes took 33 s compared pairwise).
      let duplicate = false;
      if (seenAttributes !== undefined) {
        duplicate = seenAttributes.has(aInfo);
        seenAttributes.add(aInfo);
      } else {
        for (let k = 0; k < scratchCount; k++) {
          if (scratchNames[k] === aInfo) {
            duplicate = true;
            break;
          }
        }
        if (scratchCount >= PAIRWISE_ATTRIBUTES) {
          seenAttributes = new Set(scratchNames.slice(0, scratchCount));
          seenAttributes.add(aInfo);
        }
      }
      if (duplicate) err(`duplicate attribute '${shown(aInfo.qname)}' in <${shown(info.qname)}>`, aStart);
      let ns = '';
      if (aInfo.prefix === 'xmlns' || (aInfo.prefix === '' && aInfo.local === 'xmlns')) {
        ns = XMLNS_NS;
        const prefix = aInfo.prefix === '' ? '' : aInfo.local;
        const uri = decodeXmlText(text, valueStart, valueEnd);
        if (prefix !== '' && uri === '')
          err(`the namespace prefix '${shown(prefix)}' cannot be undeclared`, aStart);
        if (prefix === 'xml' || prefix === 'xmlns') {
          if (uri !== (prefix === 'xml' ? XML_NS : ''))
            err(`the prefix '${shown(prefix)}' cannot be redeclared`, aStart);
        } else {
          undoPrefix.push(prefix);
          undoUri.push(bindings.get(prefix));
          if (uri === '' && prefix === '') bindings.delete('');
          else bindings.set(prefix, uri);
          bindingsVersion++;
          declaresNs = true;
        }
      } else if (aInfo.prefix !== '') attributePrefixed = true;
      scratchNames[scratchCount] = aInfo;
      scratchNs[scratchCount++] = ns;
      table.addAttribute(aStart, aNameEnd, valueStart, valueEnd);
      if (j >= n) {
        err(`start tag <${shown(info.qname)}> is not closed with '>' before the end of the file`, n, start);
        startTagEnd = n;
        break;
      }
    }

    // Namespaces resolve after the whole tag: a declaration may follow the attribute that uses it.
    let ns: string;
    if (info.nsVersion === bindingsVersion) ns = info.ns;
    else if (info.prefix === '') ns = bindings.get('') ?? '';
    else {
      const bound = bindings.get(info.prefix);
      if (bound === undefined) {
        err(
          `unbound namespace prefix '${shown(info.prefix)}' in <${shown(info.qname)}>: declare xmlns:${shown(info.prefix)}="..."`,
          start,
        );
        ns = '';
      } else ns = bound;
    }
    if (info.nsVersion !== bindingsVersion && (info.prefix === '' || bindings.has(info.prefix))) {
      info.ns = ns;
      info.nsVersion = bindingsVersion;
    }
    for (let k = 0; k < scratchCount; k++) {
      const a = scratchNames[k];
      let aNs = scratchNs[k];
      if (attributePrefixed && a.prefix !== '' && a.prefix !== 'xmlns') {
        const bound = bindings.get(a.prefix);
        if (bound === undefined) {
          err(
            `unbound namespace prefix '${shown(a.prefix)}' in attribute '${shown(a.qname)}': declare xmlns:${shown(a.prefix)}="..."`,
            table.attributeStart[firstAttribute + k],
          );
        } else aNs = bound;
      }
      table.attributeName[firstAttribute + k] = table.nameOf(a, aNs);
    }
    scratchCount = 0;
    if (nameEnd === start + 1) err('element name expected after <', start);

    const parent = stack.length > 0 ? stack[stack.length - 1] : -1;
    const idx = table.addElement(
      table.nameOf(info, ns),
      start,
      nameEnd,
      startTagEnd,
      selfClosing ? startTagEnd : -1,
      parent,
      firstAttribute,
    );
    rootSeen = true;
    if (selfClosing) {
      // Declarations on a self-closing element end with it.
      if (declaresNs) {
        unbindTo(mark);
      }
      if (stack.length === 0) rootClosed = true;
    } else {
      stack.push(idx);
      openNames.push(info);
      lastChildName[depth + 1] = undefined;
      marks.push(mark);
    }
    i = startTagEnd;
  }

  while (stack.length > 0) {
    const elStart = table.start[stack[stack.length - 1]];
    err(
      `element <${shown(openNames[stack.length - 1].qname)}> opened at line ${lineOf(elStart)} is not closed at the end of the file`,
      n,
      elStart,
    );
    closeTop(-1);
  }
  if (!rootSeen) err('no root element: the file holds no XML element', 0);
  const charErrors = forbiddenCharacters(text);
  if (charErrors.length > 0) {
    // In document order with the others, so that the first error is still the first in the text.
    const merged = [...charErrors, ...errors].sort((a, b) => a.offset - b.offset).slice(0, MAX_ERRORS);
    errors.length = 0;
    for (const e of merged) errors.push(e);
  }

  return new TableIndex(text, table, errors, lines, doctype);
}

/** Errors for the characters XML 1.0 forbids; the first MAX_CHAR_ERRORS, then one that says more follow. */
function forbiddenCharacters(text: string): XmlSyntaxError[] {
  const out: XmlSyntaxError[] = [];
  const re = FORBIDDEN_OR_SURROGATE;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const at = m.index;
    const c = text.charCodeAt(at);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        // A pair: one character outside the Basic Multilingual Plane, which XML allows.
        re.lastIndex = at + 2;
        continue;
      }
    }
    // A low surrogate found here has no high one before it: that one would have taken it as its pair.
    if (out.length === MAX_CHAR_ERRORS) {
      out.push({ message: 'more characters that XML 1.0 forbids follow', offset: at });
      break;
    }
    const message =
      c >= 0xd800 && c <= 0xdfff
        ? `${describeChar(c)} is half of a surrogate pair without its other half: the text is not valid Unicode`
        : `character ${describeChar(c)} is not allowed in XML 1.0, not even escaped: remove it (tab, line feed and carriage return are the only control characters XML allows)`;
    out.push({ message, offset: at });
  }
  return out;
}

/** Offset of the `<` of an element's end tag (= startTagEnd for `<x/>`); -1 when it was never closed. */
export function contentEnd(index: XmlIndex, element: XmlElement): number {
  return contentEndOf(index.text, element.startTagEnd, element.end);
}

/** contentEnd of the element whose start tag ends at `startTagEnd` and which ends at `end`. */
export function contentEndOf(text: string, startTagEnd: number, end: number): number {
  if (end < 0) return -1;
  if (end === startTagEnd) return startTagEnd;
  return text.lastIndexOf('<', end - 1);
}

/** The five predefined entities. A Map, as the names come from the notice: `&constructor;` is none. */
const NAMED_ENTITIES = new Map<string, string>([
  ['lt', '<'],
  ['gt', '>'],
  ['amp', '&'],
  ['quot', '"'],
  ['apos', "'"],
]);

/** Character data of text[start, end) with the predefined entities and character references decoded. */
export function decodeXmlText(text: string, start: number, end: number): string {
  // Scan the range only: indexOf would run on to the end of a large text when there is no '&'.
  let amp = start;
  while (amp < end && text.charCodeAt(amp) !== AMP) amp++;
  if (amp >= end) return text.slice(start, end);
  let out = text.slice(start, amp);
  let i = amp;
  while (i < end) {
    // References are short: look for their ';' nearby only.
    const limit = Math.min(end, i + 13);
    let semi = i + 1;
    while (semi < limit && text.charCodeAt(semi) !== SEMI) semi++;
    if (semi >= limit) {
      out += '&';
      i++;
    } else {
      const ref = text.slice(i + 1, semi);
      let decoded: string | undefined;
      if (ref.charCodeAt(0) === HASH) {
        const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
        if (Number.isInteger(code) && code >= 0 && code <= 0x10ffff) decoded = String.fromCodePoint(code);
      } else decoded = NAMED_ENTITIES.get(ref);
      if (decoded === undefined) {
        out += '&';
        i++;
      } else {
        out += decoded;
        i = semi + 1;
      }
    }
    let stop = i;
    while (stop < end && text.charCodeAt(stop) !== AMP) stop++;
    out += text.slice(i, stop);
    i = stop;
  }
  return out;
}

/** Whether the document has an element with this namespace URI and local name. */
export function hasElementNamed(index: XmlIndex, ns: string, local: string): boolean {
  const t = index.table;
  const wanted = new Uint8Array(t.names.length);
  let any = false;
  t.names.forEach((n, i) => {
    if (n.ns === ns && n.local === local) {
      wanted[i] = 1;
      any = true;
    }
  });
  if (any) for (let k = 0; k < t.count; k++) if (wanted[t.name[k]] === 1) return true;
  return false;
}

/** Value of an attribute, entities decoded. */
export function attributeValue(index: XmlIndex, attribute: XmlAttribute): string {
  return decodeXmlText(index.text, attribute.valueStart, attribute.valueEnd);
}

/** The attribute of an element with that namespace URI ('' = unprefixed) and local name. */
export function findAttribute(element: XmlElement, local: string, ns = ''): XmlAttribute | undefined {
  for (const a of element.attributes) if (a.local === local && a.ns === ns) return a;
  return undefined;
}

/**
 * Text content of an element: character data and CDATA of it and its descendants, entities decoded,
 * comments and processing instructions left out. '' for an element that was never closed.
 */
export function textContent(index: XmlIndex, element: XmlElement): string {
  return textContentOf(index.text, element.startTagEnd, element.end);
}

/** textContent of the element whose start tag ends at `startTagEnd` and which ends at `end`. */
export function textContentOf(text: string, startTagEnd: number, end: number): string {
  const to = contentEndOf(text, startTagEnd, end);
  if (to < startTagEnd) return '';
  return characterData(text, startTagEnd, to);
}

/**
 * The character data of text[from, to): entities decoded, CDATA unwrapped, tags, comments and processing
 * instructions left out. The one text-extraction loop: textContent and the XPath data model's text nodes
 * (core/xpath/document.ts) both read through it.
 */
export function characterData(text: string, from: number, to: number): string {
  const lt = text.indexOf('<', from);
  if (lt < 0 || lt >= to) return decodeXmlText(text, from, to);
  let out = '';
  let i = from;
  while (i < to) {
    const next = text.indexOf('<', i);
    const stop = next < 0 || next >= to ? to : next;
    out += decodeXmlText(text, i, stop);
    if (stop >= to) break;
    if (text.startsWith('<![CDATA[', stop)) {
      const e = text.indexOf(']]>', stop + 9);
      const ce = e < 0 || e > to ? to : e;
      out += text.slice(stop + 9, ce);
      i = ce + 3;
    } else if (text.startsWith('<!--', stop)) {
      const e = text.indexOf('-->', stop + 4);
      i = e < 0 ? to : e + 3;
    } else if (text.startsWith('<?', stop)) {
      const e = text.indexOf('?>', stop + 2);
      i = e < 0 ? to : e + 2;
    } else {
      const e = text.indexOf('>', stop + 1);
      i = e < 0 ? to : e + 1;
    }
  }
  return out;
}
