import { Redis } from 'ioredis';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { redisHeldSockets } from '../src/edge/held-sockets.ts';
import { RateLimiters, spend } from '../src/edge/rate-limiters.ts';
import { createLogger } from '../src/ops/logger.ts';

const limiters: RateLimiters[] = [];
afterEach(() => {
  for (const l of limiters.splice(0)) l.close();
});

const logger = createLogger({ LOG_LEVEL: 'silent' });

describe('per-address limiters', () => {
  it('still limit, each instance on its own, while Redis cannot be reached', async () => {
    // Nothing listens on port 1: every Redis command fails.
    const unreachable = new RateLimiters('redis://127.0.0.1:1', 'ic-test', logger);
    limiters.push(unreachable);
    const limiter = unreachable.create({ name: 'writes', points: 2, duration: 60 });
    expect(await spend(limiter, '203.0.113.1')).toBeUndefined();
    expect(await spend(limiter, '203.0.113.1')).toBeUndefined();
    const refusal = await spend(limiter, '203.0.113.1');
    expect(refusal).toBeInstanceOf(RateLimiterRes);
    expect(refusal?.msBeforeNext).toBeGreaterThan(0);
    expect(await spend(limiter, '198.51.100.1')).toBeUndefined();
  });

  it('count in Redis when it is there: a second instance sees the first one’s points', async () => {
    const prefix = `ic-test-${process.pid}-${Date.now()}`;
    const [a, b] = [
      new RateLimiters('redis://127.0.0.1:6379', prefix, logger),
      new RateLimiters('redis://127.0.0.1:6379', prefix, logger),
    ];
    limiters.push(a, b);
    const options = { name: 'writes', points: 2, duration: 60 };
    const [onA, onB] = [a.create(options), b.create(options)];
    await Promise.all([a.ready(), b.ready()]);
    expect(await spend(onA, '203.0.113.2')).toBeUndefined();
    expect(await spend(onB, '203.0.113.2')).toBeUndefined();
    expect(await spend(onA, '203.0.113.2')).toBeInstanceOf(RateLimiterRes);
  });
});

describe('sockets held per address', () => {
  const prefix = () => `ic-test-${process.pid}-${Date.now()}-${Math.random()}`;
  const redises: Redis[] = [];
  afterEach(() => {
    for (const r of redises.splice(0)) r.disconnect();
  });
  async function instance(keyPrefix: string, limit: number, leaseMs: number) {
    const redis = new Redis('redis://127.0.0.1:6379', { enableOfflineQueue: false });
    redises.push(redis);
    await new Promise((resolve) => redis.once('ready', resolve));
    return redisHeldSockets(redis, keyPrefix, limit, leaseMs);
  }

  it('count every instance’s sockets: an address past its share on two instances is refused', async () => {
    const shared = prefix();
    const [a, b] = [await instance(shared, 3, 30_000), await instance(shared, 3, 30_000)];
    expect(await a.take('203.0.113.3', 's1')).toBe(true);
    expect(await a.take('203.0.113.3', 's2')).toBe(true);
    expect(await b.take('203.0.113.3', 's3')).toBe(true);
    expect(await b.full('203.0.113.3')).toBe(true);
    expect(await b.take('203.0.113.3', 's4')).toBe(false);
    expect(await b.take('198.51.100.3', 's5')).toBe(true);
    a.release('203.0.113.3', 's1');
    await vi.waitFor(async () => expect(await b.take('203.0.113.3', 's6')).toBe(true));
    a.close();
    b.close();
  });

  it('stop counting a crashed instance’s sockets within a lease; a live instance’s keep counting', async () => {
    const shared = prefix();
    const leaseMs = 1_200;
    const [crashing, live, other] = [
      await instance(shared, 2, leaseMs),
      await instance(shared, 2, leaseMs),
      await instance(shared, 2, leaseMs),
    ];
    expect(await crashing.take('203.0.113.4', 'gone')).toBe(true);
    expect(await live.take('203.0.113.4', 'kept')).toBe(true);
    // A crash: no release, no more renewals.
    crashing.close();
    expect(await other.take('203.0.113.4', 'new')).toBe(false);
    // Past the lease (the live instance renews every third of one meanwhile).
    await new Promise((resolve) => setTimeout(resolve, 2.5 * leaseMs));
    expect(await other.take('203.0.113.4', 'new')).toBe(true);
    expect(await other.take('203.0.113.4', 'more')).toBe(false);
    live.close();
    other.close();
  });

  it('still count, on each instance, while Redis cannot be reached', async () => {
    const unreachable = new RateLimiters('redis://127.0.0.1:1', 'ic-test', logger);
    limiters.push(unreachable);
    const held = unreachable.heldSockets(2);
    expect(await held.take('203.0.113.5', 'a')).toBe(true);
    expect(await held.take('203.0.113.5', 'b')).toBe(true);
    expect(await held.full('203.0.113.5')).toBe(true);
    expect(await held.take('203.0.113.5', 'c')).toBe(false);
    held.release('203.0.113.5', 'a');
    expect(await held.take('203.0.113.5', 'c')).toBe(true);
  });
});
