// Where the Market Explorer opens when nothing names a series: a sector and product with data (pork,
// the EU price of class E, the EU reference class), with the filters of its EU-level series over the
// last ~14 months, and the sentence that says so. Also the EU-level filters of any CPV mapping (the CPV
// hover's link uses them). Pure: no `vscode` import, so it is tested under node:test.

import {
  type CpvMapping,
  DAY,
  ENDPOINTS,
  formatDmy,
  type ParamSpec,
  type SectorId,
  sectorForCpv,
} from '../../core/agrifood';

/** A sector and its filters (the shape of explorer-panel.ts's ExplorerTarget). */
export interface SeriesTarget {
  sector: SectorId;
  filters?: Record<string, string[]>;
}

/** Filters of the EU-level series for a mapping, over the last ~14 months where the endpoint allows. */
export function euTarget(mapping: CpvMapping, now = Date.now()): SeriesTarget {
  const names = new Set((ENDPOINTS[mapping.sector].params as readonly ParamSpec[]).map((p) => p.name));
  const filters: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(mapping.filters)) filters[k] = String(v).split(',');
  if (names.has('memberStateCodes')) filters.memberStateCodes = ['EU'];
  if (names.has('beginDate')) filters.beginDate = [formatDmy(now - 430 * DAY)];
  else if (names.has('years')) {
    const y = new Date(now).getUTCFullYear();
    filters.years = [String(y - 2), String(y - 1), String(y)];
  }
  return { sector: mapping.sector, filters };
}

/** Pork (CPV 15113000): a product the service has weekly EU data for. */
const DEFAULT_CPV = '15113000';

export const DEFAULT_HINT =
  'EU price of pig carcasses, class E (the EU reference class), over the last 14 months: press Load, or choose another sector.';

export function defaultExplorerTarget(now = Date.now()): SeriesTarget {
  const mapping = sectorForCpv(DEFAULT_CPV);
  return mapping ? euTarget(mapping, now) : { sector: 'pigmeat', filters: {} };
}
