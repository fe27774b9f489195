import { execFileSync } from 'node:child_process';
import os from 'node:os';

/**
 * `--pin`: the servers on the first core, the benchmark's own process and every client process
 * it forks on the others. On a 2-core machine the clients otherwise take the server's core as
 * often as their own, and a ratio between two servers follows the CPU of server and clients
 * together; pinned, each server runs alone on one core, as if its clients were on other
 * machines. (Children inherit the mask: set once here, it holds for every client forked later.)
 */
let pinned = false;

export function pinClientsAway(): void {
  const cores = os.availableParallelism();
  if (cores < 2) {
    console.error('--pin: needs 2 cores or more (the server on one, the clients on the rest)');
    process.exit(2);
  }
  execFileSync('taskset', ['--all-tasks', '-pc', `1-${cores - 1}`, String(process.pid)], {
    stdio: 'ignore',
  });
  pinned = true;
}

/** The command that starts a server: under taskset on the first core once pinned. */
export function serverCommand(node: string, args: string[]): [string, string[]] {
  return pinned ? ['taskset', ['-c', '0', node, ...args]] : [node, args];
}
