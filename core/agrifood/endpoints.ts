// The declarative table of the agri-food service (spec section 4): every data endpoint with its
// parameters, the rules the spec states, how its records form price series, and every listing
// endpoint. The client, the sandbox, the CLI and the explorer's filters are all driven by it; nothing
// here performs I/O.

import { type ParsedPrice, parsePrice } from './price';
import type { RecordTypes, SectorId } from './records';
import { DAY, monthNumber, parseDmy, WEEK_RULES, type WeekRule, weekOneMonday } from './weeks';

export type ParamKind = 'S[]' | 'I[]' | 'S' | 'date';

export interface ParamSpec {
  name: string;
  kind: ParamKind;
  /** What people see in filters and --help. */
  label: string;
  /** Listing path (under /api) whose values fill this filter. */
  listing?: string;
  /** The only values the spec allows (compared exactly). */
  allowed?: readonly string[];
  /** A format each value must have, with its human description. */
  format?: { re: RegExp; text: string };
  /** Integer bounds for I[] elements. */
  range?: [number, number];
  /** Values are EU Member State codes (the filter offers member-states.ts). */
  memberStates?: boolean;
}

export interface Period {
  /** UTC ms of the first day. */
  start: number;
  /** UTC ms of the last day. */
  end: number;
}

export interface SeriesSpec<R> {
  /** Fields whose values together name one series (a line on the chart). */
  key: readonly (keyof R & string)[];
  value(r: R): ParsedPrice | undefined;
  period(r: R): Period | undefined;
  unit(r: R): string;
  /** The record's week number, if it has one (labelled with the sector's WeekRule). */
  week?(r: R): number | undefined;
}

export interface EndpointSpec<K extends SectorId = SectorId> {
  id: K;
  label: string;
  /** Path under the base URL, starting with /api. */
  path: string;
  record: string;
  params: readonly ParamSpec[];
  /** At least one of these parameters must be present (taxud: sectors or products). */
  requireOneOf?: readonly string[];
  weekRule?: WeekRule;
  series: SeriesSpec<RecordTypes[K]>;
  /** Record fields in table and CSV order. */
  columns: readonly (keyof RecordTypes[K] & string)[];
}

export interface ListingSpec {
  path: string;
  /** Data endpoint whose filter it fills. */
  sector: SectorId;
  /** `objects` answers carry the value in `field` ({"description": ...}); `strings` are plain. */
  shape: 'strings' | 'objects';
  field?: string;
}

const MS: ParamSpec = { name: 'memberStateCodes', kind: 'S[]', label: 'Member States', memberStates: true };
const BEGIN: ParamSpec = { name: 'beginDate', kind: 'date', label: 'From (dd/mm/yyyy)' };
const END: ParamSpec = { name: 'endDate', kind: 'date', label: 'To (dd/mm/yyyy)' };
const YEARS: ParamSpec = { name: 'years', kind: 'I[]', label: 'Years', range: [1900, 2999] };
const MONTHS: ParamSpec = { name: 'months', kind: 'I[]', label: 'Months', range: [1, 12] };
const WEEKS: ParamSpec = { name: 'weeks', kind: 'I[]', label: 'Weeks', range: [1, 53] };
const MY_SPAN = { re: /^\d{4}\/\d{4}$/, text: 'yyyy/yyyy' };
const MY_SPAN_ONLY: ParamSpec = {
  name: 'marketingYears',
  kind: 'S[]',
  label: 'Marketing years',
  format: MY_SPAN,
};
const MY_INT: ParamSpec = {
  name: 'marketingYears',
  kind: 'I[]',
  label: 'Marketing years',
  range: [1900, 2999],
};
const s = (name: string, label: string, listing?: string): ParamSpec => ({
  name,
  kind: 'S[]',
  label,
  listing,
});

