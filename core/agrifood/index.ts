// Room: agri-food market data (the EU's agri-food data service): the client, its endpoint and record
// tables, series, weeks, prices and exports, and the Market Explorer's message shapes. Its only entry is
// this file. No `vscode` import here; the only I/O is the client's, over core/http.
export { AgrifoodClient, type FetchOptions, type QueryResult } from './client';
export { type CpvMapping, sectorForCpv } from './cpv';
export { ENDPOINTS, isSectorId, LISTINGS, type ParamSpec, SECTOR_IDS, sectorFromName } from './endpoints';
export { AgrifoodError } from './errors';
export {
  type Filters,
  type HostMessage,
  memberStateOptions,
  sectorInfos,
  toWire,
  type WebviewMessage,
} from './explorer-protocol';
export { recordsToCsv, SUMMARY_HEADER, summaryRows, toCsv, toMarkdown, toTextTable } from './export';
export { EU_AGGREGATE, MEMBER_STATES, memberStateName } from './member-states';
export { formatPrice, sectorsAtoZ, twelveMonthChange } from './presentation';
export type { QueryParams } from './query';
export type { RecordTypes, SectorId } from './records';
export { formatPct, type Series, toSeries } from './series';
export { DAY, formatDmy, MONTHS, parseDmy, WEEK_RULES, type WeekRule, weekOf } from './weeks';
