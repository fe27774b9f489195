import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Context, Middleware } from 'koa';

/** Paths the server answers itself; everything else may be a page of the web client. */
const SERVER_PATHS = /^\/(api|socket\.io|metrics|healthz|readyz)(\/|$)/;

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Iron Curtain Online</title>
<p>The web client is not built. Run <code>npm run build -w @iron-curtain/web</code>
(or <code>npm start</code>, which builds it) and reload.</p>`;

/** The file under `root` that a request path names, or undefined when it names none. */
function fileFor(root: string, requestPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const file = path.resolve(root, `.${path.posix.normalize(decoded)}`);
  if (!file.startsWith(root + path.sep)) return undefined;
  try {
    return fs.statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

function sendFile(ctx: Context, file: string, cache: string): void {
  ctx.type = path.extname(file);
  ctx.set('Cache-Control', cache);
  ctx.length = fs.statSync(file).size;
  ctx.body = fs.createReadStream(file);
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESS: Record<'br' | 'gzip', (data: Buffer) => Promise<Buffer>> = {
  br: (data) => brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (data) => gzip(data),
};
/** The client's scripts and styles, what a page waits for first (source maps are left out). */
const COMPRESSIBLE = /\.(js|css|svg|json|webmanifest)$/;

/**
 * Compressed copies of the content-hashed assets, made once per file and encoding: compressing
 * the match page's script on every request cost each cold load tens of milliseconds of the
 * server's time (and more when the machine is busy).
 */
function compressedAssets() {
  const made = new Map<string, Promise<Buffer>>();
  return (file: string, encoding: 'br' | 'gzip'): Promise<Buffer> => {
    const key = `${encoding}:${file}`;
    let body = made.get(key);
    if (!body) {
      body = fs.promises.readFile(file).then(COMPRESS[encoding]);
      body.catch(() => made.delete(key));
      made.set(key, body);
    }
    return body;
  };
}

/**
 * Serves the built web client: its files, and index.html for client routes such as
 * /join/:id and /watch/:id. When the client is not built, pages say how to build it.
 */
export function webClient(dist: string | undefined): Middleware {
  const root = dist ? path.resolve(dist) : undefined;
  const compressed = compressedAssets();
  return async (ctx, next) => {
    if (SERVER_PATHS.test(ctx.path) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      return next();
    }
    const file = root ? fileFor(root, ctx.path) : undefined;
    // Vite puts a content hash in asset names: those may be cached for good, and their
    // compressed copies kept.
    if (file && ctx.path.startsWith('/assets/')) {
      const encoding = COMPRESSIBLE.test(file) ? ctx.acceptsEncodings('br', 'gzip') : false;
      if (encoding === 'br' || encoding === 'gzip') {
        ctx.type = path.extname(file);
        ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
        ctx.set('Content-Encoding', encoding);
        ctx.vary('Accept-Encoding');
        ctx.compress = false;
        ctx.body = await compressed(file, encoding);
        return;
      }
      return sendFile(ctx, file, 'public, max-age=31536000, immutable');
    }
    if (file) return sendFile(ctx, file, 'no-cache');
    if (path.extname(ctx.path) !== '') return next();
    const index = root ? fileFor(root, '/index.html') : undefined;
    if (index) return sendFile(ctx, index, 'no-cache');
    ctx.type = 'html';
    ctx.body = NOT_BUILT;
  };
}
