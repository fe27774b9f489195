import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openPostgresStores } from '../src/storage/postgres.ts';
import {
  createAndJoin,
  dropSchema,
  GameClient,
  POSTGRES_URL,
  request,
  startServer,
  type TestServer,
  uniqueSchema,
} from './support.ts';

const servers: TestServer[] = [];
const clients: GameClient[] = [];
const schemas: string[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0)) await s.close();
  for (const schema of schemas.splice(0)) await dropSchema(schema);
});

/** Behind a proxy the client's address comes from X-Forwarded-For: tests can be many clients. */
async function server(env: Record<string, string>) {
  const started = await startServer({ env: { TRUST_PROXY: 'true', ...env } });
  servers.push(started);
  return started;
}

function client(url: string, address: string) {
  const c = new GameClient(url, { headers: { 'x-forwarded-for': address } });
  clients.push(c);
  return c;
}

/** Whether a socket from `address` gets in. */
async function connects(url: string, address: string): Promise<boolean> {
  const c = client(url, address);
  try {
    await c.connected();
    return true;
  } catch {
    return false;
  }
}

/** Refusals counted by reason, from the metrics listener of the server at `url`. */
async function refusals(url: string): Promise<Record<string, number>> {
  const started = servers.find((s) => s.url === url);
  if (!started) throw new Error(`no test server at ${url}`);
  const text = await (await fetch(started.metricsUrl)).text();
  const counts: Record<string, number> = {};
  for (const [, reason, n] of text.matchAll(/^ic_limits_refused_total\{reason="(\w+)"\} (\d+)/gm)) {
    counts[reason as string] = Number(n);
  }
  return counts;
}

describe('per-address limits at the game service', () => {
  it('an address holding its share of sockets is refused another until one closes; other addresses are not', async () => {
    const { url } = await server({ SOCKETS_PER_ADDRESS: '3' });
    const held = [
      client(url, '203.0.113.7'),
      client(url, '203.0.113.7'),
      client(url, '203.0.113.7'),
    ];
    for (const c of held) await c.connected();
    expect(await connects(url, '203.0.113.7')).toBe(false);
    // Writing one's own address first in X-Forwarded-For changes nothing: the proxy's entry counts.
    expect(await connects(url, '198.51.100.1, 203.0.113.7')).toBe(false);
    expect(await connects(url, '198.51.100.9')).toBe(true);
    held[0]?.close();
    await expect.poll(() => connects(url, '203.0.113.7')).toBe(true);
    expect((await refusals(url)).SOCKETS_PER_ADDRESS).toBeGreaterThanOrEqual(2);
  });

  it('a class opening sockets together from one address: those past the few let in at once are held, then let in; past the held ones refused', async () => {
    // Three at once, the next two held (one a second), the rest refused.
    const { url } = await server({
      SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND: '1',
      SOCKET_CONNECTS_AT_ONCE: '3',
      SOCKET_CONNECTS_HELD: '2',
    });
    const class_ = Array.from({ length: 8 }, () => client(url, '203.0.113.8'));
    const outcomes = await Promise.all(
      class_.map((c) =>
        c.connected().then(
          () => 'in',
          // socket.io's error, and under it the transport's: what the server answered.
          (error: Error & { description?: Error }) => error.description?.message ?? error.message,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'in')).toHaveLength(5);
    // What a client is told: the server's 429 (a browser sees a failed connection and retries).
    expect(outcomes.filter((o) => o !== 'in')).toEqual(
      Array.from({ length: 3 }, () => 'Unexpected server response: 429'),
    );
    expect((await refusals(url)).CONNECTS_PER_ADDRESS).toBe(3);
    // Another address has turns of its own.
    expect(await connects(url, '198.51.100.8')).toBe(true);
  });

  it('closes a socket that never syncs; a synced one stays', async () => {
    const { url } = await server({ SYNC_TIMEOUT_MS: '300' });
    const { created } = await createAndJoin(url);
    const watcher = client(url, '198.51.100.2');
    expect(await watcher.sync(created.matchID, null)).toEqual({ ok: true });
    const idle = client(url, '203.0.113.9');
    await idle.connected();
    const reason = await new Promise((resolve) => idle.socket.once('disconnect', resolve));
    expect(reason).toBe('io server disconnect');
    expect(watcher.socket.connected).toBe(true);
    expect((await refusals(url)).SYNC_TIMEOUT).toBe(1);
  });

  it('makes a flooding socket’s address pay in new sockets', async () => {
    const { url } = await server({
      RATE_LIMIT_PER_SECOND: '1',
      RATE_LIMIT_BURST: '1',
      SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND: '1',
      SOCKET_CONNECTS_AT_ONCE: '10',
      SOCKET_CONNECTS_HELD: '0',
    });
    // Without a penalty the address could open ten sockets at once.
    let opened = 0;
    while (opened < 10 && (await connects(url, '203.0.113.10'))) {
      opened += 1;
      const flooder = clients.at(-1) as GameClient;
      const dropped = new Promise((resolve) => flooder.socket.once('disconnect', resolve));
      for (let i = 0; i < 60; i++) flooder.socket.emit('sync', { matchID: 'x', playerID: null });
      await dropped;
    }
    expect(opened).toBeLessThan(10);
    expect(opened).toBeGreaterThan(0);
    expect((await refusals(url)).FLOODING).toBe(opened);
    expect(await connects(url, '198.51.100.10')).toBe(true);
  });

  it('refuses at its turn a handshake held while a socket of its address was dropped for flooding', async () => {
    const started = await server({
      RATE_LIMIT_PER_SECOND: '1',
      RATE_LIMIT_BURST: '1',
      // One at once, the next held for its turn 5 s later.
      SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND: '0.2',
      SOCKET_CONNECTS_AT_ONCE: '1',
      SOCKET_CONNECTS_HELD: '1',
      DOOR_HOLD_MS: '0',
    });
    let upgrades = 0;
    started.app.http.on('upgrade', () => (upgrades += 1));
    const flooder = client(started.url, '203.0.113.13');
    await flooder.connected();
    const held = client(started.url, '203.0.113.13');
    const outcome = held.connected().then(
      () => 'in',
      () => 'refused',
    );
    // The second handshake is at the door, waiting for its turn, before the first floods.
    await expect.poll(() => upgrades).toBe(2);
    const dropped = new Promise((resolve) => flooder.socket.once('disconnect', resolve));
    for (let i = 0; i < 60; i++) flooder.socket.emit('sync', { matchID: 'x', playerID: null });
    await dropped;
    expect(await outcome).toBe('refused');
    expect((await refusals(started.url)).CONNECTS_PER_ADDRESS).toBe(1);
    expect(await connects(started.url, '198.51.100.13')).toBe(true);
  });
});

describe('HTTP timeouts', () => {
  it('close a request whose headers never finish (slowloris), answering 408', async () => {
    const { url } = await server({
      HTTP_HEADERS_TIMEOUT_MS: '400',
      HTTP_REQUEST_TIMEOUT_MS: '800',
    });
    const { port } = new URL(url);
    const started = performance.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n');
      });
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect((await refusals(url)).HTTP_TIMEOUT).toBe(1);
  });
});

