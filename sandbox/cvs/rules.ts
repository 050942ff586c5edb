// The rule set of the emulated Central Validation Service: a few dozen assertions of the kinds real
// notices fail (missing mandatory elements, empty elements, code lists, identifier formats, dates,
// attributes, a LAWFULNESS warning, an information, dynamic-only date checks), modelled on the official
// eForms SDK 1.15 schematrons and reusing their ids, contexts and tests where they fit. Ids ending in
// -09xx are ours (no SDK rule has them). Code lists are hard-coded here; nothing is read from disk.
// Messages are ours, in en, fr and de; other languages get the raw key, as the real service does.
// Subtype-specific presence rules exist for subtype 16 (contract notice, open procedure) only; every
// other rule applies to all notices. This module never does I/O and never throws on notice content.

import { type NoticeNode, normalizeSpace, splitSteps } from './notice-tree';

export type Role = 'ERROR' | 'WARN' | 'INFO';
export type ValidationMode = 'static' | 'dynamic';

export interface Messages {
  en: string;
  fr: string;
  de: string;
}

export interface DiagnosticRef {
  /** `diagnostic` attribute, e.g. `BT-05_a_-notice`. */
  id: string;
  /** `see` attribute, e.g. `field:BT-05(a)-notice` or `node:ND-Organizations`. */
  see: string;
  /** Path, relative to the location, of what the assertion is about. */
  path: string;
}

/** What a rule fires on: an element, or one of its attributes. */
export interface Target {
  node: NoticeNode;
  attr?: string;
}

export interface RuleEnv {
  root: NoticeNode;
  /** Milliseconds since the epoch (dynamic rules compare dates with it). */
  now: number;
}

export interface Assertion {
  id: string;
  role: Role;
  flag?: string;
  /** The test as printed in the report (XPath of the official rule, or ours in the same style). */
  test: string;
  diagnostic?: DiagnosticRef;
  holds(t: Target, env: RuleEnv): boolean;
  messages: Messages;
}

export interface Rule {
  /** Context printed in `svrl:fired-rule`. */
  context: string;
  targets(root: NoticeNode): Target[];
  asserts: Assertion[];
}

export interface Pattern {
  id: string;
  /** static patterns run in both modes; dynamic ones only when validationMode is dynamic. */
  mode: ValidationMode;
  /** Notice subtype the pattern is written for (listed as active only for it); absent: every subtype. */
  subtype?: string;
  rules: Rule[];
}

// ---------------------------------------------------------------------------------------------
// Building blocks

const m = (en: string, fr: string, de: string): Messages => ({ en, fr, de });

/** Elements (or attributes, with a final `@name` step) at an absolute path starting at `/*`. */
export function selectAbsolute(root: NoticeNode, path: string): Target[] {
  const steps = splitSteps(path);
  if (steps[0] !== '*') throw new Error(`rule path must start with /*: ${path}`);
  const last = steps[steps.length - 1];
  const attr = last.startsWith('@') ? last.slice(1) : undefined;
  const rel = steps.slice(1, attr ? -1 : undefined).join('/');
  const nodes = rel ? root.select(rel) : [root];
  if (!attr) return nodes.map((node) => ({ node }));
  return nodes.filter((n) => n.hasAttr(attr)).map((node) => ({ node, attr }));
}

function targetValue(t: Target): string {
  return normalizeSpace(t.attr ? (t.node.attr(t.attr) ?? '') : t.node.text);
}

/** A rule at an absolute path; `subtype` restricts it to notices of that subtype, as `$noticeSubType`. */
function rule(path: string, asserts: Assertion[], subtype?: string): Rule {
  const context = subtype ? `${path}[$noticeSubType = '${subtype}']` : path;
  return {
    context,
    targets: (root) => (subtype && noticeSubtype(root) !== subtype ? [] : selectAbsolute(root, path)),
    asserts,
  };
}

interface FieldRef {
  diagnostic: string;
  see: string;
}

const field = (id: string, diagnostic = id.replace(/[()]/g, '_')): FieldRef => ({
  diagnostic,
  see: `field:${id}`,
});
const node = (id: string): FieldRef => ({ diagnostic: id, see: `node:${id}` });

/** A mandatory child, reported on the parent with a diagnostic naming the field and the child path. */
function mandatory(id: string, childPath: string, ref: FieldRef, what: Messages): Assertion {
  return {
    id,
    role: 'ERROR',
    test: `count(${childPath}) > 0`,
    diagnostic: { id: ref.diagnostic, see: ref.see, path: childPath },
    holds: (t) => t.node.has(childPath),
    messages: m(
      `${what.en} is mandatory in this notice subtype and is missing.`,
      `${what.fr} est obligatoire pour ce sous-type d'avis et est absent.`,
      `${what.de} ist für diesen Bekanntmachungsuntertyp vorgeschrieben und fehlt.`,
    ),
  };
}

