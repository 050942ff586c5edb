// Bundles the extension client, the language server and the command-line tool with esbuild.
// `tsc -p .` (run before this by `npm run build`) is the type check; these bundles are what ships.

import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { buildPreviewWebview, buildWebview } from './build-webview.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const production = process.argv.includes('--production');
// --outdir DIR: where the bundles go (default dist/); scripts/package.mjs stages the .vsix elsewhere.
const outdirAt = process.argv.indexOf('--outdir');
const outdir = outdirAt > 0 && process.argv[outdirAt + 1] ? process.argv[outdirAt + 1] : 'dist';
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  define: { __VERSION__: JSON.stringify(pkg.version) },
};

await Promise.all([
  build({
    ...common,
    entryPoints: ['client/extension.ts'],
    outfile: `${outdir}/client.js`,
    external: ['vscode'],
  }),
  build({ ...common, entryPoints: ['server/main.ts'], outfile: `${outdir}/server.js` }),
  build({ ...common, entryPoints: ['cli/main.ts'], outfile: `${outdir}/cli.js` }),
  // The SDK rules' worker thread: server.js and cli.js start it from their own folder.
  build({
    ...common,
    entryPoints: ['core/validation/validation-worker.ts'],
    outfile: `${outdir}/validation-worker.js`,
  }),
  // The preview's render thread: server.js starts it from its own folder.
  build({
    ...common,
    entryPoints: ['server/preview/preview-worker.ts'],
    outfile: `${outdir}/preview-worker.js`,
  }),
]);

// Market Explorer webview (agri-food market data): its own bundle, for the browser, from scripts/build-webview.mjs.
await buildWebview({ outdir: `${outdir}/market-explorer`, production });
// The notice preview's page, likewise.
await buildPreviewWebview({ outdir: `${outdir}/preview`, production });
