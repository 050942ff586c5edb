// Bundles the extension client, the language server and the command-line tool with esbuild.
// `tsc -p .` (run before this by `npm run build`) is the type check; these bundles are what ships.

import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const production = process.argv.includes('--production');
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
  build({ ...common, entryPoints: ['client/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] }),
  build({ ...common, entryPoints: ['server/main.ts'], outfile: 'dist/server.js' }),
  build({ ...common, entryPoints: ['cli/main.ts'], outfile: 'dist/cli.js' }),
]);
