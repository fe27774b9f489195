import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresStores } from '../src/storage/postgres.ts';
import {
  dropSchema,
  GameClient,
  POSTGRES_URL,
  startServer,
  type TestServer,
  uniqueSchema,
} from './support.ts';

/**
 * An address over its budget of sockets is turned away before socket.io does any work for it:
 * a bare 429 at the HTTP upgrade, no engine.io request or error object, a count in /metrics.
 */
const servers: TestServer[] = [];
const clients: GameClient[] = [];
const schemas: string[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0)) await s.close();
  for (const schema of schemas.splice(0)) await dropSchema(schema);
});

const TOO_MANY = 'HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/** What engine.io did: the handshakes it refused (each an error event it built) and accepted. */
function watchEngine(server: TestServer) {
  const seen = { errors: 0, connections: 0 };
  server.app.game.io.engine.on('connection_error', () => (seen.errors += 1));
  server.app.game.io.engine.on('connection', () => (seen.connections += 1));
  return seen;
}

async function connects(url: string, address: string): Promise<boolean> {
  const c = new GameClient(url, { headers: { 'x-forwarded-for': address } });
  clients.push(c);
  try {
    await c.connected();
    return true;
  } catch {
    return false;
  }
}

/** A raw request from `address` (behind the trusted proxy): everything the server sent back. */
function raw(
  url: string,
  address: string,
  kind: 'upgrade' | 'polling',
  extraQuery = '',
): Promise<string> {
  const { port } = new URL(url);
  const head =
    kind === 'upgrade'
      ? `GET /socket.io/?EIO=4&transport=websocket${extraQuery} HTTP/1.1\r\nHost: localhost\r\n` +
        'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n' +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n'
      : 'GET /socket.io/?EIO=4&transport=polling HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n';
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.write(`${head}X-Forwarded-For: ${address}\r\n\r\n`);
    });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

/** Refusals counted by reason, from the server's metrics listener. */
async function refusals(server: TestServer): Promise<Record<string, number>> {
  const text = await (await fetch(server.metricsUrl)).text();
  const counts: Record<string, number> = {};
  for (const [, reason, n] of text.matchAll(/^ic_limits_refused_total\{reason="(\w+)"\} (\d+)/gm)) {
    counts[reason as string] = Number(n);
  }
  return counts;
}

/**
 * The budget the tests give an address: ten new sockets at once, none held, one more every
 * 10 s; the eleventh is refused for about 10 s.
 */
const BUDGET = {
  SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND: '0.1',
  SOCKET_CONNECTS_AT_ONCE: '10',
  SOCKET_CONNECTS_HELD: '0',
};

/** Ten new sockets an address may open at once, each closed at once. */
async function spendBudget(url: (i: number) => string, address: string): Promise<void> {
  for (let i = 0; i < 10; i++) {
    expect(await connects(url(i), address)).toBe(true);
    clients.pop()?.close();
  }
}

describe('an address over its budget of new sockets', () => {
  it('gets a bare 429 at the upgrade, costs engine.io nothing, and is counted; others still connect', async () => {
    const server = await startServer({
      env: { TRUST_PROXY: 'true', ...BUDGET, DOOR_HOLD_MS: '0' },
    });
    servers.push(server);
    const engine = watchEngine(server);
    await spendBudget(() => server.url, '203.0.113.40');
    expect(engine).toEqual({ errors: 0, connections: 10 });

    // Refused at the door from the first (its turn is asked before engine.io reads the
    // handshake), and from then on barred without asking.
    expect(await connects(server.url, '203.0.113.40')).toBe(false);
    expect(engine).toEqual({ errors: 0, connections: 10 });
    for (let i = 0; i < 20; i++) {
      expect(await raw(server.url, '203.0.113.40', 'upgrade')).toBe(TOO_MANY);
    }
    expect(await raw(server.url, '203.0.113.40', 'polling')).toMatch(/^HTTP\/1\.1 429 /);
    expect(await connects(server.url, '203.0.113.40')).toBe(false);
    expect(engine).toEqual({ errors: 0, connections: 10 });
    expect((await refusals(server)).CONNECTS_PER_ADDRESS).toBe(1 + 20 + 1 + 1);

    // Another address, under its budget, is not touched by the bar.
    expect(await connects(server.url, '198.51.100.40')).toBe(true);
    expect(engine).toEqual({ errors: 0, connections: 11 });
  });

  it('is not let past its turn by a handshake dressed as an open socket’s', async () => {
    const server = await startServer({
      env: { TRUST_PROXY: 'true', ...BUDGET, DOOR_HOLD_MS: '0' },
    });
    servers.push(server);
    await spendBudget(() => server.url, '203.0.113.42');
    expect(await raw(server.url, '203.0.113.42', 'upgrade', '&xsid=1')).toBe(TOO_MANY);
    expect((await refusals(server)).CONNECTS_PER_ADDRESS).toBe(1);
  });

  it('holding its share of sockets: turned away at the door until one of them closes', async () => {
    const server = await startServer({ env: { TRUST_PROXY: 'true', SOCKETS_PER_ADDRESS: '2' } });
    servers.push(server);
    const engine = watchEngine(server);
    expect(await connects(server.url, '203.0.113.41')).toBe(true);
    expect(await connects(server.url, '203.0.113.41')).toBe(true);
    expect(await connects(server.url, '203.0.113.41')).toBe(false);
    expect(await raw(server.url, '203.0.113.41', 'upgrade')).toBe(TOO_MANY);
    expect(engine.errors).toBe(1);
    expect((await refusals(server)).SOCKETS_PER_ADDRESS).toBe(2);

    (clients.find((c) => c.socket.connected) as GameClient).close();
    await expect.poll(() => connects(server.url, '203.0.113.41')).toBe(true);
  });
});

