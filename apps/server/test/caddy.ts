import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readRoot } from './deploy-files.ts';
import { accepts, freePort } from './nginx.ts';
import { exited } from './processes.ts';

/** Debian's Caddy; CADDY names another binary. */
export const CADDY = process.env.CADDY ?? '/usr/bin/caddy';

/**
 * deploy/Caddyfile as shipped, with its admin endpoint off: the endpoint's port is fixed, and
 * several of these may run on one machine at once.
 */
export function caddyfile(source: string): string {
  if (!/^\{\n/.test(source.replace(/^(#.*\n)+/, ''))) {
    throw new Error('deploy/Caddyfile has no global options block first');
  }
  return source.replace(/^\{\n/m, '{\n\tadmin off\n');
}

export interface Caddy {
  url: string;
  child: ChildProcess;
  /** Everything it logged. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Our own Caddy with deploy/Caddyfile in front of `upstream` (host:port), serving plain http
 * on a free port of 127.0.0.1 (a site address with `http://` takes no certificate), with its
 * data in a temporary folder. Resolves once it accepts connections.
 */
export async function startCaddy(upstream: string): Promise<Caddy> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-caddy-'));
  const port = await freePort();
  const file = path.join(home, 'Caddyfile');
  fs.writeFileSync(file, caddyfile(readRoot('deploy/Caddyfile')));
  const child = spawn(CADDY, ['run', '--config', file, '--adapter', 'caddyfile'], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_DATA_HOME: home,
      XDG_CONFIG_HOME: home,
      SITE_ADDRESS: `http://127.0.0.1:${port}`,
      UPSTREAM: upstream,
      // Read by the global options, used by no site here (no certificate is asked for).
      ACME_CA: 'https://acme.invalid/directory',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (d) => output.push(String(d)));
  child.stderr?.on('data', (d) => output.push(String(d)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited(child);
    }
    fs.rmSync(home, { recursive: true, force: true });
  };
  const started = Date.now();
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() - started > 10_000) {
      await stop();
      throw new Error(`caddy did not start:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url: `http://127.0.0.1:${port}`, child, output: () => output.join(''), stop };
}
