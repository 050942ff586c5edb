// The emulated services mounted beside the CVS. Each feature adds its factory here, one line each.
// The sandbox never imports client or server code.

import { createAgrifoodService } from './agrifood/service';
import type { SandboxContext, SandboxService } from './context';
import { createEnoticesService } from './enotices/service';

export const defaultServices: ((ctx: SandboxContext) => SandboxService)[] = [
  (ctx) => createEnoticesService(ctx),
  (ctx) => createAgrifoodService(ctx),
];
