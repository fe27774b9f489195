import type { Redis } from 'ioredis';

/**
 * New sockets per address in the shape of nginx's `limit_req ... burst delay`: `atOnce` let in
 * at once, the next `held` each given a later turn, one every 1/`perSecond` s, and past them
 * refused. Each address has one number, the time its next socket may come in at the pace (a
 * "theoretical arrival time", the GCRA): a handshake takes the turn after it, so concurrent
 * handshakes (and instances, with Redis) each get a turn of their own, and the turn is known at
 * once, without polling the count again.
 */
export interface ConnectQueueOptions {
  perSecond: number;
  atOnce: number;
  held: number;
  /** The most a penalty can put an address behind, beyond its held turns (ms). */
  mostPenaltyMs: number;
}

/** Rounding room in the comparisons of times (ms). */
const EPSILON_MS = 1e-3;

/** The furthest behind an address can be: all its turns taken, and the most penalty. */
export const longestBehind = (o: ConnectQueueOptions): number =>
  ((o.atOnce + o.held) * 1000) / o.perSecond + o.mostPenaltyMs;

/** A handshake's turn: let in after `waitMs` (0: at once), or refused for `refusedForMs`. */
export type Turn = { waitMs: number } | { refusedForMs: number };

export interface ConnectQueue {
  /** Takes the address's next turn, if it has one within its held ones. */
  enter(address: string): Promise<Turn>;
  /** Puts the address `ms` further behind (a socket of it was dropped for flooding). */
  penalize(address: string, ms: number): void;
}

/**
 * The arithmetic both stores share (nginx's, with `atOnce` - 1 its `delay` and that plus `held`
 * its `burst`): `next` is the address's arrival time, `now` the clock's. A handshake that finds
 * the address `behind` (ms) waits what is past the turns it may take at once; past its held
 * turns too, it is refused until the address is back within them.
 */
function turnAt(next: number, now: number, o: ConnectQueueOptions): { next: number; turn: Turn } {
  const interval = 1000 / o.perSecond;
  const behind = Math.max(0, next - now);
  const atOnce = (o.atOnce - 1) * interval;
  const bound = atOnce + o.held * interval;
  if (behind > bound + EPSILON_MS)
    return { next, turn: { refusedForMs: Math.max(1, Math.ceil(behind - bound)) } };
  const waitMs = Math.max(0, Math.ceil(behind - atOnce - EPSILON_MS));
  return { next: now + behind + interval, turn: { waitMs } };
}

const penalized = (next: number, now: number, ms: number, o: ConnectQueueOptions): number =>
  Math.min(Math.max(next, now) + ms, now + longestBehind(o));

/**
 * The arrival times of this instance's addresses, in two generations of at least the longest
 * time an address can be behind: an address whose time has passed is forgotten with its
 * generation, without a timer or a sweep.
 */
class Arrivals {
  private current = new Map<string, number>();
  private previous = new Map<string, number>();
  private rotatedAt = performance.now();

  constructor(private readonly generationMs: number) {}

  get(address: string): number {
    return this.current.get(address) ?? this.previous.get(address) ?? 0;
  }

  set(address: string, next: number, now: number): void {
    if (now - this.rotatedAt >= this.generationMs) {
      this.previous = this.current;
      this.current = new Map();
      this.rotatedAt = now;
    }
    this.current.set(address, next);
  }
}

/** Counts on this instance only (no Redis, or Redis failing). */
export function localConnectQueue(options: ConnectQueueOptions): ConnectQueue {
  const arrivals = new Arrivals(longestBehind(options));
  return {
    async enter(address) {
      const now = performance.now();
      const { next, turn } = turnAt(arrivals.get(address), now, options);
      if ('waitMs' in turn) arrivals.set(address, next, now);
      return turn;
    },
    penalize(address, ms) {
      const now = performance.now();
      arrivals.set(address, penalized(arrivals.get(address), now, ms, options), now);
    },
  };
}

// The same arithmetic as turnAt and penalized, in Redis's own clock (instances' clocks need not
// agree), atomic, so that concurrent handshakes on every instance each take a turn of their own.
// ARGV: interval, atOnce, held, the penalty (0: a handshake), the most a penalty puts behind.
// Answers {1, wait} or {0, refused for}.
const TURN_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval = tonumber(ARGV[1])
local atOnce = (tonumber(ARGV[2]) - 1) * interval
local bound = atOnce + tonumber(ARGV[3]) * interval
local penalty = tonumber(ARGV[4])
local next = tonumber(redis.call('GET', KEYS[1]) or '0')
local behind = math.max(0, next - now)
if penalty > 0 then
  behind = math.min(behind + penalty, bound + interval + tonumber(ARGV[5]))
  redis.call('SET', KEYS[1], tostring(now + behind), 'PX', math.ceil(behind) + 1)
  return {1, 0}
end
if behind > bound + 1e-3 then
  return {0, math.max(1, math.ceil(behind - bound))}
end
redis.call('SET', KEYS[1], tostring(now + behind + interval), 'PX', math.ceil(behind + interval) + 1)
return {1, math.max(0, math.ceil(behind - atOnce - 1e-3))}`;

interface TurnCommands {
  icConnectTurn(
    key: string,
    interval: number,
    atOnce: number,
    held: number,
    penalty: number,
    mostPenaltyMs: number,
  ): Promise<[number, number]>;
}

/**
 * Counts in Redis, shared by every instance; this instance also counts in memory, which decides
 * alone while Redis cannot be reached (as the rate limiters' insurance does).
 */
export function redisConnectQueue(
  redis: Redis,
  prefix: string,
  options: ConnectQueueOptions,
): ConnectQueue {
  redis.defineCommand('icConnectTurn', { numberOfKeys: 1, lua: TURN_LUA });
  const commands = redis as unknown as TurnCommands;
  const local = localConnectQueue(options);
  const keyOf = (address: string) => `${prefix}:connects:${address}`;
  const interval = 1000 / options.perSecond;
  const ask = (address: string, penalty: number) =>
    commands.icConnectTurn(
      keyOf(address),
      interval,
      options.atOnce,
      options.held,
      penalty,
      options.mostPenaltyMs,
    );
  return {
    async enter(address) {
      const insured = local.enter(address);
      if (redis.status !== 'ready') return insured;
      const answer = await ask(address, 0).catch(() => undefined);
      if (!answer) return insured;
      const [admitted, ms] = answer;
      return admitted === 1 ? { waitMs: ms } : { refusedForMs: ms };
    },
    penalize(address, ms) {
      local.penalize(address, ms);
      if (redis.status === 'ready') void ask(address, ms).catch(() => undefined);
    },
  };
}