function pattern(id: string, what: Messages, re: RegExp, test: string): Assertion {
  return {
    id,
    role: 'ERROR',
    test: `matches(normalize-space(.),'${test}')`,
    holds: (t) => re.test(targetValue(t)),
    messages: what,
  };
}

function codeList(id: string, codes: readonly string[] | ReadonlySet<string>, what: Messages): Assertion {
  const set = codes instanceof Set ? codes : new Set(codes as readonly string[]);
  const listed = [...set].map((c) => `'${c}'`).join(', ');
  return {
    id,
    role: 'ERROR',
    test: `normalize-space(.) = (${listed})`,
    holds: (t) => set.has(targetValue(t)),
    messages: what,
  };
}

function attributePresent(id: string, attr: string, what: Messages): Assertion {
  return {
    id,
    role: 'ERROR',
    test: `count(@${attr}) > 0`,
    holds: (t) => t.node.hasAttr(attr),
    messages: what,
  };
}

// ---------------------------------------------------------------------------------------------
// Notice facts used by several rules

const EXT = 'ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/efext:EformsExtension';

/** The notice subtype (OPP-070) of the root, '' when absent. */
export function noticeSubtype(root: NoticeNode): string {
  const code = root.select(`${EXT}/efac:NoticeSubType/cbc:SubTypeCode`)[0];
  return code ? code.value : '';
}

const XS_DATE = /^(-?\d{4,})-(\d{2})-(\d{2})(Z|[+-]\d{2}:\d{2})?$/;

/** The instant an xs:date starts (its time zone applied; UTC when it has none), or NaN. */
export function dateStart(value: string): number {
  const d = XS_DATE.exec(value.trim());
  if (!d) return Number.NaN;
  const tz = d[4] === undefined || d[4] === 'Z' ? 'Z' : d[4];
  return Date.parse(`${d[1]}-${d[2]}-${d[3]}T00:00:00${tz}`);
}

const DAY = 24 * 60 * 60 * 1000;

/** Dynamic rules tolerate an issue date up to this many days old: eNotices2 refuses older dispatches. */
export const MAX_ISSUE_AGE_DAYS = 30;

// ---------------------------------------------------------------------------------------------
// Code lists (from the eForms SDK 1.15 code lists, hard-coded)

const NOTICE_TYPES = [
  'brin-ecs',
  'brin-eeig',
  'can-desg',
  'can-modif',
  'can-social',
  'can-standard',
  'can-tran',
  'cn-desg',
  'cn-social',
  'cn-standard',
  'compl',
  'pin-buyer',
  'pin-cfc-social',
  'pin-cfc-standard',
  'pin-only',
  'pin-rtl',
  'pin-tran',
  'pmc',
  'qu-sy',
  'subco',
  'veat',
];

const FORM_TYPES = [
  'bri',
  'competition',
  'completion',
  'consultation',
  'cont-modif',
  'dir-awa-pre',
  'planning',
  'result',
];

const CONTRACT_NATURES = ['services', 'supplies', 'works'];

const words = (s: string): ReadonlySet<string> => new Set(s.trim().split(/\s+/));

const COUNTRIES = words(`
ABW AFG AGO AIA ALA ALB AND ARE ARG ARM ASM ATA ATF ATG AUS AUT AZE BDI BEL BEN BES BFA BGD BGR BHR
BHS BIH BLM BLR BLZ BMU BOL BRA BRB BRN BTN BVT BWA CAF CAN CCK CHE CHL CHN CIV CMR COD COG COK COL
COM CPT CPV CRI CUB CUW CXR CYM CYP CZE DEU DJI DMA DNK DOM DZA ECU EGY ERI ESH ESP EST ETH FIN FJI
FLK FRA FRO FSM GAB GBR GEO GGY GHA GIB GIN GMB GNB GNQ GRC GRD GRL GTM GUM GUY HKG HMD HND HRV HTI
HUN IDN IMN IND IOT IRL IRN IRQ ISL ISR ITA JAM JEY JOR JPN KAZ KEN KGZ KHM KIR KNA KOR KWT LAO LBN
LBR LBY LCA LIE LKA LSO LTU LUX LVA MAC MAF MAR MCO MDA MDG MDV MEX MHL MKD MLI MLT MMR MNE MNG MNP
MOZ MRT MSR MUS MWI MYS NAM NCL NER NFK NGA NIC NIU NLD NOR NPL NRU NZL OMN PAK PAN PCN PER PHL PLW
PNG POL PRI PRK PRT PRY PSE PYF QAT ROU RUS RWA SAU SDN SEN SGP SGS SHN SJM SLB SLE SLV SMR SOM SPM
SRB SSD STP SUR SVK SVN SWE SWZ SXM SYC SYR TCA TCD TGO THA TJK TKL TKM TLS TON TTO TUN TUR TUV TWN
TZA UGA UKR UMI URY USA UZB VAT VCT VEN VGB VIR VNM VUT WLF WSM XKX YEM ZAF ZMB ZWE`);