function dmyPeriod(r: { beginDate: string; endDate: string }): Period | undefined {
  const start = parseDmy(r.beginDate);
  if (start === undefined) return undefined;
  const end = parseDmy(r.endDate);
  return { start, end: end !== undefined && end >= start ? end : start };
}
function monthPeriod(year: number, month: number | undefined): Period | undefined {
  if (!Number.isInteger(year) || !month || month < 1 || month > 12) return undefined;
  return { start: Date.UTC(year, month - 1, 1), end: Date.UTC(year, month, 1) - DAY };
}
function yearPeriod(year: number): Period | undefined {
  return Number.isInteger(year) ? { start: Date.UTC(year, 0, 1), end: Date.UTC(year, 11, 31) } : undefined;
}
const num = (v: unknown): ParsedPrice | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? { amount: v, currency: undefined } : undefined;
const eur = (v: unknown): ParsedPrice | undefined => {
  const p = num(v);
  return p && { amount: p.amount, currency: 'EUR' };
};

/** PRICE-COMMON series: period from beginDate/endDate, the price string, the unit, the week number. */
function common<
  R extends RecordTypes[SectorId] & {
    beginDate: string;
    endDate: string;
    price: string;
    unit: string;
    weekNumber: number;
  },
>(key: readonly (keyof R & string)[]): SeriesSpec<R> {
  return {
    key,
    value: (r) => parsePrice(r.price),
    period: dmyPeriod,
    unit: (r) => r.unit,
    week: (r) => r.weekNumber,
  };
}
const COMMON_COLS = [
  'memberStateCode',
  'memberStateName',
  'beginDate',
  'endDate',
  'weekNumber',
  'price',
  'unit',
] as const;

