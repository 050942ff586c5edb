// Bundles the webviews' pages: the Market Explorer (media/market-explorer/explorer.ts, uPlot and its
// CSS included) into dist/market-explorer/explorer.{js,css}, and the notice preview (media/preview/)
// into dist/preview/: each webview loads only these local files (no remote scripts; its
// Content-Security-Policy allows nothing else). `--check` also type-checks the sources.

import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';

/** One webview page: a browser IIFE bundle of `entry` (and the CSS it imports) into `outdir/<name>.{js,css}`. */
function buildPage(name, entry, outdir, production) {
  return build({
    entryPoints: { [name]: entry },
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

/** `outdir`: where explorer.js and explorer.css go (the webview panel loads dist/market-explorer/). */
export async function buildWebview({ outdir = 'dist/market-explorer', production = false } = {}) {
  await buildPage('explorer', 'media/market-explorer/explorer.ts', outdir, production);
}

/**
 * The notice preview's page (media/preview/preview.ts and its CSS) into dist/preview/preview.{js,css},
 * the only files the preview panel's webview may load.
 */
export async function buildPreviewWebview({ outdir = 'dist/preview', production = false } = {}) {
  await buildPage('preview', 'media/preview/preview.ts', outdir, production);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--check')) {
    for (const project of ['media/market-explorer/tsconfig.json', 'media/preview/tsconfig.json']) {
      const r = spawnSync('npx', ['tsc', '-p', project], { stdio: 'inherit' });
      if (r.status !== 0) process.exit(r.status ?? 1);
    }
  }
  await buildWebview({ production: process.argv.includes('--production') });
  await buildPreviewWebview({ production: process.argv.includes('--production') });
}
