// The typed records of the agri-food data service (spec section 2), one interface per data endpoint,
// and the APIError body. Shapes only: nothing here parses, fetches or guesses.

/** Fields shared by most price records (PRICE-COMMON). `price` is a currency symbol and an amount. */
export interface PriceCommon {
  memberStateCode: string;
  memberStateName: string;
  /** dd/mm/yyyy */
  beginDate: string;
  /** dd/mm/yyyy */
  endDate: string;
  price: string;
  unit: string;
  /** Week number whose week 1 depends on the sector (see weeks.ts). */
  weekNumber: number;
}

export interface WinePrice extends PriceCommon {
  description: string;
}

export interface TaxudWeekData {
  sector: string;
  marketingYear: string;
  week: number;
  memberStateCode: string;
  memberStateName: string;
  partnerCode: string;
  partner: string;
  product: string;
  cn8ProductCode: string;
  taric10ProductCode: string;
  procedure: number;
  preference: number;
  euroValue: number;
  unitValue: number;
  kg: number;
  kgEquivalent: number;
  coefficient: number;
}

export interface SugarPrice {
  sugarRegion: string;
  /** An amount as text; the spec says without a currency symbol, the live service was seen with one. */
  price: string;
  unit: string;
  /** yyyy/mm in the spec, yyyy-mm as seen live. */
  ym: string;
  marketingYear: string;
  marketingYearMonth: string;
  weight: number;
  contractType: string;
}

export interface SheepAndGoatPrice extends PriceCommon {
  category: string;
  marketName: string;
  marketingYear: number;
}

export interface RicePrice extends PriceCommon {
  marketingYear: string;
  stage: string;
  type: string;
  variety: string;
}

export interface RawMilkPrice {
  memberStateCode: string;
  memberStateName: string;
  beginDate: string;
  endDate: string;
  month: number;
  monthName: string;
  price: string;
  unit: string;
  year: number;
  product: string;
}

export interface PoultryWeekPrice extends PriceCommon {
  productName: string;
  priceType: string;
}

export interface PigmeatCarcassesAndPigletsPrice extends PriceCommon {
  pigClass: string;
}

export interface OrganicPrice {
  memberStateCode: string;
  memberStateName: string;
  year: number;
  /** Full month name. */
  month: string;
  monthNumber: number;
  sector: string;
  organicProduct: string;
  overallProduct: string;
  organicStage: string;
  overallStage: string;
  organicPrice: number;
  overallPrice: number;
  differencePercentage: number;
  organicUnit: string;
  overallUnit: string;
}

export interface OliveOilPrice extends PriceCommon {
  product: string;
  market: string;
  marketingYear: string;
}

export interface OilseedPrice extends PriceCommon {
  product: string;
  productType: string;
  marketStage: string;
  market: string;
  marketingYear: string;
}

export interface PMEFIndicator {
  indicator: string;
  subindicator: string;
  parameter: string;
  planned: string;
  unitOfMeasurement: string;
  code: string;
  dataSource: string;
  memberStateCode: string;
  memberStateIso3Code: string;
  memberStateName: string;
  year: number;
  value: number;
  flag: string | null;
}

export interface CMEFIndicator {
  indicator: string;
  subindicator: string;
  parameter: string;
  unit: string;
  code: string;
  source: string;
  memberStateCode: string;
  memberStateName: string;
  year: number;
  value: number;
  flag: string | null;
}

export interface FruitAndVegetableSupplyChainPrice {
  memberStateCode: string;
  memberStateName: string;
  beginDate: string;
  endDate: string;
  price: string;
  unit: string;
  periodType: string;
  period: number;
  year: number;
  variety: string;
  productStage: string;
  market: string;
  /** Y or N */
  isCalculated: string;
  /** Y or N */
  isRegulated: string;
}

export interface FertiliserPrice {
  year: number;
  quarter: string;
  /** Abbreviated month name. */
  month: string;
  memberStateName: string;
  product: string;
  price: number;
  unit: string;
}

export interface CerealPrice extends PriceCommon {
  productName: string;
  marketName: string;
  stageName: string;
  /** dd/mm/yyyy: the committee date, the Thursday after the reported week. */
  referencePeriod: string;
}

export interface BeefCarcassPrice extends PriceCommon {
  category: string;
  productCode: string;
}

/** Record type of each data endpoint, by the endpoint's id in endpoints.ts. */
export interface RecordTypes {
  wine: WinePrice;
  taxud: TaxudWeekData;
  sugar: SugarPrice;
  sheepAndGoat: SheepAndGoatPrice;
  rice: RicePrice;
  rawMilk: RawMilkPrice;
  poultry: PoultryWeekPrice;
  pigmeat: PigmeatCarcassesAndPigletsPrice;
  organic: OrganicPrice;
  oliveOil: OliveOilPrice;
  oilseeds: OilseedPrice;
  pmef: PMEFIndicator;
  fruitAndVegetable: FruitAndVegetableSupplyChainPrice;
  fertiliser: FertiliserPrice;
  cmef: CMEFIndicator;
  cereal: CerealPrice;
  beef: BeefCarcassPrice;
}

export type SectorId = keyof RecordTypes;
