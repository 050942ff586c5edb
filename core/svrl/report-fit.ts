// Whether an SVRL report was made for this notice: its root element (the first step of its
// locations), its phase (`eforms-<subtype>`, the notice subtype the rules ran for) and how many of its
// locations the notice has. A report mapped onto the wrong notice would put findings on unrelated
// elements without a word; this says so, as data that each front end words. Pure: no I/O, no `vscode`.

import type { Finding } from '../findings';
import { noticeSubType, type XmlIndex } from '../notice';
import type { SvrlReport } from './report';

export type ReportMisfit =
  /** The report's locations start at another root element (e.g. a ContractAwardNotice report on a ContractNotice). */
  | { kind: 'root'; reportRoot: string; noticeRoot: string }
  /** The report's rules ran for another notice subtype than the notice's cbc:SubTypeCode. */
  | { kind: 'subtype'; reportSubtype: string; noticeSubtype: string }
  /** Some locations are not in the notice (placed on the root instead). */
  | { kind: 'paths'; unresolved: number; total: number };

/** What does not fit; empty when the report looks made for this notice. */
export function reportMisfits(
  index: XmlIndex,
  report: SvrlReport,
  findings: readonly Finding[],
): ReportMisfit[] {
  const out: ReportMisfit[] = [];
  const root = index.element(0);
  const first = report.assertions.find((a) => a.location.startsWith('/'))?.location;
  if (root && first) {
    // `/cn:ContractNotice[1]/…` or `/*:ContractNotice[namespace-uri()='…'][1]/…`
    const m = /^\/(?:([\w.-]+|\*):)?([\w.-]+)(?:\[[^\]]*\])*(?:\/|$)/.exec(first);
    if (m) {
      const local = m[2] ?? '';
      const ns = m[1] && m[1] !== '*' ? report.namespaces.get(m[1]) : undefined;
      if (local !== root.local || (ns !== undefined && ns !== root.ns))
        out.push({
          kind: 'root',
          reportRoot: m[1] && m[1] !== '*' ? `${m[1]}:${local}` : local,
          noticeRoot: root.qname,
        });
    }
  }
  const phase = /^eforms-(.+)$/.exec(report.phase ?? '')?.[1];
  const noticeSubtype = noticeSubType(index) ?? '';
  if (phase && noticeSubtype && phase !== noticeSubtype)
    out.push({ kind: 'subtype', reportSubtype: phase, noticeSubtype });
  const unresolved = findings.filter((f) => !f.resolved).length;
  if (unresolved > 0) out.push({ kind: 'paths', unresolved, total: findings.length });
  return out;
}
