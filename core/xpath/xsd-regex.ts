// XSD 1.1 regular expressions with the XPath additions of F&O 3.1 §5.6.1 (anchors, reluctant
// quantifiers, non-capturing groups, back-references) and flags (§5.6.2), parsed here and compiled to
// re2js, a linear-time engine, so that no pattern and no input of a notice can stall the validator.
// It must never hand a pattern to a backtracking engine that could take exponential time: a pattern
// with back-references (which RE2 lacks) goes to a JavaScript RegExp only when `backtrackBound` below
// proves its backtracking polynomial and small, otherwise it is refused (FORX0002, with the reason).
// It stays free of the rest of the XPath engine (no import from core/schematron): errors carry the
// F&O codes and the caller maps them to its own error type.
//
// Semantics chosen where the specifications leave room (each is tested):
// - Character classes are computed here as sets of code points, never delegated to the engine's own
//   `\p{…}` or case folding: general categories come from JavaScript's Unicode tables, precomputed in
//   unicode-categories.ts (a test checks them against the running engine's `\p{…}`; building them at
//   start cost 50 ms), other properties are scanned from JavaScript's tables when first asked for,
//   blocks from Unicode 14.0 Blocks.txt (below), `\i`/`\c` from XML 1.0 5th edition Name characters.
// - Flag `i` follows §5.6.2 exactly: a character or range stands for itself and its case-variants
//   (lower-case(c1) eq lower-case(c2) or upper-case(c1) eq upper-case(c2)); `\p{Lu}` and the other
//   escapes are unaffected, as the section says.
// - An unknown block (`\p{IsBadBlockName}`) is an error FORX0002, as §5.6.1 "Unicode Block Names"
//   says and Saxon-HE does (not XSD 1.1's "matches every character").
// - Flag `m`: `^` matches at the start and after every newline, `$` at the end and before every
//   newline (§5.6.1.1, XPath 2.0's rule, RE2's). §5.6.2 of F&O 3.1 adds that a newline ending the
//   string does not open a line; the SDK's rules are XPath 2.0 (queryBinding xslt2), so its rule wins.
// - Flag `x` removes whitespace outside character class expressions (F&O 3.1), `q` quotes the
//   pattern and the replacement string.
// - A repeated group that can match "" (`(a??)?`) captures as RE2 does (the empty iteration counts);
//   JavaScript would backtrack into it. F&O 3.1 §5.6.1 leaves this implementation-dependent.
// - In the RegExp fallback (back-references only), flag `i` is JavaScript's, which also folds the
//   case of `\p{…}` escapes, and compares the back-reference case-blind as §5.6.2 asks.

import { RE2JS } from 're2js';
import { GENERAL_CATEGORIES } from './unicode-categories';

export type XsdRegexErrorCode = 'FORX0001' | 'FORX0002' | 'FORX0003' | 'FORX0004';

