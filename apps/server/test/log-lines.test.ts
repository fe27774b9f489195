import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServer } from '../scripts/bundle.ts';
import { exited, type Running, startProcess, stopProcess } from './processes.ts';
import { request } from './support.ts';

/**
 * What the built server writes, as a log shipper reads it: one JSON object per line on
 * stdout, nothing on stderr, even when clients hang up in the middle of an answer.
 */
const artifacts = path.join(
  import.meta.dirname,
  '..',
  'test-artifacts',
  `log-lines-${process.pid}`,
);
const bundle = path.join(artifacts, 'main.js');
const dist = path.join(artifacts, 'dist');
let server: Running;

beforeAll(async () => {
  await bundleServer(bundle);
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Iron Curtain</title>');
  // Far larger than a socket buffer: the answer is still streaming when the client leaves.
  fs.writeFileSync(path.join(dist, 'assets', 'big-1a2b.js'), Buffer.alloc(32 * 1024 * 1024, 97));
  server = await startProcess([bundle], {
    PATH: process.env.PATH ?? '',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: path.join(artifacts, 'data'),
    WEB_DIST: dist,
    LOG_LEVEL: 'debug',
  });
}, 60_000);
afterAll(async () => {
  if (server) await stopProcess(server.child);
  fs.rmSync(artifacts, { recursive: true, force: true });
});

/** Asks for the big asset and hangs up as soon as its first bytes arrive. */
function abortMidAnswer(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/assets/big-1a2b.js`, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', (error) => {
      if (!req.destroyed) reject(error);
    });
  });
}

describe('the server log under clients that hang up mid-answer', () => {
  it('is JSON lines only: no stack trace on stderr, a client going away is no error', async () => {
    for (let i = 0; i < 5; i++) await abortMidAnswer(server.url);
    // The server still answers, and knows each request by its id.
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-request-id')).toMatch(/^[\w-]+$/);
    expect((await request(`${server.url}/api/nothing`, 'GET')).status).toBe(404);

    server.child.kill('SIGTERM');
    expect(await exited(server.child)).toEqual({ code: 0, signal: null });

    expect(server.stderr).toEqual([]);
    const lines = server.output
      .join('')
      .split('\n')
      .filter((l) => l !== '');
    const entries = lines.map((line) => {
      try {
        return JSON.parse(line) as { level: number; msg: string; requestId?: string };
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
    expect(entries.filter((e) => e.level >= 50)).toEqual([]);
    const gone = entries.filter((e) => e.msg === 'client went away before the answer was sent');
    expect(gone.length).toBeGreaterThanOrEqual(1);
    for (const entry of gone) expect(entry.requestId).toMatch(/^[\w-]+$/);
    expect(entries.map((e) => e.msg)).toEqual(
      expect.arrayContaining(['listening', 'shutting down', 'stopped']),
    );
  }, 60_000);
});
