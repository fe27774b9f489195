import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { CreateMatchResponse, PushKey, SeatGrant } from '@iron-curtain/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServer } from '../scripts/bundle.ts';
import { exited, type Running, startProcess, stopProcess } from './processes.ts';
import { TestPushService } from './push-service.ts';
import { request } from './support.ts';

/**
 * What the built server writes, as a log shipper reads it: one JSON object per line on
 * stdout, nothing on stderr, even when clients hang up in the middle of an answer and when
 * it sends its first push message (where web-push's libraries once printed a warning).
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
const push = new TestPushService();

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
    PUSH_SERVICES: await push.start(),
  });
}, 60_000);
afterAll(async () => {
  if (server) await stopProcess(server.child);
  await push.close();
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

/**
 * Has the server send one push message: a correspondence match whose creator (USSR, who
 * decides first) subscribed is told its turn when the opponent joins.
 */
async function sendOnePush(url: string): Promise<void> {
  push.serverKey = (await request<PushKey>(`${url}/api/push/key`, 'GET')).body.publicKey;
  const created = await request<CreateMatchResponse>(`${url}/api/matches`, 'POST', {
    name: 'Ann',
    side: 'USSR',
    daysPerTurn: 3,
  });
  const { matchID, credentials, links } = created.body;
  const subscribed = await request(`${url}/api/push/subscriptions`, 'POST', {
    matchID,
    seat: '0',
    credentials,
    language: 'en',
    subscription: push.browser('log-lines').subscription,
  });
  expect(subscribed.status).toBe(201);
  const invite = decodeURIComponent(links.invite.split('#')[1] ?? '');
  const joined = await request<SeatGrant>(`${url}/api/matches/${matchID}/join`, 'POST', {
    name: 'Boris',
    invite,
  });
  expect(joined.status).toBe(200);
  await push.arrived(1);
  expect(
    push.take().map((m) => ({ faults: m.faults, urgency: m.headers.urgency, ttl: m.headers.ttl })),
  ).toEqual([{ faults: [], urgency: 'high', ttl: expect.stringMatching(/^[1-9]\d*$/) }]);
}

describe('the server log under clients that hang up mid-answer, and a push sent', () => {
  it('is JSON lines only: no stack trace or warning on stderr or as plain text, a client going away is no error', async () => {
    for (let i = 0; i < 5; i++) await abortMidAnswer(server.url);
    await sendOnePush(server.url);
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
        return JSON.parse(line) as {
          level: number;
          msg: string;
          requestId?: string;
          err?: { stack?: string };
        };
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
    expect(entries.filter((e) => e.level >= 50)).toEqual([]);
    // Sending goes by no deprecated path of Node's (web-push's url.parse() warned on Node 24+).
    expect(entries.filter((e) => e.err?.stack?.startsWith('DeprecationWarning'))).toEqual([]);
    const gone = entries.filter((e) => e.msg === 'client went away before the answer was sent');
    expect(gone.length).toBeGreaterThanOrEqual(1);
    for (const entry of gone) expect(entry.requestId).toMatch(/^[\w-]+$/);
    expect(entries.map((e) => e.msg)).toEqual(
      expect.arrayContaining(['listening', 'shutting down', 'stopped']),
    );
  }, 60_000);
});