/** FORX0001 bad flags, FORX0002 bad pattern, FORX0003 pattern matches "", FORX0004 bad replacement. */
export class XsdRegexError extends Error {
  override name = 'XsdRegexError';
  constructor(
    readonly code: XsdRegexErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface XsdRegex {
  /** fn:matches: does some substring match. */
  test(s: string): boolean;
  /** fn:replace: every non-overlapping leftmost match replaced; `$N`, `\$`, `\\` in `replacement`. */
  replace(s: string, replacement: string): string;
  /** fn:tokenize (two or three arguments): the strings between matches. */
  tokenize(s: string): string[];
  /** Number of capturing groups. */
  readonly groupCount: number;
  /** 're2' (linear time) or 'regexp' (a back-reference pattern whose backtracking is bounded). */
  readonly engine: 're2' | 'regexp';
}

// ---- code point sets: flat sorted [lo, hi, lo, hi…], disjoint and non-adjacent ----

type CpSet = readonly number[];
const MAX_CP = 0x10ffff;
const ALL: CpSet = [0, MAX_CP];

function normalize(pairs: number[]): number[] {
  const idx: number[] = [];
  for (let k = 0; k < pairs.length; k += 2) idx.push(k);
  idx.sort((x, y) => pairs[x] - pairs[y]);
  const out: number[] = [];
  for (const k of idx) {
    const lo = pairs[k];
    const hi = pairs[k + 1];
    if (lo > hi) continue;
    const n = out.length;
    if (n > 0 && lo <= out[n - 1] + 1) out[n - 1] = Math.max(out[n - 1], hi);
    else out.push(lo, hi);
  }
  return out;
}

function union(...sets: CpSet[]): CpSet {
  return normalize(sets.flat());
}

function complement(a: CpSet): CpSet {
  const out: number[] = [];
  let next = 0;
  for (let k = 0; k < a.length; k += 2) {
    if (a[k] > next) out.push(next, a[k] - 1);
    next = a[k + 1] + 1;
  }
  if (next <= MAX_CP) out.push(next, MAX_CP);
  return out;
}

function subtract(a: CpSet, b: CpSet): CpSet {
  return complement(union(complement(a), b));
}

function has(a: CpSet, cp: number): boolean {
  let lo = 0;
  let hi = a.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < a[2 * mid]) hi = mid - 1;
    else if (cp > a[2 * mid + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}

// ---- Unicode tables, built lazily from JavaScript's own `\p{…}` and cached ----

/** Two-letter general categories: one scan gives them all (about 50 ms); unicode-categories.ts keeps them. */
const GENERAL =
  'Lu Ll Lt Lm Lo Mn Mc Me Nd Nl No Pc Pd Ps Pe Pi Pf Po Zs Zl Zp Sm Sc Sk So Cc Cf Co Cn'.split(' ');

/**
 * Runs of code points matching each of `props` (JavaScript `\p{…}` names), found by one global match
 * over every code point: a run of one property ends where another begins, so each alternative sees
 * its runs whole.
 */
function scanProperties(props: string[]): Map<string, CpSet> {
  const re = new RegExp(props.map((p) => `(\\p{${p}}+)`).join('|'), 'gu');
  const runs = props.map((): number[] => []);
  // Three segments so that no two lone surrogates pair up and UTF-16 offsets map back simply.
  const segments: [number, number, number][] = [
    [0, 0xd7ff, 1],
    [0xe000, 0xffff, 1],
    [0x10000, MAX_CP, 2],
  ];
  for (const [from, to, width] of segments) {
    const parts: string[] = [];
    const CHUNK = 4096;
    for (let c = from; c <= to; c += CHUNK) {
      const cps: number[] = [];
      for (let x = c; x < Math.min(c + CHUNK, to + 1); x++) cps.push(x);
      parts.push(String.fromCodePoint(...cps));
    }
    for (const m of parts.join('').matchAll(re)) {
      let g = 1;
      while (m[g] === undefined) g++;
      const lo = from + (m.index ?? 0) / width;
      runs[g - 1].push(lo, lo + m[0].length / width - 1);
    }
  }
  return new Map(props.map((p, k) => [p, normalize(runs[k])]));
}

/** The general categories as JavaScript's `\p{…}` sees them here: what unicode-categories.ts must hold. */
export function scanGeneralCategories(): Map<string, CpSet> {
  return scanProperties(GENERAL);
}

/**
 * unicode-categories.ts's text: per category `Xx:` then, for each run, the gap from the previous run's
 * end and the run's length minus one, in base 36, separated by `,`; categories separated by `;`.
 */
export function encodeCategories(sets: Map<string, CpSet>): string {
  return [...sets]
    .map(([name, set]) => {
      const out: string[] = [];
      let prev = -1;
      for (let k = 0; k < set.length; k += 2) {
        out.push((set[k] - prev - 1).toString(36), (set[k + 1] - set[k]).toString(36));
        prev = set[k + 1];
      }
      return `${name}:${out.join(',')}`;
    })
    .join(';');
}

export function decodeCategories(text: string): Map<string, CpSet> {
  const sets = new Map<string, CpSet>();
  for (const part of text.split(';')) {
    const [name, body] = part.split(':') as [string, string];
    const set: number[] = [];
    let prev = -1;
    const nums = body ? body.split(',') : [];
    for (let k = 0; k + 1 < nums.length; k += 2) {
      const lo = prev + 1 + Number.parseInt(nums[k] as string, 36);
      prev = lo + Number.parseInt(nums[k + 1] as string, 36);
      set.push(lo, prev);
    }
    sets.set(name, set);
  }
  return sets;
}

const propertyCache = new Map<string, CpSet>();
/** A general category (one or two letters, `Cs` the surrogates) or another JavaScript property. */
function property(prop: string): CpSet {
  let s = propertyCache.get(prop);
  if (s) return s;
  if (!propertyCache.has('Lu')) {
    for (const [name, set] of decodeCategories(GENERAL_CATEGORIES)) propertyCache.set(name, set);
    propertyCache.set('Cs', [0xd800, 0xdfff]);
    for (const major of 'LMNPZSC') {
      const subs = [...propertyCache.keys()].filter((k) => k.length === 2 && k[0] === major);
      propertyCache.set(major, union(...subs.map((k) => propertyCache.get(k) ?? [])));
    }
  }
  s = propertyCache.get(prop) ?? (scanProperties([prop]).get(prop) as CpSet);
  propertyCache.set(prop, s);
  return s;
}

/** XSD's category names (XSD 1.1 §G.4.2.5 IsCategory): no `Cs`. */
const CATEGORIES = new Set(
  'L Lu Ll Lt Lm Lo M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf Po Z Zs Zl Zp S Sm Sc Sk So C Cc Cf Co Cn'.split(
    ' ',
  ),
);

/**
 * Unicode 14.0 Blocks.txt, names without spaces as XSD writes them after `Is` (IsLatin-1Supplement);
 * `name:first:last` in hex.
 */
const BLOCK_TABLE =
  'BasicLatin:0:7F,Latin-1Supplement:80:FF,LatinExtended-A:100:17F,LatinExtended-B:180:24F,IPAExtensions:250:2AF,SpacingModifierLetters:2B0:2FF,CombiningDiacriticalMarks:300:36F,GreekandCoptic:370:3FF,Cyrillic:400:4FF,CyrillicSupplement:500:52F,Armenian:530:58F,Hebrew:590:5FF,Arabic:600:6FF,Syriac:700:74F,ArabicSupplement:750:77F,Thaana:780:7BF,NKo:7C0:7FF,Samaritan:800:83F,Mandaic:840:85F,SyriacSupplement:860:86F,ArabicExtended-B:870:89F,ArabicExtended-A:8A0:8FF,Devanagari:900:97F,Bengali:980:9FF,Gurmukhi:A00:A7F,Gujarati:A80:AFF,Oriya:B00:B7F,Tamil:B80:BFF,Telugu:C00:C7F,Kannada:C80:CFF,Malayalam:D00:D7F,Sinhala:D80:DFF,Thai:E00:E7F,Lao:E80:EFF,Tibetan:F00:FFF,Myanmar:1000:109F,Georgian:10A0:10FF,HangulJamo:1100:11FF,Ethiopic:1200:137F,EthiopicSupplement:1380:139F,Cherokee:13A0:13FF,UnifiedCanadianAboriginalSyllabics:1400:167F,Ogham:1680:169F,Runic:16A0:16FF,Tagalog:1700:171F,Hanunoo:1720:173F,Buhid:1740:175F,Tagbanwa:1760:177F,Khmer:1780:17FF,Mongolian:1800:18AF,UnifiedCanadianAboriginalSyllabicsExtended:18B0:18FF,Limbu:1900:194F,TaiLe:1950:197F,NewTaiLue:1980:19DF,KhmerSymbols:19E0:19FF,Buginese:1A00:1A1F,TaiTham:1A20:1AAF,CombiningDiacriticalMarksExtended:1AB0:1AFF,Balinese:1B00:1B7F,Sundanese:1B80:1BBF,Batak:1BC0:1BFF,Lepcha:1C00:1C4F,OlChiki:1C50:1C7F,CyrillicExtended-C:1C80:1C8F,GeorgianExtended:1C90:1CBF,SundaneseSupplement:1CC0:1CCF,VedicExtensions:1CD0:1CFF,PhoneticExtensions:1D00:1D7F,PhoneticExtensionsSupplement:1D80:1DBF,CombiningDiacriticalMarksSupplement:1DC0:1DFF,LatinExtendedAdditional:1E00:1EFF,GreekExtended:1F00:1FFF,GeneralPunctuation:2000:206F,SuperscriptsandSubscripts:2070:209F,CurrencySymbols:20A0:20CF,CombiningDiacriticalMarksforSymbols:20D0:20FF,LetterlikeSymbols:2100:214F,NumberForms:2150:218F,Arrows:2190:21FF,MathematicalOperators:2200:22FF,MiscellaneousTechnical:2300:23FF,ControlPictures:2400:243F,OpticalCharacterRecognition:2440:245F,EnclosedAlphanumerics:2460:24FF,BoxDrawing:2500:257F,BlockElements:2580:259F,GeometricShapes:25A0:25FF,MiscellaneousSymbols:2600:26FF,Dingbats:2700:27BF,MiscellaneousMathematicalSymbols-A:27C0:27EF,SupplementalArrows-A:27F0:27FF,BraillePatterns:2800:28FF,SupplementalArrows-B:2900:297F,MiscellaneousMathematicalSymbols-B:2980:29FF,SupplementalMathematicalOperators:2A00:2AFF,MiscellaneousSymbolsandArrows:2B00:2BFF,Glagolitic:2C00:2C5F,LatinExtended-C:2C60:2C7F,Coptic:2C80:2CFF,GeorgianSupplement:2D00:2D2F,Tifinagh:2D30:2D7F,EthiopicExtended:2D80:2DDF,CyrillicExtended-A:2DE0:2DFF,SupplementalPunctuation:2E00:2E7F,CJKRadicalsSupplement:2E80:2EFF,KangxiRadicals:2F00:2FDF,IdeographicDescriptionCharacters:2FF0:2FFF,CJKSymbolsandPunctuation:3000:303F,Hiragana:3040:309F,Katakana:30A0:30FF,Bopomofo:3100:312F,HangulCompatibilityJamo:3130:318F,Kanbun:3190:319F,BopomofoExtended:31A0:31BF,CJKStrokes:31C0:31EF,KatakanaPhoneticExtensions:31F0:31FF,EnclosedCJKLettersandMonths:3200:32FF,CJKCompatibility:3300:33FF,CJKUnifiedIdeographsExtensionA:3400:4DBF,YijingHexagramSymbols:4DC0:4DFF,CJKUnifiedIdeographs:4E00:9FFF,YiSyllables:A000:A48F,YiRadicals:A490:A4CF,Lisu:A4D0:A4FF,Vai:A500:A63F,CyrillicExtended-B:A640:A69F,Bamum:A6A0:A6FF,ModifierToneLetters:A700:A71F,LatinExtended-D:A720:A7FF,SylotiNagri:A800:A82F,CommonIndicNumberForms:A830:A83F,Phags-pa:A840:A87F,Saurashtra:A880:A8DF,DevanagariExtended:A8E0:A8FF,KayahLi:A900:A92F,Rejang:A930:A95F,HangulJamoExtended-A:A960:A97F,Javanese:A980:A9DF,MyanmarExtended-B:A9E0:A9FF,Cham:AA00:AA5F,MyanmarExtended-A:AA60:AA7F,TaiViet:AA80:AADF,MeeteiMayekExtensions:AAE0:AAFF,EthiopicExtended-A:AB00:AB2F,LatinExtended-E:AB30:AB6F,CherokeeSupplement:AB70:ABBF,MeeteiMayek:ABC0:ABFF,HangulSyllables:AC00:D7AF,HangulJamoExtended-B:D7B0:D7FF,HighSurrogates:D800:DB7F,HighPrivateUseSurrogates:DB80:DBFF,LowSurrogates:DC00:DFFF,PrivateUseArea:E000:F8FF,CJKCompatibilityIdeographs:F900:FAFF,AlphabeticPresentationForms:FB00:FB4F,ArabicPresentationForms-A:FB50:FDFF,VariationSelectors:FE00:FE0F,VerticalForms:FE10:FE1F,CombiningHalfMarks:FE20:FE2F,CJKCompatibilityForms:FE30:FE4F,SmallFormVariants:FE50:FE6F,ArabicPresentationForms-B:FE70:FEFF,HalfwidthandFullwidthForms:FF00:FFEF,Specials:FFF0:FFFF,LinearBSyllabary:10000:1007F,LinearBIdeograms:10080:100FF,AegeanNumbers:10100:1013F,AncientGreekNumbers:10140:1018F,AncientSymbols:10190:101CF,PhaistosDisc:101D0:101FF,Lycian:10280:1029F,Carian:102A0:102DF,CopticEpactNumbers:102E0:102FF,OldItalic:10300:1032F,Gothic:10330:1034F,OldPermic:10350:1037F,Ugaritic:10380:1039F,OldPersian:103A0:103DF,Deseret:10400:1044F,Shavian:10450:1047F,Osmanya:10480:104AF,Osage:104B0:104FF,Elbasan:10500:1052F,CaucasianAlbanian:10530:1056F,Vithkuqi:10570:105BF,LinearA:10600:1077F,LatinExtended-F:10780:107BF,CypriotSyllabary:10800:1083F,ImperialAramaic:10840:1085F,Palmyrene:10860:1087F,Nabataean:10880:108AF,Hatran:108E0:108FF,Phoenician:10900:1091F,Lydian:10920:1093F,MeroiticHieroglyphs:10980:1099F,MeroiticCursive:109A0:109FF,Kharoshthi:10A00:10A5F,OldSouthArabian:10A60:10A7F,OldNorthArabian:10A80:10A9F,Manichaean:10AC0:10AFF,Avestan:10B00:10B3F,InscriptionalParthian:10B40:10B5F,InscriptionalPahlavi:10B60:10B7F,PsalterPahlavi:10B80:10BAF,OldTurkic:10C00:10C4F,OldHungarian:10C80:10CFF,HanifiRohingya:10D00:10D3F,RumiNumeralSymbols:10E60:10E7F,Yezidi:10E80:10EBF,OldSogdian:10F00:10F2F,Sogdian:10F30:10F6F,OldUyghur:10F70:10FAF,Chorasmian:10FB0:10FDF,Elymaic:10FE0:10FFF,Brahmi:11000:1107F,Kaithi:11080:110CF,SoraSompeng:110D0:110FF,Chakma:11100:1114F,Mahajani:11150:1117F,Sharada:11180:111DF,SinhalaArchaicNumbers:111E0:111FF,Khojki:11200:1124F,Multani:11280:112AF,Khudawadi:112B0:112FF,Grantha:11300:1137F,Newa:11400:1147F,Tirhuta:11480:114DF,Siddham:11580:115FF,Modi:11600:1165F,MongolianSupplement:11660:1167F,Takri:11680:116CF,Ahom:11700:1174F,Dogra:11800:1184F,WarangCiti:118A0:118FF,DivesAkuru:11900:1195F,Nandinagari:119A0:119FF,ZanabazarSquare:11A00:11A4F,Soyombo:11A50:11AAF,UnifiedCanadianAboriginalSyllabicsExtended-A:11AB0:11ABF,PauCinHau:11AC0:11AFF,Bhaiksuki:11C00:11C6F,Marchen:11C70:11CBF,MasaramGondi:11D00:11D5F,GunjalaGondi:11D60:11DAF,Makasar:11EE0:11EFF,LisuSupplement:11FB0:11FBF,TamilSupplement:11FC0:11FFF,Cuneiform:12000:123FF,CuneiformNumbersandPunctuation:12400:1247F,EarlyDynasticCuneiform:12480:1254F,Cypro-Minoan:12F90:12FFF,EgyptianHieroglyphs:13000:1342F,EgyptianHieroglyphFormatControls:13430:1343F,AnatolianHieroglyphs:14400:1467F,BamumSupplement:16800:16A3F,Mro:16A40:16A6F,Tangsa:16A70:16ACF,BassaVah:16AD0:16AFF,PahawhHmong:16B00:16B8F,Medefaidrin:16E40:16E9F,Miao:16F00:16F9F,IdeographicSymbolsandPunctuation:16FE0:16FFF,Tangut:17000:187FF,TangutComponents:18800:18AFF,KhitanSmallScript:18B00:18CFF,TangutSupplement:18D00:18D7F,KanaExtended-B:1AFF0:1AFFF,KanaSupplement:1B000:1B0FF,KanaExtended-A:1B100:1B12F,SmallKanaExtension:1B130:1B16F,Nushu:1B170:1B2FF,Duployan:1BC00:1BC9F,ShorthandFormatControls:1BCA0:1BCAF,ZnamennyMusicalNotation:1CF00:1CFCF,ByzantineMusicalSymbols:1D000:1D0FF,MusicalSymbols:1D100:1D1FF,AncientGreekMusicalNotation:1D200:1D24F,MayanNumerals:1D2E0:1D2FF,TaiXuanJingSymbols:1D300:1D35F,CountingRodNumerals:1D360:1D37F,MathematicalAlphanumericSymbols:1D400:1D7FF,SuttonSignWriting:1D800:1DAAF,LatinExtended-G:1DF00:1DFFF,GlagoliticSupplement:1E000:1E02F,NyiakengPuachueHmong:1E100:1E14F,Toto:1E290:1E2BF,Wancho:1E2C0:1E2FF,EthiopicExtended-B:1E7E0:1E7FF,MendeKikakui:1E800:1E8DF,Adlam:1E900:1E95F,IndicSiyaqNumbers:1EC70:1ECBF,OttomanSiyaqNumbers:1ED00:1ED4F,ArabicMathematicalAlphabeticSymbols:1EE00:1EEFF,MahjongTiles:1F000:1F02F,DominoTiles:1F030:1F09F,PlayingCards:1F0A0:1F0FF,EnclosedAlphanumericSupplement:1F100:1F1FF,EnclosedIdeographicSupplement:1F200:1F2FF,MiscellaneousSymbolsandPictographs:1F300:1F5FF,Emoticons:1F600:1F64F,OrnamentalDingbats:1F650:1F67F,TransportandMapSymbols:1F680:1F6FF,AlchemicalSymbols:1F700:1F77F,GeometricShapesExtended:1F780:1F7FF,SupplementalArrows-C:1F800:1F8FF,SupplementalSymbolsandPictographs:1F900:1F9FF,ChessSymbols:1FA00:1FA6F,SymbolsandPictographsExtended-A:1FA70:1FAFF,SymbolsforLegacyComputing:1FB00:1FBFF,CJKUnifiedIdeographsExtensionB:20000:2A6DF,CJKUnifiedIdeographsExtensionC:2A700:2B73F,CJKUnifiedIdeographsExtensionD:2B740:2B81F,CJKUnifiedIdeographsExtensionE:2B820:2CEAF,CJKUnifiedIdeographsExtensionF:2CEB0:2EBEF,CJKCompatibilityIdeographsSupplement:2F800:2FA1F,CJKUnifiedIdeographsExtensionG:30000:3134F,Tags:E0000:E007F,VariationSelectorsSupplement:E0100:E01EF,SupplementaryPrivateUseArea-A:F0000:FFFFF,SupplementaryPrivateUseArea-B:100000:10FFFF';

/** XSD 1.0's names (Unicode 3.1) for blocks Unicode renamed since. */
const BLOCK_ALIASES: Record<string, string[]> = {
  Greek: ['GreekandCoptic'],
  CombiningMarksforSymbols: ['CombiningDiacriticalMarksforSymbols'],
  CyrillicSupplementary: ['CyrillicSupplement'],
  PrivateUse: ['PrivateUseArea', 'SupplementaryPrivateUseArea-A', 'SupplementaryPrivateUseArea-B'],
};

let blocks: Map<string, CpSet> | undefined;
function block(name: string): CpSet | undefined {
  if (!blocks) {
    blocks = new Map();
    for (const entry of BLOCK_TABLE.split(',')) {
      const [n, lo, hi] = entry.split(':');
      blocks.set(n, [Number.parseInt(lo, 16), Number.parseInt(hi, 16)]);
    }
    for (const [alias, names] of Object.entries(BLOCK_ALIASES)) {
      blocks.set(alias, union(...names.map((n) => blocks?.get(n) ?? [])));
    }
  }
  return blocks.get(name);
}

// XML 1.0 (5th edition) NameStartChar and NameChar, as Saxon-HE uses for \i and \c.
const NAME_START: CpSet = normalize([
  0x3a, 0x3a, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a, 0xc0, 0xd6, 0xd8, 0xf6, 0xf8, 0x2ff, 0x370, 0x37d, 0x37f,
  0x1fff, 0x200c, 0x200d, 0x2070, 0x218f, 0x2c00, 0x2fef, 0x3001, 0xd7ff, 0xf900, 0xfdcf, 0xfdf0, 0xfffd,
  0x10000, 0xeffff,
]);
const NAME_CHAR: CpSet = union(
  NAME_START,
  [0x2d, 0x2e, 0x30, 0x39, 0xb7, 0xb7, 0x300, 0x36f, 0x203f, 0x2040],
);
const SPACE: CpSet = normalize([0x9, 0xa, 0xd, 0xd, 0x20, 0x20]);
const NEWLINES: CpSet = normalize([0xa, 0xa, 0xd, 0xd]);

function wordComplement(): CpSet {
  return union(property('P'), property('Z'), property('C'));
}

const multiCache = new Map<string, CpSet>();
/** The set of a multi-character escape letter (`\s \S \i \I \c \C \d \D \w \W`), or undefined. */
function multiCharEscape(c: string): CpSet | undefined {
  let set = multiCache.get(c);
  if (!set) {
    set = multiCharSet(c);
    if (set) multiCache.set(c, set);
  }
  return set;
}

function multiCharSet(c: string): CpSet | undefined {
  switch (c) {
    case 's':
      return SPACE;
    case 'S':
      return complement(SPACE);
    case 'i':
      return NAME_START;
    case 'I':
      return complement(NAME_START);
    case 'c':
      return NAME_CHAR;
    case 'C':
      return complement(NAME_CHAR);
    case 'd':
      return property('Nd');
    case 'D':
      return complement(property('Nd'));
    case 'w':
      return complement(wordComplement());
    case 'W':
      return wordComplement();
  }
  return undefined;
}

// ---- case variants (§5.6.2 flag i) ----

let caseVariants: Map<number, number[]> | undefined;
/** Every code point with a case-variant other than itself, with its variants. */
function variants(): Map<number, number[]> {
  if (caseVariants) return caseVariants;
  // Two characters are variants when their lower- or upper-case forms are equal single characters;
  // at least one of them changes when case-mapped, so the candidates are those and their images.
  const cwcm = property('Changes_When_Casemapped');
  const candidates = new Set<number>();
  const single = (s: string): number | undefined => {
    const cp = s.codePointAt(0);
    return cp !== undefined && String.fromCodePoint(cp).length === s.length ? cp : undefined;
  };
  for (let k = 0; k < cwcm.length; k += 2) {
    for (let cp = cwcm[k]; cp <= cwcm[k + 1]; cp++) {
      candidates.add(cp);
      const ch = String.fromCodePoint(cp);
      for (const img of [ch.toLowerCase(), ch.toUpperCase()]) {
        const v = single(img);
        if (v !== undefined) candidates.add(v);
      }
    }
  }
  const byKey = new Map<string, number[]>();
  const keys = (cp: number): string[] => {
    const ch = String.fromCodePoint(cp);
    return [`l${ch.toLowerCase()}`, `u${ch.toUpperCase()}`];
  };
  for (const cp of candidates) {
    for (const key of keys(cp)) {
      const list = byKey.get(key);
      if (list) list.push(cp);
      else byKey.set(key, [cp]);
    }
  }
  caseVariants = new Map();
  for (const cp of candidates) {
    const vs = new Set<number>();
    for (const key of keys(cp)) for (const v of byKey.get(key) ?? []) if (v !== cp) vs.add(v);
    if (vs.size > 0) caseVariants.set(cp, [...vs]);
  }
  return caseVariants;
}

/** The set with every case-variant of its members added. */
function caseClose(s: CpSet): CpSet {
  const extra: number[] = [];
  for (const [cp, vs] of variants()) if (has(s, cp)) for (const v of vs) extra.push(v, v);
  return extra.length === 0 ? s : union(s, extra);
}

// ---- syntax tree ----

type Node =
  | { t: 'set'; set: CpSet }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; alts: Node[] }
  | { t: 'group'; n: number | undefined; body: Node }
  | { t: 'rep'; body: Node; min: number; max: number; lazy: boolean }
  | { t: 'bol' }
  | { t: 'eol' }
  | { t: 'backref'; n: number };

interface Parsed {
  root: Node;
  groups: number;
  backrefs: boolean;
  /** Group number -> its body, for the back-reference cost bound. */
  groupBodies: Map<number, Node>;
}

const MAX_DEPTH = 200;
const SINGLE_ESCAPES: Record<string, number> = { n: 0xa, r: 0xd, t: 0x9 };
const ESCAPABLE = new Set([...'\\|.?*+(){}-[]^$']);

/** Whitespace outside character class expressions removed (flag x, F&O 3.1 §5.6.2). */
function stripWhitespace(p: string[]): string[] {
  const out: string[] = [];
  let depth = 0;
  for (let k = 0; k < p.length; k++) {
    const c = p[k];
    if (c === '\\') {
      // "hello\ sworld" with x is "hello\sworld" (§5.6.2): the escaped character comes after the
      // removed whitespace, and an escaped [ or ] never opens or closes a class.
      out.push(c);
      k++;
      if (depth === 0) while (k < p.length && /^[ \t\n\r]$/.test(p[k])) k++;
      if (k < p.length) out.push(p[k]);
      continue;
    }
    if (c === '[') depth++;
    else if (c === ']' && depth > 0) depth--;
    else if (depth === 0 && (c === ' ' || c === '\t' || c === '\n' || c === '\r')) continue;
    out.push(c);
  }
  return out;
}

function parse(pattern: string, flags: string): Parsed {
  const ci = flags.includes('i');
  const lit = (cp: number): Node => ({ t: 'set', set: ci ? caseClose([cp, cp]) : [cp, cp] });
  if (flags.includes('q')) {
    const items = Array.from(pattern, (c) => lit(c.codePointAt(0) ?? 0));
    return { root: { t: 'seq', items }, groups: 0, backrefs: false, groupBodies: new Map() };
  }
  let p = Array.from(pattern);
  if (flags.includes('x')) p = stripWhitespace(p);
  const dotAll = flags.includes('s');
  let i = 0;
  let groups = 0;
  let backrefs = false;
  const closed = new Set<number>();
  const groupBodies = new Map<number, Node>();
  const fail = (why: string): never => {
    throw new XsdRegexError('FORX0002', `invalid regular expression '${pattern}': ${why} at offset ${i}`);
  };
  const cp = (k: number): number => p[k].codePointAt(0) ?? 0;

  /** `\p{…}` / `\P{…}` with p[i] at the `{`. */
  const categoryEscape = (negate: boolean): CpSet => {
    if (p[i] !== '{') fail('\\p must be followed by {');
    const close = p.indexOf('}', i);
    if (close < 0) fail('unterminated \\p{');
    const name = p.slice(i + 1, close).join('');
    i = close + 1;
    let set: CpSet | undefined;
    if (name.startsWith('Is')) {
      set = block(name.slice(2));
      if (!set) fail(`unknown Unicode block '${name}'`);
    } else if (CATEGORIES.has(name)) set = property(name);
    else fail(`unknown category '${name}'`);
    return negate ? complement(set as CpSet) : (set as CpSet);
  };

  /**
   * An escape at p[i] === '\\' inside or outside a class: a set, or for a single character its code
   * point (so that it may start or end a range).
   */
  const readEscape = (inClass: boolean): { set: CpSet; single?: number } | { backref: number } => {
    const c = p[i + 1];
    if (c === undefined) fail('trailing backslash');
    i += 2;
    if (c === 'p' || c === 'P') return { set: categoryEscape(c === 'P') };
    const multi = multiCharEscape(c);
    if (multi) return { set: multi };
    if (c in SINGLE_ESCAPES) {
      const v = SINGLE_ESCAPES[c];
      return { set: [v, v], single: v };
    }
    if (ESCAPABLE.has(c)) {
      const v = c.codePointAt(0) ?? 0;
      return { set: [v, v], single: v };
    }
    if (c >= '1' && c <= '9') {
      if (inClass) fail('a back-reference cannot appear in a character class');
      let n = Number(c);
      // Further digits belong to the reference only while such a group has been opened (§5.6.1).
      while (i < p.length && p[i] >= '0' && p[i] <= '9' && n * 10 + Number(p[i]) <= groups) {
        n = n * 10 + Number(p[i]);
        i++;
      }
      if (!closed.has(n)) fail(`back-reference \\${n} to a group that is not closed before it`);
      return { backref: n };
    }
    return fail(`unknown escape \\${c}`);
  };

  /** A character class expression, p[i] === '['. */
  const charClassExpr = (depth: number): CpSet => {
    if (depth > MAX_DEPTH) fail('character classes nested too deeply');
    i++;
    let negate = false;
    if (p[i] === '^') {
      negate = true;
      i++;
    }
    const parts: CpSet[] = [];
    let subtraction: CpSet | undefined;
    const start = i;
    /** A single character (escaped or not) for a range end, or undefined for a class escape. */
    const singleChar = (): { set: CpSet; single?: number } => {
      if (i >= p.length) fail('unterminated character class');
      if (p[i] === '\\') {
        const e = readEscape(true);
        if ('backref' in e) return fail('a back-reference cannot appear in a character class');
        return e;
      }
      if (p[i] === '[') fail('unescaped [ in a character class');
      const v = cp(i++);
      return { set: [v, v], single: v };
    };
    /** XSD 1.1 §G.4.2.3: an unescaped hyphen stands for itself only first or last in the group. */
    const atEnd = (): boolean => p[i] === ']' || (p[i] === '-' && p[i + 1] === '[');
    while (i < p.length && p[i] !== ']') {
      if (p[i] === '-' && p[i + 1] === '[') {
        if (i === start) fail('a class subtraction needs a group to subtract from');
        i++;
        subtraction = charClassExpr(depth + 1);
        if (p[i] !== ']') fail('a class subtraction must end the class');
        break;
      }
      const at = i;
      const lo = singleChar();
      const bareHyphen = p[at] === '-';
      if (p[i] === '-' && i + 1 < p.length && p[i + 1] !== ']' && p[i + 1] !== '[') {
        if (lo.single === undefined) fail('a class escape cannot start a range');
        if (bareHyphen && at !== start) fail('a hyphen inside a class must be escaped');
        i++;
        const hi = singleChar();
        if (hi.single === undefined) fail('a class escape cannot end a range');
        if ((hi.single as number) < (lo.single as number)) fail('range out of order');
        const range: CpSet = [lo.single as number, hi.single as number];
        parts.push(ci ? caseClose(range) : range);
      } else {
        if (bareHyphen && at !== start && !atEnd()) fail('a hyphen inside a class must be escaped');
        parts.push(lo.single !== undefined && ci ? caseClose(lo.set) : lo.set);
      }
    }
    if (p[i] !== ']') fail('unterminated character class');
    if (parts.length === 0) fail('empty character class');
    i++;
    let set = union(...parts);
    if (negate) set = complement(set);
    if (subtraction) set = subtract(set, subtraction);
    return set;
  };

  const atom = (depth: number): Node => {
    const c = p[i];
    switch (c) {
      case '\\': {
        const e = readEscape(false);
        if ('backref' in e) {
          backrefs = true;
          return { t: 'backref', n: e.backref };
        }
        return { t: 'set', set: e.set };
      }
      case '[':
        return { t: 'set', set: charClassExpr(depth) };
      case '.':
        i++;
        return { t: 'set', set: dotAll ? ALL : complement(NEWLINES) };
      case '^':
        i++;
        return { t: 'bol' };
      case '$':
        i++;
        return { t: 'eol' };
      case '(': {
        if (depth > MAX_DEPTH) fail('groups nested too deeply');
        i++;
        let n: number | undefined;
        if (p[i] === '?') {
          if (p[i + 1] !== ':') fail('(? must be (?:');
          i += 2;
        } else n = ++groups;
        const body = regExp(depth + 1);
        if (p[i] !== ')') fail('missing )');
        i++;
        if (n !== undefined) {
          closed.add(n);
          groupBodies.set(n, body);
        }
        return { t: 'group', n, body };
      }
      case '?':
      case '*':
      case '+':
      case '{':
        return fail(`quantifier ${c} without something to repeat`);
      case '}':
      case ']':
      case ')':
        return fail(`unescaped ${c}`);
      default:
        return lit(cp(i++));
    }
  };

  const quantity = (): number => {
    const s = i;
    while (p[i] >= '0' && p[i] <= '9') i++;
    if (i === s) fail('a quantity needs digits');
    const n = Number(p.slice(s, i).join(''));
    if (!Number.isSafeInteger(n)) fail('quantity too large');
    return n;
  };

  const piece = (depth: number): Node => {
    let node = atom(depth);
    let min: number;
    let max: number;
    const q = p[i];
    if (q === '?') [min, max] = [0, 1];
    else if (q === '*') [min, max] = [0, Number.POSITIVE_INFINITY];
    else if (q === '+') [min, max] = [1, Number.POSITIVE_INFINITY];
    else if (q === '{') {
      i++;
      min = quantity();
      max = min;
      if (p[i] === ',') {
        i++;
        max = p[i] === '}' ? Number.POSITIVE_INFINITY : quantity();
      }
      if (p[i] !== '}') fail('unterminated {');
      if (max < min) fail(`quantifier {${min},${max}} out of order`);
    } else return node;
    i++;
    let lazy = false;
    if (p[i] === '?') {
      lazy = true;
      i++;
    }
    node = { t: 'rep', body: node, min, max, lazy };
    if (p[i] === '?' || p[i] === '*' || p[i] === '+' || p[i] === '{')
      fail('a quantifier cannot follow a quantifier');
    return node;
  };

  const regExp = (depth: number): Node => {
    const alts: Node[] = [];
    for (;;) {
      const items: Node[] = [];
      while (i < p.length && p[i] !== '|' && p[i] !== ')') items.push(piece(depth));
      alts.push(items.length === 1 ? items[0] : { t: 'seq', items });
      if (p[i] !== '|') break;
      i++;
    }
    return alts.length === 1 ? alts[0] : { t: 'alt', alts };
  };

  const root = regExp(0);
  if (i < p.length) fail(p[i] === ')' ? 'unmatched )' : `unexpected ${p[i]}`);
  return { root, groups, backrefs, groupBodies };
}

// ---- emitting RE2 (Go syntax) and JavaScript (`u` flag) sources ----

const SURROGATES: CpSet = [0xd800, 0xdfff];

/** Characters written as themselves inside a class: both parsers read them faster than escapes. */
function plainInClass(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0xa0 && c < 0xd800) ||
    c >= 0xe000
  );
}

