// The emulated services mounted beside the CVS. Each feature adds its factory here, one line each.
// The sandbox never imports client or server code.

import type { SandboxContext, SandboxService } from './context';

export const defaultServices: ((ctx: SandboxContext) => SandboxService)[] = [];
