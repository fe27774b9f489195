import type { Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { LobbyError } from './lobby-error.ts';

/**
 * Caps the lobby requests that write (new matches, joins, claims, rematches, deck uploads)
 * per client address and minute, so that one client cannot fill the store. Reads and the
 * game service's sockets (limited per socket) are not counted. Each server instance counts
 * on its own: behind a proxy spreading the lobby over n servers a client gets up to n times
 * the limit, still a bound.
 */
export function lobbyWriteLimit(perMinute: number): Middleware {
  const limiter = new RateLimiterMemory({ points: perMinute, duration: 60 });
  return async (ctx, next) => {
    if (ctx.method !== 'POST' || !ctx.path.startsWith('/api/')) return next();
    try {
      await limiter.consume(ctx.ip);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
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
