// XSD regular expressions: core/xpath/xsd-regex.ts (re2js, linear time) against a JavaScript RegExp
// of the same source (backtracking; these patterns read the same in both syntaxes) on worst-case inputs, and on a typical SDK value, where re2js's
// per-call overhead shows. The RegExp runs get short inputs only: at 24 digits the telephone pattern
// already takes seconds, growing exponentially, so the row names the length each engine got and how
// the time grew over the last two characters.

import { compileXsdRegex } from '../../core/xpath/xsd-regex';
import { type BenchSection, medianMs, type Row } from './bench-kit';

const TELEPHONE =
  '^((\\(\\+?[0-9]+\\))|\\+?[0-9]+)( - |-| )?(((\\([0-9]+\\))|[0-9]+)( - |-| )?)*([0-9]+)( )?$';
const NESTED = '^(a+)+$';
const SDK_DATE =
  '^((((1[6-9]|[2-9]\\d)\\d{2})-(((0[13578]|1[02]))-31|((0[13-9]|1[0-2])-(29|30))))|(((((1[6-9]|[2-9]\\d)(0[48]|[2468][048]|[13579][26])|((16|[2468][048]|[3579][26])00)))-02-29))|(((1[6-9]|[2-9]\\d)\\d{2})-((0[1-9])|(1[0-2]))-(0[1-9]|1\\d|2[0-8])))(Z|[-+]((0[0-9]|1[0-3]):([03]0|45)|14:00))?$';
const SDK_URL =
  '((^(http|HTTP|https|HTTPS|ftp|FTP|ftps|FTPS|sftp|SFTP)://)|(^(w|W){3}(\\d)?\\.))[\\w\\?!\\./:;,\\-_=#+*%@"\\(\\)&]+';

/** Timings of both engines; RegExp on `short` characters only. */
export function benchRegex(): Row[] {
  const rows: Row[] = [];
  const t0 = process.hrtime.bigint();
  compileXsdRegex(SDK_URL); // \w: builds the general category tables, once per process
  rows.push({
    name: 'first \\w pattern (Unicode tables, once)',
    value: Number(process.hrtime.bigint() - t0) / 1e6,
    unit: 'ms',
  });

  const worst = (label: string, pattern: string, unit: string, tail: string, long: number, short: number) => {
    const re2 = compileXsdRegex(pattern);
    const longInput = unit.repeat(long) + tail;
    const ms = medianMs(() => re2.test(longInput), 5, 1);
    rows.push({ name: `${label}, re2js, ${long} chars`, value: ms, unit: 'ms' });
    const old = new RegExp(pattern, 'u');
    const oldAt = (n: number) => {
      const input = unit.repeat(n) + tail;
      return medianMs(() => old.test(input), 3, 1);
    };
    const a = oldAt(short - 2);
    const b = oldAt(short);
    rows.push({
      name: `${label}, RegExp, ${short} chars`,
      value: b,
      unit: 'ms',
      note: `×${(b / a).toFixed(1)} for 2 more characters`,
    });
  };
  worst('telephone, digits + x', TELEPHONE, '1', 'x', 10_000, 22);
  worst('^(a+)+$, a… + !', NESTED, 'a', '!', 10_000, 20);

  // A typical call: the SDK's date rule on one value, per call.
  const date = compileXsdRegex(SDK_DATE);
  const dateOld = new RegExp(SDK_DATE, 'u');
  const N = 10_000;
  const per = (fn: () => unknown) =>
    (medianMs(
      () => {
        for (let k = 0; k < N; k++) fn();
      },
      5,
      1,
    ) *
      1000) /
    N;
  rows.push({
    name: 'SDK date rule on 2024-02-29+01:00, re2js',
    value: per(() => date.test('2024-02-29+01:00')),
    unit: 'µs',
  });
  rows.push({
    name: 'SDK date rule on 2024-02-29+01:00, RegExp',
    value: per(() => dateOld.test('2024-02-29+01:00')),
    unit: 'µs',
  });
  return rows;
}

export const regexSections: BenchSection[] = [
  {
    name: 'XSD regular expressions: re2js (linear) vs RegExp (backtracking)',
    async run(): Promise<Row[]> {
      return benchRegex();
    },
  },
];
