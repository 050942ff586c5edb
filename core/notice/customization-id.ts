// Parsing of an eForms notice's `cbc:CustomizationID` (`eforms-sdk-1.8`, with optional national
// suffixes such as `eforms-sdk-1.8#extended#urn:…`), and finding that element in an indexed notice.
// The SDK version the service validates against comes from here when no setting overrides it.
// No `vscode` import here, and no I/O.

import { NS } from './namespaces';
import type { XmlElement, XmlIndex } from './xml-index';

const UBL_CBC_NS = NS.cbc;

export interface CustomizationId {
  major: number;
  minor: number;
  /** `MAJOR.MINOR`, as the validation service expects `eFormsSdkVersion`. */
  sdkVersion: string;
  /** What follows the first `#` (national extensions), without it; '' when absent. */
  suffix: string;
}

export type CustomizationIdResult = { ok: true; value: CustomizationId } | { ok: false; problem: string };

const EXAMPLE = 'eforms-sdk-1.15';

/** Parses the text content of cbc:CustomizationID; surrounding whitespace is ignored as XML allows. */
export function parseCustomizationId(raw: string): CustomizationIdResult {
  const text = raw.trim();
  if (text === '') return { ok: false, problem: `cbc:CustomizationID is empty: write e.g. ${EXAMPLE}.` };
  const hash = text.indexOf('#');
  const head = hash < 0 ? text : text.slice(0, hash);
  const suffix = hash < 0 ? '' : text.slice(hash + 1);
  const shown = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  if (!/^eforms-sdk-/.test(head))
    return {
      ok: false,
      problem: `cbc:CustomizationID "${shown}" must start with "eforms-sdk-" followed by the SDK version, e.g. ${EXAMPLE}.`,
    };
  const m = /^eforms-sdk-(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})$/.exec(head);
  if (!m)
    return {
      ok: false,
      problem: `cbc:CustomizationID "${shown}" must name the SDK version as MAJOR.MINOR (no patch number), e.g. ${EXAMPLE}.`,
    };
  // A national suffix is free-form, but whitespace inside an identifier token is never intended.
  if (/\s/.test(suffix))
    return { ok: false, problem: `cbc:CustomizationID "${shown}" contains whitespace after "#".` };
  const major = Number(m[1]);
  const minor = Number(m[2]);
  return { ok: true, value: { major, minor, sdkVersion: `${major}.${minor}`, suffix } };
}

export interface CustomizationIdElement {
  element: XmlElement;
  /** Offsets of the element's content (between the tags); equal when it is empty or self-closed. */
  contentStart: number;
  contentEnd: number;
  /** The raw content text. */
  text: string;
}

/** The root's cbc:CustomizationID child (matched by namespace URI, never by prefix), if any. */
export function findCustomizationId(index: XmlIndex): CustomizationIdElement | undefined {
  // The root's children by the index's columns, an object made only for the one found: the element may
  // be missing from a notice whose root has millions of children, and an object for each took seconds.
  const t = index.table;
  if (t.count === 0) return undefined;
  const last = t.last;
  for (let c = 1; c <= last[0]; c = last[c] + 1) {
    const name = t.names[t.name[c]];
    if (name.local === 'CustomizationID' && name.ns === UBL_CBC_NS) {
      const el = index.element(c);
      return el && contentOf(index, el);
    }
  }
  return undefined;
}

function contentOf(index: XmlIndex, el: XmlElement): CustomizationIdElement {
  const text = index.text;
  const selfClosed = text.charCodeAt(el.startTagEnd - 2) === 0x2f; // '/>'
  if (selfClosed) return { element: el, contentStart: el.startTagEnd, contentEnd: el.startTagEnd, text: '' };
  let contentEnd: number;
  if (el.end < 0) {
    // Unclosed while typing: the content runs to the next tag.
    const lt = text.indexOf('<', el.startTagEnd);
    contentEnd = lt < 0 ? text.length : lt;
  } else {
    const close = text.lastIndexOf('</', el.end - 1);
    contentEnd = Math.max(close, el.startTagEnd);
  }
  return {
    element: el,
    contentStart: el.startTagEnd,
    contentEnd,
    text: text.slice(el.startTagEnd, contentEnd),
  };
}

/** The SDK version the notice declares (`1.15`), or undefined when it declares none or a malformed one. */
export function declaredSdkVersion(index: XmlIndex): string | undefined {
  const found = findCustomizationId(index);
  if (!found) return undefined;
  const parsed = parseCustomizationId(decodeSimpleEntities(found.text));
  return parsed.ok ? parsed.value.sdkVersion : undefined;
}

/** The five predefined entities and character references; enough for an identifier's content. */
export function decodeSimpleEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (all, name: string) => {
    switch (name) {
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'amp':
        return '&';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
    }
    const cp = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : all;
  });
}

/**
 * `MAJOR.MINOR` of an SDK version written either way users meet it: `1.15` or the CustomizationID form
 * `eforms-sdk-1.15`. Undefined for anything else (a patch number, other text).
 */
export function normalizeSdkVersion(input: string | undefined): string | undefined {
  const m = /^(?:eforms-sdk-)?(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})$/.exec((input ?? '').trim());
  return m ? `${Number(m[1])}.${Number(m[2])}` : undefined;
}

/** The form the validation service's `eFormsSdkVersion` takes, as known working clients send it. */
export function sdkVersionParameter(majorMinor: string): string {
  return `eforms-sdk-${majorMinor}`;
}
