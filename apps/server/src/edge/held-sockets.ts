import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * How long a socket's place counts without its instance renewing it. An instance renews its
 * sockets' places a few times per lease, so a crashed instance's sockets stop counting against
 * their addresses within one lease.
 */
const HELD_LEASE_MS = 30_000;

/** Sockets held at once per address: a place is taken when a socket opens, given back when it closes. */
export interface HeldSockets {
  /** Whether the address holds its limit already (a handshake to refuse). */
  full(address: string): Promise<boolean>;
  /** Takes a place for the socket; false when the address holds its limit. */
  take(address: string, socketID: string): Promise<boolean>;
  release(address: string, socketID: string): void;
  close(): void;
}

/** The places this instance's sockets hold, by address. */
class LocalPlaces {
  private readonly byAddress = new Map<string, Set<string>>();

  count(address: string): number {
    return this.byAddress.get(address)?.size ?? 0;
  }

  add(address: string, socketID: string): void {
    const held = this.byAddress.get(address) ?? new Set<string>();
    held.add(socketID);
    this.byAddress.set(address, held);
  }

  delete(address: string, socketID: string): void {
    const held = this.byAddress.get(address);
    held?.delete(socketID);
    if (held?.size === 0) this.byAddress.delete(address);
  }

  *entries(): Generator<[string, string]> {
    for (const [address, held] of this.byAddress) {
      for (const socketID of held) yield [address, socketID];
    }
  }
}

/** Counts on this instance only (no Redis). */
export function localHeldSockets(limit: number): HeldSockets {
  const places = new LocalPlaces();
  return {
    full: async (address) => places.count(address) >= limit,
    async take(address, socketID) {
      if (places.count(address) >= limit) return false;
      places.add(address, socketID);
      return true;
    },
    release: (address, socketID) => places.delete(address, socketID),
    close: () => undefined,
  };
}

// A place is a member of the address's sorted set, scored by the end of its lease (in Redis's
// own clock, so instances' clocks need not agree). Expired places are dropped before counting.
const PRUNE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
`;
const COUNT_LUA = `${PRUNE}
return redis.call('ZCARD', KEYS[1])`;
const TAKE_LUA = `${PRUNE}
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;
// KEYS: the places' sets; ARGV: the lease, then the members, in the order of KEYS.
const RENEW_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now + lease, ARGV[i + 1])
  redis.call('PEXPIRE', key, lease)
end
return #KEYS`;

interface HeldCommands {
  icHeldCount(key: string): Promise<number>;
  icHeldTake(key: string, limit: number, member: string, leaseMs: number): Promise<number>;
  icHeldRenew(...keysThenArgs: (string | number)[]): Promise<number>;
}

/** Places renewed per Redis call. */
const RENEW_BATCH = 500;

/**
 * Counts in Redis, shared by every instance of a deployment; this instance's own places are
 * also counted in memory, which decides alone while Redis cannot be reached (as the rate
 * limiters' insurance does).
 */
export function redisHeldSockets(
  redis: Redis,
  prefix: string,
  limit: number,
  leaseMs = HELD_LEASE_MS,
): HeldSockets {
  redis.defineCommand('icHeldCount', { numberOfKeys: 1, lua: COUNT_LUA });
  redis.defineCommand('icHeldTake', { numberOfKeys: 1, lua: TAKE_LUA });
  redis.defineCommand('icHeldRenew', { lua: RENEW_LUA });
  const commands = redis as unknown as HeldCommands;
  const instance = randomUUID();
  const places = new LocalPlaces();
  const keyOf = (address: string) => `${prefix}:held:${address}`;
  const memberOf = (socketID: string) => `${instance}:${socketID}`;
  const ready = () => redis.status === 'ready';

  const renew = async () => {
    if (!ready()) return;
    const all = [...places.entries()];
    for (let i = 0; i < all.length; i += RENEW_BATCH) {
      const batch = all.slice(i, i + RENEW_BATCH);
      await commands
        .icHeldRenew(
          batch.length,
          ...batch.map(([address]) => keyOf(address)),
          leaseMs,
          ...batch.map(([, socketID]) => memberOf(socketID)),
        )
        .catch(() => undefined);
    }
  };
  const renewal = setInterval(() => void renew(), leaseMs / 3);
  renewal.unref();

  return {
    async full(address) {
      // Where Redis fails (or is down), this instance's own count decides.
      const counted = ready()
        ? await commands.icHeldCount(keyOf(address)).catch(() => undefined)
        : undefined;
      return (counted ?? places.count(address)) >= limit;
    },
    async take(address, socketID) {
      const inRedis = ready()
        ? await commands
            .icHeldTake(keyOf(address), limit, memberOf(socketID), leaseMs)
            .then((n) => n === 1)
            .catch(() => undefined)
        : undefined;
      const taken = inRedis ?? places.count(address) < limit;
      if (taken) places.add(address, socketID);
      return taken;
    },
    release(address, socketID) {
      places.delete(address, socketID);
      if (ready()) void redis.zrem(keyOf(address), memberOf(socketID)).catch(() => undefined);
    },
    close() {
      clearInterval(renewal);
    },
  };
}
