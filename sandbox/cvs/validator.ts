// The emulated CVS validation behind the API key check: request options, notice decoding and parsing,
// SDK version selection, the rules, and the SVRL report. The eNotices2 emulation calls it for
// submissions. Every problem with the input comes back as a 400 with one clear message; it never
// throws on what a caller sends, and it never reads files or the network.

import { indexXml } from '../../core/notice';
import { REPORT_LANGUAGES as CONTRACT_LANGUAGES } from '../../core/settings';
import { buildNoticeTree, NOTICE_ROOT_NAMESPACES, type NoticeNode } from './notice-tree';
import { noticeSubtype, PATTERNS, patternApplies, type RuleEnv, type ValidationMode } from './rules';
import { type ReportEntry, writeSvrl } from './svrl-writer';

/** The languages of the report the API accepts (section 2 of the contract). */
export const REPORT_LANGUAGES: readonly string[] = CONTRACT_LANGUAGES;

/** Languages our messages are written in; the others get the raw key, as the real service does. */
export const TRANSLATED_LANGUAGES: readonly string[] = ['en', 'fr', 'de'];

export const VALIDATION_MODES: readonly ValidationMode[] = ['static', 'dynamic'];

/**
 * The eForms SDK versions the rules are written for: every 1.x minor from 1.0 to 1.15 (the rules follow
 * SDK 1.15, whose ids and tests did not change for the assertions we emulate). Patch numbers are ignored.
 */
export const SDK_MAJOR = 1;
export const SDK_MAX_MINOR = 15;
export const SUPPORTED_SDK_RANGE = `${SDK_MAJOR}.0 to ${SDK_MAJOR}.${SDK_MAX_MINOR}`;

export interface CvsOptions {
  language?: string;
  validationMode?: string;
  eFormsSdkVersion?: string;
  /** Milliseconds since the epoch for dynamic rules; Date.now() when absent. */
  now?: number;
}

export type CvsResult =
  | { ok: true; svrl: string; errors: number; warnings: number }
  | { ok: false; status: 400; message: string };

const bad = (message: string): CvsResult => ({ ok: false, status: 400, message });

export function runCvsValidation(notice: Buffer, opts: CvsOptions): CvsResult {
  const language = opts.language ?? 'en';
  if (typeof language !== 'string' || !REPORT_LANGUAGES.includes(language)) {
    return bad(
      `language "${printable(language)}" is not valid: use one of ${REPORT_LANGUAGES.join(', ')} (default en).`,
    );
  }
  const mode = opts.validationMode ?? 'static';
  if (typeof mode !== 'string' || !(VALIDATION_MODES as readonly string[]).includes(mode)) {
    return bad(`validationMode "${printable(mode)}" is not valid: use static or dynamic (default static).`);
  }
  if (opts.eFormsSdkVersion !== undefined && typeof opts.eFormsSdkVersion !== 'string') {
    return bad('eFormsSdkVersion must be a string such as "1.15" or "eforms-sdk-1.15".');
  }

  const decoded = decodeNotice(notice);
  if (typeof decoded !== 'string') return bad(decoded.error);
  const index = indexXml(decoded);
  if (index.errors.length > 0) {
    const first = index.errors[0];
    const pos = index.positionAt(first.offset);
    return bad(
      `The notice is not well-formed XML: ${first.message} (line ${pos.line + 1}, column ${pos.character + 1}). Fix the XML and validate again.`,
    );
  }
  const root = buildNoticeTree(index);
  if (!root) return bad('The notice contains no XML element: send the XML of an eForms notice.');
  if (!NOTICE_ROOT_NAMESPACES.has(root.ns)) return bad(notEformsMessage(root));

  const version = selectVersion(root, opts.eFormsSdkVersion);
  if ('error' in version) return bad(version.error);

  const env: RuleEnv = { root, now: opts.now ?? Date.now() };
  return { ok: true, ...runRules(root, env, mode as ValidationMode, language) };
}

