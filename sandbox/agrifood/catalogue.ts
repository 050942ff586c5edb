// What the emulated agri-food service knows: per sector, the dimensions its series vary over (Member
// States, products, markets, stages...), its cadence, the first period, its price range and how one
// record is written. Deterministic: a record's value depends only on its series and its date, so the
// same query gives the same answer whenever it is asked. The sandbox never imports client or server code.

import type { SectorId } from '../../core/agrifood';
import { EU_AGGREGATE, formatDmy, MEMBER_STATES, MONTHS, memberStateName } from '../../core/agrifood';

/** One series: its dimension fields (strings) plus the generator's own `_seed` and `_base`. */
export type Combo = Record<string, string> & { _seed: string; _base: string };

export interface GenPeriod {
  start: number;
  end: number;
  year: number;
  /** 1..12 of the start. */
  month: number;
  /** Sector week number (weekly cadence only). */
  week: number;
  /** Year the (marketing) year of this period starts in. */
  myStart: number;
}

export type PriceStyle = 'dot' | 'comma' | 'plain';

export interface Model {
  sector: SectorId;
  cadence: 'week' | 'month' | 'year';
  /** First period start (UTC ms); periods run to the sandbox clock. */
  from: number;
  /** Last year for yearly data that includes plans (PMEF). */
  untilYear?: number;
  /** Month (0 = January) a marketing year starts in. */
  myStartMonth: number;
  /** Member State codes this sector reports; undefined: records have no Member State code. */
  ms?: readonly string[];
  /** Also an EU aggregate series for every dimension combination. */
  eu?: boolean;
  /** Dimension value lists, crossed with each other and with `ms`. */
  dims: readonly (readonly Record<string, string>[])[];
  /** Share of Member State series kept (deterministic), so that not every country reports everything. */
  keep?: number;
  base: readonly [number, number];
  style: PriceStyle;
  /** Query parameter -> combo field compared (case-insensitive) with its values. */
  match: Readonly<Record<string, string>>;
  record(c: Combo, p: GenPeriod, value: number, price: string): Record<string, unknown>;
}

const ALL = MEMBER_STATES.map((m) => m.code);
const dmy = formatDmy;
const name = (code: string) => memberStateName(code) ?? code;
const my = (y: number) => `${y}/${y + 1}`;
const d = (field: string, values: readonly string[]) => values.map((v) => ({ [field]: v }));

/** Fields every PRICE-COMMON record shares. */
function common(c: Combo, p: GenPeriod, price: string, unit: string) {
  return {
    memberStateCode: c.ms,
    memberStateName: name(c.ms),
    beginDate: dmy(p.start),
    endDate: dmy(p.end),
    price,
    unit,
    weekNumber: p.week,
  };
}

const CEREAL_PRODUCTS = [
  { productCode: 'BLTPAN', productName: 'Milling wheat' },
  { productCode: 'DUR', productName: 'Durum wheat' },
  { productCode: 'MAI', productName: 'Maize' },
  { productCode: 'ORGFOUR', productName: 'Feed barley' },
  { productCode: 'ORGBRAS', productName: 'Malting barley' },
];

