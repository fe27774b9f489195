import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServer } from '../scripts/bundle.ts';
import { readableLogsOn } from '../src/ops/logger.ts';
import { exited, listening } from './processes.ts';

/**
 * What a person sees after `npm start` in a terminal: the built server under a
 * pseudo-terminal (util-linux's `script`), its log entries pretty-printed, and last the one
 * line with the address to open. Piped, it writes JSON lines only (log-lines.test.ts).
 */
const artifacts = path.join(import.meta.dirname, '..', 'test-artifacts', `tty-${process.pid}`);
const bundle = path.join(artifacts, 'main.js');

beforeAll(async () => {
  await bundleServer(bundle);
  fs.mkdirSync(path.join(artifacts, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(artifacts, 'dist', 'index.html'), '<!doctype html><title>x</title>');
}, 60_000);
afterAll(() => {
  fs.rmSync(artifacts, { recursive: true, force: true });
});

const quoted = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

describe('the server in a terminal', () => {
  it('chooses readable logs for a terminal only', () => {
    expect(readableLogsOn({ isTTY: true })).toBe(true);
    expect(readableLogsOn({ isTTY: false })).toBe(false);
    expect(readableLogsOn({})).toBe(false);
  });

  it('prints readable log entries and ends with the address to open', async () => {
    const terminal = spawn(
      'script',
      ['-qfec', `exec ${quoted(process.execPath)} ${quoted(bundle)}`, '/dev/null'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          TERM: 'xterm',
          PORT: '0',
          HOST: '127.0.0.1',
          METRICS_PORT: '0',
          DATA_DIR: path.join(artifacts, 'data'),
          WEB_DIST: path.join(artifacts, 'dist'),
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let screen = '';
    terminal.stdout.on('data', (d) => {
      screen += String(d);
    });
    const lines = () =>
      stripVTControlCharacters(screen)
        .split(/\r?\n/)
        .filter((l) => l.trim() !== '');
    const running = /^Iron Curtain Online is running at (http:\/\/127\.0\.0\.1:\d+\/)$/;
    const deadline = Date.now() + 30_000;
    while (!lines().some((l) => running.test(l))) {
      if (Date.now() > deadline || terminal.exitCode !== null) {
        terminal.kill('SIGKILL');
        throw new Error(`no address printed:\n${screen}`);
      }
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        terminal.stdout.once('data', () => resolve(clearTimeout(timer)));
      });
    }
    const url = running.exec(lines().find((l) => running.test(l)) as string)?.[1] as string;
    // The server answers at the address printed, and that line is still the last one.
    expect((await fetch(`${url}readyz`)).status).toBe(200);
    expect(lines().at(-1)).toBe(`Iron Curtain Online is running at ${url}`);
    const before = lines().slice(0, -1);
    expect(before.some((l) => /INFO.*listening/.test(l))).toBe(true);
    expect(before.filter((l) => l.trimStart().startsWith('{'))).toEqual([]);
    expect(before.some((l) => /url: "http:\/\/127\.0\.0\.1:\d+\/"/.test(l))).toBe(true);

    // Stopped as Ctrl-C does, the server says so, readably too (`exec`: the shell that
    // `script` starts became the server).
    const server = Number(
      fs.readFileSync(`/proc/${terminal.pid}/task/${terminal.pid}/children`, 'utf8').trim(),
    );
    process.kill(server, 'SIGINT');
    expect(await exited(terminal)).toEqual({ code: 0, signal: null });
    expect(lines().some((l) => /INFO.*shutting down/.test(l))).toBe(true);
    expect(lines().at(-1)).toMatch(/INFO.*stopped/);
  }, 60_000);
});

/** Every process under `pid`, children before their own children. */
function descendants(pid: number): number[] {
  const file = `/proc/${pid}/task/${pid}/children`;
  const children = fs.existsSync(file)
    ? fs.readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
    : [];
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/**
 * Stops the server `npm start` ended in, as Ctrl-C would (or the build, if it got no further),
 * and waits for `npm` to exit.
 */
async function stopStarted(root: ChildProcess): Promise<void> {
  if (root.exitCode !== null || root.signalCode !== null) return;
  // The node process itself, not the shell that npm ran it from.
  const server = descendants(root.pid as number).find(
    (pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[1] === 'dist/main.js',
  );
  if (server === undefined) root.kill('SIGKILL');
  else process.kill(server, 'SIGINT');
  await exited(root);
}

/**
 * `npm start` itself, from the repository's root: it builds the web client (into a folder of
 * the test's, named by WEB_DIST as the server reads it) and the server, then serves. Before the
 * address a person reads a short summary of the build, not Vite's line per file (164 lines and a
 * [PLUGIN_TIMINGS] notice before).
 */
describe('npm start', () => {
  const repo = path.join(import.meta.dirname, '..', '..', '..');
  const env = (name: string) => ({
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    TERM: 'xterm',
    // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    METRICS_PORT: '0',
    DATA_DIR: path.join(artifacts, `${name}-data`),
    WEB_DIST: path.join(artifacts, `${name}-web`),
  });
  const summary = [
    /^Built the web client in \d+\.\d s: \d+ scripts and styles, [\d.]+ [kM]B \([\d.]+ [kM]B as brotli\), in /,
    /^Built the server in \d+\.\d s: [\d.]+ [kM]B, in apps\/server\/dist\/main\.js$/,
  ];
  /**
   * What came before the server's first line: npm's two lines naming the script, then the
   * summary's two, and nothing of Vite's per-file listing nor its timing notice.
   */
  const buildTold = (before: string[]) => {
    const built = before.findIndex((l) => summary[1]?.test(l));
    expect(built, before.join('\n')).toBeGreaterThan(0);
    const build = before.slice(0, built + 1);
    expect(build.length, build.join('\n')).toBeLessThanOrEqual(5);
    expect(summary[0]?.test(build.at(-2) ?? ''), build.join('\n')).toBe(true);
    expect(
      before.filter((l) => /PLUGIN_TIMINGS|dist\/assets\/|modules transformed|built in/.test(l)),
    ).toEqual([]);
    return before.slice(built + 1);
  };

  it('shows a short build summary, then the address to open, on a terminal', async () => {
    const terminal = spawn('script', ['-qfec', 'exec npm start', '/dev/null'], {
      cwd: repo,
      env: env('terminal'),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    terminal.stdout.on('data', (d) => {
      screen += String(d);
    });
    const lines = () =>
      stripVTControlCharacters(screen)
        .split(/\r?\n/)
        .filter((l) => l.trim() !== '');
    const running = /^Iron Curtain Online is running at http:\/\/127\.0\.0\.1:\d+\/$/;
    try {
      const deadline = Date.now() + 150_000;
      while (!lines().some((l) => running.test(l))) {
        if (Date.now() > deadline || terminal.exitCode !== null)
          throw new Error(`no address printed:\n${screen}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const server = buildTold(
        lines().slice(
          0,
          lines().findIndex((l) => running.test(l)),
        ),
      );
      // Then the server's readable entries, the address last.
      expect(server.some((l) => /INFO.*listening/.test(l))).toBe(true);
      expect(lines().at(-1)).toMatch(running);
    } finally {
      await stopStarted(terminal);
    }
  }, 180_000);

  it('shows the same short summary, then the listening entry with the address, in a plain log', async () => {
    const started = spawn('npm', ['start'], {
      cwd: repo,
      env: env('log'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    const read = (d: Buffer) => {
      log += String(d);
    };
    started.stdout.on('data', read);
    started.stderr.on('data', read);
    try {
      const deadline = Date.now() + 150_000;
      while (!listening(log)) {
        if (Date.now() > deadline || started.exitCode !== null)
          throw new Error(`no listening entry:\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const lines = log.split('\n').filter((l) => l.trim() !== '');
      const server = buildTold(
        lines.slice(
          0,
          lines.findIndex((l) => l.includes('"msg":"listening"')),
        ),
      );
      // No colours in a log, and after the summary only the server's JSON entries.
      expect(stripVTControlCharacters(log)).toBe(log);
      expect(server.filter((l) => !l.startsWith('{'))).toEqual([]);
    } finally {
      await stopStarted(started);
    }
  }, 180_000);
});