function runRules(
  root: NoticeNode,
  env: RuleEnv,
  mode: ValidationMode,
  language: string,
): { svrl: string; errors: number; warnings: number } {
  const subtype = noticeSubtype(root);
  const entries: ReportEntry[] = [];
  let errors = 0;
  let warnings = 0;
  for (const p of PATTERNS) {
    if (!patternApplies(p, subtype, mode)) continue;
    entries.push({ kind: 'active-pattern', id: p.id });
    for (const r of p.rules) {
      for (const t of r.targets(root)) {
        entries.push({ kind: 'fired-rule', context: r.context });
        for (const a of r.asserts) {
          if (a.holds(t, env)) continue;
          if (a.role === 'ERROR') errors++;
          else if (a.role === 'WARN') warnings++;
          entries.push({
            kind: 'failed-assert',
            id: a.id,
            location: t.attr ? `${t.node.location}/@${t.attr}` : t.node.location,
            role: a.role,
            flag: a.flag,
            test: a.test,
            text: TRANSLATED_LANGUAGES.includes(language)
              ? a.messages[language as 'en' | 'fr' | 'de']
              : `rule|text|${a.id}`,
            diagnostic: a.diagnostic,
          });
        }
      }
    }
  }
  return { svrl: writeSvrl(subtype ? `eforms-${subtype}` : '#ALL', entries), errors, warnings };
}

/** `1.15`, `1.15.1` or `eforms-sdk-1.15`, and national suffixes after `#` (`eforms-sdk-1.8#extended#urn:…`). */
export function parseSdkVersion(raw: string): { major: number; minor: number } | undefined {
  const head = raw.trim().split('#')[0].trim();
  const v = /^(?:eforms-sdk-)?(\d{1,4})\.(\d{1,4})(?:\.\d{1,4})?(?:-[0-9A-Za-z.-]+)?$/i.exec(head);
  return v ? { major: Number(v[1]), minor: Number(v[2]) } : undefined;
}

function selectVersion(
  root: NoticeNode,
  requested: string | undefined,
): { version: string } | { error: string } {
  let raw = requested?.trim();
  let source = 'eFormsSdkVersion';
  if (!raw) {
    const id = root.select('cbc:CustomizationID')[0];
    if (!id || id.value === '') {
      return {
        error:
          'The notice has no cbc:CustomizationID and the request has no eFormsSdkVersion: add <cbc:CustomizationID>eforms-sdk-1.15</cbc:CustomizationID> to the notice or pass eFormsSdkVersion.',
      };
    }
    raw = id.value;
    source = 'cbc:CustomizationID';
  }
  const v = parseSdkVersion(raw);
  if (!v) {
    return {
      error: `${source} "${printable(raw)}" does not name an eForms SDK version: expected e.g. eforms-sdk-1.15 (rules exist for ${SUPPORTED_SDK_RANGE}).`,
    };
  }
  if (v.major !== SDK_MAJOR || v.minor > SDK_MAX_MINOR) {
    return {
      error: `Rules are missing for eForms SDK version ${v.major}.${v.minor} (from ${source}): this service has rules for ${SUPPORTED_SDK_RANGE}.`,
    };
  }
  return { version: `${v.major}.${v.minor}` };
}

function notEformsMessage(root: NoticeNode): string {
  const name = root.ns ? `{${root.ns}}${root.local}` : root.local;
  const legacy = /^(TED_EXPORT|TED_ESENDERS|F\d\d_2014)$/.test(root.local) || root.ns.includes('ted/R2.0');
  return legacy
    ? `The document is a legacy TED XML notice (root ${printable(name)}), not an eForms notice: the Central Validation Service validates eForms (UBL) notices only.`
    : `The document is not an eForms notice: its root element is ${printable(name)}, expected ContractNotice, ContractAwardNotice or PriorInformationNotice (eForms UBL namespaces) or BusinessRegistrationInformationNotice.`;
}

/** Decodes the bytes by BOM or XML declaration; only strictly valid text is accepted. */
function decodeNotice(bytes: Buffer): string | { error: string } {
  if (bytes.length === 0)
    return { error: 'The notice is empty: send the base64 of the notice XML in "notice".' };
  let label = 'utf-8';
  let skip = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) skip = 3;
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) [label, skip] = ['utf-16le', 2];
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) [label, skip] = ['utf-16be', 2];
  else {
    const head = bytes.subarray(0, 200).toString('latin1');
    const enc = /^<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase();
    if (enc && enc !== 'utf-8' && enc !== 'utf8') label = enc;
  }
  try {
    return new TextDecoder(label, { fatal: true }).decode(bytes.subarray(skip));
  } catch (err) {
    if (err instanceof RangeError)
      return { error: `The notice declares the encoding "${label}", which is not supported: use UTF-8.` };
    return {
      error: `The notice is not valid ${label.toUpperCase()} text: save it as UTF-8 and validate again.`,
    };
  }
}

/** A caller's value, shortened and stripped of control characters, for use inside a message. */
export function printable(v: unknown): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  const clean = [...s].map((c) => (c.charCodeAt(0) < 0x20 || c === '\u007f' ? ' ' : c)).join('');
  return clean.length > 80 ? `${clean.slice(0, 77)}...` : clean;
}
