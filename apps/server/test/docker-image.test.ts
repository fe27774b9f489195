import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  dockerIgnored,
  envOf,
  parseDockerfile,
  ROOT,
  readRoot,
  type Stage,
} from './deploy-files.ts';
import { exited, type Running, startProcess } from './processes.ts';

/**
 * No Docker engine runs here, so this follows the Dockerfile itself: its build stage's
 * COPY and RUN lines in a temporary directory, its runtime stage's COPY lines into an image
 * directory, then its CMD as a non-root user with the image's ENV, probed on /readyz and
 * with the image's HEALTHCHECK command. Paths such as /app and /data live under that
 * image directory. Two stand-ins, both checked to be what the Dockerfile says:
 * - `npm ci` links the node_modules this checkout already installed from the same lockfile
 *   (a second full install would double CI's install time);
 * - the runtime stage's one RUN (apt-get install tini; an empty /data owned by the user)
 *   becomes an empty data directory owned by the user; the process runs without tini.
 */

const { stages } = parseDockerfile(readRoot('Dockerfile'));
const [build, runtime] = stages as [Stage, Stage];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-image-'));
fs.chmodSync(scratch, 0o755);
const roots: Record<string, string> = {
  build: path.join(scratch, 'build'),
  runtime: path.join(scratch, 'image'),
};
let server: Running | undefined;

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGKILL');
    await exited(server.child);
  }
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** Who the image's USER becomes here: `nobody` when the tests run as root, else the runner. */
const user =
  process.getuid?.() === 0
    ? { uid: 65534, gid: 65534 }
    : { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };

const ignored = dockerIgnored();

/** COPY, as Docker does it: a directory's contents, or files into a directory ending in '/'. */
function copy(from: string, sources: string[], to: string, fromContext: boolean) {
  const intoDirectory = to.endsWith('/') || sources.length > 1;
  for (const source of sources) {
    const real = fs.realpathSync(path.join(from, source));
    const isDirectory = fs.statSync(real).isDirectory();
    const target = !isDirectory && intoDirectory ? path.join(to, path.basename(source)) : to;
    fs.mkdirSync(isDirectory ? target : path.dirname(target), { recursive: true });
    fs.cpSync(real, target, {
      recursive: true,
      dereference: true,
      filter: (file) => !fromContext || file === real || !ignored(path.relative(ROOT, file)),
    });
  }
}

/** Runs a stage's instructions; `run` decides what each RUN becomes. */
function follow(stage: Stage, run: (command: string, cwd: string) => void) {
  const root = roots[stage.name as string] as string;
  let workdir = '/';
  const inside = (p: string) => path.join(root, path.posix.resolve(workdir, p));
  for (const i of stage.instructions) {
    if (i.keyword === 'WORKDIR') {
      workdir = path.posix.resolve(workdir, i.args[0] as string);
      fs.mkdirSync(inside('.'), { recursive: true });
    } else if (i.keyword === 'COPY') {
      const from = i.flags.find((f) => f.startsWith('--from='))?.slice('--from='.length);
      const sources = i.args.slice(0, -1);
      const to =
        inside(i.args.at(-1) as string) + ((i.args.at(-1) as string).endsWith('/') ? '/' : '');
      if (from) copy(roots[from] as string, sources, to, false);
      else copy(ROOT, sources, to, true);
    } else if (i.keyword === 'RUN') run(i.text, inside('.'));
  }
  return { root, workdir };
}

/** The image's paths (/app, /data) as they are laid out here. */
const inImage = (value: string) =>
  value.startsWith('/') ? path.join(roots.runtime as string, value) : value;

it('the Dockerfile’s install and build commands, its runtime layout, started as non-root with the production env', async () => {
  follow(build, (command, cwd) => {
    if (command.startsWith('npm ci ')) {
      // The lockfile's install, already made by this checkout: link it where npm ci puts it.
      for (const dir of ['.', ...readWorkspaces()]) {
        const installed = path.join(ROOT, dir, 'node_modules');
        if (fs.existsSync(installed))
          fs.symlinkSync(installed, path.join(cwd, dir, 'node_modules'));
      }
      return;
    }
    execFileSync('sh', ['-c', command], { cwd, stdio: 'pipe', timeout: 120_000 });
  });
  expect(fs.existsSync(path.join(roots.build as string, 'src/apps/server/dist/main.js'))).toBe(
    true,
  );

  const { root, workdir } = follow(runtime, (command) => {
    // Only what the stand-in described above replaces.
    expect(command).toMatch(/apt-get install -y --no-install-recommends tini/);
    expect(command).toMatch(/mkdir -p \/data && chown node:node \/data$/);
    fs.mkdirSync(path.join(roots.runtime as string, 'data'), { recursive: true });
    fs.chownSync(path.join(roots.runtime as string, 'data'), user.uid, user.gid);
  });

  // The image holds the bundle and the web client: no node_modules, no source, no dev tools.
  expect(fs.existsSync(path.join(root, 'app/node_modules'))).toBe(false);
  expect(fs.readdirSync(path.join(root, 'app/apps/server')).sort()).toEqual([
    'dist',
    'package.json',
  ]);
  const files = fs.readdirSync(root, { recursive: true }).map(String);
  expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);

  const env = Object.fromEntries(Object.entries(envOf(runtime)).map(([k, v]) => [k, inImage(v)]));
  // The image's environment, on loopback and a free port instead of 0.0.0.0:8000.
  const productionEnv = { PATH: process.env.PATH ?? '', ...env, HOST: '127.0.0.1', PORT: '0' };
  const [command, ...args] = runtime.instructions.find((i) => i.keyword === 'CMD')?.args ?? [];
  expect(command).toBe('node');
  server = await startProcess(args, productionEnv, {
    cwd: path.join(root, workdir),
    spawn: { uid: user.uid, gid: user.gid },
  });
  const { child, url } = server;

  const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
  expect(uid).toBe(user.uid);
  expect(uid).not.toBe(0);

  const ready = await fetch(`${url}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ status: 'ready', store: 'sqlite' });
  const page = await fetch(`${url}/`);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  const created = await fetch(`${url}/api/matches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Ann' }),
  });
  expect(created.status).toBe(201);
  const database = fs.statSync(path.join(root, 'data/iron-curtain.sqlite'));
  expect(database.uid).toBe(user.uid);

  // The HEALTHCHECK's own command, as Docker runs it in the container.
  const check = runtime.instructions.find((i) => i.keyword === 'HEALTHCHECK');
  const [checkCommand, ...checkArgs] = JSON.parse(
    check?.args.slice(check.args.indexOf('CMD') + 1).join(' ') ?? '[]',
  ) as string[];
  const port = new URL(url).port;
  const healthcheck = () =>
    new Promise<number | null>((resolve) => {
      const probe = spawn(
        checkCommand === 'node' ? process.execPath : String(checkCommand),
        checkArgs.map(inImage),
        {
          env: { ...productionEnv, PORT: port },
          uid: user.uid,
          gid: user.gid,
          stdio: 'ignore',
        },
      );
      probe.once('exit', (code) => resolve(code));
    });
  expect(await healthcheck()).toBe(0);

  // docker stop sends SIGTERM (tini passes it on): a clean exit, and then unhealthy.
  child.kill('SIGTERM');
  expect(await exited(child)).toEqual({ code: 0, signal: null });
  expect(await healthcheck()).toBe(1);
}, 180_000);

function readWorkspaces(): string[] {
  return (JSON.parse(readRoot('package.json')) as { workspaces: string[] }).workspaces;
}
