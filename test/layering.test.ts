// The layering rules of biome.json fire: each probe below breaks one rule in a scratch copy of the
// project's layout, and `biome lint` must name it; the same import from client/ stays allowed. Without
// the restricted-imports overrides in biome.json, this test fails.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from './support/shared-data';

const PROBES: Record<string, string> = {
  'core/uses-vscode.ts': "import * as vscode from 'vscode';\n\nexport const y = vscode;\n",
  'core/uses-client.ts': "import { x } from '../client/extension';\n\nexport const y = x;\n",
  'core/agrifood/uses-server.ts': "import { x } from '../../server/server';\n\nexport const y = x;\n",
  'core/uses-cli.ts': "import { x } from '../cli/main';\n\nexport const y = x;\n",
  'core/uses-sandbox.ts': "import { x } from '../sandbox/server';\n\nexport const y = x;\n",
  'sandbox/uses-server.ts': "import { x } from '../server/server';\n\nexport const y = x;\n",
  'sandbox/cvs/uses-client.ts': "import { x } from '../../client/extension';\n\nexport const y = x;\n",
  'server/uses-vscode.ts': "import * as vscode from 'vscode';\n\nexport const y = vscode;\n",
  'cli/uses-client.ts': "import { x } from '../client/extension';\n\nexport const y = x;\n",
};
const ALLOWED: Record<string, string> = {
  'client/uses-vscode.ts': "import * as vscode from 'vscode';\n\nexport const y = vscode;\n",
  // A module named client inside core is not the client/ folder.
  'core/agrifood/uses-agrifood-client.ts': "import { x } from './client';\n\nexport const y = x;\n",
};

test('biome rejects every import across the layers, and only those', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eforms-layering-'));
  try {
    copyFileSync(join(PROJECT_ROOT, 'biome.json'), join(dir, 'biome.json'));
    for (const [path, text] of Object.entries({ ...PROBES, ...ALLOWED })) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const biome = join(PROJECT_ROOT, 'node_modules', '.bin', 'biome');
    const r = spawnSync(biome, ['lint', '--max-diagnostics=100', '--colors=off', '.'], {
      cwd: dir,
      encoding: 'utf8',
    });
    const out = `${r.stdout}\n${r.stderr}`;
    assert.notEqual(r.status, 0, 'a restricted import must fail the lint');
    const flagged = new Set(
      [...out.matchAll(/^(\S+\.ts):\d+:\d+ lint\/style\/noRestrictedImports/gm)].map((m) => m[1]),
    );
    assert.deepEqual([...flagged].sort(), Object.keys(PROBES).sort(), out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
