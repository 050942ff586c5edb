// Every custom message of core/protocol is sent and handled through its typed `.type` (RequestType or
// NotificationType), never through its `.method` string: with the string, vscode-jsonrpc checks
// neither the params nor the result, so a changed shape would drift silently between the two sides.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from '../support/shared-data';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

test('no source file passes `.method` of a core/protocol message', () => {
  const protocol = readFileSync(join(PROJECT_ROOT, 'core', 'protocol', 'protocol.ts'), 'utf8');
  // The messages, read from the declarations themselves: `export namespace X { … method … type … }`.
  const messages = [...protocol.matchAll(/export namespace (\w+)/g)].map((m) => m[1] as string);
  assert.ok(messages.length >= 4, `the protocol's messages are found (${messages.join(', ')})`);
  const offenders: string[] = [];
  for (const room of ['client', 'server', 'cli', 'core', 'sandbox']) {
    for (const file of sources(join(PROJECT_ROOT, room))) {
      if (file.startsWith(join(PROJECT_ROOT, 'core', 'protocol'))) continue;
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const m of messages)
          if (new RegExp(`\\b${m}\\.method\\b`).test(line))
            offenders.push(`${relative(PROJECT_ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
    }
  }
  assert.deepEqual(offenders, [], 'use the message’s `.type`, so params and results are type-checked');
});
