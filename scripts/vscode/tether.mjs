// Runs one command on a tether: `node tether.mjs <command> [args…]`. The command leads its own process
// group (so what it starts, such as code-server's extension hosts, is stopped with it), and the whole
// group is stopped when the tether gets SIGINT/SIGTERM/SIGHUP or when its standard input ends. Its
// stdin is a pipe from the process that started it: the kernel closes that pipe when the parent dies,
// however it dies (SIGKILL included), so nothing we start can outlive `npm start` or a test run.
// It must never be given a terminal or a file as stdin: only the parent's pipe means "parent alive".

import { spawn } from 'node:child_process';

/** Time the group gets to stop on SIGTERM before SIGKILL; shorter than stopProcess's grace. */
const GRACE_MS = 2500;

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node tether.mjs <command> [args…]');
  process.exit(2);
}

const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], detached: true });

function signalGroup(sig) {
  try {
    process.kill(-child.pid, sig);
  } catch {
    // the group is empty already
  }
}

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  signalGroup('SIGTERM');
  setTimeout(() => signalGroup('SIGKILL'), GRACE_MS).unref();
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, stop);
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.on('error', stop);
process.stdin.resume();

child.once('error', (err) => {
  console.error(`tether: ${command} could not start: ${err.message}`);
  process.exit(127);
});
child.once('exit', (code, signal) => {
  // The leader is gone; what it started may not be.
  signalGroup('SIGKILL');
  process.exit(code ?? (signal ? 128 + 15 : 1));
});