const classSourceCache = new WeakMap<CpSet, string>();
const asciiSourceCache = new WeakMap<CpSet, string>();

const ASCII: CpSet = [0, 0x7f];

function classSource(set: CpSet, js: boolean, ascii = false): string {
  const cached = js ? undefined : ascii ? asciiSourceCache : classSourceCache;
  const hit = cached?.get(set);
  if (hit) return hit;
  // Strings of XML characters hold no lone surrogate; RE2 decodes UTF-16 by code point. The ASCII
  // form keeps only the set's ASCII members (asciiFirst).
  const s = ascii ? subtract(set, complement(ASCII)) : subtract(set, SURROGATES);
  if (s.length === 0) return js ? '[]' : '[^\\x{0}-\\x{10FFFF}]';
  const char = (c: number) =>
    plainInClass(c) ? String.fromCodePoint(c) : js ? `\\u{${c.toString(16)}}` : `\\x{${c.toString(16)}}`;
  let body = '';
  for (let k = 0; k < s.length; k += 2)
    body += s[k] === s[k + 1] ? char(s[k]) : `${char(s[k])}-${char(s[k + 1])}`;
  const out = `[${body}]`;
  cached?.set(set, out);
  return out;
}

/** The source of a pattern; `ascii`: each class reduced to its ASCII members (RE2 only, see asciiFirst). */
function emit(node: Node, js: boolean, multiline: boolean, ascii = false): string {
  switch (node.t) {
    case 'set':
      return classSource(node.set, js, ascii);
    case 'seq':
      return node.items
        .map((x) => (x.t === 'alt' ? `(?:${emit(x, js, multiline, ascii)})` : emit(x, js, multiline, ascii)))
        .join('');
    case 'alt':
      return node.alts.map((x) => emit(x, js, multiline, ascii)).join('|');
    case 'group':
      return `(${node.n === undefined ? '?:' : ''}${emit(node.body, js, multiline, ascii)})`;
    case 'rep': {
      const q =
        node.max === Number.POSITIVE_INFINITY
          ? node.min === 0
            ? '*'
            : node.min === 1
              ? '+'
              : `{${node.min},}`
          : node.min === node.max
            ? `{${node.min}}`
            : node.min === 0 && node.max === 1
              ? '?'
              : `{${node.min},${node.max}}`;
      return `(?:${emit(node.body, js, multiline, ascii)})${q}${node.lazy ? '?' : ''}`;
    }
    case 'bol':
      // JavaScript's `m` would also split lines at \r, U+2028 and U+2029; XPath only at \n.
      return multiline ? (js ? '(?<![^\\n])' : '(?m:^)') : js ? '^' : '(?-m:^)';
    case 'eol':
      return multiline ? (js ? '(?![^\\n])' : '(?m:$)') : js ? '$' : '(?-m:$)';
    case 'backref':
      return `(?:\\${node.n})`;
  }
}

