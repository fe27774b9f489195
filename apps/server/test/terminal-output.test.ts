import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServer } from '../scripts/bundle.ts';
import { readableLogsOn } from '../src/ops/logger.ts';
import { exited } from './processes.ts';

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