/** Countries where a buyer may lawfully publish under the EU directives (lawful-country list). */
const LAWFUL_COUNTRIES = words(`
ALB ATF AUT BEL BGR BIH BLM CHE CPT CYP CZE DEU DNK ESP EST FIN FRA GEO GRC HRV HUN IRL ISL ITA LIE
LTU LUX LVA MDA MKD MLT MNE NCL NLD NOR POL PRT PYF ROU SPM SRB SVK SVN SWE TUR UKR WLF`);

const CURRENCIES = words(`
AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF
CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ
GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP
LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR
PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC
SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYU UZS VES VND VUV WST XAF XCD XCG XOF
XPF YER ZAR ZMW`);

const UUID_V4 = /^[a-f0-9]{8}-[a-f0-9]{4}-4[a-f0-9]{3}-[89ab][a-f0-9]{3}-[a-f0-9]{12}$/;
const UUID_TEST = '^[a-f0-9]{8}-[a-f0-9]{4}-4[a-f0-9]{3}-[89ab][a-f0-9]{3}-[a-f0-9]{12}$';
/** xs:date with a mandatory time zone, as BR-BT-00005-0052 requires (calendar validity checked apart). */
const DATE_WITH_ZONE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(Z|[-+]((0\d|1[0-3]):([03]0|45)|14:00))$/;

// ---------------------------------------------------------------------------------------------
// The patterns, in the order the official reports list them

const LOT = "/*/cac:ProcurementProjectLot[cbc:ID/@schemeName='Lot']";
const ORG = `/*/${EXT}/efac:Organizations/efac:Organization/efac:Company`;

const stage1b16: Pattern = {
  id: 'EFORMS-validation-stage-1b-16',
  mode: 'static',
  subtype: '16',
  rules: [
    rule(
      '/*',
      [
        mandatory(
          'ND-ContractingParty-16',
          'cac:ContractingParty',
          node('ND-ContractingParty'),
          m(
            'The buyer (cac:ContractingParty)',
            "L'acheteur (cac:ContractingParty)",
            'Der Beschaffer (cac:ContractingParty)',
          ),
        ),
        mandatory(
          'ND-ProcedureProcurementScope-16',
          'cac:ProcurementProject',
          node('ND-ProcedureProcurementScope'),
          m(
            'The procedure scope (cac:ProcurementProject)',
            "L'objet de la procédure (cac:ProcurementProject)",
            'Der Auftragsgegenstand des Verfahrens (cac:ProcurementProject)',
          ),
        ),
        mandatory(
          'ND-ProcedureTenderingProcess-16',
          'cac:TenderingProcess',
          node('ND-ProcedureTenderingProcess'),
          m(
            'The procedure (cac:TenderingProcess)',
            'La procédure (cac:TenderingProcess)',
            'Das Verfahren (cac:TenderingProcess)',
          ),
        ),
        mandatory(
          'ND-ProcedureTerms-16',
          'cac:TenderingTerms',
          node('ND-ProcedureTerms'),
          m(
            'The procedure terms (cac:TenderingTerms)',
            'Les conditions de la procédure (cac:TenderingTerms)',
            'Die Verfahrensbedingungen (cac:TenderingTerms)',
          ),
        ),
      ],
      '16',
    ),
    rule(
      `/*/${EXT}`,
      [
        mandatory(
          'ND-Organizations-16',
          'efac:Organizations',
          node('ND-Organizations'),
          m(
            'The list of organisations (efac:Organizations)',
            'La liste des organisations (efac:Organizations)',
            'Die Liste der Organisationen (efac:Organizations)',
          ),
        ),
      ],
      '16',
    ),
  ],
};

