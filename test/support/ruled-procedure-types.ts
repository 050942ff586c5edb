// The procedure types subtype 16's rules allow (BR-BT-00105-0135 in SDK 1.15.1's
// validation-stage-3b-16.sch), read with a regex from the file itself: an oracle for the rule reader in
// core/authoring (rule-codes.ts), which the LSP and in-editor tests check against it.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function ruledProcedureTypesOf16(sdkDir: string): string[] {
  const sch = readFileSync(join(sdkDir, 'schematrons', 'static', 'validation-stage-3b-16.sch'), 'utf8');
  const allowed =
    /ProcedureCode\[\$noticeSubType = '16'\]">\s*<assert[^>]*test="normalize-space\(\.\) = \(([^)]*)\)"/.exec(
      sch,
    )?.[1];
  if (!allowed) throw new Error('the rule of subtype 16 no longer lists its procedure types');
  return [...allowed.matchAll(/'([^']+)'/g)].map((m) => m[1] as string);
}