// ---- the bound that admits a back-reference pattern to a backtracking RegExp ----

/** c·n^d: how many ways a backtracking matcher may try a construct on n characters. */
interface Ways {
  c: number;
  d: number;
}
const CAP = 1e12;

function unboundedWidth(node: Node): boolean {
  switch (node.t) {
    case 'rep':
      return node.max === Number.POSITIVE_INFINITY || unboundedWidth(node.body);
    case 'seq':
      return node.items.some(unboundedWidth);
    case 'alt':
      return node.alts.some(unboundedWidth);
    case 'group':
      return unboundedWidth(node.body);
    default:
      return false;
  }
}

/**
 * Upper bound on the backtracking of a construct, or a reason it has none polynomial: an unbounded
 * repetition of something that can match in more than one way (`(a|ab)*`, `(a*)*`) is exponential.
 */
function ways(node: Node, parsed: Parsed): Ways | string {
  switch (node.t) {
    case 'set':
    case 'bol':
    case 'eol':
      return { c: 1, d: 0 };
    case 'backref': {
      // Comparing the captured text costs its length: n when the group can grow with the input.
      const body = parsed.groupBodies.get(node.n);
      return { c: 1, d: body && unboundedWidth(body) ? 1 : 0 };
    }
    case 'group':
      return ways(node.body, parsed);
    case 'seq': {
      let acc: Ways = { c: 1, d: 0 };
      for (const x of node.items) {
        const w = ways(x, parsed);
        if (typeof w === 'string') return w;
        acc = { c: Math.min(CAP, acc.c * w.c), d: acc.d + w.d };
      }
      return acc;
    }
    case 'alt': {
      let acc: Ways = { c: 0, d: 0 };
      for (const x of node.alts) {
        const w = ways(x, parsed);
        if (typeof w === 'string') return w;
        acc = { c: Math.min(CAP, acc.c + w.c), d: Math.max(acc.d, w.d) };
      }
      return acc;
    }
    case 'rep': {
      const w = ways(node.body, parsed);
      if (typeof w === 'string') return w;
      if (node.max === Number.POSITIVE_INFINITY) {
        if (w.c > 1 || w.d > 0)
          return 'an unbounded repetition of a construct that can match in several ways';
        return { c: 1, d: 1 };
      }
      const choices = node.max - node.min + 1;
      if (w.c === 1 && w.d === 0) return { c: choices, d: 0 };
      return { c: Math.min(CAP, w.c ** node.max * choices), d: w.d * node.max };
    }
  }
}