const stage2a16: Pattern = {
  id: 'EFORMS-validation-stage-2a-16',
  mode: 'static',
  subtype: '16',
  rules: [
    rule(
      '/*',
      [
        mandatory(
          'BR-BT-00005-0022',
          'cbc:IssueDate',
          field('BT-05(a)-notice'),
          m(
            'The notice dispatch date (BT-05(a))',
            "La date d'envoi de l'avis (BT-05(a))",
            'Das Absendedatum der Bekanntmachung (BT-05(a))',
          ),
        ),
        mandatory(
          'BR-BT-00005-0074',
          'cbc:IssueTime',
          field('BT-05(b)-notice'),
          m(
            'The notice dispatch time (BT-05(b))',
            "L'heure d'envoi de l'avis (BT-05(b))",
            'Die Absendeuhrzeit der Bekanntmachung (BT-05(b))',
          ),
        ),
        mandatory(
          'BR-BT-00701-0022',
          "cbc:ID[@schemeName='notice-id']",
          field('BT-701-notice'),
          m(
            'The notice identifier (BT-701)',
            "L'identifiant de l'avis (BT-701)",
            'Die Kennung der Bekanntmachung (BT-701)',
          ),
        ),
        mandatory(
          'BR-BT-00702-0022',
          'cbc:NoticeLanguageCode',
          field('BT-702(a)-notice'),
          m(
            'The notice official language (BT-702(a))',
            "La langue officielle de l'avis (BT-702(a))",
            'Die Amtssprache der Bekanntmachung (BT-702(a))',
          ),
        ),
        mandatory(
          'BR-BT-00757-0022',
          'cbc:VersionID',
          field('BT-757-notice'),
          m(
            'The notice version (BT-757)',
            "La version de l'avis (BT-757)",
            'Die Version der Bekanntmachung (BT-757)',
          ),
        ),
        mandatory(
          'BR-OPT-00001-0022',
          'cbc:UBLVersionID',
          field('OPT-001-notice'),
          m('The UBL version (OPT-001)', 'La version UBL (OPT-001)', 'Die UBL-Version (OPT-001)'),
        ),
        mandatory(
          'BR-OPT-00002-0022',
          'cbc:CustomizationID',
          field('OPT-002-notice'),
          m(
            'The eForms SDK version (OPT-002)',
            'La version du SDK eForms (OPT-002)',
            'Die eForms-SDK-Version (OPT-002)',
          ),
        ),
      ],
      '16',
    ),
    rule(
      '/*/cac:ContractingParty',
      [
        mandatory(
          'BR-BT-00010-0022',
          "cac:ContractingActivity/cbc:ActivityTypeCode[@listName='authority-activity']",
          field('BT-10-Procedure-Buyer'),
          m(
            "The buyer's main activity (BT-10)",
            "L'activité principale de l'acheteur (BT-10)",
            'Die Haupttätigkeit des Beschaffers (BT-10)',
          ),
        ),
        mandatory(
          'BR-BT-00011-0022',
          "cac:ContractingPartyType/cbc:PartyTypeCode[@listName='buyer-legal-type']",
          field('BT-11-Procedure-Buyer'),
          m(
            "The buyer's legal type (BT-11)",
            "La forme juridique de l'acheteur (BT-11)",
            'Die Rechtsform des Beschaffers (BT-11)',
          ),
        ),
      ],
      '16',
    ),
    rule(
      '/*/cac:ContractingParty/cac:Party',
      [
        mandatory(
          'BR-OPT-00300-0122',
          'cac:PartyIdentification/cbc:ID',
          field('OPT-300-Procedure-Buyer'),
          m(
            "The buyer's technical identifier (OPT-300)",
            "L'identifiant technique de l'acheteur (OPT-300)",
            'Die technische Kennung des Beschaffers (OPT-300)',
          ),
        ),
      ],
      '16',
    ),
    rule(
      '/*/cac:ProcurementProject',
      [
        mandatory(
          'BR-BT-00021-0022',
          'cbc:Name',
          field('BT-21-Procedure'),
          m(
            'The procedure title (BT-21)',
            'Le titre de la procédure (BT-21)',
            'Der Titel des Verfahrens (BT-21)',
          ),
        ),
        mandatory(
          'BR-BT-00023-0022',
          'cbc:ProcurementTypeCode',
          field('BT-23-Procedure'),
          m(
            'The main nature of the contract (BT-23)',
            'La nature principale du marché (BT-23)',
            'Die Hauptart des Auftrags (BT-23)',
          ),
        ),
        mandatory(
          'BR-BT-00024-0022',
          'cbc:Description',
          field('BT-24-Procedure'),
          m(
            'The procedure description (BT-24)',
            'La description de la procédure (BT-24)',
            'Die Beschreibung des Verfahrens (BT-24)',
          ),
        ),
        mandatory(
          'BR-BT-00262-0022',
          'cac:MainCommodityClassification/cbc:ItemClassificationCode',
          field('BT-262-Procedure', 'ND-ProcedureProcurementScope_BT-262-Procedure'),
          m(
            'The main classification code (BT-262)',
            'La classification principale (BT-262)',
            'Der Hauptklassifizierungscode (BT-262)',
          ),
        ),
      ],
      '16',
    ),
    rule(
      `${LOT}/cac:ProcurementProject`,
      [
        mandatory(
          'BR-BT-00024-0178',
          'cbc:Description',
          field('BT-24-Lot'),
          m(
            'The lot description (BT-24)',
            'La description du lot (BT-24)',
            'Die Beschreibung des Loses (BT-24)',
          ),
        ),
      ],
      '16',
    ),
  ],
};

