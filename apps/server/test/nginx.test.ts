import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleServer } from '../scripts/bundle.ts';
import type { Stores } from '../src/storage/index.ts';
import { openPostgresStores } from '../src/storage/postgres.ts';
import { type Nginx, startNginx } from './nginx.ts';
import { exited, type Running, startProcess, stopProcess } from './processes.ts';
import {
  createAndJoin,
  dropSchema,
  GameClient,
  POSTGRES_URL,
  request,
  uniqueSchema,
} from './support.ts';
import {
  everyone,
  type Match,
  openMatch as openMatchAt,
  over,
  type Player,
  resynced,
  step,
  stopPlayers,
} from './watched-match.ts';

/**
 * The compose file's `scale` profile without Docker: deploy/nginx.conf (only the upstream
 * addresses and the port changed) run by our own nginx, in front of two built servers on
 * one Postgres and one Redis. Every request and socket of these tests goes through nginx.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** After SIGTERM or SIGKILL of a server, every client of every match is back within this. */
const RESYNC_BOUND_MS = 2000;
const schema = uniqueSchema();
const artifacts = path.join(import.meta.dirname, '..', 'test-artifacts', `nginx-${process.pid}`);
const bundle = path.join(artifacts, 'main.js');
const dist = path.join(artifacts, 'dist');
const INDEX =
  '<!doctype html><title>Iron Curtain Online</title><script src="/assets/app-1a2b.js"></script>';
const SCRIPT = `export const cards = ${JSON.stringify(
  Array.from({ length: 400 }, (_, i) => ({ id: `card-${i}`, region: 'europe' })),
)};\n`;

/** app-1 and app-2 of deploy/nginx.conf; a restarted server comes back on the same port. */
const servers: Running[] = [];
const ports: number[] = [];
let nginx: Nginx;
let store: Stores;
const probes: GameClient[] = [];

function startServerAt(port: number): Promise<Running> {
  return startProcess([bundle], {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: POSTGRES_URL,
    DATABASE_SCHEMA: schema,
    REDIS_URL,
    WEB_DIST: dist,
    TRUST_PROXY: 'true',
    RATE_LIMIT_PER_SECOND: '1000',
    RATE_LIMIT_BURST: '1000',
    // What these tests hold to is nginx's own budget per address (deploy/nginx.conf, as
    // shipped); the servers' is raised so that they never refuse before it (the probes of the
    // Origin test come from 127.0.0.1 with the players' lobby requests).
    SOCKETS_PER_ADDRESS: '100000',
    SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND: '100000',
    SOCKET_CONNECTS_AT_ONCE: '100000',
  } as Record<string, string>);
}