/** Length of the pattern with its counted repetitions written out: the steps of one path. */
function expandedSize(node: Node): number {
  switch (node.t) {
    case 'seq':
      return node.items.reduce((acc, x) => Math.min(CAP, acc + expandedSize(x)), 0);
    case 'alt':
      return node.alts.reduce((acc, x) => Math.min(CAP, acc + expandedSize(x)), 0);
    case 'group':
      return expandedSize(node.body);
    case 'rep': {
      const times = node.max === Number.POSITIVE_INFINITY ? node.min + 1 : node.max;
      return Math.min(CAP, Math.max(1, expandedSize(node.body)) * Math.max(1, times));
    }
    default:
      return 1;
  }
}

const MAX_EXPANDED = 100_000;
const MAX_DEGREE = 2;
const MAX_FACTOR = 10_000;

/**
 * Undefined when a backtracking matcher is proven to take at most MAX_FACTOR·n^MAX_DEGREE steps on a
 * string of n characters (counting the retries at each start position), else why not.
 */
function backtrackBound(parsed: Parsed, multiline: boolean): string | undefined {
  // A counted repetition walks its body that many times even where it consumes nothing: `(){1000000}`.
  if (expandedSize(parsed.root) > MAX_EXPANDED)
    return `its repetitions expand to more than ${MAX_EXPANDED} steps`;
  const w = ways(parsed.root, parsed);
  if (typeof w === 'string') return w;
  const first = parsed.root.t === 'seq' ? parsed.root.items[0] : parsed.root;
  const anchored = first?.t === 'bol' && !multiline;
  const d = w.d + (anchored ? 0 : 1);
  if (d > MAX_DEGREE || w.c > MAX_FACTOR)
    return `backtracking could take ${w.c > 1 ? `${w.c}·` : ''}n^${d} steps`;
  return undefined;
}

