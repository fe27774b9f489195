import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ConnectQueue,
  type ConnectQueueOptions,
  localConnectQueue,
  redisConnectQueue,
  type Turn,
} from '../src/edge/connect-queue.ts';

// One turn every 100 s: however slow the machine, no turn comes round during a test, so each
// handshake's place is decided by the ones before it alone.
const SLOW: ConnectQueueOptions = { perSecond: 0.01, atOnce: 3, held: 2, mostPenaltyMs: 10_000 };
const TURN_MS = 100_000;

const redises: Redis[] = [];
afterEach(() => {
  for (const r of redises.splice(0)) r.disconnect();
});

async function redis(url = 'redis://127.0.0.1:6379'): Promise<Redis> {
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  redises.push(client);
  if (!url.endsWith(':1')) await new Promise((resolve) => client.once('ready', resolve));
  return client;
}

const prefix = () => `ic-test-${process.pid}-${Date.now()}-${Math.random()}`;

/** What a list of turns says: let in at once, held (how long), or refused. */
const shape = (turns: Turn[]) =>
  turns.map((t) => ('refusedForMs' in t ? 'refused' : t.waitMs === 0 ? 'at once' : 'held'));

const stores: [string, () => Promise<ConnectQueue[]>][] = [
  ['on one instance', async () => [localConnectQueue(SLOW)]],
  [
    'in Redis, two instances',
    async () => {
      const p = prefix();
      return [redisConnectQueue(await redis(), p, SLOW), redisConnectQueue(await redis(), p, SLOW)];
    },
  ],
];

describe.each(stores)('new sockets of one address %s', (_name, open) => {
  it('a burst past the few let in at once is held a turn each, not refused, and past the held ones refused', async () => {
    const queues = await open();
    const turns: Turn[] = [];
    for (let i = 0; i < 7; i++) {
      turns.push(await (queues[i % queues.length] as ConnectQueue).enter('203.0.113.1'));
    }
    expect(shape(turns)).toEqual([
      'at once',
      'at once',
      'at once',
      'held',
      'held',
      'refused',
      'refused',
    ]);
    // Each held one a turn after the one before: let in at the pace, not all together.
    const [fourth, fifth] = turns.slice(3, 5) as { waitMs: number }[];
    expect(fourth?.waitMs).toBeGreaterThan(TURN_MS / 2);
    expect(fifth?.waitMs).toBeGreaterThan((fourth?.waitMs ?? 0) + TURN_MS / 2);
    // Refused until a held turn is free again: the client is told when, the turn is not taken.
    expect((turns[5] as { refusedForMs: number }).refusedForMs).toBeGreaterThan(TURN_MS / 2);
  });

  it('concurrent handshakes each take a turn of their own: none slips past the bound', async () => {
    const queues = await open();
    const turns = await Promise.all(
      Array.from({ length: 12 }, (_v, i) =>
        (queues[i % queues.length] as ConnectQueue).enter('203.0.113.2'),
      ),
    );
    const counts: Record<string, number> = {};
    for (const s of shape(turns)) counts[s] = (counts[s] ?? 0) + 1;
    expect(counts).toEqual({ 'at once': 3, held: 2, refused: 7 });
    const waits = turns.flatMap((t) => ('waitMs' in t && t.waitMs > 0 ? [t.waitMs] : []));
    expect(Math.abs((waits[0] ?? 0) - (waits[1] ?? 0))).toBeGreaterThan(TURN_MS / 2);
  });

  it('one address refused leaves another’s turns as they were', async () => {
    const [queue] = (await open()) as [ConnectQueue];
    for (let i = 0; i < 6; i++) await queue.enter('203.0.113.3');
    expect('refusedForMs' in (await queue.enter('203.0.113.3'))).toBe(true);
    expect(await queue.enter('198.51.100.3')).toEqual({ waitMs: 0 });
  });

  it('an address dropped for flooding is put behind: refused where it would have got in', async () => {
    const [queue] = (await open()) as [ConnectQueue];
    expect(await queue.enter('203.0.113.4')).toEqual({ waitMs: 0 });
    queue.penalize('203.0.113.4', 5 * TURN_MS);
    await expect.poll(async () => 'refusedForMs' in (await queue.enter('203.0.113.4'))).toBe(true);
    expect(await queue.enter('198.51.100.4')).toEqual({ waitMs: 0 });
  });
});

describe('new sockets with Redis unreachable', () => {
  it('are still paced, each instance on its own', async () => {
    const queue = redisConnectQueue(await redis('redis://127.0.0.1:1'), prefix(), SLOW);
    const turns: Turn[] = [];
    for (let i = 0; i < 6; i++) turns.push(await queue.enter('203.0.113.5'));
    expect(shape(turns)).toEqual(['at once', 'at once', 'at once', 'held', 'held', 'refused']);
  });
});
