// The emulated services mounted beside the CVS. Each feature adds its factory here, one line each.
// The sandbox never imports client or server code.

import { createAgrifoodService } from './agrifood/service';
import type { SandboxContext, SandboxService } from './context';
import { createEnoticesService } from './enotices/service';

/** The services of a sandbox; `publishStepSeconds` sets eNotices2's publication clock. */
export function defaultServices(
  o: { publishStepSeconds?: number } = {},
): ((ctx: SandboxContext) => SandboxService)[] {
  return [
    (ctx) => createEnoticesService(ctx, { publishStepSeconds: o.publishStepSeconds }),
    (ctx) => createAgrifoodService(ctx),
  ];
}
