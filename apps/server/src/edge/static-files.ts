import path from 'node:path';
import { send } from '@koa/send';
import type { Context, Middleware } from 'koa';

/** Paths the server answers itself; everything else may be a page of the web client. */
const SERVER_PATHS = /^\/(api|socket\.io|metrics|healthz|readyz)(\/|$)/;

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Iron Curtain Online</title>
<p>The web client is not built. Run <code>npm run build -w @iron-curtain/web</code>
(or <code>npm start</code>, which builds it) and reload.</p>`;

/** Vite puts a content hash in asset names: those may be cached for good. */
const FOR_GOOD = 'public, max-age=31536000, immutable';

/**
 * The context as @koa/send's types name it: they resolve Koa's types from the root, where
 * boardgame.io's Koa 2 types sit; at run time it is the same Koa context.
 */
type SendContext = Parameters<typeof send>[0];

/** Statuses @koa/send answers a path with that names no file it may serve. */
const NO_SUCH_FILE = new Set([400, 403, 404]);

/**
 * Sends the file under `root` that `file` names, or answers false when it names none (a
 * missing file, a folder, a hidden file, a path that leaves `root` or cannot be decoded).
 */
async function sendFile(ctx: Context, root: string, file: string): Promise<boolean> {
  const hashed = file.startsWith('/assets/');
  ctx.set('Cache-Control', hashed ? FOR_GOOD : 'no-cache');
  try {
    // The build writes a .br and a .gz copy beside each asset (vite-plugin-compression2):
    // they go out as they are, so no request waits for a compression.
    if (hashed) ctx.vary('Accept-Encoding');
    if (await send(ctx as unknown as SendContext, file, { root, brotli: hashed, gzip: hashed }))
      return true;
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (!(typeof status === 'number' && NO_SUCH_FILE.has(status))) throw error;
  }
  ctx.remove('Cache-Control');
  ctx.remove('Content-Encoding');
  return false;
}

/**
 * Serves the built web client: its files, and index.html for client routes such as
 * /join/:id and /watch/:id. When the client is not built, pages say how to build it.
 */
export function webClient(dist: string | undefined): Middleware {
  const root = dist ? path.resolve(dist) : undefined;
  return async (ctx, next) => {
    if (SERVER_PATHS.test(ctx.path) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      return next();
    }
    if (root && (await sendFile(ctx, root, ctx.path))) return;
    if (path.extname(ctx.path) !== '') return next();
    if (root && (await sendFile(ctx, root, '/index.html'))) return;
    ctx.type = 'html';
    ctx.body = NOT_BUILT;
  };
}
