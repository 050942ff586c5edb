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
  // The CLI and the SDK rules' worker thread (server.js and cli.js start it from their own folder) are
  // each a small entry (cli/code-cache-loader.ts) that runs the real bundle with V8's code cache: a cold
  // `eforms validate --local` and each worker then skip compiling megabytes of JavaScript.
  build({ ...common, entryPoints: ['cli/main.ts'], outfile: `${outdir}/cli-main.js` }),
  build({
    ...common,
    entryPoints: ['cli/code-cache-loader.ts'],
    outfile: `${outdir}/cli.js`,
    define: { ...common.define, __CODE_CACHE_MAIN__: JSON.stringify('cli-main.js') },
  }),
  build({
    ...common,
    entryPoints: ['core/validation/validation-worker.ts'],
    outfile: `${outdir}/validation-worker-main.js`,
  }),
  build({
    ...common,
    entryPoints: ['cli/code-cache-loader.ts'],
    outfile: `${outdir}/validation-worker.js`,
    define: { ...common.define, __CODE_CACHE_MAIN__: JSON.stringify('validation-worker-main.js') },
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
