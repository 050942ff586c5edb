// Bundles the Market Explorer webview (media/market-explorer/explorer.ts, uPlot and its CSS included)
// into dist/market-explorer/explorer.{js,css}: the webview loads only these local files (no remote
// scripts; its Content-Security-Policy allows nothing else). `--check` also type-checks the sources.

import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';

/** `outdir`: where explorer.js and explorer.css go (the webview panel loads dist/market-explorer/). */
export async function buildWebview({ outdir = 'dist/market-explorer', production = false } = {}) {
  await build({
    entryPoints: { explorer: 'media/market-explorer/explorer.ts' },
    outdir,
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: production,
    sourcemap: !production,
    logLevel: 'warning',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--check')) {
    const r = spawnSync('npx', ['tsc', '-p', 'media/market-explorer/tsconfig.json'], { stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  await buildWebview({ production: process.argv.includes('--production') });
}