/** Leaves with no text: the one rule of stage 3a, fired once per empty element. */
const stage3a: Pattern = {
  id: 'EFORMS-validation-stage-3a',
  mode: 'static',
  rules: [
    {
      context: "//*[not(child::*) and normalize-space(text()) = '']",
      targets: (root) => {
        const out: Target[] = [];
        for (const n of root.walk()) if (n.children.length === 0 && n.value === '') out.push({ node: n });
        return out;
      },
      asserts: [
        {
          id: 'element-not-empty',
          role: 'ERROR',
          test: 'false()',
          holds: () => false,
          messages: m(
            'This element is empty: give it a value or remove it.',
            'Cet élément est vide : donnez-lui une valeur ou supprimez-le.',
            'Dieses Element ist leer: geben Sie einen Wert an oder entfernen Sie es.',
          ),
        },
      ],
    },
  ],
};

const stage3b: Pattern = {
  id: 'EFORMS-validation-stage-3b',
  mode: 'static',
  rules: [
    rule('/*/cbc:ContractFolderID', [
      pattern(
        'BR-BT-00004-0052',
        m(
          'The procedure identifier (BT-04) must be a UUID version 4 in lower case.',
          "L'identifiant de la procédure (BT-04) doit être un UUID de version 4 en minuscules.",
          'Die Verfahrenskennung (BT-04) muss eine UUID der Version 4 in Kleinbuchstaben sein.',
        ),
        UUID_V4,
        UUID_TEST,
      ),
    ]),
    rule('/*/cbc:CustomizationID', [
      pattern(
        'BR-OPT-00002-0052',
        m(
          'The eForms SDK version (OPT-002) must have the form eforms-sdk-MAJOR.MINOR, e.g. eforms-sdk-1.15.',
          'La version du SDK eForms (OPT-002) doit avoir la forme eforms-sdk-MAJEUR.MINEUR, par ex. eforms-sdk-1.15.',
          'Die eForms-SDK-Version (OPT-002) muss die Form eforms-sdk-MAJOR.MINOR haben, z. B. eforms-sdk-1.15.',
        ),
        /^eforms-sdk-[0-9]+\.[0-9]+$/,
        '^eforms-sdk-[0-9]+\\.[0-9]+$',
      ),
    ]),
    rule("/*/cbc:ID[@schemeName='notice-id']", [
      pattern(
        'BR-BT-00701-0052',
        m(
          'The notice identifier (BT-701) must be a UUID version 4 in lower case.',
          "L'identifiant de l'avis (BT-701) doit être un UUID de version 4 en minuscules.",
          'Die Kennung der Bekanntmachung (BT-701) muss eine UUID der Version 4 in Kleinbuchstaben sein.',
        ),
        UUID_V4,
        UUID_TEST,
      ),
    ]),
    rule('/*/cbc:IssueDate', [
      {
        id: 'BR-BT-00005-0052',
        role: 'ERROR',
        test: "matches(normalize-space(.),'^[0-9]{4}-[0-9]{2}-[0-9]{2}(Z|[-+]((0[0-9]|1[0-3]):([03]0|45)|14:00))$')",
        holds: (t) => {
          const v = targetValue(t);
          return DATE_WITH_ZONE.test(v) && !Number.isNaN(dateStart(v)) && calendarDate(v);
        },
        messages: m(
          'The dispatch date (BT-05(a)) must be a valid date with a time zone, e.g. 2024-03-01+01:00.',
          "La date d'envoi (BT-05(a)) doit être une date valide avec un fuseau horaire, par ex. 2024-03-01+01:00.",
          'Das Absendedatum (BT-05(a)) muss ein gültiges Datum mit Zeitzone sein, z. B. 2024-03-01+01:00.',
        ),
      },
    ]),
    rule('/*/cbc:NoticeTypeCode', [
      codeList(
        'BR-BT-00002-0052',
        NOTICE_TYPES,
        m(
          'The notice type (BT-02) must be a code of the notice-type list (e.g. cn-standard).',
          "Le type d'avis (BT-02) doit être un code de la liste notice-type (par ex. cn-standard).",
          'Der Bekanntmachungstyp (BT-02) muss ein Code der Liste notice-type sein (z. B. cn-standard).',
        ),
      ),
    ]),
    rule('/*/cbc:NoticeTypeCode/@listName', [
      codeList(
        'BR-BT-00003-0052',
        FORM_TYPES,
        m(
          'The form type (BT-03, listName of the notice type) must be a code of the form-type list (e.g. competition).',
          "Le type de formulaire (BT-03, listName du type d'avis) doit être un code de la liste form-type (par ex. competition).",
          'Der Formulartyp (BT-03, listName des Bekanntmachungstyps) muss ein Code der Liste form-type sein (z. B. competition).',
        ),
      ),
    ]),
    rule('/*/cac:ProcurementProject/cbc:ProcurementTypeCode', [
      codeList(
        'BR-BT-00023-0154',
        CONTRACT_NATURES,
        m(
          'The main nature of the contract (BT-23) must be works, supplies or services.',
          'La nature principale du marché (BT-23) doit être works, supplies ou services.',
          'Die Hauptart des Auftrags (BT-23) muss works, supplies oder services sein.',
        ),
      ),
    ]),
    rule('/*/cac:ProcurementProject/cac:MainCommodityClassification/cbc:ItemClassificationCode', [
      pattern(
        'BR-BT-00262-0153',
        m(
          'The main classification code (BT-262) must be a CPV code of 8 digits, e.g. 72230000.',
          'La classification principale (BT-262) doit être un code CPV de 8 chiffres, par ex. 72230000.',
          'Der Hauptklassifizierungscode (BT-262) muss ein achtstelliger CPV-Code sein, z. B. 72230000.',
        ),
        /^[0-9]{8}$/,
        '^[0-9]{8}$',
      ),
      attributePresent(
        'BT-26_m_-Procedure_MA',
        'listName',
        m(
          'The classification type (BT-26, attribute listName) is missing on the main classification code.',
          'Le type de classification (BT-26, attribut listName) manque sur la classification principale.',
          'Die Art der Klassifizierung (BT-26, Attribut listName) fehlt am Hauptklassifizierungscode.',
        ),
      ),
    ]),
    rule('/*/cac:ProcurementProject/cac:MainCommodityClassification/cbc:ItemClassificationCode/@listName', [
      codeList(
        'BR-BT-00026-0605',
        ['cpv'],
        m(
          'The classification type (BT-26) of the main classification must be cpv.',
          'Le type de classification (BT-26) de la classification principale doit être cpv.',
          'Die Art der Klassifizierung (BT-26) der Hauptklassifizierung muss cpv sein.',
        ),
      ),
    ]),
    rule('/*/cac:ProcurementProject/cac:RealizedLocation/cac:Address/cac:Country/cbc:IdentificationCode', [
      codeList(
        'BR-BT-05141-0154',
        COUNTRIES,
        m(
          'The country of the place of performance (BT-5141) must be an ISO 3166-1 alpha-3 code, e.g. FRA.',
          "Le pays du lieu d'exécution (BT-5141) doit être un code ISO 3166-1 alpha-3, par ex. FRA.",
          'Das Land des Erfüllungsorts (BT-5141) muss ein Code nach ISO 3166-1 Alpha-3 sein, z. B. FRA.',
        ),
      ),
    ]),
    rule(`${LOT}/cbc:ID`, [
      pattern(
        'BR-BT-00137-0155',
        m(
          'The lot identifier (BT-137) must have the form LOT-0000 (four digits).',
          "L'identifiant du lot (BT-137) doit avoir la forme LOT-0000 (quatre chiffres).",
          'Die Loskennung (BT-137) muss die Form LOT-0000 haben (vier Ziffern).',
        ),
        /^LOT-[0-9]{4}$/,
        '^LOT-[0-9]{4}$',
      ),
    ]),
    rule(`${LOT}/cac:ProcurementProject/cbc:ProcurementTypeCode[@listName='contract-nature']`, [
      codeList(
        'BR-BT-00023-0156',
        CONTRACT_NATURES,
        m(
          'The main nature of the lot (BT-23) must be works, supplies or services.',
          'La nature principale du lot (BT-23) doit être works, supplies ou services.',
          'Die Hauptart des Loses (BT-23) muss works, supplies oder services sein.',
        ),
      ),
    ]),
    rule(`${LOT}/cac:ProcurementProject/cac:MainCommodityClassification/cbc:ItemClassificationCode`, [
      pattern(
        'BR-BT-00262-0155',
        m(
          'The main classification code of the lot (BT-262) must be a CPV code of 8 digits, e.g. 72230000.',
          'La classification principale du lot (BT-262) doit être un code CPV de 8 chiffres, par ex. 72230000.',
          'Der Hauptklassifizierungscode des Loses (BT-262) muss ein achtstelliger CPV-Code sein, z. B. 72230000.',
        ),
        /^[0-9]{8}$/,
        '^[0-9]{8}$',
      ),
    ]),
    rule(
      `${LOT}/cac:ProcurementProject/cac:MainCommodityClassification/cbc:ItemClassificationCode/@listName`,
      [
        codeList(
          'BR-BT-00026-0609',
          ['cpv'],
          m(
            'The classification type (BT-26) of the main classification of the lot must be cpv.',
            'Le type de classification (BT-26) de la classification principale du lot doit être cpv.',
            'Die Art der Klassifizierung (BT-26) der Hauptklassifizierung des Loses muss cpv sein.',
          ),
        ),
      ],
    ),
    rule(
      `${LOT}/cac:ProcurementProject/cac:RequestedTenderTotal/cbc:EstimatedOverallContractAmount/@currencyID`,
      [
        codeList(
          'BR-BT-00027-0203',
          CURRENCIES,
          m(
            'The currency of the estimated value (BT-27) must be an ISO 4217 code, e.g. EUR.',
            'La devise de la valeur estimée (BT-27) doit être un code ISO 4217, par ex. EUR.',
            'Die Währung des geschätzten Werts (BT-27) muss ein Code nach ISO 4217 sein, z. B. EUR.',
          ),
        ),
      ],
    ),
    rule(`${ORG}/cac:PartyIdentification/cbc:ID`, [
      pattern(
        'BR-OPT-00200-0051',
        m(
          'The organisation identifier (OPT-200) must have the form ORG-0000 (four digits).',
          "L'identifiant de l'organisation (OPT-200) doit avoir la forme ORG-0000 (quatre chiffres).",
          'Die Kennung der Organisation (OPT-200) muss die Form ORG-0000 haben (vier Ziffern).',
        ),
        /^ORG-[0-9]{4}$/,
        '^ORG-[0-9]{4}$',
      ),
    ]),
    rule(`${ORG}/cac:PostalAddress/cac:Country/cbc:IdentificationCode`, [
      codeList(
        'BR-BT-00514-0205',
        COUNTRIES,
        m(
          "The organisation's country (BT-514) must be an ISO 3166-1 alpha-3 code, e.g. LUX.",
          "Le pays de l'organisation (BT-514) doit être un code ISO 3166-1 alpha-3, par ex. LUX.",
          'Das Land der Organisation (BT-514) muss ein Code nach ISO 3166-1 Alpha-3 sein, z. B. LUX.',
        ),
      ),
      attributePresent(
        'BT-514-Organization-Company-List_MA',
        'listName',
        m(
          "The code list (attribute listName) is missing on the organisation's country.",
          "La liste de codes (attribut listName) manque sur le pays de l'organisation.",
          'Die Codeliste (Attribut listName) fehlt beim Land der Organisation.',
        ),
      ),
    ]),
  ],
};

