// Messages between the extension host (client/market) and the Market Explorer webview
// (media/market-explorer). The host fetches and parses; the webview receives compact series, never the
// raw service answer, so 200,000 records cross the boundary as a few flat number arrays.

import { ENDPOINTS, type ParamSpec, SECTOR_IDS } from './endpoints';
import { MEMBER_STATES } from './member-states';
import type { RecordTypes, SectorId } from './records';
import { toSeries } from './series';
import { WEEK_RULES } from './weeks';

export type Filters = Record<string, string[]>;

export interface SectorInfo {
  id: SectorId;
  label: string;
  weekMeaning?: string;
  params: {
    name: string;
    label: string;
    kind: ParamSpec['kind'];
    allowed?: readonly string[];
    /** Options come from a listing endpoint (asked with `listing`). */
    listed: boolean;
    memberStates: boolean;
  }[];
}

export interface WireSeries {
  key: string;
  label: string;
  unit: string;
  currency?: string;
  fields: Record<string, string>;
  starts: number[];
  ends: number[];
  values: number[];
  weeks?: number[];
}

export type HostMessage =
  | {
      type: 'init';
      sectors: SectorInfo[];
      memberStates: { code: string; name: string }[];
      sector: SectorId;
      filters: Filters;
      autoLoad: boolean;
      /** What the default view shows, said in the status line until the user loads. */
      hint?: string;
    }
  | { type: 'options'; sector: SectorId; param: string; values: string[] }
  | { type: 'loading'; message: string }
  | {
      type: 'data';
      sector: SectorId;
      series: WireSeries[];
      records: number;
      skipped: number;
      url: string;
      fromCache: boolean;
      fetchedAt: number;
    }
  | { type: 'error'; message: string }
  | { type: 'notice'; message: string };

export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'query'; sector: SectorId; filters: Filters }
  | { type: 'listing'; sector: SectorId; param: string }
  | { type: 'exportCsv' }
  | { type: 'copyMarkdown'; header: string[]; rows: string[][] }
  | { type: 'rendered'; points: number; series: number; ms: number }
  | { type: 'error'; message: string };

export function sectorInfos(): SectorInfo[] {
  return SECTOR_IDS.map((id) => ({
    id,
    label: ENDPOINTS[id].label,
    weekMeaning: WEEK_RULES[id]?.meaning,
    params: (ENDPOINTS[id].params as readonly ParamSpec[]).map((p) => ({
      name: p.name,
      label: p.label,
      kind: p.kind,
      allowed: p.allowed,
      listed: p.listing !== undefined,
      memberStates: p.memberStates === true,
    })),
  }));
}

export function memberStateOptions(): { code: string; name: string }[] {
  return [
    { code: 'EU', name: 'European Union' },
    ...MEMBER_STATES.map((m) => ({ code: m.code, name: m.name })),
  ];
}

/** Records to the compact form the webview draws. */
export function toWire<K extends SectorId>(
  sector: K,
  records: readonly RecordTypes[K][],
): { series: WireSeries[]; skipped: number } {
  const set = toSeries(sector, records);
  return {
    skipped: set.skipped,
    series: set.series.map((s) => {
      const w: WireSeries = {
        key: s.key,
        label: s.label,
        unit: s.unit,
        fields: s.fields,
        starts: s.points.map((p) => p.start),
        ends: s.points.map((p) => p.end),
        values: s.points.map((p) => p.value),
      };
      if (s.currency) w.currency = s.currency;
      if (s.points.some((p) => p.week !== undefined)) w.weeks = s.points.map((p) => p.week ?? 0);
      return w;
    }),
  };
}
