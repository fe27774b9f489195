import type { ErrorResponse } from '@iron-curtain/protocol';
import type { Middleware } from 'koa';
import type { Logger } from '../ops/logger.ts';
import { LobbyError } from './lobby-error.ts';

/**
 * Answers the routers leave empty: no route (404), a method the route does not take (405,
 * the router has set `Allow`), a method no route takes (501).
 */
const EMPTY_ANSWERS: Record<number, { code: string; message: (method: string) => string }> = {
  404: { code: 'NOT_FOUND', message: (method) => `no route for ${method}` },
  405: { code: 'METHOD_NOT_ALLOWED', message: (method) => `${method} is not allowed here` },
  501: { code: 'NOT_IMPLEMENTED', message: (method) => `${method} is not implemented` },
};

/**
 * Every error answer is JSON in the protocol's error shape (`errorResponseSchema`), whether
 * a handler threw it, the routers left it empty, or something failed unexpectedly (logged,
 * and answered without its details). Headers already set, such as `Allow`, stay.
 */
export function errorAnswers(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      const empty = EMPTY_ANSWERS[ctx.status];
      if (empty && (ctx.body === undefined || ctx.body === null)) {
        throw new LobbyError(ctx.status, empty.code, `${empty.message(ctx.method)} ${ctx.path}`);
      }
    } catch (error) {
      const known = error instanceof LobbyError;
      if (!known)
        logger.error(
          { err: error, path: ctx.path, requestId: ctx.state.requestId },
          'lobby failure',
        );
      const body: ErrorResponse = {
        error: known
          ? {
              code: error.code,
              message: error.message,
              ...(error.issues ? { issues: error.issues } : {}),
              ...(error.similarTo ? { similarTo: error.similarTo } : {}),
            }
          : { code: 'SERVER_ERROR', message: 'the server failed; try again' },
      };
      ctx.status = known ? error.status : 500;
      ctx.body = body;
    }
  };
}
