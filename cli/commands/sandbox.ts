// `eforms sandbox`: serves every emulated service on one loopback port until SIGINT or SIGTERM.

import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SANDBOX_DEFAULT_PORT } from '../../core/http';
import { INPUT_LIMITS } from '../../core/notice';
import { installCrashGuard } from '../../core/process';
import { defaultSdkCacheRoot, listSdkReleases } from '../../core/sdk';
import { SANDBOX_DEMO_KEY } from '../../sandbox/context';
import { createRenderService } from '../../sandbox/render/service';
import { sandboxSdkRules } from '../../sandbox/sdk-rules';
import { startSandbox } from '../../sandbox/server';
import { type CliIo, UsageError } from '../io';

/**
 * Seconds a submitted notice stays SUBMITTED, then PUBLISHING, when `--publish-delay` is not given:
 * long enough to stop a publication from My Notices, short enough to watch one get published.
 */
export const SANDBOX_PUBLISH_DELAY_SECONDS = 120;

const USAGE = `Usage: eforms sandbox [--port N] [--api-key KEY]... [--data-dir DIR] [--publish-delay SECONDS] [--sdk-dir DIR] [--time-budget SECONDS]

Serves the emulated services on http://127.0.0.1:PORT:
  /cvs       Central Validation Service   (POST /cvs/v1/notices/validation)
  /esenders  eNotices2                    (/esenders/api/v2/notice/...)
  /agrifood  agri-food market data        (/agrifood/api/...)
  /ted       TED Visualisation API        (POST /ted/v3/notices/render, HTML from the SDK's view templates)
--port 0 takes a free port; the default is ${SANDBOX_DEFAULT_PORT} (what --env sandbox uses).
--data-dir is where submitted notices are kept across restarts; the default is
${defaultDataDir()}.
--publish-delay is how long a submitted notice stays SUBMITTED, then PUBLISHING, before it is
PUBLISHED (default ${SANDBOX_PUBLISH_DELAY_SECONDS}, or $EFORMS_SANDBOX_PUBLISH_STEP_SECONDS).
GET /cvs/v1/version-range answers the SDK versions accepted for publication.
--sdk-dir names an eForms SDK release (or a folder of releases): the CVS then answers with the
official SDK rules, as the real service does. Without it, releases in the download cache
($EFORMS_SDK_CACHE or ~/.cache/eforms/sdk) are used; with none, the sandbox's own 45 rules answer.
--time-budget is how long the SDK rules may take on one notice (default ${INPUT_LIMITS.ruleTimeBudgetMs.max / 1000}): they run in a
worker, never on the HTTP thread, and a run past it is stopped and answered with a 500 naming it.`;

/** A stable folder, so that notices submitted to the sandbox survive its restart as the real ones do. */
function defaultDataDir(): string {
  const base = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'eforms', 'sandbox');
}

export async function sandbox(args: string[], io: CliIo): Promise<number> {
  let values: {
    port?: string;
    'api-key'?: string[];
    'data-dir'?: string;
    'publish-delay'?: string;
    'sdk-dir'?: string;
    'time-budget'?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        'api-key': { type: 'string', multiple: true },
        'data-dir': { type: 'string' },
        'publish-delay': { type: 'string' },
        'sdk-dir': { type: 'string' },
        'time-budget': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const port = values.port === undefined ? SANDBOX_DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be 0..65535\n${USAGE}`);
  const delayText = values['publish-delay'] ?? io.env.EFORMS_SANDBOX_PUBLISH_STEP_SECONDS;
  const publishStepSeconds = delayText === undefined ? SANDBOX_PUBLISH_DELAY_SECONDS : Number(delayText);
  if (!Number.isFinite(publishStepSeconds) || publishStepSeconds <= 0 || publishStepSeconds > 86400)
    throw new UsageError(`--publish-delay takes a number of seconds between 1 and 86400\n${USAGE}`);
  const budgetSec =
    values['time-budget'] === undefined
      ? INPUT_LIMITS.ruleTimeBudgetMs.max / 1000
      : Number(values['time-budget']);
  if (!Number.isFinite(budgetSec) || budgetSec < 1 || budgetSec > 3600)
    throw new UsageError(`--time-budget takes a number of seconds between 1 and 3600\n${USAGE}`);
  const keys = values['api-key'] ?? [];
  // The sandbox serves every test and every editor of the machine: an error no handler caught is logged,
  // and it keeps serving.
  const removeGuard = installCrashGuard((m) => io.err(m), 'sandbox');
  const sdkDir = values['sdk-dir'] ? resolve(io.cwd, values['sdk-dir']) : '';
  if (sdkDir && listSdkReleases(sdkDir).length === 0)
    throw new UsageError(
      `--sdk-dir ${values['sdk-dir']} holds no eForms SDK release (no schematrons/, fields/ or codelists/ folder)`,
    );
  const cacheRoot = defaultSdkCacheRoot(io.env);
  const sdk = sandboxSdkRules(
    { path: sdkDir, cacheRoot },
    join(dirname(cacheRoot), 'rules'),
    (l) => io.err(l),
    budgetSec * 1000,
  );
  const running = await startSandbox({
    port,
    apiKeys: keys,
    dataDir: values['data-dir'] ?? defaultDataDir(),
    publishStepSeconds,
    ...(sdk ? { sdkRules: sdk.rules } : {}),
    services: [(ctx) => createRenderService(ctx, { path: sdkDir, cacheRoot })],
  });
  io.out(`sandbox listening on ${running.origin}`);
  if (keys.length === 0) io.out(`demo API key: ${SANDBOX_DEMO_KEY}`);
  io.out(
    `  CVS       ${running.origin}/cvs\n  eNotices2 ${running.origin}/esenders\n  agri-food ${running.origin}/agrifood\n  render    ${running.origin}/ted`,
  );
  io.out(`  data      ${running.context.dataDir}`);
  io.out(`  publish   SUBMITTED ${publishStepSeconds} s, then PUBLISHING ${publishStepSeconds} s`);
  io.out(
    sdk
      ? `  rules     the official eForms SDK rules (${sdk.versions.join(', ')}${sdkDir ? ` from ${sdkDir}` : ` from ${cacheRoot}`})`
      : "  rules     the sandbox's own 45 rules (no eForms SDK: --sdk-dir DIR gives the official ones)",
  );
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      running
        .close()
        .then(() => sdk?.close())
        .then(resolve, resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  removeGuard();
  io.out('sandbox stopped');
  return 0;
}
