// Where a notice's SDK stands in its lifecycle at TED: accepted for publication today or not, until
// when, and which versions TED accepts instead (with the releases already on disk marked), from the
// version-range answer and the releases found locally. Also the sentences every front end shows for
// it. The CVS spec does not show the version-range answer: its switch dates are read only when the
// answer carries them (see parseAcceptanceWindows in version-range.ts); without them the lifecycle
// says what min/max say and names no date rather than invent one. Pure: no I/O, no `vscode` import.

import type { Finding } from '../findings';
import type { XmlIndex } from '../notice';
import { decodeSimpleEntities, findCustomizationId, parseCustomizationId } from '../notice';
import {
  type AcceptanceWindow,
  compareSdkVersions,
  placeInRange,
  type SdkVersionRange,
} from './version-range';

export interface AcceptedVersion {
  /** `MAJOR.MINOR`. */
  version: string;
  /** The newest release of that MAJOR.MINOR on disk (`1.15.1`), when there is one. */
  onDisk?: string;
  /** First day TED accepts it (`YYYY-MM-DD`), when the service says. */
  from?: string;
  /** Last day TED accepts it, when the service says. */
  until?: string;
}

export interface SdkSwitch {
  /** `YYYY-MM-DD`. */
  date: string;
  /** `MAJOR.MINOR`. */
  version: string;
  /** `accepted`: TED accepts it from that day; `withdrawn`: the day after `date` it no longer does. */
  change: 'accepted' | 'withdrawn';
}

export interface SdkLifecycle {
  /** The notice's `MAJOR.MINOR`; undefined when it declares none. */
  declared?: string;
  /** True when TED accepts the declared version for publication today. */
  acceptedToday: boolean;
  /** Where the declared version lies against the range: older, inside or newer. */
  place?: 'below' | 'inside' | 'above';
  /** Last day the declared version is accepted, when the service gives dates. */
  until?: string;
  /** First day the declared version will be accepted, when that is after today. */
  from?: string;
  /** What TED accepts today, oldest first. */
  accepted: AcceptedVersion[];
  /** Dates on which what TED accepts changes, today or later, in date order. */
  switches: SdkSwitch[];
  /**
   * The accepted `MAJOR.MINOR` to move a notice to, when its own is not accepted: the newest accepted
   * release on disk (its rules and fields are at hand), else the newest accepted.
   */
  moveTo?: string;
}

/**
 * The lifecycle of `declared` (`1.9` or `eforms-sdk-1.9`) on `today` (`YYYY-MM-DD`), given what the
 * service accepts and the releases on disk (full versions, any order).
 */
export function sdkLifecycle(
  declared: string | undefined,
  range: SdkVersionRange,
  onDisk: readonly string[],
  today: string,
): SdkLifecycle {
  const minorOfVersion = (v: string) => {
    const m = /^(?:eforms-sdk-)?(\d+)\.(\d+)/.exec(v.trim());
    return m ? `${Number(m[1])}.${Number(m[2])}` : undefined;
  };
  const newestOnDisk = new Map<string, string>();
  for (const v of onDisk) {
    const mm = minorOfVersion(v);
    if (!mm) continue;
    const had = newestOnDisk.get(mm);
    if (!had || compareSdkVersions(v, had) > 0) newestOnDisk.set(mm, v);
  }
  const windows = range.windows ?? [];
  const windowOf = (mm: string): AcceptanceWindow | undefined =>
    windows.find((w) => minorOfVersion(w.version) === mm);
  const openOn = (w: AcceptanceWindow, day: string) =>
    (!w.from || w.from <= day) && (!w.until || day <= w.until);
  const isAccepted = (mm: string): boolean => {
    const w = windowOf(mm);
    return w ? openOn(w, today) : placeInRange(mm, range) === 'inside';
  };

  // Candidates: every MAJOR.MINOR between min and max (same major: SDK minors are consecutive),
  // those the service dates, and those on disk.
  const candidates = new Set<string>();
  const lo = /^(\d+)\.(\d+)/.exec(range.min);
  const hi = /^(\d+)\.(\d+)/.exec(range.max);
  if (lo && hi && lo[1] === hi[1])
    for (let m = Number(lo[2]); m <= Number(hi[2]) && m - Number(lo[2]) < 1000; m++)
      candidates.add(`${Number(lo[1])}.${m}`);
  else {
    const a = minorOfVersion(range.min);
    const b = minorOfVersion(range.max);
    if (a) candidates.add(a);
    if (b) candidates.add(b);
  }
  for (const w of windows) {
    const mm = minorOfVersion(w.version);
    if (mm) candidates.add(mm);
  }
  for (const mm of newestOnDisk.keys()) candidates.add(mm);
  const accepted: AcceptedVersion[] = [...candidates]
    .filter(isAccepted)
    .sort(compareSdkVersions)
    .map((version) => {
      const w = windowOf(version);
      const a: AcceptedVersion = { version };
      const disk = newestOnDisk.get(version);
      if (disk) a.onDisk = disk;
      if (w?.from) a.from = w.from;
      if (w?.until) a.until = w.until;
      return a;
    });

  const switches: SdkSwitch[] = [];
  for (const w of windows) {
    const mm = minorOfVersion(w.version);
    if (!mm) continue;
    if (w.from && w.from >= today) switches.push({ date: w.from, version: mm, change: 'accepted' });
    if (w.until && w.until >= today) switches.push({ date: w.until, version: mm, change: 'withdrawn' });
  }
  switches.sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : compareSdkVersions(a.version, b.version),
  );

  const d = declared ? minorOfVersion(declared) : undefined;
  const out: SdkLifecycle = { acceptedToday: d ? isAccepted(d) : false, accepted, switches };
  if (d) {
    out.declared = d;
    out.place = placeInRange(d, range);
    const w = windowOf(d);
    if (w?.until && out.acceptedToday) out.until = w.until;
    if (w?.from && w.from > today) out.from = w.from;
    if (!out.acceptedToday) {
      const target =
        [...accepted].reverse().find((a) => a.onDisk) ?? accepted[accepted.length - 1] ?? undefined;
      if (target) out.moveTo = target.version;
    }
  }
  return out;
}

