// Runs the built CLI (dist/cli.js) as a user would, in its own process, and collects what it says.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from './shared-data';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], o: { env: NodeJS.ProcessEnv; cwd: string }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(PROJECT_ROOT, 'dist', 'cli.js'), ...args], o);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
