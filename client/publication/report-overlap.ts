// Which findings of a validation report are shown on the notice as diagnostics: those that live
// validation does not already show at the same place (same rule id, same start). Opening a report on
// a notice that is validated live must not double its problems. Pure: no `vscode` import.

export interface Place {
  code: string | number | undefined;
  line: number;
  character: number;
}

function keyOf(p: Place): string {
  return `${String(p.code ?? '')}@${p.line}:${p.character}`;
}

/** `report` without the entries that `live` shows already; order kept. */
export function notShownLive<T>(report: readonly T[], placeOf: (t: T) => Place, live: readonly Place[]): T[] {
  const shown = new Set(live.map(keyOf));
  return report.filter((t) => !shown.has(keyOf(placeOf(t))));
}

/** A stable key of a list of places, to tell whether a recomputed list differs from the one shown. */
export function placesKey(places: readonly Place[]): string {
  return places.map(keyOf).join('|');
}