export const ENDPOINTS: { readonly [K in SectorId]: EndpointSpec<K> } = {
  wine: {
    id: 'wine',
    label: 'Wine',
    path: '/api/wine/prices',
    record: 'WinePrice',
    params: [MS, s('descriptions', 'Wines', '/api/wine/descriptions'), YEARS, MONTHS, WEEKS, BEGIN, END],
    weekRule: WEEK_RULES.wine,
    series: common(['memberStateCode', 'description']),
    columns: [...COMMON_COLS, 'description'],
  },
  taxud: {
    id: 'taxud',
    label: 'Weekly imports (TAXUD)',
    path: '/api/taxud/weeklyData/import',
    record: 'TaxudWeekData',
    params: [
      MS,
      { name: 'partnerCodes', kind: 'S[]', label: 'Partner countries' },
      s('sectors', 'Sectors', '/api/taxud/weeklyData/sectors'),
      s('products', 'Products', '/api/taxud/weeklyData/import/products'),
      {
        name: 'cn8ProductCodes',
        kind: 'S[]',
        label: 'CN8 codes',
        listing: '/api/taxud/weeklyData/import/cn8ProductCodes',
        format: { re: /^[0-9A-Za-z]{8}$/, text: '8 characters' },
      },
      {
        name: 'taric10ProductCodes',
        kind: 'S[]',
        label: 'TARIC10 codes',
        listing: '/api/taxud/weeklyData/import/taric10ProductCodes',
        format: { re: /^[0-9A-Za-z]{10}$/, text: '10 characters' },
      },
      s('importCategories', 'Import categories', '/api/taxud/weeklyData/importCategories'),
      {
        name: 'marketingYears',
        kind: 'S[]',
        label: 'Marketing years',
        format: { re: /^\d{4}(\/\d{4})?$/, text: 'yyyy or yyyy/yyyy' },
      },
      MONTHS,
      WEEKS,
    ],
    requireOneOf: ['sectors', 'products'],
    weekRule: WEEK_RULES.taxud,
    series: {
      key: ['memberStateCode', 'partnerCode', 'product'],
      value: (r) => eur(r.unitValue),
      period: (r) => {
        const y = Number(/^\d{4}/.exec(String(r.marketingYear))?.[0]);
        if (!Number.isInteger(y) || !Number.isInteger(r.week) || !WEEK_RULES.taxud) return undefined;
        const start = weekOneMonday(WEEK_RULES.taxud, y) + (r.week - 1) * 7 * DAY;
        return { start, end: start + 6 * DAY };
      },
      unit: () => 'EUR per 100 kg (unit value)',
      week: (r) => r.week,
    },
    columns: [
      'sector',
      'marketingYear',
      'week',
      'memberStateCode',
      'memberStateName',
      'partnerCode',
      'partner',
      'product',
      'cn8ProductCode',
      'taric10ProductCode',
      'procedure',
      'preference',
      'euroValue',
      'unitValue',
      'kg',
      'kgEquivalent',
      'coefficient',
    ],
  },
  sugar: {
    id: 'sugar',
    label: 'Sugar',
    path: '/api/sugar/prices',
    record: 'SugarPrice',
    params: [
      s('regions', 'Regions', '/api/sugar/regions'),
      {
        name: 'yms',
        kind: 'S[]',
        label: 'Months (yyyy/mm)',
        format: { re: /^\d{4}\/(0[1-9]|1[0-2])$/, text: 'yyyy/mm' },
      },
      {
        name: 'marketingYears',
        kind: 'S[]',
        label: 'Marketing years',
        format: { re: /^\d{4}(\/\d{4})?$/, text: 'yyyy/yyyy' },
      },
      { ...MONTHS, label: 'Marketing months' },
      { name: 'contractTypes', kind: 'S[]', label: 'Contract types', allowed: ['monthly', 'short'] },
    ],
    series: {
      key: ['sugarRegion', 'contractType'],
      value: (r) => {
        const p = parsePrice(r.price);
        // The spec's sugar price has no symbol; the unit (EUR/tonne) is the currency.
        return p && { amount: p.amount, currency: p.currency ?? 'EUR' };
      },
      period: (r) => {
        const m = /^(\d{4})[/-](\d{1,2})$/.exec(String(r.ym).trim());
        return m ? monthPeriod(Number(m[1]), Number(m[2])) : undefined;
      },
      unit: (r) => r.unit,
    },
    columns: [
      'sugarRegion',
      'ym',
      'marketingYear',
      'marketingYearMonth',
      'contractType',
      'price',
      'unit',
      'weight',
    ],
  },
  sheepAndGoat: {
    id: 'sheepAndGoat',
    label: 'Sheep and goat meat',
    path: '/api/sheepAndGoat/prices',
    record: 'SheepAndGoatPrice',
    params: [
      MS,
      {
        name: 'productCodes',
        kind: 'S[]',
        label: 'Categories',
        allowed: ['EU_L', 'EU_H'],
        listing: '/api/sheepAndGoat/categories',
      },
      { name: 'marketCodes', kind: 'S[]', label: 'Markets', listing: '/api/sheepAndGoat/markets' },
      MY_INT,
      MONTHS,
      WEEKS,
      BEGIN,
      END,
    ],
    weekRule: WEEK_RULES.sheepAndGoat,
    series: common(['memberStateCode', 'category', 'marketName']),
    columns: [...COMMON_COLS, 'category', 'marketName', 'marketingYear'],
  },
  rice: {
    id: 'rice',
    label: 'Rice',
    path: '/api/rice/prices',
    record: 'RicePrice',
    params: [
      { ...MS, listing: '/api/rice/memberStates' },
      s('stages', 'Stages', '/api/rice/stages'),
      s('types', 'Types', '/api/rice/types'),
      s('varieties', 'Varieties', '/api/rice/varieties'),
      MY_SPAN_ONLY,
      WEEKS,
      BEGIN,
      END,
    ],
    weekRule: WEEK_RULES.rice,
    series: common(['memberStateCode', 'stage', 'type', 'variety']),
    columns: [...COMMON_COLS, 'marketingYear', 'stage', 'type', 'variety'],
  },
  rawMilk: {
    id: 'rawMilk',
    label: 'Raw milk',
    path: '/api/rawMilk/prices',
    record: 'RawMilkPrice',
    params: [MS, s('products', 'Products', '/api/rawMilk/products'), YEARS, MONTHS, BEGIN, END],
    series: {
      key: ['memberStateCode', 'product'],
      value: (r) => parsePrice(r.price),
      // Monthly prices: the record's month is the period; its begin/end dates were seen spanning more.
      period: (r) => monthPeriod(r.year, r.month) ?? dmyPeriod(r),
      unit: (r) => r.unit,
    },
    columns: [
      'memberStateCode',
      'memberStateName',
      'year',
      'month',
      'monthName',
      'beginDate',
      'endDate',
      'product',
      'price',
      'unit',
    ],
  },
  poultry: {
    id: 'poultry',
    label: 'Poultry',
    path: '/api/poultry/prices',
    record: 'PoultryWeekPrice',
    params: [
      MS,
      { name: 'products', kind: 'S[]', label: 'Products', allowed: ['Broiler', 'Breast', 'Legs'] },
      {
        name: 'priceTypes',
        kind: 'S[]',
        label: 'Price types (default: Selling price)',
        allowed: ['Selling price', 'Retail buying prices', 'Non-retail buying prices', 'All'],
        listing: '/api/poultry/priceTypes',
      },
      YEARS,
      MONTHS,
      WEEKS,
      BEGIN,
      END,
    ],
    weekRule: WEEK_RULES.poultry,
    series: common(['memberStateCode', 'productName', 'priceType']),
    columns: [...COMMON_COLS, 'productName', 'priceType'],
  },
  pigmeat: {
    id: 'pigmeat',
    label: 'Pigmeat',
    path: '/api/pigmeat/prices',
    record: 'PigmeatCarcassesAndPigletsPrice',
    params: [
      MS,
      { name: 'pigClasses', kind: 'S[]', label: 'Classes', allowed: ['S', 'E', 'R', 'SE', 'Piglet'] },
      MY_INT,
      MONTHS,
      WEEKS,
      BEGIN,
      END,
    ],
    weekRule: WEEK_RULES.pigmeat,
    series: common(['memberStateCode', 'pigClass']),
    columns: [...COMMON_COLS, 'pigClass'],
  },
  organic: {
    id: 'organic',
    label: 'Organic',
    path: '/api/organic/prices',
    record: 'OrganicPrice',
    params: [
      MS,
      YEARS,
      MONTHS,
      s('sectors', 'Sectors', '/api/organic/sectors'),
      s('organicProducts', 'Organic products', '/api/organic/organicProducts'),
      s('overallProducts', 'Overall products', '/api/organic/overallProducts'),
    ],
    series: {
      key: ['memberStateCode', 'organicProduct', 'organicStage'],
      value: (r) => eur(r.organicPrice),
      period: (r) => monthPeriod(r.year, r.monthNumber ?? monthNumber(r.month)),
      unit: (r) => r.organicUnit,
    },
    columns: [
      'memberStateCode',
      'memberStateName',
      'year',
      'month',
      'monthNumber',
      'sector',
      'organicProduct',
      'organicStage',
      'organicPrice',
      'organicUnit',
      'overallProduct',
      'overallStage',
      'overallPrice',
      'overallUnit',
      'differencePercentage',
    ],
  },
  oliveOil: {
    id: 'oliveOil',
    label: 'Olive oil',
    path: '/api/oliveOil/prices',
    record: 'OliveOilPrice',
    params: [
      { ...MS, listing: '/api/oliveOil/memberStates' },
      s('products', 'Products', '/api/oliveOil/products'),
      s('markets', 'Markets', '/api/oliveOil/markets'),
      MY_SPAN_ONLY,
      WEEKS,
      BEGIN,
      END,
    ],
    weekRule: WEEK_RULES.oliveOil,
    series: common(['memberStateCode', 'product', 'market']),
    columns: [...COMMON_COLS, 'product', 'market', 'marketingYear'],
  },
  oilseeds: {
    id: 'oilseeds',
    label: 'Oilseeds',
    path: '/api/oilseeds/prices',
    record: 'OilseedPrice',
    params: [
      MS,
      MY_SPAN_ONLY,
      WEEKS,
      s('products', 'Products', '/api/oilseeds/products'),
      s('productTypes', 'Product types', '/api/oilseeds/productTypes'),
      s('markets', 'Markets', '/api/oilseeds/markets'),
      s('marketStages', 'Market stages', '/api/oilseeds/marketStages'),
      BEGIN,
      END,
    ],
    weekRule: WEEK_RULES.oilseeds,
    series: common(['memberStateCode', 'product', 'productType', 'marketStage', 'market']),
    columns: [...COMMON_COLS, 'product', 'productType', 'marketStage', 'market', 'marketingYear'],
  },
  pmef: {
    id: 'pmef',
    label: 'PMEF indicators',
    path: '/api/indicators/pmef/values',
    record: 'PMEFIndicator',
    params: [
      MS,
      {
        name: 'memberStateIso3Codes',
        kind: 'S[]',
        label: 'Member States (alpha-3)',
        format: { re: /^[A-Za-z]{3}$/, text: 'ISO 3166 alpha-3' },
      },
      YEARS,
      s('types', 'Types', '/api/indicators/pmef/types'),
      s('categories', 'Categories', '/api/indicators/pmef/categories'),
      s('indicators', 'Indicators', '/api/indicators/pmef/indicators'),
      s('subindicators', 'Sub-indicators', '/api/indicators/pmef/subindicators'),
      s('parameters', 'Parameters', '/api/indicators/pmef/parameters'),
      s('units', 'Units', '/api/indicators/pmef/units'),
      s('codes', 'Codes', '/api/indicators/pmef/codes'),
      s('sources', 'Sources', '/api/indicators/pmef/dataSources'),
      {
        name: 'planned',
        kind: 'S[]',
        label: 'Planned',
        allowed: ['Planned', 'Realised', 'Non-applicable'],
        listing: '/api/indicators/pmef/planned',
      },
    ],
    series: {
      key: ['memberStateCode', 'code', 'parameter', 'planned'],
      value: (r) => num(r.value),
      period: (r) => yearPeriod(r.year),
      unit: (r) => r.unitOfMeasurement,
    },
    columns: [
      'memberStateCode',
      'memberStateIso3Code',
      'memberStateName',
      'year',
      'indicator',
      'subindicator',
      'parameter',
      'planned',
      'code',
      'value',
      'unitOfMeasurement',
      'dataSource',
      'flag',
    ],
  },
  fruitAndVegetable: {
    id: 'fruitAndVegetable',
    label: 'Fruit and vegetables (supply chain)',
    path: '/api/fruitAndVegetable/pricesSupplyChain',
    record: 'FruitAndVegetableSupplyChainPrice',
    params: [
      MS,
      YEARS,
      BEGIN,
      END,
      s('productStages', 'Product stages', '/api/fruitAndVegetable/pricesSupplyChain/productStages'),
      s('products', 'Products', '/api/fruitAndVegetable/pricesSupplyChain/products'),
      s('varieties', 'Varieties', '/api/fruitAndVegetable/pricesSupplyChain/varieties'),
    ],
    series: {
      key: ['memberStateCode', 'variety', 'productStage', 'market'],
      value: (r) => parsePrice(r.price),
      period: dmyPeriod,
      unit: (r) => r.unit,
    },
    columns: [
      'memberStateCode',
      'memberStateName',
      'beginDate',
      'endDate',
      'periodType',
      'period',
      'year',
      'variety',
      'productStage',
      'market',
      'price',
      'unit',
      'isCalculated',
      'isRegulated',
    ],
  },
  fertiliser: {
    id: 'fertiliser',
    label: 'Fertiliser',
    path: '/api/fertiliser/prices',
    record: 'FertiliserPrice',
    params: [
      YEARS,
      { name: 'quarters', kind: 'S[]', label: 'Quarters' },
      MONTHS,
      s('products', 'Products', '/api/fertiliser/prices/products'),
    ],
    series: {
      key: ['memberStateName', 'product'],
      value: (r) => eur(r.price),
      period: (r) => monthPeriod(r.year, monthNumber(String(r.month))),
      unit: (r) => r.unit,
    },
    columns: ['memberStateName', 'year', 'quarter', 'month', 'product', 'price', 'unit'],
  },
  cmef: {
    id: 'cmef',
    label: 'CMEF indicators',
    path: '/api/cmefIndicators/values',
    record: 'CMEFIndicator',
    params: [
      MS,
      YEARS,
      s('types', 'Types', '/api/cmefIndicators/types'),
      s('categories', 'Categories', '/api/cmefIndicators/categories'),
      s('indicators', 'Indicators', '/api/cmefIndicators/indicators'),
      s('subindicators', 'Sub-indicators', '/api/cmefIndicators/subindicators'),
      s('parameters', 'Parameters', '/api/cmefIndicators/parameters'),
      s('units', 'Units', '/api/cmefIndicators/units'),
      s('codes', 'Codes', '/api/cmefIndicators/codes'),
      s('sources', 'Sources', '/api/cmefIndicators/sources'),
    ],
    series: {
      key: ['memberStateCode', 'code', 'parameter'],
      value: (r) => num(r.value),
      period: (r) => yearPeriod(r.year),
      unit: (r) => r.unit,
    },
    columns: [
      'memberStateCode',
      'memberStateName',
      'year',
      'indicator',
      'subindicator',
      'parameter',
      'code',
      'value',
      'unit',
      'source',
      'flag',
    ],
  },
  cereal: {
    id: 'cereal',
    label: 'Cereals',
    path: '/api/cereal/prices',
    record: 'CerealPrice',
    params: [
      MS,
      MY_SPAN_ONLY,
      MONTHS,
      WEEKS,
      { name: 'referencePeriod', kind: 'date', label: 'Committee date (dd/mm/yyyy)' },
      s('productCodes', 'Products', '/api/cereal/products'),
      s('stageCodes', 'Stages', '/api/cereal/stages'),
      s('marketCodes', 'Markets', '/api/cereal/markets'),
      BEGIN,
      END,
    ],
    weekRule: WEEK_RULES.cereal,
    series: common(['memberStateCode', 'productName', 'stageName', 'marketName']),
    columns: [...COMMON_COLS, 'productName', 'stageName', 'marketName', 'referencePeriod'],
  },
  beef: {
    id: 'beef',
    label: 'Beef carcasses',
    path: '/api/beef/prices',
    record: 'BeefCarcassPrice',
    params: [
      MS,
      s('categories', 'Categories', '/api/beef/categories'),
      s('productCodes', 'Product codes', '/api/beef/productCodes'),
      YEARS,
      MONTHS,
      WEEKS,
      BEGIN,
      END,
    ],
    weekRule: WEEK_RULES.beef,
    series: common(['memberStateCode', 'category', 'productCode']),
    columns: [...COMMON_COLS, 'category', 'productCode'],
  },
};

export const SECTOR_IDS = Object.keys(ENDPOINTS) as SectorId[];

export function isSectorId(v: unknown): v is SectorId {
  return typeof v === 'string' && Object.hasOwn(ENDPOINTS, v);
}

/** Every listing path named by the spec, with the data endpoint whose filter it fills. */
export const LISTINGS: readonly ListingSpec[] = SECTOR_IDS.flatMap((id) =>
  (ENDPOINTS[id].params as readonly ParamSpec[])
    .filter((p) => p.listing)
    .map(
      (p): ListingSpec =>
        p.listing === '/api/wine/descriptions'
          ? { path: p.listing, sector: id, shape: 'objects', field: 'description' }
          : { path: p.listing as string, sector: id, shape: 'strings' },
    ),
);

export function endpoint<K extends SectorId>(id: K): EndpointSpec<K> {
  return ENDPOINTS[id];
}

/** Sectors accept a few spellings on the command line: "raw-milk", "rawmilk", "olive-oil". */
export function sectorFromName(name: string): SectorId | undefined {
  const n = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SECTOR_IDS.find(
    (id) => id.toLowerCase() === n || ENDPOINTS[id].path.toLowerCase().includes(`/${n}/`),
  );
}
