// Which language the notice preview renders in: the one asked for, the setting, the notice's own
// (cbc:NoticeLanguageCode, ISO 639-2/B), or English, always among the release's translations. Pure:
// shared by the request handler and the render worker. No I/O.

import { textContent, type XmlIndex } from '../../core/notice';

/** The EU's notice languages as notices write them (ISO 639-2/B, upper case) and as SDK files name them. */
const NOTICE_LANGUAGES: Record<string, string> = {
  BUL: 'bg',
  CES: 'cs',
  DAN: 'da',
  DEU: 'de',
  ELL: 'el',
  ENG: 'en',
  EST: 'et',
  FIN: 'fi',
  FRA: 'fr',
  GLE: 'ga',
  HRV: 'hr',
  HUN: 'hu',
  ITA: 'it',
  LAV: 'lv',
  LIT: 'lt',
  MLT: 'mt',
  NLD: 'nl',
  POL: 'pl',
  POR: 'pt',
  RON: 'ro',
  SLK: 'sk',
  SLV: 'sl',
  SPA: 'es',
  SWE: 'sv',
};

/** The two-letter code of the notice's own language (its root's cbc:NoticeLanguageCode), if it has one. */
export function noticeLanguage(index: XmlIndex): string | undefined {
  const root = index.element(0);
  if (!root) return undefined;
  for (const c of root.children) {
    const el = index.element(c);
    if (el?.local === 'NoticeLanguageCode')
      return NOTICE_LANGUAGES[textContent(index, el).trim().toUpperCase()];
  }
  return undefined;
}

/**
 * The language to render in: the one asked for, else the setting, else the notice's own, else English;
 * always one the release translates (English, or its first, when the wanted one is missing).
 */
export function previewLanguage(
  wanted: { requested?: string; setting?: string; notice?: string },
  languages: readonly string[],
): string {
  const fallback = languages.includes('en') ? 'en' : (languages[0] ?? 'en');
  for (const l of [wanted.requested, wanted.setting, wanted.notice]) {
    if (typeof l === 'string' && l && (languages.length === 0 || languages.includes(l))) return l;
  }
  return fallback;
}