// ---- matching ----

interface Match {
  start: number;
  end: number;
  group(n: number): string | undefined;
}

interface Engine {
  test(s: string): boolean;
  /** Each non-overlapping leftmost match, in order (the pattern never matches ""). */
  matches(s: string): Iterable<Match>;
}

function re2Engine(re: RE2JS): Engine {
  return {
    test: (s) => re.test(s),
    *matches(s) {
      const m = re.matcher(s);
      while (m.find()) {
        yield {
          start: m.start(),
          end: m.end(),
          group: (n) => m.group(n) ?? undefined,
        };
      }
    },
  };
}

function regexpEngine(re: RegExp): Engine {
  const global = new RegExp(re.source, `${re.flags}g`);
  return {
    test: (s) => re.test(s),
    *matches(s) {
      global.lastIndex = 0;
      for (let m = global.exec(s); m; m = global.exec(s)) {
        const found = m;
        yield { start: found.index, end: found.index + found[0].length, group: (n) => found[n] };
      }
    },
  };
}

type ReplacementPart = string | { group: number };

/** F&O 3.1 §5.6.4 rules for `$N`, `\$` and `\\`; anything else after `$` or `\` is FORX0004. */
function parseReplacement(r: string, groups: number): ReplacementPart[] {
  const parts: ReplacementPart[] = [];
  let text = '';
  for (let k = 0; k < r.length; k++) {
    const c = r[k];
    if (c === '\\') {
      const next = r[k + 1];
      if (next !== '\\' && next !== '$')
        throw new XsdRegexError(
          'FORX0004',
          `invalid replacement string '${r}': \\ must be followed by \\ or $`,
        );
      text += next;
      k++;
    } else if (c === '$') {
      let digits = '';
      while (k + 1 < r.length && r[k + 1] >= '0' && r[k + 1] <= '9') digits += r[++k];
      if (digits === '')
        throw new XsdRegexError(
          'FORX0004',
          `invalid replacement string '${r}': $ must be followed by a digit`,
        );
      // Digits past the group count fall off the end as text, while the number exceeds 9.
      let tail = '';
      while (Number(digits) > groups && digits.length > 1) {
        tail = digits[digits.length - 1] + tail;
        digits = digits.slice(0, -1);
      }
      if (text) parts.push(text);
      text = '';
      const n = Number(digits);
      if (n <= groups) parts.push({ group: n });
      text = tail;
    } else text += c;
  }
  if (text) parts.push(text);
  return parts;
}