export const MODELS: { readonly [K in SectorId]: Model } = {
  wine: {
    sector: 'wine',
    cadence: 'week',
    from: Date.UTC(2017, 0, 2),
    myStartMonth: 7,
    ms: ['FR', 'IT', 'ES', 'PT', 'DE', 'EL', 'AT', 'HU', 'RO', 'BG'],
    eu: true,
    keep: 0.5,
    dims: [
      d('description', [
        'Blancs / Vin AOP',
        'Rouges / Vin AOP',
        'Vin sans IG blanc',
        'Verona Vino bianco DOP',
        'Table wine (white)',
        'Table wine (red)',
        'Rioja tinto DOP',
      ]),
    ],
    base: [40, 400],
    style: 'dot',
    match: { memberStateCodes: 'ms', descriptions: 'description' },
    record: (c, p, _v, price) => ({ ...common(c, p, price, 'Euro / HL.'), description: c.description }),
  },
  taxud: {
    sector: 'taxud',
    cadence: 'week',
    from: Date.UTC(2019, 0, 7),
    myStartMonth: 0,
    ms: ALL,
    keep: 0.12,
    dims: [
      [
        { partnerCode: 'UA', partner: 'Ukraine' },
        { partnerCode: 'BR', partner: 'Brazil' },
        { partnerCode: 'AR', partner: 'Argentina' },
        { partnerCode: 'US', partner: 'United States' },
        { partnerCode: 'NZ', partner: 'New Zealand' },
        { partnerCode: 'TH', partner: 'Thailand' },
      ],
      [
        {
          sector: 'Cereals',
          product: 'Common wheat',
          cn8: '10019900',
          taric: '1001990000',
          cat: 'Erga omnes',
        },
        { sector: 'Cereals', product: 'Maize', cn8: '10059000', taric: '1005900000', cat: 'Erga omnes' },
        { sector: 'Rice', product: 'Milled rice', cn8: '10063098', taric: '1006309800', cat: 'TRQ' },
        { sector: 'Beef', product: 'Fresh beef', cn8: '02013000', taric: '0201300000', cat: 'TRQ' },
        { sector: 'Sugar', product: 'Cane sugar', cn8: '17011490', taric: '1701149000', cat: 'TRQ' },
        {
          sector: 'Poultry',
          product: 'Chicken cuts',
          cn8: '02071410',
          taric: '0207141000',
          cat: 'Erga omnes',
        },
      ],
    ],
    base: [40, 600],
    style: 'dot',
    match: {
      memberStateCodes: 'ms',
      partnerCodes: 'partnerCode',
      sectors: 'sector',
      products: 'product',
      cn8ProductCodes: 'cn8',
      taric10ProductCodes: 'taric',
      importCategories: 'cat',
    },
    record: (c, p, v) => {
      const kg = Math.round(20000 + ((v * 997) % 400000));
      const euroValue = Math.round(kg * v) / 100;
      return {
        sector: c.sector,
        marketingYear: String(p.myStart),
        week: p.week,
        memberStateCode: c.ms,
        memberStateName: name(c.ms),
        partnerCode: c.partnerCode,
        partner: c.partner,
        product: c.product,
        cn8ProductCode: c.cn8,
        taric10ProductCode: c.taric,
        procedure: 40,
        preference: c.cat === 'TRQ' ? 300 : 100,
        euroValue,
        unitValue: v,
        kg,
        kgEquivalent: kg,
        coefficient: 1,
      };
    },
  },
  sugar: {
    sector: 'sugar',
    cadence: 'month',
    from: Date.UTC(2017, 9, 1),
    myStartMonth: 9,
    dims: [
      d('region', ['EU Average', 'Region 1', 'Region 2', 'Region 3']),
      [
        { contract: 'monthly', contractType: 'Monthly data' },
        { contract: 'short', contractType: 'Short term contracts' },
      ],
    ],
    base: [300, 650],
    style: 'plain',
    match: { regions: 'region', contractTypes: 'contract' },
    // Emulates the observed quirks: "Region EU Average" in records, "2020-10" for ym.
    record: (c, p, v, price) => ({
      sugarRegion: c.region.startsWith('Region') ? c.region : `Region ${c.region}`,
      price,
      unit: 'Tonne',
      ym: `${p.year}-${String(p.month).padStart(2, '0')}`,
      marketingYear: my(p.myStart),
      marketingYearMonth: MONTHS[p.month - 1],
      weight: Math.round(v * 26713) / 100,
      contractType: c.contractType,
    }),
  },
  sheepAndGoat: {
    sector: 'sheepAndGoat',
    cadence: 'week',
    from: Date.UTC(2016, 0, 4),
    myStartMonth: 0,
    ms: ['ES', 'FR', 'IE', 'EL', 'IT', 'PT', 'RO', 'DE', 'NL', 'AT'],
    eu: true,
    keep: 0.8,
    dims: [
      [
        { code: 'EU_L', category: 'Light lambs' },
        { code: 'EU_H', category: 'Heavy lambs' },
      ],
    ],
    base: [450, 900],
    style: 'dot',
    match: { memberStateCodes: 'ms', productCodes: 'code', marketCodes: 'ms' },
    record: (c, p, _v, price) => ({
      ...common(c, p, price, '€/100kg carcass weight'),
      category: c.category,
      marketName: name(c.ms),
      marketingYear: p.myStart,
    }),
  },
  rice: {
    sector: 'rice',
    cadence: 'week',
    from: Date.UTC(2016, 8, 5),
    myStartMonth: 8,
    ms: ['IT', 'ES', 'PT', 'FR', 'EL', 'BG', 'RO', 'HU'],
    eu: true,
    keep: 0.6,
    dims: [
      d('stage', ['Paddy', 'Husked', 'Milled']),
      [
        { type: 'Japonica', variety: 'Arborio' },
        { type: 'Japonica', variety: 'Carnaroli' },
        { type: 'Japonica', variety: 'Balilla' },
        { type: 'Indica', variety: 'Thaibonnet' },
        { type: 'Indica', variety: 'Lido' },
      ],
    ],
    base: [300, 1300],
    style: 'comma',
    match: { memberStateCodes: 'ms', stages: 'stage', types: 'type', varieties: 'variety' },
    record: (c, p, _v, price) => ({
      ...common(c, p, price, '€/t'),
      marketingYear: my(p.myStart),
      stage: c.stage,
      type: c.type,
      variety: c.variety,
    }),
  },
  rawMilk: {
    sector: 'rawMilk',
    cadence: 'month',
    from: Date.UTC(2015, 0, 1),
    myStartMonth: 0,
    ms: ALL,
    eu: true,
    keep: 0.9,
    dims: [d('product', ['Raw milk', 'Organic raw milk'])],
    base: [28, 60],
    style: 'dot',
    match: { memberStateCodes: 'ms', products: 'product' },
    record: (c, p, _v, price) => ({
      memberStateCode: c.ms,
      memberStateName: name(c.ms),
      beginDate: dmy(p.start),
      endDate: dmy(p.end),
      month: p.month,
      monthName: (MONTHS[p.month - 1] as string).slice(0, 3),
      price,
      unit: '100KG',
      year: p.year,
      product: c.product,
    }),
  },
  poultry: {
    sector: 'poultry',
    cadence: 'week',
    from: Date.UTC(2016, 0, 4),
    myStartMonth: 0,
    ms: ['FR', 'DE', 'PL', 'ES', 'IT', 'NL', 'BE', 'HU', 'RO', 'PT', 'CZ', 'AT', 'IE', 'DK', 'SE'],
    eu: true,
    keep: 0.5,
    dims: [
      d('productName', ['Broiler', 'Breast', 'Legs']),
      d('priceType', ['Selling price', 'Retail buying prices', 'Non-retail buying prices']),
    ],
    base: [150, 550],
    style: 'dot',
    match: { memberStateCodes: 'ms', products: 'productName', priceTypes: 'priceType' },
    record: (c, p, _v, price) => ({
      ...common(c, p, price, '€/100kg'),
      productName: c.productName,
      priceType: c.priceType,
    }),
  },
  pigmeat: {
    sector: 'pigmeat',
    cadence: 'week',
    from: Date.UTC(2016, 0, 4),
    myStartMonth: 0,
    ms: ALL,
    eu: true,
    keep: 0.7,
    dims: [d('pigClass', ['S', 'E', 'R', 'SE', 'Piglet'])],
    base: [140, 240],
    style: 'dot',
    match: { memberStateCodes: 'ms', pigClasses: 'pigClass' },
    record: (c, p, v, price) => ({
      ...common(
        c,
        p,
        c.pigClass === 'Piglet' ? `€${(v / 3.5).toFixed(2)}` : price,
        c.pigClass === 'Piglet' ? '€/head' : '€/100kg',
      ),
      pigClass: c.pigClass,
    }),
  },
  organic: {
    sector: 'organic',
    cadence: 'month',
    from: Date.UTC(2018, 0, 1),
    myStartMonth: 0,
    ms: ['DE', 'FR', 'IT', 'ES', 'AT', 'DK', 'NL', 'SE'],
    keep: 0.8,
    dims: [
      [
        { sector: 'Dairy', product: 'Raw milk', stage: 'Farm gate', unit: '€/100kg' },
        { sector: 'Eggs', product: 'Eggs', stage: 'Packing centre', unit: '€/100 units' },
        { sector: 'Cereals', product: 'Wheat', stage: 'Farm gate', unit: '€/t' },
        { sector: 'Fruit and vegetables', product: 'Apples', stage: 'Wholesale', unit: '€/100kg' },
      ],
    ],
    base: [30, 400],
    style: 'dot',
    match: {
      memberStateCodes: 'ms',
      sectors: 'sector',
      organicProducts: 'product',
      overallProducts: 'product',
    },
    record: (c, p, v) => {
      const overall = Math.round((v / 1.35) * 100) / 100;
      return {
        memberStateCode: c.ms,
        memberStateName: name(c.ms),
        year: p.year,
        month: MONTHS[p.month - 1],
        monthNumber: p.month,
        sector: c.sector,
        organicProduct: c.product,
        overallProduct: c.product,
        organicStage: c.stage,
        overallStage: c.stage,
        organicPrice: v,
        overallPrice: overall,
        differencePercentage: Math.round(((v - overall) / overall) * 10000) / 100,
        organicUnit: c.unit,
        overallUnit: c.unit,
      };
    },
  },
  oliveOil: {
    sector: 'oliveOil',
    cadence: 'week',
    from: Date.UTC(2016, 0, 4),
    myStartMonth: 9,
    ms: ['ES', 'IT', 'EL', 'PT', 'FR', 'HR', 'CY'],
    eu: true,
    keep: 0.9,
    dims: [
      d('product', ['Extra virgin olive oil', 'Virgin olive oil', 'Lampante olive oil']),
      d('market', ['Main market', 'Secondary market']),
    ],
    base: [300, 1100],
    style: 'dot',
    match: { memberStateCodes: 'ms', products: 'product', markets: 'market' },
    record: (c, p, _v, price) => ({
      ...common(c, p, price, '€/100 kg'),
      product: c.product,
      market: c.market,
      marketingYear: my(p.myStart),
    }),
  },
  oilseeds: {
    sector: 'oilseeds',
    cadence: 'week',
    from: Date.UTC(2016, 6, 4),
    myStartMonth: 6,
    ms: ['FR', 'DE', 'HU', 'RO', 'BG', 'PL', 'CZ', 'ES', 'IT', 'AT'],
    eu: true,
    keep: 0.5,
    dims: [
      [
        { product: 'Rapeseed', productType: 'N.A.' },
        { product: 'Sunflower seed', productType: 'High oleic' },
        { product: 'Sunflower seed', productType: 'Linoleic' },
        { product: 'Soya beans', productType: 'N.A.' },
      ],
      d('marketStage', ['DELPROC', 'FOB']),
      d('market', ['Rouen', 'Hamburg', 'Constanța']),
    ],
    base: [250, 700],
    style: 'dot',
    match: {
      memberStateCodes: 'ms',
      products: 'product',
      productTypes: 'productType',
      markets: 'market',
      marketStages: 'marketStage',
    },
    record: (c, p, _v, price) => ({
      ...common(c, p, price, 'national currency/ton'),
      product: c.product,
      productType: c.productType,
      marketStage: c.marketStage,
      market: c.market,
      marketingYear: my(p.myStart),
    }),
  },
  pmef: {
    sector: 'pmef',
    cadence: 'year',
    from: Date.UTC(2014, 0, 1),
    untilYear: 2029,
    myStartMonth: 0,
    ms: ALL,
    dims: [
      [
        {
          type: 'Context',
          category: 'Economic',
          indicator: 'C.25 Agricultural factor income',
          subindicator: 'Total',
          parameter: 'Factor income per annual work unit',
          unit: 'EUR/AWU',
          code: 'C.25',
          source: 'Eurostat',
        },
        {
          type: 'Result',
          category: 'Environment',
          indicator: 'R.14 Carbon storage in soils and biomass',
          subindicator: 'Share of UAA',
          parameter: 'Share of utilised agricultural area',
          unit: '%',
          code: 'R.14',
          source: 'Member State reports',
        },
        {
          type: 'Output',
          category: 'Income support',
          indicator: 'O.4 Hectares for basic income support',
          subindicator: 'Total',
          parameter: 'Hectares',
          unit: 'ha',
          code: 'O.4',
          source: 'Member State reports',
        },
      ],
      d('planned', ['Planned', 'Realised']),
    ],
    base: [5, 40000],
    style: 'dot',
    match: {
      memberStateCodes: 'ms',
      memberStateIso3Codes: 'iso3',
      types: 'type',
      categories: 'category',
      indicators: 'indicator',
      subindicators: 'subindicator',
      parameters: 'parameter',
      units: 'unit',
      codes: 'code',
      sources: 'source',
      planned: 'planned',
    },
    record: (c, p, v) => ({
      indicator: c.indicator,
      subindicator: c.subindicator,
      parameter: c.parameter,
      planned: c.planned,
      unitOfMeasurement: c.unit,
      code: c.code,
      dataSource: c.source,
      memberStateCode: c.ms,
      memberStateIso3Code: c.iso3,
      memberStateName: name(c.ms),
      year: p.year,
      value: v,
      flag: p.year % 5 === 0 ? 'p' : null,
    }),
  },
  fruitAndVegetable: {
    sector: 'fruitAndVegetable',
    cadence: 'week',
    from: Date.UTC(2019, 0, 7),
    myStartMonth: 0,
    ms: ['ES', 'IT', 'FR', 'NL', 'PL', 'DE', 'EL', 'PT'],
    eu: true,
    keep: 0.5,
    dims: [
      [
        { product: 'Tomatoes', variety: 'Round tomatoes' },
        { product: 'Tomatoes', variety: 'Cherry tomatoes' },
        { product: 'Apples', variety: 'Golden delicious' },
        { product: 'Apples', variety: 'Gala' },
        { product: 'Peaches', variety: 'Yellow peaches' },
      ],
      d('productStage', ['Producer price', 'Wholesale', 'Retail']),
    ],
    base: [40, 300],
    style: 'dot',
    match: {
      memberStateCodes: 'ms',
      products: 'product',
      varieties: 'variety',
      productStages: 'productStage',
    },
    record: (c, p, _v, price) => ({
      memberStateCode: c.ms,
      memberStateName: name(c.ms),
      beginDate: dmy(p.start),
      endDate: dmy(p.end),
      price,
      unit: '€/100kg',
      periodType: 'Week',
      period: p.week,
      year: p.myStart,
      variety: c.variety,
      productStage: c.productStage,
      market: 'National',
      isCalculated: c.ms === 'EU' ? 'Y' : 'N',
      isRegulated: c.productStage === 'Producer price' ? 'Y' : 'N',
    }),
  },
  fertiliser: {
    sector: 'fertiliser',
    cadence: 'month',
    from: Date.UTC(2018, 0, 1),
    myStartMonth: 0,
    dims: [
      d('memberStateName', ['France', 'Germany', 'Poland', 'Spain', 'Italy', 'European Union']),
      d('product', ['Urea', 'Ammonium nitrate', 'DAP', 'Potassium chloride']),
    ],
    base: [250, 900],
    style: 'dot',
    match: { products: 'product' },
    record: (c, p, v) => ({
      year: p.year,
      quarter: `Q${Math.ceil(p.month / 3)}`,
      month: (MONTHS[p.month - 1] as string).slice(0, 3),
      memberStateName: c.memberStateName,
      product: c.product,
      price: v,
      unit: '€/t',
    }),
  },
  cmef: {
    sector: 'cmef',
    cadence: 'year',
    from: Date.UTC(2007, 0, 1),
    myStartMonth: 0,
    ms: ALL,
    dims: [
      [
        {
          type: 'Context',
          category: 'Socio-economic',
          indicator: 'C.01 Population',
          subindicator: 'Total',
          parameter: 'Inhabitants',
          unit: 'Number',
          code: 'C.01',
          source: 'Eurostat',
        },
        {
          type: 'Context',
          category: 'Sectoral',
          indicator: 'C.18 Agricultural area',
          subindicator: 'Total UAA',
          parameter: 'Hectares',
          unit: 'ha',
          code: 'C.18',
          source: 'Eurostat - FSS',
        },
      ],
    ],
    base: [1000, 900000],
    style: 'dot',
    match: {
      memberStateCodes: 'ms',
      types: 'type',
      categories: 'category',
      indicators: 'indicator',
      subindicators: 'subindicator',
      parameters: 'parameter',
      units: 'unit',
      codes: 'code',
      sources: 'source',
    },
    record: (c, p, v) => ({
      indicator: c.indicator,
      subindicator: c.subindicator,
      parameter: c.parameter,
      unit: c.unit,
      code: c.code,
      source: c.source,
      memberStateCode: c.ms,
      memberStateName: name(c.ms),
      year: p.year,
      value: Math.round(v),
      flag: '',
    }),
  },
  cereal: {
    sector: 'cereal',
    cadence: 'week',
    from: Date.UTC(2015, 5, 29),
    myStartMonth: 6,
    ms: [
      'FR',
      'DE',
      'IT',
      'ES',
      'PL',
      'RO',
      'HU',
      'BG',
      'CZ',
      'AT',
      'DK',
      'SE',
      'FI',
      'LT',
      'LV',
      'SK',
      'BE',
      'NL',
      'IE',
      'PT',
    ],
    eu: true,
    keep: 1,
    dims: [
      CEREAL_PRODUCTS,
      [
        { stageCode: 'DEL', stageName: 'Delivered', marketCode: 'M1', marketName: 'Main market' },
        {
          stageCode: 'DEP',
          stageName: 'Departure from storage',
          marketCode: 'M2',
          marketName: 'Second market',
        },
        { stageCode: 'FOB', stageName: 'Free on board', marketCode: 'M3', marketName: 'Port' },
      ],
    ],
    base: [150, 420],
    style: 'comma',
    match: {
      memberStateCodes: 'ms',
      productCodes: 'productCode',
      stageCodes: 'stageCode',
      marketCodes: 'marketCode',
    },
    record: (c, p, _v, price) => ({
      ...common(c, p, price, 'TONNES'),
      productName: c.productName,
      marketName: c.marketName,
      stageName: c.stageName,
      referencePeriod: dmy(p.end + 4 * 86_400_000),
    }),
  },
  beef: {
    sector: 'beef',
    cadence: 'week',
    from: Date.UTC(2016, 0, 4),
    myStartMonth: 0,
    ms: ALL,
    eu: true,
    keep: 0.5,
    dims: [
      [
        { category: 'Young bulls', productCode: 'AU2' },
        { category: 'Young bulls', productCode: 'AR2' },
        { category: 'Young bulls', productCode: 'AR3' },
        { category: 'Young bulls', productCode: 'AO2' },
        { category: 'Cows', productCode: 'DR3' },
        { category: 'Cows', productCode: 'DO3' },
        { category: 'Heifers', productCode: 'ER3' },
        { category: 'Steers', productCode: 'CR3' },
        { category: 'Adult male indicative price', productCode: 'ACZURO' },
      ],
    ],
    base: [330, 560],
    style: 'dot',
    match: { memberStateCodes: 'ms', categories: 'category', productCodes: 'productCode' },
    record: (c, p, _v, price) => ({
      ...common(c, p, price, '€/100 kg'),
      category: c.category,
      productCode: c.productCode,
    }),
  },
};

export { EU_AGGREGATE };
