// The preview's render thread (bundled as dist/preview-worker.js beside server.js): renders one job at
// a time with runPreviewJob, keeping each release's loaded SDK between jobs, so that rendering a large
// notice never holds up hover, completion or diagnostics on the server's thread. No `vscode` import.

import { parentPort } from 'node:worker_threads';
import { type PreviewJob, runPreviewJob } from './preview-job';

parentPort?.on('message', (m: { id: number; job: PreviewJob }) => {
  void runPreviewJob(m.job).then((result) => parentPort?.postMessage({ id: m.id, result }));
});
