import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import type { Logger } from '../ops/logger.ts';

/** A request id the proxy in front set (nginx's $request_id), if it looks like one. */
const FORWARDED_ID = /^[\w-]{1,64}$/;

/** Errors that only say the client closed its connection before the answer was sent. */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * Gives every request an id (the proxy's X-Request-Id, else a new one), answers it in
 * X-Request-Id and keeps it in `ctx.state.requestId` for the log lines of that request.
 */
export function requestIds(): Middleware {
  return async (ctx, next) => {
    const forwarded = ctx.get('x-request-id');
    const id = FORWARDED_ID.test(forwarded) ? forwarded : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
}

/**
 * Koa's own error event (errors after the answer began, such as a failing file stream) goes
 * to our logger instead of Koa's stack trace on stderr; a client going away is no error.
 */
export function logKoaErrors(koa: Koa, logger: Logger): void {
  koa.on('error', (error: Error & { code?: string }, ctx?: Koa.Context) => {
    const requestId = ctx?.state.requestId as string | undefined;
    const where = { requestId, method: ctx?.method, path: ctx?.path };
    if (CLIENT_GONE.has(error.code ?? '') || ctx?.req.destroyed) {
      logger.debug({ ...where, code: error.code }, 'client went away before the answer was sent');
    } else {
      logger.error({ ...where, err: error }, 'request failed');
    }
  });
}