/** "1.10 (on disk: 1.10.5, until 2025-06-30), 1.11, …": the accepted versions in one line. */
export function describeAccepted(l: SdkLifecycle): string {
  if (l.accepted.length === 0) return 'none';
  return l.accepted
    .map((a) => {
      const notes = [
        a.onDisk ? `on disk: ${a.onDisk}` : '',
        a.from ? `from ${a.from}` : '',
        a.until ? `until ${a.until}` : '',
      ].filter(Boolean);
      return notes.length ? `${a.version} (${notes.join(', ')})` : a.version;
    })
    .join(', ');
}

/** "2025-06-30: 1.10 no longer accepted after this day; …", or '' when no date is known. */
export function describeSwitches(l: SdkLifecycle): string {
  return l.switches
    .map((s) =>
      s.change === 'accepted'
        ? `${s.date}: ${s.version} accepted from this day`
        : `${s.date}: last day ${s.version} is accepted`,
    )
    .join('; ');
}

/** One sentence on the declared version: accepted today (until when) or not, and what to do. */
export function describeLifecycle(l: SdkLifecycle): string {
  if (!l.declared) return 'The notice declares no SDK version (cbc:CustomizationID eforms-sdk-MAJOR.MINOR).';
  const v = `eforms-sdk-${l.declared}`;
  if (l.acceptedToday)
    return l.until
      ? `TED accepts ${v} for publication until ${l.until}.`
      : `TED accepts ${v} for publication today (the service gives no end date).`;
  const move = l.moveTo ? ` Move the notice to eforms-sdk-${l.moveTo}.` : '';
  if (l.from) return `TED accepts ${v} for publication only from ${l.from}.${move}`;
  return l.place === 'above'
    ? `TED does not accept ${v} for publication yet.${move}`
    : `TED no longer accepts ${v} for publication.${move}`;
}

export const VERSION_RANGE_FINDING_ID = 'sdk-version-not-accepted';

/**
 * A warning on cbc:CustomizationID when TED does not accept the version it declares for publication
 * today, or undefined. It is a warning, not an error: the notice can still be validated, only its
 * publication would be refused. `moveTo` names the accepted version the quick fix moves it to.
 * Without `today`, the dates of the answer are not used (only min/max).
 */
export function versionRangeFinding(
  index: XmlIndex,
  range: SdkVersionRange | undefined,
  o: { today?: string; onDisk?: readonly string[] } = {},
): Finding | undefined {
  if (!range) return undefined;
  const found = findCustomizationId(index);
  if (!found) return undefined;
  const parsed = parseCustomizationId(decodeSimpleEntities(found.text));
  if (!parsed.ok) return undefined;
  const v = parsed.value.sdkVersion;
  const l = sdkLifecycle(
    v,
    o.today ? range : { min: range.min, max: range.max },
    o.onDisk ?? [],
    o.today ?? '',
  );
  if (l.acceptedToday) return undefined;
  const span = `${range.min} to ${range.max}`;
  const move = l.moveTo ? ` Move it to eforms-sdk-${l.moveTo}.` : '';
  const f: Finding = {
    id: VERSION_RANGE_FINDING_ID,
    severity: 'warning',
    message: l.from
      ? `eforms-sdk-${v} is accepted for publication only from ${l.from}: TED would refuse to publish this notice before then.${move}`
      : l.place === 'above'
        ? `eforms-sdk-${v} is newer than the versions accepted for publication (${span}): TED would refuse to publish this notice yet.${move}`
        : l.place === 'below'
          ? `eforms-sdk-${v} is older than the versions accepted for publication (${span}): TED would refuse to publish this notice.${move}`
          : `eforms-sdk-${v} is no longer accepted for publication (accepted: ${describeAccepted(l)}): TED would refuse to publish this notice.${move}`,
    location: '',
    range: { start: index.positionAt(found.contentStart), end: index.positionAt(found.contentEnd) },
    source: 'local',
    resolved: true,
  };
  if (l.moveTo) f.moveTo = l.moveTo;
  return f;
}