class Compiled implements XsdRegex {
  private empty: boolean | undefined;
  constructor(
    private readonly source: string,
    private readonly impl: Engine,
    readonly groupCount: number,
    readonly engine: 're2' | 'regexp',
    private readonly quote: boolean,
  ) {}

  test(s: string): boolean {
    return this.impl.test(s);
  }

  private nonEmpty(fn: string): void {
    this.empty ??= this.impl.test('');
    if (this.empty)
      throw new XsdRegexError(
        'FORX0003',
        `the pattern '${this.source}' given to ${fn}() matches the empty string`,
      );
  }

  replace(s: string, replacement: string): string {
    this.nonEmpty('replace');
    const parts: ReplacementPart[] = this.quote
      ? [replacement]
      : parseReplacement(replacement, this.groupCount);
    let out = '';
    let last = 0;
    for (const m of this.impl.matches(s)) {
      out += s.slice(last, m.start);
      for (const part of parts) out += typeof part === 'string' ? part : (m.group(part.group) ?? '');
      last = m.end;
    }
    return out + s.slice(last);
  }

  tokenize(s: string): string[] {
    this.nonEmpty('tokenize');
    if (s === '') return [];
    const tokens: string[] = [];
    let last = 0;
    for (const m of this.impl.matches(s)) {
      tokens.push(s.slice(last, m.start));
      last = m.end;
    }
    tokens.push(s.slice(last));
    return tokens;
  }
}

