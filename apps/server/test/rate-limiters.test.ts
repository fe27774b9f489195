import { RateLimiterRes } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { RateLimiters, spend } from '../src/rate-limiters.ts';

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
