import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { readRoot } from './deploy-files.ts';
import { exited } from './processes.ts';

/** Debian's nginx; NGINX names another binary. */
export const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';

/** A port nothing listens on right now, for a process that must be told its port up front. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Where the proxy in front of nginx (the compose file's `caddy`) connects from, unless a test
 * says otherwise: an address no client of these tests uses, so that nginx believes nobody's
 * X-Forwarded-For.
 */
export const CADDY_ADDRESS = '127.254.0.1';

/**
 * deploy/nginx.conf as shipped, with only the upstream servers' addresses (`app-1` is
 * `servers[0]`, ...), the address of the one peer whose X-Forwarded-For it believes (`caddy`)
 * and the listen port changed, and where this instance keeps its pid, logs and buffers (the
 * system's paths belong to the system's nginx).
 */
export function nginxConfig(
  source: string,
  servers: string[],
  listen: string,
  prefix: string,
  caddy = CADDY_ADDRESS,
) {
  let replaced = 0;
  if (!/^\s*set_real_ip_from caddy;$/m.test(source)) {
    throw new Error('deploy/nginx.conf believes no `caddy`');
  }
  const http = source
    .replace(/^(\s*)set_real_ip_from caddy;$/m, `$1set_real_ip_from ${caddy};`)
    .replace(/server\s+app-(\d+):8000([^;]*);/g, (_, n: string, params: string) => {
      const address = servers[Number(n) - 1];
      if (!address) throw new Error(`no address for app-${n}`);
      replaced += 1;
      return `server ${address}${params};`;
    })
    .replace(/listen\s+8080;/, `listen ${listen};`)
    .replace(
      /^http\s*\{/m,
      `http {
  access_log ${prefix}/access.log;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;`,
    );
  if (replaced === 0) throw new Error('deploy/nginx.conf names no app-N:8000 servers');
  return `daemon off;\npid ${prefix}/nginx.pid;\nerror_log ${prefix}/error.log info;\n${http}`;
}

export interface Nginx {
  url: string;
  child: ChildProcess;
  /** The generated configuration. */
  config: string;
  accessLog(): string;
  errorLog(): string;
  stop(): Promise<void>;
}

/**
 * Our own nginx (never the system's service): deploy/nginx.conf in front of `servers`
 * (host:port each, in the order app-1, app-2, ...), on a free port of 127.0.0.1, with its
 * files in a temporary prefix. Resolves once it accepts connections. `edit` changes the
 * generated configuration (a benchmark that measures something the shipped limits would
 * refuse); without it the configuration is as shipped.
 */
export async function startNginx(
  servers: string[],
  edit: (config: string) => string = (config) => config,
  caddy = CADDY_ADDRESS,
): Promise<Nginx> {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-nginx-'));
  // Workers run as an unprivileged user when started as root: they must reach their buffers.
  fs.chmodSync(prefix, 0o755);
  const port = await freePort();
  const config = edit(
    nginxConfig(readRoot('deploy/nginx.conf'), servers, `127.0.0.1:${port}`, prefix, caddy),
  );
  const file = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(file, config);
  const errorLog = path.join(prefix, 'error.log');
  const read = (name: string) => {
    try {
      return fs.readFileSync(path.join(prefix, name), 'utf8');
    } catch {
      return '';
    }
  };
  const child = spawn(NGINX, ['-p', prefix, '-c', file, '-e', errorLog], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (d) => stderr.push(String(d)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited(child);
    }
    fs.rmSync(prefix, { recursive: true, force: true });
  };
  const started = Date.now();
  // nginx signals readiness only by accepting connections.
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() - started > 10_000) {
      const why = `${stderr.join('')}${read('error.log')}`;
      await stop();
      throw new Error(`nginx did not start:\n${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    config,
    accessLog: () => read('access.log'),
    errorLog: () => read('error.log'),
    stop,
  };
}

/** Whether something accepts connections on `port` of 127.0.0.1 right now. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