const cache = new Map<string, XsdRegex>();
const CACHE_SIZE = 500;

// ---- ASCII first ----
// Compiling a class of hundreds of ranges (`\p{L}`, `\w`, `\i`: the SDK's e-mail and URL patterns) is
// most of the first call of a pattern (about 20 ms for the e-mail one), and most values of a notice are
// ASCII. On a string whose characters are all ASCII, whether a class matches a character depends only
// on the class's ASCII members: the pattern with every class reduced to them (`.` included; anchors,
// groups and repetitions as they are) finds the same matches with the same groups. So a pattern is
// compiled in that form first, and whole when a first string with another character comes. RE2's
// limits do not tell the two apart (a class is one instruction whatever its size; the count of runes
// is bounded below far under RE2's), so the whole pattern compiles whenever its ASCII form does.

const NON_ASCII = /[^\0-\x7f]/;
/** Far below RE2's limit on the runes of a pattern (2^25): above it, the pattern is compiled whole. */
const ASCII_FIRST_MAX_ENDPOINTS = 1 << 20;

/** Whether some class of the pattern has a member outside ASCII (else its ASCII form is itself). */
function beyondAscii(node: Node): boolean {
  switch (node.t) {
    case 'set':
      return node.set.length > 0 && (node.set[node.set.length - 1] as number) > 0x7f;
    case 'seq':
      return node.items.some(beyondAscii);
    case 'alt':
      return node.alts.some(beyondAscii);
    case 'group':
    case 'rep':
      return beyondAscii(node.body);
    default:
      return false;
  }
}

/** How many range ends the pattern's classes hold together (what RE2 counts as the pattern's runes). */
function endpoints(node: Node): number {
  switch (node.t) {
    case 'set':
      return node.set.length;
    case 'seq':
      return node.items.reduce((n, x) => n + endpoints(x), 0);
    case 'alt':
      return node.alts.reduce((n, x) => n + endpoints(x), 0);
    case 'group':
    case 'rep':
      return endpoints(node.body);
    default:
      return 0;
  }
}

/** An engine that answers ASCII strings with `ascii` and any other with the whole pattern, compiled on first need. */
function asciiFirst(ascii: Engine, whole: () => Engine): Engine {
  let full: Engine | undefined;
  const pick = (s: string): Engine => {
    if (!NON_ASCII.test(s)) return ascii;
    full ??= whole();
    return full;
  };
  return {
    test: (s) => pick(s).test(s),
    matches: (s) => pick(s).matches(s),
  };
}

/**
 * The pattern compiled (cached by pattern and flags). Throws XsdRegexError FORX0001 for flags other
 * than `s m i x q`, FORX0002 for an invalid pattern or one that no safe engine can run.
 */
export function compileXsdRegex(pattern: string, flags = ''): XsdRegex {
  const key = `${flags}\u0000${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const compiled = build(pattern, flags, true);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, compiled);
  return compiled;
}

/** The pattern compiled whole at once, never ASCII first and never cached: what the tests compare that form with. */
export function compileXsdRegexWhole(pattern: string, flags = ''): XsdRegex {
  return build(pattern, flags, false);
}

function build(pattern: string, flags: string, allowAsciiFirst: boolean): XsdRegex {
  if (/[^smixq]/.test(flags))
    throw new XsdRegexError('FORX0001', `invalid regular expression flags '${flags}'`);
  const parsed = parse(pattern, flags);
  const multiline = flags.includes('m') && !flags.includes('q');
  let compiled: XsdRegex | undefined;
  let re2Failure = '';
  if (
    allowAsciiFirst &&
    !parsed.backrefs &&
    beyondAscii(parsed.root) &&
    endpoints(parsed.root) <= ASCII_FIRST_MAX_ENDPOINTS
  ) {
    try {
      const ascii = RE2JS.compile(emit(parsed.root, false, multiline, true));
      const whole = (): Engine => {
        try {
          return re2Engine(RE2JS.compile(emit(parsed.root, false, multiline)));
        } catch (e) {
          // Not reached (see asciiFirst): said as this module's error all the same, never a crash.
          throw new XsdRegexError(
            'FORX0002',
            `regular expression '${pattern}' is not supported: ${(e as Error).message}`,
          );
        }
      };
      compiled = new Compiled(
        pattern,
        asciiFirst(re2Engine(ascii), whole),
        parsed.groups,
        're2',
        flags.includes('q'),
      );
    } catch {
      // Compiled whole below, which fails the same way and says why.
    }
  }
  if (!parsed.backrefs && !compiled) {
    try {
      const re = RE2JS.compile(emit(parsed.root, false, multiline));
      compiled = new Compiled(pattern, re2Engine(re), parsed.groups, 're2', flags.includes('q'));
    } catch (e) {
      // RE2 refuses repetition counts above 1000 and very large programs.
      re2Failure = (e as Error).message;
    }
  }
  if (!compiled) {
    const unsafe = backtrackBound(parsed, multiline);
    const why = parsed.backrefs ? 'it uses back-references, which the linear-time engine lacks' : re2Failure;
    if (unsafe)
      throw new XsdRegexError(
        'FORX0002',
        `regular expression '${pattern}' is not supported: ${why}, and ${unsafe} in a backtracking engine`,
      );
    const re = new RegExp(emit(parsed.root, true, multiline), flags.includes('i') ? 'iu' : 'u');
    compiled = new Compiled(pattern, regexpEngine(re), parsed.groups, 'regexp', flags.includes('q'));
  }
  return compiled;
}
