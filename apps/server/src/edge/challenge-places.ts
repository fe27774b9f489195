import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * The open challenges each address has listed, at most `limit` at once. A create takes a place
 * before the match exists (one atomic check-and-take, so requests sent together cannot all pass
 * the check), and names the place by its match once created. A place whose match has left the
 * list (taken, cancelled, its creator away) is given back at the address's next take.
 */
export interface ChallengePlaces {
  /**
   * Takes a pending place; undefined when the address has its share. `listed` reads the matches
   * listed now; a place named while it reads is newer than what it can show, and is kept.
   */
  take(address: string, listed: () => Promise<ReadonlySet<string>>): Promise<Place | undefined>;
}

export interface Place {
  /** The challenge was created: the place is its match's until the match leaves the list. */
  named(matchID: string): Promise<void>;
  /** The create failed: the place is free again. */
  release(): Promise<void>;
}

/** Each address's places: created challenges by the stamp they were named at, and pending ones. */
class LocalPlaces {
  private readonly created = new Map<string, Map<string, number>>();
  private readonly pending = new Map<string, Set<string>>();
  private last = 0;

  stamp(): number {
    this.last += 1;
    return this.last;
  }

  take(address: string, member: string, stamp: number, listed: ReadonlySet<string>, limit: number) {
    // Every address's places whose match has left the list go, so none is kept for good.
    for (const [owner, places] of this.created) {
      for (const [matchID, at] of places) {
        if (at < stamp && !listed.has(matchID)) places.delete(matchID);
      }
      if (places.size === 0) this.created.delete(owner);
    }
    const created = this.created.get(address) ?? new Map<string, number>();
    const pending = this.pending.get(address) ?? new Set<string>();
    if (created.size + pending.size >= limit) return false;
    pending.add(member);
    this.created.set(address, created);
    this.pending.set(address, pending);
    return true;
  }

  named(address: string, member: string, matchID: string): void {
    this.release(address, member);
    const created = this.created.get(address) ?? new Map<string, number>();
    created.set(matchID, this.stamp());
    this.created.set(address, created);
  }

  release(address: string, member: string): void {
    const pending = this.pending.get(address);
    pending?.delete(member);
    if (pending?.size === 0) this.pending.delete(address);
    if (this.created.get(address)?.size === 0) this.created.delete(address);
  }
}

/** Counts on this instance only (no Redis): each take is synchronous, so atomic. */
export function localChallengePlaces(limit: number): ChallengePlaces {
  const places = new LocalPlaces();
  return {
    async take(address, listed) {
      const stamp = places.stamp();
      const shown = await listed();
      const member = randomUUID();
      if (!places.take(address, member, stamp, shown, limit)) return undefined;
      return {
        named: async (matchID) => places.named(address, member, matchID),
        release: async () => places.release(address, member),
      };
    },
  };
}

/**
 * A pending place counts this long at most: an instance that stopped during a create gives
 * its place back then.
 */
const PENDING_MS = 60_000;
/** An address's keys are dropped after this long without a take (its challenges long gone). */
const KEPT_MS = 24 * 3600_000;

// KEYS: created (matchID scored by its stamp), pending (member scored by the end of its lease).
// ARGV: limit, member, stamp, pending lease, kept, then the listed matches.
const TAKE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local listed = {}
for i = 6, #ARGV do listed[ARGV[i]] = true end
for _, matchID in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3])) do
  if not listed[matchID] then redis.call('ZREM', KEYS[1], matchID) end
end
if redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[4]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return 1`;
// KEYS: created, pending, the stamp counter; ARGV: member, matchID, kept.
const NAMED_LUA = `
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

interface PlaceCommands {
  icChallengeTake(
    created: string,
    pending: string,
    limit: number,
    member: string,
    stamp: number,
    leaseMs: number,
    keptMs: number,
    ...listed: string[]
  ): Promise<number>;
  icChallengeNamed(
    created: string,
    pending: string,
    counter: string,
    member: string,
    matchID: string,
    keptMs: number,
  ): Promise<number>;
}

/**
 * Counts in Redis, shared by every instance of a deployment. While Redis cannot be reached this
 * instance's own count decides (as the rate limiters' insurance does); it counts every place it
 * took either way.
 */
export function redisChallengePlaces(redis: Redis, prefix: string, limit: number): ChallengePlaces {
  redis.defineCommand('icChallengeTake', { numberOfKeys: 2, lua: TAKE_LUA });
  redis.defineCommand('icChallengeNamed', { numberOfKeys: 3, lua: NAMED_LUA });
  const commands = redis as unknown as PlaceCommands;
  const local = new LocalPlaces();
  const counter = `${prefix}:challenges:stamp`;
  const keysOf = (address: string) =>
    [`${prefix}:challenges:${address}`, `${prefix}:challenges:pending:${address}`] as const;
  const ready = () => redis.status === 'ready';
  return {
    async take(address, listed) {
      // Local stamps and Redis's are never compared: each count prunes with its own.
      const stamp = local.stamp();
      const shared = ready() ? await redis.incr(counter).catch(() => undefined) : undefined;
      const shown = await listed();
      const member = randomUUID();
      const [created, pending] = keysOf(address);
      const inRedis =
        shared !== undefined && ready()
          ? await commands
              .icChallengeTake(
                created,
                pending,
                limit,
                member,
                shared,
                PENDING_MS,
                KEPT_MS,
                ...shown,
              )
              .then((n) => n === 1)
              .catch(() => undefined)
          : undefined;
      if (inRedis === false) return undefined;
      // Taken in Redis, the local count only follows; it decides alone while Redis is away.
      if (!local.take(address, member, stamp, shown, inRedis ? Infinity : limit)) return undefined;
      return {
        async named(matchID) {
          local.named(address, member, matchID);
          if (!ready()) return;
          await commands
            .icChallengeNamed(created, pending, counter, member, matchID, KEPT_MS)
            .catch(() => undefined);
        },
        async release() {
          local.release(address, member);
          if (ready()) await redis.zrem(pending, member).catch(() => undefined);
        },
      };
    },
  };
}