/** Two instances on one Postgres schema and one Redis, with these limits. */
async function twoInstances(limits: Record<string, string>): Promise<[TestServer, TestServer]> {
  const schema = uniqueSchema();
  schemas.push(schema);
  const env = {
    TRUST_PROXY: 'true',
    DATABASE_URL: POSTGRES_URL,
    DATABASE_SCHEMA: schema,
    REDIS_URL: 'redis://127.0.0.1:6379',
    ...limits,
  };
  const pair: [TestServer, TestServer] = [
    await startServer({ env, stores: await openPostgresStores(POSTGRES_URL, schema) }),
    await startServer({ env, stores: await openPostgresStores(POSTGRES_URL, schema) }),
  ];
  servers.push(...pair);
  return pair;
}

describe('with Redis, several instances', () => {
  it('share the per-address counts of new sockets and lobby writes', async () => {
    // Ten new sockets at once, none held, the next in 10 s.
    const [a, b] = await twoInstances({
      SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND: '0.1',
      SOCKET_CONNECTS_AT_ONCE: '10',
      SOCKET_CONNECTS_HELD: '0',
      LOBBY_WRITES_PER_MINUTE: '2',
    });
    for (let i = 0; i < 10; i++) {
      expect(await connects((i % 2 === 0 ? a : b).url, '203.0.113.11')).toBe(true);
    }
    expect(await connects(a.url, '203.0.113.11')).toBe(false);
    expect(await connects(b.url, '203.0.113.11')).toBe(false);

    const write = (s: TestServer) =>
      request(
        `${s.url}/api/matches`,
        'POST',
        { name: 'Ann' },
        { 'x-forwarded-for': '203.0.113.12' },
      );
    expect((await write(a)).status).toBe(201);
    expect((await write(b)).status).toBe(201);
    expect((await write(a)).status).toBe(429);
    expect((await refusals(a.url)).LOBBY_WRITES_PER_ADDRESS).toBe(1);
  });

  it('count an address’s sockets held on every instance against its one share', async () => {
    const [a, b] = await twoInstances({ SOCKETS_PER_ADDRESS: '3' });
    const address = `203.0.113.${20 + (process.pid % 200)}`;
    const held = [client(a.url, address), client(a.url, address), client(b.url, address)];
    for (const c of held) await c.connected();
    expect(await connects(b.url, address)).toBe(false);
    expect(await connects(a.url, address)).toBe(false);
    expect(await connects(b.url, '198.51.100.20')).toBe(true);
    held[0]?.close();
    await vi.waitFor(async () => expect(await connects(b.url, address)).toBe(true), {
      timeout: 5_000,
    });
    expect((await refusals(b.url)).SOCKETS_PER_ADDRESS).toBeGreaterThanOrEqual(1);
  });
});
