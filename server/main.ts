// Entry of the bundled language server (dist/server.js): `node dist/server.js --stdio` (or --node-ipc,
// --socket=N). Everything else lives in server.ts, which `eforms lsp` starts too.

import { startServer } from './server';

startServer();
