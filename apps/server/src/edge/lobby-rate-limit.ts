import type { Middleware } from 'koa';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { LobbyError } from './lobby-error.ts';
import { spend } from './rate-limiters.ts';

/** Methods that only read: every other method a route serves writes. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Caps the lobby requests that write (new matches, joins, claims, rematches, deck uploads)
 * per client address, so that one client cannot fill the store. Reads and the game
 * service's sockets (limited on their own) are not counted. The limiter counts per minute,
 * in Redis across instances when there is one; `refused` hears of every refusal.
 *
 * Each router runs it (`router.use`) before its routes, so it covers exactly the requests a
 * route serves, however the path is spelled: the router matches paths case-insensitively and
 * with or without a trailing slash, which a test of the path here would have to restate.
 */
export function lobbyWriteLimit(
  limiter: RateLimiterAbstract,
  refused: (address: string) => void,
): Middleware {
  return async (ctx, next) => {
    if (READS.has(ctx.method)) return next();
    const refusal = await spend(limiter, ctx.ip);
    if (refusal) {
      refused(ctx.ip);
      const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
      ctx.set('Retry-After', String(seconds));
      throw new LobbyError(
        429,
        'RATE_LIMITED',
        `too many requests from this address; try again in ${seconds} s`,
      );
    }
    return next();
  };
}
