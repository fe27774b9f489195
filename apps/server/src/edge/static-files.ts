import fs from 'node:fs/promises';
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
 * The module of the page each client route shows, as Vite's build manifest names it (the
 * client's routes are apps/web/src/app/routes.ts, its pages apps/web/src/app/pages.ts). The
 * match ID is not checked: a not-found page that preloads a page's code only downloads it.
 */
export function pageModule(pathname: string): string | undefined {
  const parts = pathname.split('/').filter(Boolean);
  const [first] = parts;
  if (first === undefined) return 'src/lobby/HomePage.tsx';
  if (parts.length === 1) {
    if (first === 'rules') return 'src/learn/RulesPage.tsx';
    if (first === 'tutorial') return 'src/learn/TutorialPage.tsx';
    if (first === 'hotseat') return 'src/hotseat/HotseatPage.tsx';
    if (first === 'replay') return 'src/features/replay/ReplayImportPage.tsx';
    if (first === 'decks') return 'src/features/decks/DeckUploadPage.tsx';
    if (first === 'sign-in') return 'src/account/SignInPage.tsx';
    if (first === 'sign-up') return 'src/account/SignUpPage.tsx';
    if (first === 'account') return 'src/account/AccountPage.tsx';
  }
  if (parts.length === 2) {
    if (first === 'join') return 'src/lobby/JoinPage.tsx';
    if (first === 'match') return 'src/match/PlayPage.tsx';
    if (first === 'watch') return 'src/match/MatchScreen.tsx';
    if (first === 'replay') return 'src/features/replay/ReplayPage.tsx';
    if (first === '@') return 'src/account/ProfilePage.tsx';
  }
  return undefined;
}

/** A chunk in Vite's build manifest (dist/.vite/manifest.json), keyed by its source module. */
interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/**
 * index.html with the page's own scripts and styles named beside the shell's: found only once
 * the shell runs, they came after it, and the page painted after both in turn. Preloads only:
 * the shell still decides what runs (no inline script, as the pages' security policy demands).
 */
function withPagePreloads(
  html: string,
  manifest: Record<string, ManifestChunk>,
  module: string | undefined,
): string {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  if (module) visit(module);
  // The shell's own files are named already.
  const named = (file: string) => html.includes(`"/${file}"`);
  const links = [
    ...[...scripts]
      .filter((file) => !named(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    ...[...styles]
      .filter((file) => !named(file))
      .map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
  ];
  return links.length ? html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`) : html;
}

/** index.html as each page gets it, built once per build of the client. */
interface Pages {
  built: number;
  html: (module: string | undefined) => string;
}

async function loadPages(root: string, built: number): Promise<Pages | undefined> {
  const html = await fs.readFile(path.join(root, 'index.html'), 'utf8');
  let manifest: Record<string, ManifestChunk> = {};
  try {
    manifest = JSON.parse(
      await fs.readFile(path.join(root, '.vite', 'manifest.json'), 'utf8'),
    ) as Record<string, ManifestChunk>;
  } catch {
    // A build without a manifest (or a stand-in): the page as it is.
  }
  const cache = new Map<string | undefined, string>();
  return {
    built,
    html: (module) => {
      let page = cache.get(module);
      if (page === undefined) {
        page = withPagePreloads(html, manifest, module);
        cache.set(module, page);
      }
      return page;
    },
  };
}

/**
 * Serves the built web client: its files, and index.html for client routes such as
 * /join/:id and /watch/:id, naming the route's page code for the browser to fetch beside the
 * shell. When the client is not built, pages say how to build it.
 */
export function webClient(dist: string | undefined): Middleware {
  const root = dist ? path.resolve(dist) : undefined;
  let pages: Promise<Pages | undefined> | undefined;
  /** index.html for this path, or undefined when the client is not built. */
  const page = async (pathname: string): Promise<string | undefined> => {
    if (!root) return undefined;
    const built = await fs.stat(path.join(root, 'index.html')).then(
      (stat) => stat.mtimeMs,
      () => undefined,
    );
    if (built === undefined) return undefined;
    // A rebuild while the server runs has chunks of other names: read it again.
    if (!pages || (await pages)?.built !== built) pages = loadPages(root, built);
    return (await pages)?.html(pageModule(pathname));
  };
  return async (ctx, next) => {
    if (SERVER_PATHS.test(ctx.path) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      return next();
    }
    // index.html is answered below, with the page's preloads.
    if (root && ctx.path !== '/index.html' && (await sendFile(ctx, root, ctx.path))) return;
    if (path.extname(ctx.path) !== '' && ctx.path !== '/index.html') return next();
    const html = await page(ctx.path);
    if (html !== undefined) {
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'html';
      ctx.body = html;
      return;
    }
    ctx.type = 'html';
    ctx.body = NOT_BUILT;
  };
}