function buyerIds(root: NoticeNode): Set<string> {
  return new Set(
    root.select('cac:ContractingParty/cac:Party/cac:PartyIdentification/cbc:ID').map((n) => n.value),
  );
}

const stage5: Pattern = {
  id: 'EFORMS-validation-stage-5',
  mode: 'static',
  rules: [
    rule('/*', [
      {
        id: 'BR-BT-00738-0901',
        role: 'INFO',
        test: 'cbc:RequestedPublicationDate',
        diagnostic: { id: 'BT-738-notice', see: 'field:BT-738-notice', path: 'cbc:RequestedPublicationDate' },
        holds: (t) => t.node.has('cbc:RequestedPublicationDate'),
        messages: m(
          'No preferred publication date (BT-738): the notice will be published as soon as possible after it is accepted.',
          "Pas de date de publication souhaitée (BT-738) : l'avis sera publié dès que possible après son acceptation.",
          'Kein gewünschtes Veröffentlichungsdatum (BT-738): die Bekanntmachung wird so bald wie möglich nach der Annahme veröffentlicht.',
        ),
      },
    ]),
    rule(`${LOT}/cac:TenderingProcess`, [
      {
        id: 'BR-BT-00131-0151',
        role: 'ERROR',
        test: '(cac:TenderSubmissionDeadlinePeriod/cbc:EndDate/xs:date(text()) > ../../cbc:IssueDate/xs:date(text())) or not((cac:TenderSubmissionDeadlinePeriod/cbc:EndDate) and (../../cbc:IssueDate))',
        diagnostic: {
          id: 'ND-LotTenderingProcess_BT-131_d_-Lot',
          see: 'field:BT-131(d)-Lot',
          path: 'cac:TenderSubmissionDeadlinePeriod/cbc:EndDate',
        },
        holds: (t, env) => {
          const end = t.node.select('cac:TenderSubmissionDeadlinePeriod/cbc:EndDate')[0];
          const issue = env.root.select('cbc:IssueDate')[0];
          if (!end || !issue) return true;
          const a = dateStart(end.value);
          const b = dateStart(issue.value);
          // Malformed dates are reported by their own format rule, not twice.
          return Number.isNaN(a) || Number.isNaN(b) || a > b;
        },
        messages: m(
          'The deadline for receipt of tenders (BT-131) must be after the dispatch date of the notice (BT-05).',
          "La date limite de réception des offres (BT-131) doit être postérieure à la date d'envoi de l'avis (BT-05).",
          'Die Frist für den Eingang der Angebote (BT-131) muss nach dem Absendedatum der Bekanntmachung (BT-05) liegen.',
        ),
      },
    ]),
    rule(ORG, [
      {
        id: 'BR-BT-00514-0310',
        role: 'WARN',
        flag: 'LAWFULNESS',
        test: '(cac:PostalAddress/cac:Country/cbc:IdentificationCode = (lawful-country codes)) or not(cac:PartyIdentification/cbc:ID = /*/cac:ContractingParty/cac:Party/cac:PartyIdentification/cbc:ID)',
        diagnostic: {
          id: 'ND-Company_BT-514-Organization-Company',
          see: 'field:BT-514-Organization-Company',
          path: 'cac:PostalAddress/cac:Country/cbc:IdentificationCode',
        },
        holds: (t, env) => {
          const buyers = buyerIds(env.root);
          const isBuyer = t.node.select('cac:PartyIdentification/cbc:ID').some((n) => buyers.has(n.value));
          if (!isBuyer) return true;
          return t.node
            .select('cac:PostalAddress/cac:Country/cbc:IdentificationCode')
            .some((n) => LAWFUL_COUNTRIES.has(n.value));
        },
        messages: m(
          "The buyer's country (BT-514) is not one where the EU procurement directives apply: check that this notice may lawfully be published in the OJ S.",
          "Le pays de l'acheteur (BT-514) n'est pas un pays où s'appliquent les directives européennes sur les marchés publics : vérifiez que cet avis peut légalement être publié au JO S.",
          'Das Land des Beschaffers (BT-514) gehört nicht zu den Ländern, in denen die EU-Vergaberichtlinien gelten: prüfen Sie, ob diese Bekanntmachung rechtmäßig im ABl. S veröffentlicht werden darf.',
        ),
      },
    ]),
  ],
};

