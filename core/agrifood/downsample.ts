// Keeps charts responsive on 200,000 points: a series is cut into buckets and each bucket keeps its
// minimum and maximum (in time order), so spikes survive where averaging would hide them. Pure.

/** Indices of the points to draw from `xs`/`ys` (same length, xs ascending), at most about `max`. */
export function minMaxIndices(xs: ArrayLike<number>, ys: ArrayLike<number | null>, max: number): number[] {
  const n = xs.length;
  if (n <= max || max < 4) return Array.from({ length: n }, (_, i) => i);
  const buckets = Math.floor(max / 2);
  const out: number[] = [];
  const size = n / buckets;
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor(b * size);
    const to = Math.min(n, Math.floor((b + 1) * size));
    let lo = -1;
    let hi = -1;
    for (let i = from; i < to; i++) {
      const y = ys[i];
      if (y === null || y === undefined) continue;
      if (lo < 0 || y < (ys[lo] as number)) lo = i;
      if (hi < 0 || y > (ys[hi] as number)) hi = i;
    }
    if (lo < 0) continue;
    if (lo === hi) out.push(lo);
    else out.push(Math.min(lo, hi), Math.max(lo, hi));
  }
  return out;
}
