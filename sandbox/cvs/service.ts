// Emulated Central Validation Service: POST /v1/notices/validation. (Being written.)

import type { SandboxContext, SandboxService } from '../context';
import { sendJson } from '../http-kit';

export function createCvsService(_ctx: SandboxContext): SandboxService {
  return {
    prefix: '/cvs',
    async handle(_req, res) {
      sendJson(res, 501, {
        errorCode: 501,
        message: 'not implemented yet',
        timestamp: new Date().toISOString(),
      });
    },
  };
}
