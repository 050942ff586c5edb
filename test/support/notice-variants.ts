// Faulty variants of a notice, seeded: an element removed, a value emptied, a code changed, a lot
// duplicated, two dates swapped. Each is a small edit of the text at elements the index located, so a
// variant stays well-formed. Published notices are valid: these make the rules fail in many ways.

import { indexXml } from '../../core/notice/xml-index';

/** A small seeded PRNG (mulberry32): the same seed gives the same variants on every run. */
export function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type VariantKind = 'remove' | 'empty' | 'code' | 'duplicate-lot' | 'swap-dates';
export const VARIANT_KINDS: readonly VariantKind[] = [
  'remove',
  'empty',
  'code',
  'duplicate-lot',
  'swap-dates',
];

export interface Variant {
  kind: VariantKind;
  name: string;
  text: string;
}

/** One variant of the given kind, or undefined when the notice has nothing to edit that way. */
export function variant(text: string, kind: VariantKind, rand: () => number): Variant | undefined {
  const index = indexXml(text);
  const els = index.elements;
  const pick = <T>(xs: T[]): T | undefined => (xs.length ? xs[Math.floor(rand() * xs.length)] : undefined);
  const leaves = els.filter((e) => e.children.length === 0 && e.end > e.startTagEnd);
  const splice = (a: number, b: number, s: string): string => text.slice(0, a) + s + text.slice(b);
  const contentEndOf = (e: (typeof els)[number]): number => text.lastIndexOf('<', e.end - 1);
  switch (kind) {
    case 'remove': {
      const e = pick(els.slice(1));
      return e && { kind, name: `remove ${e.qname}`, text: splice(e.start, e.end, '') };
    }
    case 'empty': {
      const e = pick(leaves);
      return e && { kind, name: `empty ${e.qname}`, text: splice(e.startTagEnd, contentEndOf(e), '') };
    }
    case 'code': {
      const e = pick(leaves.filter((x) => x.attributes.some((a) => a.local === 'listName')));
      const code = pick(['zzz', 'open', 'other', 'CZE', 'services', 'true', '']) ?? 'zzz';
      return (
        e && { kind, name: `code ${e.qname}=${code}`, text: splice(e.startTagEnd, contentEndOf(e), code) }
      );
    }
    case 'duplicate-lot': {
      const e = pick(els.filter((x) => x.local === 'ProcurementProjectLot' || x.local === 'LotResult'));
      return (
        e && { kind, name: `duplicate ${e.qname}`, text: splice(e.end, e.end, text.slice(e.start, e.end)) }
      );
    }
    case 'swap-dates': {
      const dates = leaves.filter((x) => /Date$/.test(x.local));
      // Prefer a start and an end date of one period: the swap then puts the end first.
      const pairs: [(typeof els)[number], (typeof els)[number]][] = [];
      for (const a of dates)
        for (const b of dates)
          if (a !== b && a.parent === b.parent && /Start/.test(a.local) && /End/.test(b.local))
            pairs.push([a, b]);
      let pair = pick(pairs);
      if (!pair && dates.length >= 2) {
        const a = pick(dates);
        const b = pick(dates.filter((x) => x !== a));
        if (a && b) pair = [a, b];
      }
      if (!pair) return undefined;
      const [first, second] = pair[0].start < pair[1].start ? pair : [pair[1], pair[0]];
      const v1 = text.slice(first.startTagEnd, contentEndOf(first));
      const v2 = text.slice(second.startTagEnd, contentEndOf(second));
      if (v1 === v2) return undefined;
      // The later edit first, so that the earlier offsets stay valid.
      const swapped = splice(second.startTagEnd, contentEndOf(second), v1);
      return {
        kind,
        name: `swap ${first.qname} and ${second.qname}`,
        text: swapped.slice(0, first.startTagEnd) + v2 + swapped.slice(contentEndOf(first)),
      };
    }
  }
}
