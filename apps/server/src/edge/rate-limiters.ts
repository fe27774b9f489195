import { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { Logger } from '../ops/logger.ts';
import {
  type ChallengePlaces,
  localChallengePlaces,
  redisChallengePlaces,
} from './challenge-places.ts';
import {
  type ConnectQueue,
  type ConnectQueueOptions,
  localConnectQueue,
  redisConnectQueue,
} from './connect-queue.ts';
import { type HeldSockets, localHeldSockets, redisHeldSockets } from './held-sockets.ts';

export interface LimitOptions {
  /** What is counted, unique per limiter: part of the Redis key. */
  name: string;
  points: number;
  /** Seconds after which the points of a key are renewed. */
  duration: number;
  /** Seconds a key stays refused once it has spent its points (0: until the window ends). */
  blockDuration?: number;
}

/**
 * The server's per-address limiters (rate-limiter-flexible). With Redis they count in Redis,
 * shared by every instance; each also counts in memory as insurance, so while Redis is down
 * every instance still limits on its own. A key refused in Redis is also remembered in memory
 * for its block, so a flood does not cost a Redis round trip per attempt.
 */
export class RateLimiters {
  private readonly redis: Redis | undefined;
  private readonly held: HeldSockets[] = [];

  constructor(
    redisUrl: string | undefined,
    /** Key prefix shared by the instances of one deployment. */
    private readonly prefix: string,
    logger: Logger,
  ) {
    if (redisUrl === undefined) return;
    this.redis = new Redis(redisUrl, {
      // Counting must never wait: a command that cannot be sent now goes to the insurance.
      enableOfflineQueue: false,
      commandTimeout: 500,
      maxRetriesPerRequest: 1,
      connectionName: 'ic-limits',
    });
    this.redis.on('error', (error) =>
      logger.warn({ err: error }, 'rate limits: Redis unavailable, counting on this instance'),
    );
  }

  /**
   * Resolves once Redis is ready, so that the first requests already count across instances;
   * after `timeoutMs` without it, anyway (the insurance counts meanwhile).
   */
  async ready(timeoutMs = 2_000): Promise<void> {
    const redis = this.redis;
    if (!redis || redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      redis.once('ready', done);
    });
  }

  create(options: LimitOptions): RateLimiterAbstract {
    const { name, ...limits } = options;
    const memory = new RateLimiterMemory({ ...limits, keyPrefix: name });
    if (!this.redis) return memory;
    return new RateLimiterRedis({
      ...limits,
      keyPrefix: `${this.prefix}:limit:${name}`,
      storeClient: this.redis,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
      inMemoryBlockOnConsumed: limits.points,
      inMemoryBlockDuration: limits.blockDuration || limits.duration,
    });
  }

  /** A count of sockets held per address, at most `limit` each (see held-sockets.ts). */
  heldSockets(limit: number): HeldSockets {
    const held = this.redis
      ? redisHeldSockets(this.redis, this.prefix, limit)
      : localHeldSockets(limit);
    this.held.push(held);
    return held;
  }

  /**
   * Connections of another kind held per address, at most `limit` each, counted like sockets
   * under a name of their own (the live lists of open challenges).
   */
  heldConnections(name: string, limit: number): HeldSockets {
    const held = this.redis
      ? redisHeldSockets(this.redis, `${this.prefix}:${name}`, limit)
      : localHeldSockets(limit);
    this.held.push(held);
    return held;
  }

  /** New sockets per address let in at once, then at a pace, then refused (see connect-queue.ts). */
  connectQueue(options: ConnectQueueOptions): ConnectQueue {
    return this.redis
      ? redisConnectQueue(this.redis, this.prefix, options)
      : localConnectQueue(options);
  }

  /** The open challenges each address has listed, at most `limit` (see challenge-places.ts). */
  challengePlaces(limit: number): ChallengePlaces {
    return this.redis
      ? redisChallengePlaces(this.redis, this.prefix, limit)
      : localChallengePlaces(limit);
  }

  close(): void {
    for (const held of this.held) held.close();
    this.redis?.disconnect();
  }
}

/**
 * Spends `points` of `key`: the refusal (how long to wait) when none are left; undefined when
 * allowed. A limiter failing without its insurance lets the request through rather than
 * refusing everyone.
 */
export async function spend(
  limiter: RateLimiterAbstract,
  key: string,
  points = 1,
): Promise<RateLimiterRes | undefined> {
  try {
    await limiter.consume(key, points);
    return undefined;
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) return refusal;
    return undefined;
  }
}
