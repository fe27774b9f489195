import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ALIVE_MS, type FanoutMessage, openRedisFanout } from '../src/match/fanout.ts';
import { ConfigError, loadConfig } from '../src/ops/config.ts';
import { createLogger } from '../src/ops/logger.ts';
import { ManualTime } from './manual-time.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const logger = createLogger(loadConfig({ LOG_LEVEL: 'silent' }));
const namespace = `iron-curtain-test:${process.pid}:${Date.now()}`;
const matchID = 'A'.repeat(16);
const raw = new Redis(REDIS_URL);
afterAll(() => raw.quit());

const update = (stateID: number): FanoutMessage => ({
  kind: 'update',
  matchID,
  from: stateID - 1,
  stateID,
  patches: { '0': [], '1': [], spectators: [] },
  entries: [],
});

describe('configuration', () => {
  it('REDIS_URL needs Postgres and a redis:// URL', () => {
    expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(
      /REDIS_URL: needs DATABASE_URL/,
    );
    expect(() =>
      loadConfig({ REDIS_URL: 'http://127.0.0.1:6379', DATABASE_URL: 'postgres://h/db' }),
    ).toThrow(ConfigError);
    expect(
      loadConfig({ REDIS_URL: 'rediss://cache:6380', DATABASE_URL: 'postgres://h/db' }).REDIS_URL,
    ).toBe('rediss://cache:6380');
  });
});

describe('Redis fan-out', () => {
  it('an unreachable Redis stops the start with a message naming REDIS_URL', async () => {
    await expect(openRedisFanout('redis://127.0.0.1:1', namespace, logger)).rejects.toThrow(
      /cannot reach Redis at REDIS_URL/,
    );
  });

  it('delivers to watching instances only, never back to the sender, and ignores garbage', async () => {
    const [a, b] = await Promise.all([
      openRedisFanout(REDIS_URL, namespace, logger),
      openRedisFanout(REDIS_URL, namespace, logger),
    ]);
    try {
      const heardA: FanoutMessage[] = [];
      const heardB: FanoutMessage[] = [];
      a.onMessage((m) => heardA.push(m));
      b.onMessage((m) => heardB.push(m));
      a.publish(update(1));
      await a.watch(matchID);
      await b.watch(matchID);
      const channel = `${namespace}:match:${matchID}`;
      await raw.publish(channel, 'not json');
      await raw.publish(channel, JSON.stringify({ from: 'x', message: { kind: 'update' } }));
      a.publish(update(2));
      b.publish({ kind: 'presence', matchID });
      await expect.poll(() => heardB.length).toBe(1);
      await expect.poll(() => heardA.length).toBe(1);
      // State 1 went out before B watched; A never hears itself; the garbage was dropped.
      expect(heardB).toEqual([update(2)]);
      expect(heardA).toEqual([{ kind: 'presence', matchID }]);

      b.unwatch(matchID);
      a.publish(update(3));
      b.publish(update(4));
      await expect.poll(() => heardA.length).toBe(2);
      expect(heardB).toEqual([update(2)]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('counts attendance of live instances only; a closed one stops counting at once', async () => {
    const [a, b] = await Promise.all([
      openRedisFanout(REDIS_URL, namespace, logger),
      openRedisFanout(REDIS_URL, namespace, logger),
    ]);
    try {
      await a.share(matchID, { seats: { '0': 1, '1': 0 }, spectators: 2 });
      await b.share(matchID, { seats: { '0': 0, '1': 1 }, spectators: 1 });
      expect(await a.elsewhere(matchID)).toEqual({ seats: { '0': 0, '1': 1 }, spectators: 1 });
      expect(await b.elsewhere(matchID)).toEqual({ seats: { '0': 1, '1': 0 }, spectators: 2 });
      await b.share(matchID, { seats: { '0': 0, '1': 0 }, spectators: 0 });
      expect(await a.elsewhere(matchID)).toEqual({ seats: { '0': 0, '1': 0 }, spectators: 0 });
      await b.share(matchID, { seats: { '0': 0, '1': 1 }, spectators: 0 });
      await b.close();
      expect(await a.elsewhere(matchID)).toEqual({ seats: { '0': 0, '1': 0 }, spectators: 0 });
    } finally {
      await a.close();
      await b.close().catch(() => undefined);
      await raw.del(`${namespace}:attendance:${matchID}`);
    }
  });

  it('counts the other live instances as peers: never itself, nor one closed or killed', async () => {
    // Its own namespace: the instances of the other tests are none of its peers.
    const here = `${namespace}:peers`;
    const aTime = new ManualTime();
    const a = await openRedisFanout(REDIS_URL, here, logger, aTime);
    const b = await openRedisFanout(REDIS_URL, here, logger, new ManualTime(aTime.now()));
    const c = await openRedisFanout(REDIS_URL, here, logger, new ManualTime(aTime.now()));
    try {
      expect(await a.peers()).toBe(2);
      await c.close();
      expect(await a.peers()).toBe(1);
      expect(await b.peers()).toBe(1);

      // b is killed: its clock, and so its heartbeat, stops; a beats on.
      await b.share(matchID, { seats: { '0': 0, '1': 0 }, spectators: 3 });
      aTime.advance(ALIVE_MS - 1);
      expect(await a.peers()).toBe(1);
      expect((await a.elsewhere(matchID)).spectators).toBe(3);
      aTime.advance(2);
      expect(await a.peers()).toBe(0);
      expect((await a.elsewhere(matchID)).spectators).toBe(0);
    } finally {
      await Promise.all([a.close(), b.close(), c.close().catch(() => undefined)]);
      await raw.del(`${namespace}:attendance:${matchID}`);
    }
  });
});