/** Checks against the clock: the real service runs such rules only in dynamic mode. */
const stage6dynamic: Pattern = {
  id: 'EFORMS-validation-stage-6c',
  mode: 'dynamic',
  rules: [
    rule('/*/cbc:IssueDate', [
      {
        id: 'BR-BT-00005-0901',
        role: 'ERROR',
        test: 'xs:date(text()) <= current-date()',
        holds: (t, env) => {
          const start = dateStart(t.node.value);
          return Number.isNaN(start) || start <= env.now;
        },
        messages: m(
          'The dispatch date (BT-05(a)) is in the future: a notice must be dispatched on its issue date or later.',
          "La date d'envoi (BT-05(a)) est dans le futur : un avis doit être envoyé à sa date d'émission ou après.",
          'Das Absendedatum (BT-05(a)) liegt in der Zukunft: eine Bekanntmachung muss an ihrem Ausstellungsdatum oder danach abgesandt werden.',
        ),
      },
      {
        id: 'BR-BT-00005-0902',
        role: 'ERROR',
        test: `current-date() - xs:date(text()) <= xs:dayTimeDuration('P${MAX_ISSUE_AGE_DAYS}D')`,
        holds: (t, env) => {
          const start = dateStart(t.node.value);
          // The whole issue day counts: a date is too old only once the day after it is past the limit.
          return Number.isNaN(start) || start + DAY + MAX_ISSUE_AGE_DAYS * DAY > env.now;
        },
        messages: m(
          `The dispatch date (BT-05(a)) is more than ${MAX_ISSUE_AGE_DAYS} days old: update it to the day you send the notice.`,
          `La date d'envoi (BT-05(a)) date de plus de ${MAX_ISSUE_AGE_DAYS} jours : mettez-la à jour au jour de l'envoi.`,
          `Das Absendedatum (BT-05(a)) ist älter als ${MAX_ISSUE_AGE_DAYS} Tage: setzen Sie es auf den Tag der Absendung.`,
        ),
      },
    ]),
  ],
};

/** Every pattern, in report order. Subtype-bound patterns only fire on their subtype. */
export const PATTERNS: readonly Pattern[] = [stage1b16, stage2a16, stage3a, stage3b, stage5, stage6dynamic];

/** Whether a pattern is listed (`svrl:active-pattern`) for a notice of this subtype. */
export function patternApplies(p: Pattern, subtype: string, mode: ValidationMode): boolean {
  if (p.mode === 'dynamic' && mode !== 'dynamic') return false;
  return p.subtype === undefined || p.subtype === subtype;
}

/** Every rule id, for documentation and tests. */
export function ruleIds(): string[] {
  return [...new Set(PATTERNS.flatMap((p) => p.rules.flatMap((r) => r.asserts.map((a) => a.id))))];
}

function calendarDate(v: string): boolean {
  const [y, mo, d] = v.slice(0, 10).split('-').map(Number);
  const probe = new Date(Date.UTC(y, mo - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
}