beforeAll(async () => {
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dist, 'assets', 'app-1a2b.js'), SCRIPT);
  await bundleServer(bundle);
  store = await openPostgresStores(POSTGRES_URL, schema);
  for (const running of await Promise.all([startServerAt(0), startServerAt(0)])) {
    servers.push(running);
    ports.push(Number(new URL(running.url).port));
  }
  nginx = await startNginx(ports.map((port) => `127.0.0.1:${port}`));
}, 60_000);
afterEach(async () => {
  stopPlayers();
  for (const c of probes.splice(0)) c.close();
  // The next test tells where a match is by the servers' socket counts: start from none.
  const deadline = Date.now() + 10_000;
  while ((await socketsPerServer()).some((n) => n !== 0)) {
    if (Date.now() > deadline) throw new Error('sockets still open on the servers');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});
afterAll(async () => {
  await Promise.all(servers.map((s) => stopProcess(s.child)));
  await nginx?.stop();
  await store?.close();
  await dropSchema(schema);
  fs.rmSync(artifacts, { recursive: true, force: true });
});

/**
 * A match through nginx: two seats and a spectator on the web client's connection code, each
 * from a loopback address of its own, as real players (nginx limits sockets per address).
 */
const openMatch = (seed: number) => openMatchAt(nginx.url, seed, { ownAddresses: true });

/** Open sockets on each server, from its private metrics listener. */
async function socketsPerServer(): Promise<number[]> {
  return Promise.all(
    servers.map(async (s) => {
      const text = (await request(s.metricsUrl, 'GET')).text;
      return Number(/^ic_sockets (\d+)$/m.exec(text)?.[1]);
    }),
  );
}

/** Upgrades refused for their Origin, over both servers. */
async function badOrigins(): Promise<number> {
  const counts = await Promise.all(
    servers.map(async (s) => {
      const text = (await request(s.metricsUrl, 'GET')).text;
      return Number(/^ic_rejections_total\{code="BAD_ORIGIN"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
}

/** Handshakes, sockets and requests the servers' limits refused, over both servers. */
async function serverRefusals(): Promise<number> {
  const counts = await Promise.all(
    servers.map(async (s) => {
      const text = (await request(s.metricsUrl, 'GET')).text;
      let total = 0;
      for (const [, n] of text.matchAll(/^ic_limits_refused_total\{[^}]*\} (\d+)$/gm)) {
        total += Number(n);
      }
      return total;
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
}

/** A socket.io WebSocket handshake from a local address: the status nginx or a server answered. */
function upgradeFrom(localAddress: string): Promise<{ status: number; socket: net.Socket }> {
  const { port } = new URL(nginx.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: Number(port), localAddress }, () => {
      socket.write(
        'GET /socket.io/?EIO=4&transport=websocket&matchID=burst HTTP/1.1\r\n' +
          `Host: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      );
    });
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (status) resolve({ status: Number(status[1]), socket });
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed before an answer: ${head}`)));
  });
}

/** Nothing acknowledged was lost, and the spectator was shown every state, in order. */
async function expectWhole(match: Match): Promise<void> {
  const stored = await store.matches.readMoves(match.matchID);
  for (const [stateID, move] of match.acked) {
    expect(stored[stateID - 1]).toMatchObject({
      seat: move.seat,
      move: move.move,
      args: JSON.parse(JSON.stringify(move.args)),
    });
  }
  expect(match.spectator.seen).toEqual(stored.map((_, i) => i).concat(stored.length));
  for (const p of everyone(match)) expect(p.snapshot.stateID).toBe(stored.length);
}

/**
 * Stops server `i` with `signal` and starts it again on its port, as a rolling deploy does;
 * resolves with how long the clients it held took to be synced again through nginx.
 */
async function restart(i: number, signal: 'SIGTERM' | 'SIGKILL', held: Player[]) {
  const old = servers[i] as Running;
  const signalled = Date.now();
  old.child.kill(signal);
  const back = resynced(held, signalled, 10_000);
  expect(await exited(old.child)).toEqual(
    signal === 'SIGTERM' ? { code: 0, signal: null } : { code: null, signal: 'SIGKILL' },
  );
  // The lobby stays up meanwhile: each request reaches the server still running.
  for (let n = 0; n < 4; n++) {
    expect((await request(`${nginx.url}/api/matches?limit=1`, 'GET')).status).toBe(200);
  }
  const took = await back;
  servers[i] = await startServerAt(ports[i] as number);
  return took;
}

describe('the scale profile through nginx', () => {
  it('a whole match: all its sockets on one server, a SIGKILL of it survived, nothing lost', async () => {
    const match = await openMatch(17);
    // The match id hashes every socket of the match to one server.
    const placed = await socketsPerServer();
    expect(placed.sort()).toEqual([0, 3]);
    const holder = (await socketsPerServer()).indexOf(3);

    for (let n = 0; n < 15; n++) await step(match);
    const resynced = await restart(holder, 'SIGKILL', everyone(match));
    expect(resynced).toBeLessThan(RESYNC_BOUND_MS);
    while (!over(match)) await step(match);

    await expectWhole(match);
    expect(match.seats['0'].snapshot.view?.result).not.toBeNull();
    // No credential or invite in nginx's access log.
    const { created } = await createAndJoin(nginx.url);
    expect(nginx.accessLog()).toContain('/api/matches');
    expect(nginx.accessLog()).not.toContain(created.credentials);
  }, 180_000);

  it.each([
    ['SIGTERM', [0, 1]],
    ['SIGTERM', [1, 0]],
    ['SIGKILL', [0, 1]],
    ['SIGKILL', [1, 0]],
  ] as const)(
    'a rolling restart by %s, servers in the order %j: every client back within 2 s, nothing lost',
    async (signal, order) => {
      // Matches until both servers hold one; which server holds a match follows from its sockets.
      // How match ids split between the two depends on their ports (nginx's consistent hash
      // places each by its address): ten in a row on one server happened once.
      const matches: Match[] = [];
      const holders: number[] = [];
      while (new Set(holders).size < 2) {
        if (matches.length === 20) {
          throw new Error(`twenty matches, all on one server (holders ${holders.join(', ')})`);
        }
        const before = await socketsPerServer();
        const match = await openMatch(100 + matches.length);
        const after = await socketsPerServer();
        matches.push(match);
        holders.push(after.findIndex((n, i) => n - (before[i] ?? 0) === 3));
      }
      expect(holders).not.toContain(-1);
      for (const match of matches) await step(match);

      const times: number[] = [];
      for (const i of order) {
        const held = matches.filter((_, m) => holders[m] === i).flatMap(everyone);
        times.push(await restart(i, signal, held));
        // Whoever was on it is now on the other one.
        for (let m = 0; m < holders.length; m++) holders[m] = 1 - i;
        for (const match of matches) if (!over(match)) await step(match);
      }
      for (const match of matches) await expectWhole(match);
      for (const t of times) expect(t).toBeLessThan(RESYNC_BOUND_MS);
      console.log(`${signal} ${order.join('->')}: re-synced in ${times.join(' ms, ')} ms`);
    },
    120_000,
  );

  it('serves the web client as the server does: same encodings and caching', async () => {
    const direct = servers[0] as Running;
    for (const file of ['/', '/assets/app-1a2b.js', '/watch/abc123']) {
      for (const encoding of ['br', 'gzip', undefined]) {
        const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
        const [viaNginx, served] = await Promise.all([
          get(`${nginx.url}${file}`, headers),
          get(`${direct.url}${file}`, headers),
        ]);
        expect(viaNginx.status).toBe(200);
        for (const name of ['content-type', 'content-encoding', 'cache-control', 'vary']) {
          expect(viaNginx.headers[name], `${file} ${encoding} ${name}`).toEqual(
            served.headers[name],
          );
        }
        expect(decoded(viaNginx)).toBe(file.startsWith('/assets/') ? SCRIPT : INDEX);
      }
    }
  });

  it('keeps the metrics private: 404 through nginx and on the public port, served on the private one', async () => {
    expect((await request(`${nginx.url}/metrics`, 'GET')).status).toBe(404);
    for (const s of servers) {
      expect((await request(`${s.url}/metrics`, 'GET')).status).toBe(404);
      const metrics = await request(s.metricsUrl, 'GET');
      expect(metrics.status).toBe(200);
      expect(metrics.text).toContain('ic_moves_total');
      expect(new URL(s.metricsUrl).hostname).toBe('127.0.0.1');
    }
  });

  it('checks the Origin of a WebSocket upgrade through nginx: its own origin in, others out', async () => {
    const refusedBefore = await badOrigins();
    const own = new GameClient(nginx.url, { headers: { origin: nginx.url } });
    const foreign = new GameClient(nginx.url, { headers: { origin: 'https://evil.example' } });
    probes.push(own, foreign);
    const [admitted, refused] = await Promise.allSettled([own.connected(), foreign.connected()]);
    expect(admitted.status).toBe('fulfilled');
    expect(refused.status).toBe('rejected');
    expect(foreign.socket.connected).toBe(false);
    expect(await badOrigins()).toBe(refusedBefore + 1);
  });

  it('refuses a burst of sockets from one address itself: 429 to the excess, the servers never see it', async () => {
    const refusedBefore = await serverRefusals();
    // Nginx admits a burst of 50 new sockets per address, 10 of them at once and the rest one
    // every 200 ms, then 5 a second (deploy/nginx.conf).
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 150 }, () =>
        upgradeFrom('127.0.0.4').then((a) => ({ ...a, after: Date.now() - started })),
      ),
    );
    const seconds = (Date.now() - started) / 1000;
    const admitted = answers.filter((a) => a.status === 101);
    const refused = answers.filter((a) => a.status === 429);
    expect(admitted.length + refused.length).toBe(150);
    expect(admitted.length).toBeGreaterThanOrEqual(50);
    expect(admitted.length).toBeLessThanOrEqual(50 + Math.ceil(5 * seconds) + 1);
    // Past the first 10, none was let through sooner than its place in the queue allows (a
    // lower bound only: a loaded machine makes them later, never sooner).
    const times = admitted.map((a) => a.after).sort((a, b) => a - b);
    for (const [k, t] of times.entries()) {
      expect(t, `socket ${k + 1}`).toBeGreaterThanOrEqual((k - 11) * 200);
    }
    // Only nginx answered the refused ones: no server counted a refusal.
    expect(await serverRefusals()).toBe(refusedBefore);
    // Another address behind the same nginx still gets in.
    const other = await upgradeFrom('127.0.0.5');
    expect(other.status).toBe(101);
    for (const a of [...answers, other]) a.socket.destroy();
  });

  it('counts lobby writes per client address, not per nginx, and a client cannot pick its address', async () => {
    // Two clients on two loopback addresses; nginx itself connects from 127.0.0.1.
    const flooder = '127.0.0.2';
    const neighbour = '127.0.0.3';
    let admitted = 0;
    let status = 0;
    // Up to 60 writes per minute per server: the flooder is refused within two servers' worth.
    for (let n = 0; n < 130 && status !== 429; n++) {
      status = await postFrom(flooder, { 'x-forwarded-for': `198.51.100.${n}` });
      if (status !== 429) admitted += 1;
    }
    expect(status).toBe(429);
    expect(admitted).toBeLessThanOrEqual(120);
    expect(await postFrom(flooder, { 'x-forwarded-for': '203.0.113.9' })).toBe(429);
    // The neighbour behind the same nginx is not counted with the flooder.
    expect(await postFrom(neighbour)).toBe(400);
    expect(await postFrom(neighbour)).toBe(400);
  });
});

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: Buffer;
}

/** A GET with exactly these headers (fetch would add its own Accept-Encoding and decode). */
function get(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            bytes: Buffer.concat(chunks),
          }),
        );
      })
      .on('error', reject);
  });
}

function decoded(answer: RawAnswer): string {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(answer.bytes).toString();
  if (encoding === 'gzip') return zlib.gunzipSync(answer.bytes).toString();
  return answer.bytes.toString();
}

/** A lobby write (a body that is not JSON: counted, then refused 400) from a local address. */
function postFrom(localAddress: string, headers: Record<string, string> = {}): Promise<number> {
  const { hostname, port } = new URL(nginx.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: hostname,
        port,
        localAddress,
        method: 'POST',
        path: '/api/matches',
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end('{not json');
  });
}