describe('a client that reconnects the moment it is refused', () => {
  /** A raw upgrade from `address`, sent at once: its answer and how long it took. */
  const timed = async (url: string, address: string) => {
    const start = performance.now();
    const answer = await raw(url, address, 'upgrade');
    return { answer, ms: performance.now() - start };
  };

  it('is held for half to all of its refusal (DOOR_HOLD_MS at most) before the 429, so it cannot knock thousands of times', async () => {
    const holdMs = 3000;
    const server = await startServer({
      env: {
        TRUST_PROXY: 'true',
        ...BUDGET,
        DOOR_HOLD_MS: String(holdMs),
      },
    });
    servers.push(server);
    const engine = watchEngine(server);
    await spendBudget(() => server.url, '203.0.113.60');
    expect(await connects(server.url, '203.0.113.60')).toBe(false);

    // 40 at once: 32 are held for half the hold or more, the 8 past the address's share at once.
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => timed(server.url, '203.0.113.60')),
    );
    for (const { answer } of answers) expect(answer).toBe(TOO_MANY);
    const held = answers.filter(({ ms }) => ms >= holdMs / 2);
    expect(held).toHaveLength(32);
    // Let go spread out, not all at once at the end.
    const times = held.map(({ ms }) => ms);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(holdMs / 10);
    expect(answers.filter(({ ms }) => ms < holdMs / 4)).toHaveLength(8);
    expect(engine).toEqual({ errors: 0, connections: 10 });
    expect((await refusals(server)).CONNECTS_PER_ADDRESS).toBe(1 + 40);

    // Another address is neither held nor refused meanwhile.
    expect(await connects(server.url, '198.51.100.60')).toBe(true);
  });

  it('lets go of a held handshake whose client leaves: its place at the door is free again', async () => {
    const holdMs = 3000;
    const server = await startServer({
      env: {
        TRUST_PROXY: 'true',
        ...BUDGET,
        DOOR_HOLD_MS: String(holdMs),
      },
    });
    servers.push(server);
    await spendBudget(() => server.url, '203.0.113.61');
    expect(await connects(server.url, '203.0.113.61')).toBe(false);
    const { port } = new URL(server.url);
    const leaving = await Promise.all(
      Array.from(
        { length: 32 },
        () =>
          new Promise<net.Socket>((resolve) => {
            const socket = net.connect(Number(port), '127.0.0.1', () => {
              socket.write(
                'GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: localhost\r\n' +
                  'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n' +
                  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n' +
                  'X-Forwarded-For: 203.0.113.61\r\n\r\n',
              );
              resolve(socket);
            });
          }),
      ),
    );
    // All 32 places are taken once the server has counted the 32 handshakes.
    await expect.poll(async () => (await refusals(server)).CONNECTS_PER_ADDRESS).toBe(1 + 32);
    expect((await timed(server.url, '203.0.113.61')).ms).toBeLessThan(holdMs / 4);
    await Promise.all(
      leaving.map((s) => new Promise((resolve) => s.once('close', resolve).destroy())),
    );
    // The server lets go of each as its close arrives: soon one more is held again.
    await expect
      .poll(async () => (await timed(server.url, '203.0.113.61')).ms, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(holdMs / 2);
  });
});

describe('with Redis, two instances', () => {
  it('share the budget: once spent across both, each turns the address away at the door', async () => {
    const schema = uniqueSchema();
    schemas.push(schema);
    const env = {
      TRUST_PROXY: 'true',
      DATABASE_URL: POSTGRES_URL,
      DATABASE_SCHEMA: schema,
      REDIS_URL: 'redis://127.0.0.1:6379',
      ...BUDGET,
      DOOR_HOLD_MS: '0',
    };
    const pair = [
      await startServer({ env, stores: await openPostgresStores(POSTGRES_URL, schema) }),
      await startServer({ env, stores: await openPostgresStores(POSTGRES_URL, schema) }),
    ] as const;
    servers.push(...pair);
    const [a, b] = pair;
    const engines = pair.map(watchEngine);
    const address = `203.0.113.${50 + (process.pid % 200)}`;
    await spendBudget((i) => (i % 2 === 0 ? a : b).url, address);

    // b has never refused the address: Redis tells it the budget is spent.
    expect(await connects(b.url, address)).toBe(false);
    expect(await connects(a.url, address)).toBe(false);
    for (const s of pair) {
      for (let i = 0; i < 5; i++) expect(await raw(s.url, address, 'upgrade')).toBe(TOO_MANY);
    }
    expect(engines.map((e) => e.errors)).toEqual([0, 0]);
    for (const s of pair) expect((await refusals(s)).CONNECTS_PER_ADDRESS).toBe(1 + 5);
    expect(await connects(a.url, '198.51.100.50')).toBe(true);
    expect(await connects(b.url, '198.51.100.50')).toBe(true);
  });
});
