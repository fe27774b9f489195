import type { Middleware } from 'koa';
import { LobbyError } from '../edge/lobby-error.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A request that changes something and carries a session cookie must come from our own page:
 * its Origin must be the site's (PUBLIC_URL, else the request's own) or one of
 * ALLOWED_ORIGINS. SameSite=Lax already keeps the cookie off most cross-site requests; this
 * refuses the rest (a sibling subdomain, an old browser) with 403 BAD_ORIGIN.
 */
export function sessionOrigin(
  publicUrl: string | undefined,
  allowed: readonly string[],
): Middleware {
  return async (ctx, next) => {
    if (READS.has(ctx.method) || !ctx.cookies.get(SESSION_COOKIE)) return next();
    const own = publicUrl ?? `${ctx.protocol}://${ctx.host}`;
    const origin = ctx.get('origin');
    if (origin !== own && !allowed.includes(origin)) {
      throw new LobbyError(403, 'BAD_ORIGIN', `a signed-in request must come from ${own}`);
    }
    return next();
  };
}
